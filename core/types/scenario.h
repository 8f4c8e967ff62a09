#pragma once
// Scenario: everything the user chooses — model, cluster, parallel strategy, training settings —
// and nothing derived. `parascope.scenario/1` in JSON.

#include "types/gpu_spec.h"
#include "types/model_spec.h"
#include "types/parallel_config.h"

#include <string>

namespace parascope {

// "Other" memory per GPU beyond model states and activations (memory/other_memory.h), each
// configurable (scenario key "overheads").
// Defaults and their sources (each also the source of its Term, memory/other_memory.cpp):
struct OverheadConfig {
    // CUDA context, kernel images, cuBLAS/cuDNN handles: a typical PyTorch context; the probe
    // measures yours (docs/reference/cuda-probe.md).
    double cuda_context_bytes = 0.5 * (1ull << 30);
    // cuBLASLt workspace, 32 MiB per stream on sm90 (PyTorch CUBLAS_WORKSPACE_CONFIG default),
    // plus Transformer Engine buffers.
    double workspace_bytes = 0.25 * (1ull << 30);
    // NCCL buffers per communicator: NCCL_BUFFSIZE 4 MiB per channel and peer, up to 32 channels.
    double nccl_bytes_per_group = 128.0 * (1 << 20);
    // Allocator reserve, a fraction of the activations: Megatron-LM theoretical_memory_usage.py
    // (×1.05 on activations).
    double fragmentation = 0.05;
};

// The stability wall's inputs (estimate/walls.h), each settable (scenario key "stability").
struct StabilityConfig {
    // Unexpected interruptions per GPU and day: Llama 3 (Dubey et al. 2024, §3.3.4), 419
    // unexpected interruptions in 54 days of pre-training on 16,384 H100: 419/(54·16,384).
    double failures_per_gpu_day = 419.0 / (54.0 * 16384.0);
    // Restart after an interruption: reschedule, load the last checkpoint, warm up. Assumed
    // 10 min; set your own.
    double restart_s = 600;
    // Checkpoint write bandwidth per node, every node writing its shard at once: 20 Gb/s per
    // machine to remote storage, as Gemini (Wang et al., SOSP 2023, §2) quotes for cloud GPU
    // machines. A parallel file system gives more.
    double checkpoint_write_bytes_per_s_per_node = 2.5e9;
    bool operator==(const StabilityConfig&) const = default;
};

struct Scenario {
    std::string name;
    ModelSpec model;
    ClusterSpec cluster;
    ParallelConfig parallel;
    TrainingConfig training;
    OverheadConfig overheads;
    StabilityConfig stability;

    // Microbatches per step per pipeline: global_batch / (micro_batch · dp). 0 if not integral.
    long long microbatches() const;
    std::int64_t tokensPerStep() const { return training.global_batch * training.seq_len; }
};

} // namespace parascope
