#pragma once
// Scenario: everything the user chooses — model, cluster, parallel strategy, training settings —
// and nothing derived. `parascope.scenario/1` in JSON.

#include "hardware/gpu_spec.h"
#include "memory/other_memory.h"
#include "model/model_spec.h"
#include "parallel/parallel_config.h"

#include <string>

namespace parascope {

struct Scenario {
    std::string name;
    ModelSpec model;
    ClusterSpec cluster;
    ParallelConfig parallel;
    TrainingConfig training;
    OverheadConfig overheads;

    // Microbatches per step per pipeline: global_batch / (micro_batch · dp). 0 if not integral.
    long long microbatches() const;
    std::int64_t tokensPerStep() const { return training.global_batch * training.seq_len; }
};

} // namespace parascope
