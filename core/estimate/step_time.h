#pragma once
// The training step: the pipeline schedule simulated with the op costs (or, when it cannot be
// generated or is too large, the closed form), plus gradient reduction, optimizer and exposed
// communication; then throughput, MFU and HFU. Also decides the in-flight microbatches that the
// memory model uses, so memory and timeline always agree.

#include "estimate/estimate.h"
#include "estimate/evaluate.h"
#include "estimate/op_costs.h"
#include "estimate/scenario.h"
#include "parallel/stage_layout.h"

#include <vector>

namespace parascope {

double peakFlops(const GpuSpec& gpu, Precision p);

struct StepSimulation {
    TimeReport time;
    TimelineReport timeline;
    std::vector<double> inflight; // per rank, for the memory model
    // Exposed communication per (group, purpose) on the critical rank.
    std::vector<std::pair<std::string, double>> exposed_by_group;
};

// Simulates options.max_simulated_ops ops at most; beyond, fewer microbatches are simulated and
// the steady state extrapolated. With options.record_timeline the ops are kept when they fit
// kMaxRecordedOps, else the first microbatches are simulated once more for the timeline alone:
// the step time never depends on whether the timeline was asked for.
StepSimulation simulateStep(const Scenario& sc, const OpCostModel& costs, long long microbatches,
                            const EvaluateOptions& options);

// Fills est.throughput from est.time and est.flops.
void computeThroughput(const Scenario& sc, Estimate& est, Explain explain = Explain::Full);

} // namespace parascope
