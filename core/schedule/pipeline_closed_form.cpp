#include "schedule/pipeline_closed_form.h"

#include "schedule/schedule_table.h"

#include <algorithm>

namespace parascope {

namespace {
PipelineShape shape(int pp, int vpp, long long m) { return {std::max(1, pp), std::max(1, vpp), m}; }
} // namespace

// Each schedule's closed forms are in its row of the schedule table (schedule/schedule_table.cpp).
std::vector<double> inflightMicrobatches(ScheduleKind s, int pp, int vpp, long long m)
{
    const PipelineShape sh = shape(pp, vpp, m);
    const ScheduleRow& row = scheduleRow(s);
    std::vector<double> out(std::size_t(sh.pp));
    for (int i = 0; i < sh.pp; ++i)
        out[std::size_t(i)] = row.inflight(sh, i);
    return out;
}

Term inflightTerm(ScheduleKind s, int pp, int vpp, long long m, int rank, double value)
{
    Term t = scheduleRow(s).inflight_term({pp, vpp, m}, rank);
    t.value = value;
    return t;
}

long long unpairedPasses(ScheduleKind s, int pp, int vpp, long long m, int rank)
{
    if (pp <= 1)
        return std::min(m, 1LL);
    if (scheduleRow(s).chunks_from_vpp) // Megatron's interleaved 1F1B; with m = p every forward first
        return m == pp ? vpp * m : std::min(vpp * m, 2LL * (pp - rank - 1) + (vpp - 1LL) * pp + 1);
    return std::min(m, (long long)(pp - rank));
}

// Step time in unit costs: ideal m·(F+B) plus the bubble of the schedule
// (docs/reference/schedules-and-comm.md §1.11 closed forms, F = 1, B = 2, Bi = W = 1, F&B = 3).
double bubbleFraction(ScheduleKind s, int pp, int vpp, long long m)
{
    const PipelineShape sh = shape(pp, vpp, m);
    const double bubble = std::max(0.0, scheduleRow(s).bubble(sh));
    const double ideal = double(std::max(1LL, m)) * 3.0;
    return bubble / (ideal + bubble);
}

Term bubbleTerm(ScheduleKind s, int pp, int vpp, long long m)
{
    Term t = scheduleRow(s).bubble_term({pp, vpp, m});
    t.value = bubbleFraction(s, pp, vpp, m);
    return t;
}

} // namespace parascope
