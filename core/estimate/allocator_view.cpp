#include "estimate/allocator_view.h"

#include "memory/other_memory.h"

#include <algorithm>

namespace parascope {

namespace {

std::size_t peakStage(const MemoryReport& m)
{
    std::size_t best = 0;
    for (std::size_t i = 1; i < m.stages.size(); ++i)
        if (m.stages[i].total() > m.stages[best].total())
            best = i;
    return best;
}

} // namespace

AllocatorView allocatorView(const Scenario& sc, const Estimate& e)
{
    AllocatorView v;
    v.allocator = sc.overheads.allocator;
    v.pcie = e.time.offload_pcie;
    if (e.memory.stages.empty())
        return v;
    const std::size_t r = peakStage(e.memory);
    const StageMemory& st = e.memory.stages[r];
    v.rank = int(r);
    v.reserve_bytes = fragmentationReserve(sc.overheads, st.activations);
    OverheadConfig other = sc.overheads;
    other.allocator = v.allocator == AllocatorKind::Caching ? AllocatorKind::Expandable : AllocatorKind::Caching;
    v.other_reserve_bytes = fragmentationReserve(other, st.activations);
    v.reserved_peak = st.total();
    v.allocated_peak = st.total() - v.reserve_bytes;

    const auto lanes = memoryOverStep(e);
    if (r >= lanes.size())
        return v;
    // The lane is the states and buffers (the reserve among them) plus the activations held.
    const double base = st.total() - st.activations - v.reserve_bytes;
    double most = 0;
    for (const MemoryPoint& p : lanes[r]) {
        const double allocated = p.bytes - v.reserve_bytes;
        most = std::max(most, allocated);
        v.allocated.push_back({p.t_s, allocated});
        v.reserved.push_back({p.t_s, most + fragmentationReserve(sc.overheads, std::max(0.0, most - base))});
    }
    return v;
}

} // namespace parascope
