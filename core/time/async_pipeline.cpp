#include "time/async_pipeline.h"

#include <algorithm>

namespace parascope {

double weightUpdatesPerStep(const ParallelConfig& p, long long m)
{
    return p.asyncPipeline() && p.async_pipeline == AsyncPipeline::PipeDream ? double(std::max(1LL, m)) : 1.0;
}

int staleness(const ParallelConfig& p, int stage)
{
    if (!p.asyncPipeline())
        return 0;
    return p.async_pipeline == AsyncPipeline::TwoBw ? 1 : std::max(0, p.pp - 1 - stage);
}

AsyncStep asyncSteadyState(const ParallelConfig& p, const Timeline& tl, long long m, long long m_sim)
{
    AsyncStep a;
    for (int r = 1; r < tl.ranks; ++r)
        if (tl.busy_s[std::size_t(r)] > tl.busy_s[std::size_t(a.critical)])
            a.critical = r;
    const std::size_t c = std::size_t(a.critical);
    a.period_s = tl.busy_s[c] / double(std::max(1LL, m_sim));
    a.tail_exposed_s = weightUpdatesPerStep(p, m) * tl.tail_exposed_s[c];
    // The rank's tail after its pipeline: exposed reduction and gather, then the optimizer (already
    // m steps for PipeDream, op_costs.cpp).
    const double optimizer = tl.step_end_per_rank_s[c] - tl.pipeline_end_per_rank_s[c] - tl.tail_exposed_s[c];
    a.step_s = double(m) * a.period_s + a.tail_exposed_s + std::max(0.0, optimizer);
    return a;
}

Term asyncTerm(const ParallelConfig& p, const AsyncStep& a, long long m)
{
    const bool two_bw = p.async_pipeline == AsyncPipeline::TwoBw;
    return {"time.async_pipeline",
            a.step_s,
            "s",
            "m · busiest rank's microbatch + updates · exposed reduction + optimizer (no flush, no bubble)",
            num(double(m)) + " · " + num(a.period_s) + " + " + num(weightUpdatesPerStep(p, m)) + " updates (rank "
                + num(a.critical) + "): exposed " + num(a.tail_exposed_s) + " s",
            two_bw ? "Narayanan et al. 2021 (PipeDream-2BW) §3: two weight versions, gradients accumulated over m, "
                     "one update a step, one update stale on every stage"
                   : "Narayanan et al. 2019 (PipeDream) §3.3: a weight version stashed per microbatch in flight, an "
                     "update after every microbatch, stage s p − 1 − s updates stale"};
}

} // namespace parascope
