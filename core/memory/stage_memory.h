#pragma once
// Memory per GPU for every pipeline stage: model states + activations + other, each a Term.
// `inflight` gives the peak in-flight microbatches per rank: the schedule's closed form now, the
// simulated peak of the timeline when there is one.

#include "estimate/estimate.h"
#include "estimate/scenario.h"
#include "parallel/stage_layout.h"

#include <vector>

namespace parascope {

MemoryReport computeMemory(const Scenario& sc, const ParamCounts& params, const std::vector<StageLayers>& layout,
                           const std::vector<double>& inflight, const Placement& placement,
                           Explain explain = Explain::Full);

// The same two ZeRO degrees everywhere: dense parameters shard over dp·cp, routed experts over
// the expert-data-parallel group tp·cp·dp/(etp·ep).
double zeroDegree(const ParallelConfig& p);
double expertZeroDegree(const ParallelConfig& p);

} // namespace parascope
