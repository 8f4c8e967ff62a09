#pragma once
// Schedule generators: one function per schedule, each emitting the exact per-rank op order of
// its reference (docs/reference/schedules-and-comm.md §1). A new schedule is one row of the schedule table (schedule_table.cpp), one generator here and its golden test.

#include "schedule/action.h"

#include <optional>
#include <string>

namespace parascope {

struct ScheduleRequest {
    ScheduleKind kind = ScheduleKind::OneFOneB;
    int ranks = 1;
    int vpp = 1; // interleaved only
    int microbatches = 1;
};

// The request for the pipeline of an evaluation, with m microbatches (clamped to int).
ScheduleRequest scheduleRequest(const PipelineGeometry& g, long long m);

// Why a request cannot be generated (empty when it can): interleaved with m not a multiple of
// p, DualPipeV with m < 2p, DualPipe with an odd p or m or m < 2p, V shapes with fewer than … (the same rules as the diagnostics).
std::string scheduleRequirement(const ScheduleRequest& r);

// nullopt when scheduleRequirement() is not empty.
std::optional<PipelineSchedule> generateSchedule(const ScheduleRequest& r);

PipelineSchedule gpipeSchedule(int p, int m);
PipelineSchedule oneFOneBSchedule(int p, int m);
PipelineSchedule interleavedSchedule(int p, int v, int m);
PipelineSchedule zbH1Schedule(int p, int m);
PipelineSchedule zbVSchedule(int p, int m);
PipelineSchedule dualPipeVSchedule(int p, int m);
PipelineSchedule dualPipeSchedule(int p, int m); // bidirectional: p even, m even and ≥ 2p

} // namespace parascope
