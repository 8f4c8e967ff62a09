#pragma once
// Closed forms of a pipeline schedule: how many microbatches' activations each rank holds at its
// peak, and the bubble. The event simulator of the timeline refines both; the memory model takes
// the in-flight counts as an input so either source can feed it.

#include "types/term.h"
#include "types/parallel_config.h"

#include <vector>

namespace parascope {

// Peak in-flight activations per pipeline rank, in units of "one microbatch through all the
// layers this rank holds" (so a value of p on rank 0 of 1F1B means p microbatches).
std::vector<double> inflightMicrobatches(ScheduleKind s, int pp, int vpp, long long microbatches);
Term inflightTerm(ScheduleKind s, int pp, int vpp, long long microbatches, int rank, double value);

// Forward passes rank `rank` runs before its first backward, in chunk passes (as many backwards
// follow its last forward): 1F1B min(m, p − r), Megatron's interleaved 1F1B
// min(v·m, 2·(p − r − 1) + (v − 1)·p + 1) (all v·m when m = p), no pipeline 1. Combined 1F1B pairs every other pass.
long long unpairedPasses(ScheduleKind s, int pp, int vpp, long long microbatches, int rank);

// Idle fraction of the step (bubble / step time) for unit costs F = 1, B = 2 (Bi = W = 1).
double bubbleFraction(ScheduleKind s, int pp, int vpp, long long microbatches);
Term bubbleTerm(ScheduleKind s, int pp, int vpp, long long microbatches);

} // namespace parascope
