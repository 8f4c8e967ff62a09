#pragma once
// What each parallel group communicates in one training step, per GPU of the busiest pipeline
// stage: calls, buffer size, bytes over the link and time on it (exposure is decided with the
// compute time in estimate/step_time).

#include "estimate/estimate.h"
#include "hardware/gpu_spec.h"
#include "model/model_spec.h"
#include "parallel/parallel_config.h"
#include "parallel/placement.h"

#include <vector>

namespace parascope {

struct CommInputs {
    const ModelSpec& model;
    const ParallelConfig& parallel;
    const TrainingConfig& training;
    const ClusterSpec& cluster;
    const Placement& placement;
    long long microbatches = 1;
    int stage_layers = 0;       // layers of the busiest stage
    int stage_moe_layers = 0;
    double dense_params = 0;    // parameters of one GPU of that stage, before ZeRO sharding
    double expert_params = 0;
    Explain explain = Explain::Full;
};

std::vector<CommEntry> communicationPlan(const CommInputs& in);

// Megatron DDP bucket: max(40M, 1M·dp) parameters (distributed_data_parallel_config.py).
double bucketParams(std::int64_t dp);

} // namespace parascope
