#pragma once
// ParallelConfig and TrainingConfig: the knobs of the course.

#include <cstdint>
#include <string>
#include <vector>

namespace parascope {

enum class ScheduleKind { GPipe, OneFOneB, Interleaved, ZbH1, ZbV, DualPipeV };
enum class Recompute { None, Selective, Full };
enum class Precision { Bf16, Fp16, Fp8, Fp32 };
enum class GradDtype { Bf16, Fp32 };
enum class Optimizer { AdamW, Sgd };

struct ParallelConfig {
    int tp = 1, pp = 1, dp = 1, cp = 1, ep = 1, vpp = 1;
    int etp = 0;                   // expert tensor parallel; 0 = same as tp (Megatron default)
    bool sequence_parallel = false;
    int zero = 0;                  // 0..3; 1 = distributed optimizer
    ScheduleKind schedule = ScheduleKind::OneFOneB;
    std::vector<int> stage_layers; // optional uneven layout: layers per pipeline rank
    bool tp_comm_overlap = false;  // Megatron --tp-comm-overlap
    bool overlap_grad_reduce = true;

    std::int64_t gpus() const { return std::int64_t(tp) * pp * dp * cp; }
    int expertTp() const { return etp > 0 ? etp : tp; }
};

struct TrainingConfig {
    std::int64_t seq_len = 4096;
    std::int64_t micro_batch = 1;
    std::int64_t global_batch = 1024; // sequences per optimizer step
    Precision precision = Precision::Bf16;
    GradDtype grad_dtype = GradDtype::Bf16;
    Optimizer optimizer = Optimizer::AdamW;
    Recompute recompute = Recompute::Selective;
    bool flash_attention = true;
};

const char* toString(ScheduleKind);
const char* toString(Recompute);
const char* toString(Precision);
const char* toString(GradDtype);
const char* toString(Optimizer);

} // namespace parascope
