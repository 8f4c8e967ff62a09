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
