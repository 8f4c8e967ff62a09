#include "estimate/memory_over_time.h"

#include <algorithm>
#include <map>

namespace parascope {

std::vector<std::vector<MemoryPoint>> memoryOverStep(const Estimate& e)
{
    const std::vector<StageMemory>& stages = e.memory.stages;
    std::vector<std::vector<MemoryPoint>> lanes(stages.size());
    if (!e.timeline.simulated) {
        for (std::size_t r = 0; r < stages.size(); ++r)
            lanes[r] = {{0, stages[r].total()}};
        return lanes;
    }
    // The backward op that frees a microbatch-chunk's activations: W when the schedule splits the
    // backward, else B.
    bool split = false;
    for (const TimedOp& op : e.timeline.timeline.ops)
        split = split || op.type == OpType::W;
    // Per rank: +1 unit when a forward starts, −1 when its freeing backward ends.
    std::vector<std::map<double, int>> changes(stages.size());
    for (const TimedOp& op : e.timeline.timeline.ops) {
        if (op.comm_lane || op.rank < 0 || std::size_t(op.rank) >= stages.size())
            continue;
        auto& c = changes[std::size_t(op.rank)];
        if (op.type == OpType::F || op.type == OpType::FB)
            c[op.start_s] += 1;
        if ((op.type == OpType::B && !split) || op.type == OpType::W || op.type == OpType::FB)
            c[op.end_s] -= 1;
    }
    for (std::size_t r = 0; r < stages.size(); ++r) {
        const StageMemory& s = stages[r];
        const double floor = s.total() - s.activations;
        int units = 0, most = 0;
        for (const auto& [t, d] : changes[r]) {
            units += d;
            most = std::max(most, units);
        }
        const double unit = most > 0 ? s.activations / most : 0;
        std::vector<MemoryPoint>& lane = lanes[r];
        lane.push_back({0, most > 0 ? floor : s.total()});
        units = 0;
        for (const auto& [t, d] : changes[r]) {
            units += d;
            if (most > 0)
                lane.push_back({t, floor + units * unit});
        }
    }
    return lanes;
}

double memoryAt(const std::vector<MemoryPoint>& lane, double t_s)
{
    if (lane.empty())
        return 0;
    auto it = std::upper_bound(lane.begin(), lane.end(), t_s, [](double t, const MemoryPoint& p) { return t < p.t_s; });
    return it == lane.begin() ? lane.front().bytes : std::prev(it)->bytes;
}

double shownTimelineSeconds(const Estimate& e)
{
    const bool no_flush = e.time.note.rfind("no flush", 0) == 0;
    if ((!timelineIsPartial(e) && !no_flush) || e.timeline.timeline.ops.empty())
        return e.time.step_s;
    double end = 0;
    for (const TimedOp& op : e.timeline.timeline.ops)
        end = std::max(end, op.end_s);
    return end;
}

} // namespace parascope
