#pragma once
// Estimate: the single result of core::evaluate(). Every view, exporter and the CLI reads it; none
// computes physics of its own. `parascope.report/1` in JSON.

#include "estimate/diagnostic.h"
#include "estimate/term.h"
#include "model/parameter_count.h"
#include "parallel/placement.h"
#include "schedule/simulator.h"

#include <string>
#include <vector>

namespace parascope {

struct StageMemory {
    int stage = 0;
    int layers = 0;
    int moe_layers = 0;
    double inflight_microbatches = 0;
    double weights = 0, gradients = 0, optimizer = 0, activations = 0, other = 0; // bytes per GPU
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
    bool fits = true;
    std::vector<StageMemory> stages;
    int explained_stages = 0; // stages that carry terms (all of them up to kExplainedStages)
};

struct FlopsReport {
    double model_flops_per_step = 0;    // basis of MFU
    double hardware_flops_per_step = 0; // + recompute, basis of HFU
    double forward_flops_per_token_layer = 0; // one dense layer, one token (for the timeline)
    std::string convention;
    std::vector<Term> terms;
};

// What a collective can hide behind (closed-form exposure; the timeline simulates it).
enum class Overlap {
    None,           // on the critical path (TP without --tp-comm-overlap, EP all-to-all)
    LinearLayers,   // TP with --tp-comm-overlap: chunked with the GEMMs
    Attention,      // CP ring exchange: hidden behind the attention blocks
    PipelineFill,   // PP p2p: exposed only while the pipeline fills and drains
    Backward,       // DP/ZeRO gradient reduce-scatter/all-reduce: behind the backward
    Forward,        // ZeRO parameter all-gather: behind the forward
};
const char* toString(Overlap);

struct CommEntry {
    std::string group;      // tp, cp, ep, dp, edp, pp
    std::string collective; // all_reduce, all_gather, reduce_scatter, all_to_all, send_recv
    std::string purpose;    // gradients, parameters, activations, kv, tokens
    Link link = Link::NvLink;
    std::int64_t group_size = 1;
    std::int64_t nodes_spanned = 1;
    double calls_per_step = 0;
    double bytes_per_call = 0;         // S, the nccl-tests "size"
    double bytes_per_gpu_per_step = 0; // calls · S · bus factor
    double time_s = 0;                 // on its link, per step
    double exposed_s = 0;              // not hidden behind compute
    Overlap overlap = Overlap::None;
    double rounds = 1;                 // times per step the collective's calls happen together
    std::vector<Term> terms;           // volume, time, exposure
};

struct TimeReport {
    double step_s = 0, compute_s = 0, bubble_s = 0, bubble_fraction = 0, exposed_comm_s = 0, optimizer_s = 0;
    std::string method; // "simulated", "simulated (extrapolated)" or "closed-form"
    std::string note;   // why the closed form, or what was extrapolated
    int critical_rank = 0; // the pipeline rank whose step is the longest
    std::vector<Term> terms;
};

// The simulated training step, for the Gantt chart and the trace export. Kept only when asked
// for (EvaluateOptions::record_timeline); at most kMaxRecordedOps ops: a longer step shows its
// first microbatches. The step time is in TimeReport, the same whether or not this is kept.
struct TimelineReport {
    bool simulated = false; // `timeline` holds the simulated ops
    long long microbatches_shown = 0; // microbatches materialised in `timeline`
    long long microbatches_total = 0;
    std::string note; // why fewer microbatches are shown than the step has
    Timeline timeline;
};

struct ThroughputReport {
    double tokens_per_s = 0, model_tflops_per_gpu = 0, hardware_tflops_per_gpu = 0, mfu = 0, hfu = 0;
    std::vector<Term> terms;
};

struct Estimate {
    ParamCounts params;
    std::int64_t gpus = 0;
    long long microbatches = 0;
    Placement placement;
    MemoryReport memory;
    FlopsReport flops;
    std::vector<CommEntry> communication;
    TimeReport time;
    TimelineReport timeline;
    ThroughputReport throughput;
    std::vector<Diagnostic> diagnostics;

    bool hasErrors() const;
    bool has(const std::string& code) const;
};

} // namespace parascope
