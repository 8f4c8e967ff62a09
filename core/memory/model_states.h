#pragma once
// Model states per GPU: weights, gradients and optimizer states of the parameters one GPU of a
// pipeline stage holds, after TP/PP/EP splitting and ZeRO sharding.

#include "types/term.h"
#include "model/parameter_count.h"
#include "types/parallel_config.h"
#include "schedule/pipeline_geometry.h"

namespace parascope {

// Bytes per parameter of each model state (the course's 2 + 2 + 12 = 16 by default).
struct StateBytes {
    double weights = 2; // bf16 weights (+1 for the fp8 copy when precision = fp8)
    double gradients = 2; // grad_dtype, or 4 when training in fp32
    double optimizer = 12; // AdamW: fp32 master 4 + m 4 + v 4; SGD: master 4 + momentum 4
};
StateBytes stateBytes(const TrainingConfig& t);

// Parameters one GPU of a stage holds, split by how ZeRO shards them.
struct StageParams {
    double dense = 0; // sharded over the dp·cp group
    double experts = 0; // routed experts, sharded over the expert-dp group
    double total() const { return dense + experts; }
};
StageParams stageParams(const ParamCounts& c, const StageLayers& s, const ParallelConfig& p);

struct ModelStates {
    double weights = 0, gradients = 0, optimizer = 0; // bytes per GPU
    std::vector<Term> terms;
};

// zero_degree: dp·cp for dense parameters; expert_zero_degree: tp·cp·dp/(etp·ep).
ModelStates modelStates(const StageParams& params, const TrainingConfig& t, int zero, double zero_degree,
                        double expert_zero_degree, Explain explain = Explain::Full);

} // namespace parascope
