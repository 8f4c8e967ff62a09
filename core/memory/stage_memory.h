#pragma once
// Memory per GPU for every pipeline stage: model states + activations + other, each a Term.
// `inflight` gives the peak in-flight microbatches per rank: the schedule's closed form now, the
// simulated peak of the timeline when there is one.

#include "memory/memory_verdict.h"
#include "parallel/placement.h"
#include "memory/model_states.h"
#include "model/parameter_count.h"
#include "types/scenario.h"
#include "schedule/pipeline_geometry.h"

#include <vector>

namespace parascope {

struct StageMemory {
    int stage = 0;
    int layers = 0;
    int moe_layers = 0;
    double inflight_microbatches = 0;
    double weights = 0, gradients = 0, optimizer = 0, activations = 0, other = 0; // bytes per GPU
    double cpu = 0; // bytes per GPU offloaded to host memory (parallel.offload), not in total()
    double total() const { return weights + gradients + optimizer + activations + other; }
    std::vector<Term> terms; // every term behind the five numbers
};

// Stages whose memory terms are written out when there are very many (bounded work): the first
// and last half of these, plus the peak stage.
inline constexpr int kExplainedStages = 64;

struct MemoryReport {
    double capacity_bytes = 0;
    double peak_bytes = 0;
    int peak_stage = 0;
    // The peak against the capacity in three states (memory_verdict.h); fits: not out of memory
    // (a borderline peak may run).
    MemoryVerdict verdict = MemoryVerdict::Fits;
    bool fits = true;
    // CPU offload: host memory a node needs (its GPUs × the largest per-GPU offload) and has.
    double cpu_bytes_per_node = 0;
    double host_capacity_bytes = 0;
    bool fits_host = true;
    std::vector<StageMemory> stages;
    int explained_stages = 0; // stages that carry terms (all of them up to kExplainedStages)
};

MemoryReport computeMemory(const Scenario& sc, const ParamCounts& params, const PipelineGeometry& geometry,
                           const std::vector<double>& inflight, const Placement& placement,
                           Explain explain = Explain::Full);

// The same two ZeRO degrees everywhere: dense parameters shard over dp·cp, routed experts over
// the expert-data-parallel group tp·cp·dp/(etp·ep).
double zeroDegree(const ParallelConfig& p);
double expertZeroDegree(const ParallelConfig& p);
// The parameters whose optimizer states one GPU keeps: its stage's, sharded by ZeRO ≥ 1.
double optimizerShardParams(const StageParams& sp, const ParallelConfig& p);
// The most any rank of the pipeline keeps (the optimizer's step, CPU offload).
double largestOptimizerShard(const ParamCounts& params, const PipelineGeometry& geometry, const ParallelConfig& p);

} // namespace parascope
