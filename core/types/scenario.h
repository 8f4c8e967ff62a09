#pragma once
// Scenario: everything the user chooses — model, cluster, parallel strategy, training settings —
// and nothing derived. `parascope.scenario/1` in JSON.

#include "types/gpu_spec.h"
#include "types/model_spec.h"
#include "types/parallel_config.h"

#include <string>

namespace parascope {

// PyTorch's CUDA caching allocator (PYTORCH_CUDA_ALLOC_CONF): fixed-size segments split into
// blocks (the default), or expandable_segments:True — one segment per stream, grown and shrunk
// page by page through CUDA virtual memory, so freed blocks can be mapped together again.
enum class AllocatorKind { Caching, Expandable };
inline constexpr EnumName<AllocatorKind> kAllocatorKindNames[]
    = {{AllocatorKind::Caching, "caching"}, {AllocatorKind::Expandable, "expandable_segments"}};
constexpr std::span<const EnumName<AllocatorKind>> enumNames(AllocatorKind) { return kAllocatorKindNames; }
inline const char* toString(AllocatorKind v) { return nameOf(v); }

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
    // The reserve above applies to the caching allocator; expandable segments keep at most a
    // mapping page per stream (memory/other_memory.h fragmentationReserve).
    AllocatorKind allocator = AllocatorKind::Caching;
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

// Faults and stragglers: the stability and efficiency walls' what-ifs (scenario key "faults", knobs
// faults.*), each settable; the defaults are a healthy job. Effects: estimate/faults.h.
struct FaultConfig {
    // One GPU computes this much slower, in percent (30: its kernels take 1.3× as long): thermal
    // or power throttling, a degraded HBM stack, a busy host. Its TP, CP and EP groups wait for it
    // at every collective, its pipeline at every send and the whole job at the gradient reduction,
    // so its pipeline rank runs at its pace (Lin et al., OSDI 2025, "Understanding Stragglers in
    // Large Model Training Using What-if Analysis": the step with and without the straggler).
    int straggler_slowdown_pct = 0;
    int straggler_stage = 0; // the pipeline rank it is in, 0 … PP − 1
    // One node's network links at this share of their bandwidth, in percent (a link trained down
    // to a lower speed, a flapping port): every ring through the node runs at its pace, and every
    // group that crosses nodes has one member group through it, which the job waits for.
    int link_bandwidth_pct = 100;
    // Hangs per week: a failed link or GPU that leaves a collective waiting. Nothing fails
    // loudly; the NCCL watchdog ends the job after the timeout, then it restarts from the last
    // checkpoint: each costs the timeout, the restart and the work since the checkpoint.
    int hangs_per_week = 0;
    // PyTorch's ProcessGroupNCCL default since 2.2 (pytorch/pytorch#110947: 30 → 10 minutes);
    // Megatron-LM's --distributed-timeout-minutes is 10 as well.
    int nccl_timeout_min = 10;
    // Loss spikes per week, each rolled back to the last checkpoint (PaLM 540B, Chowdhery et al.
    // 2022 §5.1: about 20 spikes in the run, each restarted from a checkpoint about 100 steps
    // before it, skipping 200–500 batches): each costs the restart and the work since the
    // checkpoint. What the skipped data does to the model is outside this model.
    int loss_spikes_per_week = 0;
    bool operator==(const FaultConfig&) const = default;
    bool straggler() const { return straggler_slowdown_pct > 0; }
    double stragglerFactor() const { return 1 + straggler_slowdown_pct / 100.0; }
    double linkFraction() const { return link_bandwidth_pct / 100.0; }
};

struct Scenario {
    std::string name;
    ModelSpec model;
    ClusterSpec cluster;
    ParallelConfig parallel;
    TrainingConfig training;
    OverheadConfig overheads;
    StabilityConfig stability;
    FaultConfig faults;

    // Microbatches per step per pipeline: global_batch / (micro_batch · dp). 0 if not integral.
    long long microbatches() const;
    std::int64_t tokensPerStep() const { return training.global_batch * training.seq_len; }
};

} // namespace parascope
