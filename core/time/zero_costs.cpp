#include "time/zero_costs.h"

#include "memory/model_states.h"

#include <algorithm>

namespace parascope {

namespace {

// Fraction of a pass's time (its compute, and its collectives on another link) that can hide
// ZeRO-2/3 per-microbatch collectives: FSDP and DeepSpeed prefetch a bounded amount ahead and
// the collectives compete with compute for SMs and HBM. Chosen (0.7) on Narayanan et al. 2021
// Table 2's ZeRO-3 rows (fit part) when those were costed as a flat ring; kept unchanged since,
// the held-out FSDP runs check it.
constexpr double kZeroOverlap = 0.7;

} // namespace

ZeroRound zeroRound(const std::vector<CommEntry>& comm, int zero)
{
    ZeroRound r;
    bool zero_network = false, zero_nvlink = false;
    for (const CommEntry& c : comm) {
        if ((c.group != Group::Dp && c.group != Group::Edp) || c.rounds <= 0)
            continue;
        const bool gather = zero >= 3 && c.purpose == Purpose::Parameters && c.collective == Collective::AllGather;
        const bool reduce = zero >= 2 && c.purpose == Purpose::Gradients && c.collective == Collective::ReduceScatter;
        if (!gather && !reduce)
            continue;
        (gather ? r.gather_s : r.reduce_s) += c.time_s / c.rounds;
        (c.link == Link::Network ? zero_network : zero_nvlink) = true;
    }
    // Beside: a group none of whose collectives shares a link with the ZeRO collectives.
    const auto beside = [&](Group g) {
        for (const CommEntry& c : comm)
            if (c.group == g && ((c.link == Link::Network && zero_network) || (c.link != Link::Network && zero_nvlink)))
                return false;
        return true;
    };
    r.tp_beside = beside(Group::Tp);
    r.ep_beside = beside(Group::Ep);
    r.cp_beside = beside(Group::Cp);
    return r;
}

ZeroEdges zeroEdges(const Scenario& sc, const ParamCounts& params, const PipelineGeometry& geometry,
                    const ZeroRound& round, const VirtualStage& V)
{
    ZeroEdges e;
    const ParallelConfig& p = sc.parallel;
    if (p.zero < 3 || V.chunk != 0 || round.gather_s <= 0)
        return e;
    const StageLayers& L = geometry.rank_layers[std::size_t(V.rank)];
    e.rank_params = stageParams(params, L, p).total();
    e.layer_params = stageParams(params, {V.rank, 1, V.moe_layers > 0 ? 1 : 0, false, false}, p).total();
    e.edge_params = e.layer_params + stageParams(params, {V.rank, 0, 0, L.has_embedding, L.has_output}, p).total();
    if (e.rank_params <= 0)
        return e;
    // Seconds per parameter, the rank's dense and expert parameters averaged.
    const double ag = round.gather_s / e.rank_params, rs = round.reduce_s / e.rank_params;
    e.forward_s = ag * e.edge_params;
    e.backward_s = (p.reshard_after_forward ? ag * e.layer_params : 0) + rs * e.edge_params;
    return e;
}

std::pair<double, double> zeroExposure(const ParallelConfig& p, const ZeroPass& z, const ZeroEdges& edges,
                                       double busy_f, double busy_b)
{
    // Without prefetch (parallel.zero3_prefetch = 0) a layer's gather starts when the layer needs
    // it: nothing hides. One layer or more ahead hides the same in this steady-state model (the
    // layers are alike); deeper prefetch costs memory (stage_memory.cpp) and helps only when
    // layers' times vary, which the model does not see.
    const double overlap = p.zero >= 3 && p.zero3_prefetch == 0 ? 0.0 : kZeroOverlap;
    const double forward = edges.forward_s + std::max(0.0, z.gather_s - edges.forward_s - overlap * busy_f);
    const double backward
        = edges.backward_s + std::max(0.0, z.backward_gather_s + z.reduce_s - edges.backward_s - overlap * busy_b);
    return {forward, backward};
}

} // namespace parascope
