#pragma once
// Closed-form step time: compute of the busiest rank, the schedule's bubble, communication that
// compute cannot hide, and the optimizer step; then throughput, MFU and HFU. The event simulator
// of the timeline replaces compute/bubble/exposure with simulated values.

#include "estimate/estimate.h"
#include "estimate/scenario.h"
#include "parallel/stage_layout.h"

#include <vector>

namespace parascope {

// Achievable FLOP/s of one GPU for the scenario's precision: dense peak × GEMM efficiency.
double achievableFlops(const GpuSpec& gpu, Precision p);
double peakFlops(const GpuSpec& gpu, Precision p);

// Hardware FLOPs one GPU of the rank spends on one microbatch (forward + backward + recompute).
double rankMicrobatchFlops(const Scenario& sc, const StageLayers& layers);

// Fills est.time, est.throughput and every CommEntry's exposed_s.
void estimateStepTime(const Scenario& sc, const std::vector<StageLayers>& layout, Estimate& est);

} // namespace parascope
