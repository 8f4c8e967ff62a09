#pragma once
// What each parallel group communicates in one training step, per GPU of the busiest pipeline
// stage: calls, buffer size, bytes over the link and time on it (exposure is decided with the
// compute time in time/step_time).

#include "comm/comm_algorithm.h"
#include "types/comm_types.h"
#include "types/term.h"
#include "types/gpu_spec.h"
#include "types/model_spec.h"
#include "types/parallel_config.h"
#include "parallel/placement.h"

#include <vector>

namespace parascope {

// What a collective can hide behind (closed-form exposure; the timeline simulates it).
enum class Overlap {
    None, // on the critical path (TP without --tp-comm-overlap, EP all-to-all)
    LinearLayers, // TP with --tp-comm-overlap: chunked with the GEMMs
    Attention, // CP ring exchange: hidden behind the attention blocks
    PipelineFill, // PP p2p: exposed only while the pipeline fills and drains
    Backward, // DP/ZeRO gradient reduce-scatter/all-reduce: behind the backward
    Forward, // ZeRO parameter all-gather: behind the forward
};
inline constexpr EnumName<Overlap> kOverlapNames[]
    = {{Overlap::None, "none"},           {Overlap::LinearLayers, "linear_layers"},
       {Overlap::Attention, "attention"}, {Overlap::PipelineFill, "pipeline_fill"},
       {Overlap::Backward, "backward"},   {Overlap::Forward, "forward"}};
constexpr std::span<const EnumName<Overlap>> enumNames(Overlap) { return kOverlapNames; }
inline const char* toString(Overlap v) { return nameOf(v); }

// One pipeline boundary and the time of one send across it (PP entries only).
struct BoundarySend {
    PipelineBoundary boundary;
    double seconds = 0;
};

struct CommEntry {
    Group group = Group::Tp; // tp, cp, ep, dp (dense gradients over dp·cp), edp, pp
    Collective collective = Collective::AllReduce;
    Purpose purpose = Purpose::Activations;
    // The algorithm the engine assumes for it (comm/collective_cost.h assumedAlgorithm; DeepEP
    // for its dispatcher): what its time is computed by, and what the collective explainer plays.
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    Link link = Link::NvLink;
    std::int64_t group_size = 1;
    std::int64_t nodes_spanned = 1;
    double calls_per_step = 0;
    double bytes_per_call = 0; // S, the nccl-tests "size"
    double bytes_per_gpu_per_step = 0; // calls · S · bus factor
    double time_s = 0; // on its link, per step
    double busbw_bytes_per_s = 0; // the bandwidth one call used, as nccl-tests reports it: factor·S/t_call
    double exposed_s = 0; // not hidden behind compute
    Overlap overlap = Overlap::None;
    double rounds = 1; // times per step the collective's calls happen together
    // PP: every stage boundary with its own link; link and time_s above are the slowest one's
    // (a GPU at that boundary). Empty for the other groups.
    std::vector<BoundarySend> boundaries;
    std::vector<Term> terms; // volume, time, exposure
};

// Calls per layer and microbatch in the forward; the backward repeats them (CP's backward sends
// K/V and dK/dV: kCpBackwardSendsPerStep per ring step), full recompute repeats the forward once
// more. The one declaration the communication plan and the op costs (time/op_costs.cpp) count from.
inline constexpr double kTpCollectivesPerLayer = 2; // after attention and after the MLP (Shoeybi et al. 2019 §3)
// A parallel block (GPT-J, PaLM §2) adds attention and MLP outputs before one all-reduce.
inline double tpCollectivesPerLayer(const ModelSpec& m) { return m.parallel_block ? 1 : kTpCollectivesPerLayer; }
inline constexpr double kEpAllToAllsPerMoeLayer = 2; // dispatch and combine (Lepikhin et al. 2020, GShard)
inline constexpr double kCpBackwardSendsPerStep = 2; // ring attention backward (Megatron-LM context_parallel.rst)
inline constexpr double kCpAllToAllsPerDirection = 1; // a2a CP: Q/K/V in and the output out, one of each per
    // direction (two plan entries, sizes differ)

// Forward + backward (+ the recompute forward) calls per layer of a collective that the forward
// issues `forward` times.
constexpr double callsPerLayer(double forward, bool full_recompute)
{
    return 2 * forward + (full_recompute ? forward : 0);
}

struct CommInputs {
    const ModelSpec& model;
    const ParallelConfig& parallel;
    const TrainingConfig& training;
    const ClusterSpec& cluster;
    const Placement& placement;
    long long microbatches = 1;
    int stage_layers = 0; // layers of the busiest stage
    int stage_moe_layers = 0;
    double dense_params = 0; // parameters of one GPU of that stage, before ZeRO sharding
    double expert_params = 0;
    Explain explain = Explain::Full;
};

// Every group's collectives (comm/group_collectives.h), TP, SP, CP, EP, PP, DP in that order.
std::vector<CommEntry> communicationPlan(const CommInputs& in);

// Width per token of K and V on one TP rank as the attention kernel, and so CP, takes them: the
// KV heads (split by TP up to their count), or the query heads split by TP where the model code
// repeats K and V first (repeat_kv: training.repeat_kv).
double kernelKvWidth(const ModelSpec& m, const ParallelConfig& p, bool repeat_kv);

// Megatron DDP bucket: max(40M, 1M·dp) parameters (distributed_data_parallel_config.py).
double bucketParams(std::int64_t dp);

} // namespace parascope
