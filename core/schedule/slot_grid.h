#pragma once
// The slot grid of a pipeline schedule: its ops on a unit clock, one cell per forward, as the
// course's figures and the PyTorch pipelining visualiser draw them — so a class reads 1F1B vs
// interleaved vs zero-bubble at a glance even with 64 microbatches, where the timed Gantt turns
// into thin stripes. Every virtual stage costs F = 1; the backward B = 2 (I = W = 1 when the
// schedule splits it; Narayanan et al. 2021 §2.2, Qi et al. 2024 for B = 2F); no communication.
// The op order is the schedule's own (schedule/generators.h), simulated (schedule/simulator.h).

#include "schedule/pipeline_geometry.h"
#include "schedule/simulator.h"

#include <optional>

namespace parascope {

// Start and end times are slot numbers. nullopt when the schedule cannot be generated for m
// microbatches (the same rules as the diagnostics).
std::optional<Timeline> slotGrid(const PipelineGeometry& geometry, long long microbatches);

} // namespace parascope
