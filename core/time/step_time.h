#pragma once
// The training step: the pipeline schedule simulated with the op costs (or, when it cannot be
// generated or is too large, the closed form), plus gradient reduction, optimizer and exposed
// communication; then throughput, MFU and HFU. Also decides the in-flight microbatches that the
// memory model uses, so memory and timeline always agree.

#include "types/evaluate_options.h"
#include "model/flops.h"
#include "schedule/simulator.h"
#include "time/op_costs.h"
#include "types/scenario.h"
#include "schedule/pipeline_geometry.h"

#include <string>
#include <utility>
#include <vector>

namespace parascope {

// The critical rank's compute by kind; the four sum to TimeReport::compute_s. GEMMs (forward,
// input and weight gradients, what recompute repeats, the output layer), attention kernels,
// the rest (elementwise, FP8 casts, MoE routing), and the GPU waiting for the host to issue
// MoE layers' kernels. Set beside a measured trace's kernel totals (io/trace_comparison.h).
struct ComputeKinds {
    double gemm_s = 0, attention_s = 0, other_s = 0, host_wait_s = 0;
    double recompute_s = 0; // of the four, what recompute runs again (the efficiency wall's loss)
};

struct TimeReport {
    ComputeKinds compute_kinds;
    PcieTraffic offload_pcie; // all 0 without CPU offload
    double step_s = 0, compute_s = 0, bubble_s = 0, bubble_fraction = 0, exposed_comm_s = 0, optimizer_s = 0;
    std::string method; // "simulated", "simulated (extrapolated)" or "closed-form"
    std::string note; // why the closed form, or what was extrapolated
    int critical_rank = 0; // the pipeline rank whose step is the longest
    // Uneven pipeline stages: 1 − mean/max of the ranks' compute per microbatch (0 when even).
    double load_imbalance = 0;
    // One definition of the bubble for every schedule (not "whichever rank ends last"): the step
    // is split, on average over the pipeline ranks, into
    //   step = mean compute + uneven_s + bubble_s + exposed_comm_s + optimizer_s,
    // where uneven_s = heaviest rank's compute − mean compute (what the lighter ranks wait for the
    // heaviest), and bubble_s = step − heaviest compute − exposed − optimizer (the schedule's
    // idle as the heaviest rank sees it; 0 on one stage). compute_s stays the critical rank's,
    // and idle_s its idle: step = compute_s + idle_s + exposed_comm_s + optimizer_s, the parts a
    // profiler trace of that rank shows (io/trace_comparison.h).
    double mean_compute_s = 0, uneven_s = 0, idle_s = 0;
    // A straggler (faults.straggler_slowdown_pct): the step simulated without it, and what it
    // adds, step_s − healthy_step_s (estimate/faults.h). Both 0 on a healthy job.
    double healthy_step_s = 0, straggler_s = 0;
    // The critical rank's data-parallel gradient reduction (ZeRO-0/1, HSDP's replica all-reduce)
    // in its buckets (schedule/grad_buckets.h): how many, how many end within the backward, and
    // what the last one takes (it cannot hide). 0 buckets: no reduction after the backward.
    int grad_buckets = 0, grad_buckets_hidden = 0;
    double last_bucket_s = 0;
    std::vector<Term> terms;
    // One dense layer's ops and one MoE layer's (empty without experts), for one microbatch on
    // one GPU: what the op costs add up (time/layer_ops.h). Filled when explaining.
    std::vector<LayerOp> layer_ops, moe_layer_ops;
};

// The simulated training step, for the Gantt chart and the trace export. Kept only when asked
// for (EvaluateOptions::record_timeline); at most kMaxRecordedOps ops: a longer step shows its
// first microbatches. The step time is in TimeReport, the same whether or not this is kept.
struct TimelineReport {
    bool simulated = false; // `timeline` holds the simulated ops
    long long microbatches_shown = 0; // microbatches materialised in `timeline`
    long long microbatches_total = 0;
    std::string note; // why fewer microbatches are shown than the step has
    // The pipeline ranks whose ops `timeline` keeps, ascending; empty: all of them. A schedule
    // whose smallest round has more ops than a timeline keeps is drawn for a sample of ranks.
    std::vector<int> ranks_shown;
    Timeline timeline;
};

struct ThroughputReport {
    double tokens_per_s = 0, model_tflops_per_gpu = 0, hardware_tflops_per_gpu = 0, mfu = 0, hfu = 0;
    std::vector<Term> terms;
};

double peakFlops(const GpuSpec& gpu, Precision p);

struct StepSimulation {
    TimeReport time;
    TimelineReport timeline;
    std::vector<double> inflight; // per rank, for the memory model
    // Exposed communication per (group, purpose) on the critical rank.
    std::vector<std::pair<Group, double>> exposed_by_group;
};

// Simulates options.max_simulated_ops ops at most; beyond, fewer microbatches are simulated and
// the steady state extrapolated. With options.record_timeline the ops are kept when they fit
// kMaxRecordedOps, else the first microbatches are simulated once more for the timeline alone:
// the step time never depends on whether the timeline was asked for.
StepSimulation simulateStep(const Scenario& sc, const OpCostModel& costs, long long microbatches,
                            const EvaluateOptions& options);

// Tokens/s, TFLOP/s per GPU, MFU and HFU from the step time and the FLOPs.
ThroughputReport computeThroughput(const Scenario& sc, const TimeReport& time, const FlopsReport& flops,
                                   Explain explain = Explain::Full);

} // namespace parascope
