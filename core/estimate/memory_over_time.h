#pragma once
// Memory over the step: per pipeline rank, the bytes in use at each moment of the simulated
// timeline — model states and the other buffers as a floor, activations rising with each
// forward and falling when their backward is done. The memory chart follows the timeline's
// cursor with it ("memory of each stage at that instant").
//
// Shape from the schedule, scale from the memory model: a rank holds one activation unit per
// microbatch-chunk whose forward has started and whose backward (B, or W when the backward is
// split into I and W; the fused F&B of DualPipe holds one while it runs) has not finished. One
// unit is the rank's activation bytes (memory/activation_memory.cpp) divided by the most units
// it ever holds, so the lane's peak is the memory table's total for that stage.

#include "estimate/estimate.h"

#include <vector>

namespace parascope {

struct MemoryPoint {
    double t_s = 0;
    double bytes = 0;
};

// One lane per pipeline rank (memory.stages order), each a step function given by its change
// points in time order, starting at t = 0. Without a simulated timeline every lane is flat at
// the stage's total.
std::vector<std::vector<MemoryPoint>> memoryOverStep(const Estimate& e);

// The lane's value at time t (the last change at or before t).
double memoryAt(const std::vector<MemoryPoint>& lane, double t_s);

// The time the drawn timeline covers, where the charts' time axes end: the step, or, when the
// timeline holds only the first microbatches of a long step (a step of their own, simulated for
// drawing) or runs without a flush (the steady state's step is shorter than the flushed step's
// ops drawn), the end of its last op. Drawn on the whole step, the memory of the first 128 of 512
// microbatches fell to the floor at a quarter of it and stayed there.
double shownTimelineSeconds(const Estimate& e);

// Whether the timeline holds fewer microbatches than the step has.
inline bool timelineIsPartial(const Estimate& e)
{
    return e.timeline.microbatches_shown < e.timeline.microbatches_total;
}

} // namespace parascope
