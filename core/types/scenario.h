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
struct OverheadConfig {
    double cuda_context_bytes = 0.5 * (1ull << 30); // CUDA context, kernels, cuBLAS/cuDNN handles
    double workspace_bytes = 0.25 * (1ull << 30);   // cuBLAS(Lt)/Transformer Engine workspaces
    double nccl_bytes_per_group = 128.0 * (1 << 20); // NCCL buffers per communicator
    double fragmentation = 0.05;                    // allocator reserve, fraction of activations
};

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
