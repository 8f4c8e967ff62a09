#include "schedule/slot_grid.h"

#include "schedule/generators.h"

namespace parascope {

std::optional<Timeline> slotGrid(const PipelineGeometry& geometry, long long microbatches)
{
    const std::optional<PipelineSchedule> schedule = generateSchedule(scheduleRequest(geometry, microbatches));
    if (!schedule)
        return std::nullopt;
    SimulationInput in;
    in.schedule = &*schedule;
    // One slot per forward, two per backward (one input-gradient and one weight-gradient slot
    // when the schedule splits them).
    in.stages.assign(geometry.stages.size(), StageCost{1, 1, 1, 0, 0});
    in.p2p_s = 0;
    in.record_ops = true;
    return simulate(in);
}

} // namespace parascope
