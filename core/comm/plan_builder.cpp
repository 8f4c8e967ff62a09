#include "comm/plan_builder.h"

namespace parascope::comm_plan {

CommEntry Builder::entry(Group group, Collective c, Purpose purpose, double calls, double S, double rounds,
                         Overlap overlap, const GroupPlacement& g, CollectiveAlgorithm algorithm,
                         double seconds_per_call)
{
    CommEntry e;
    e.group = group == Group::DpCp ? Group::Dp : group;
    e.collective = c;
    e.purpose = purpose;
    e.algorithm = algorithm;
    e.link = g.link;
    e.group_size = g.size;
    e.nodes_spanned = g.nodes;
    e.calls_per_step = calls;
    e.bytes_per_call = S;
    e.bytes_per_gpu_per_step = calls * S * busFactor(c, g.size);
    e.time_s = calls * seconds_per_call;
    e.busbw_bytes_per_s = busBandwidth(c, S, g.size, seconds_per_call);
    e.rounds = rounds;
    e.overlap = overlap;
    return e;
}

void Builder::explain(CommEntry& e, const CollectiveTime& one, const std::string& volume, const char* source)
{
    const double f = busFactor(e.collective, e.group_size);
    e.terms.push_back({"comm.bytes_per_gpu_per_step", e.bytes_per_gpu_per_step, "bytes", "calls · S · factor(n)",
                       num(e.calls_per_step) + "·" + num(e.bytes_per_call) + "·" + num(f) + "  [" + volume + "]",
                       source});
    Term per_call = one.term;
    per_call.name = "comm.time_per_call";
    e.terms.push_back(per_call);
    e.terms.push_back(
        {"comm.time", e.time_s, "s", "calls · t_call", num(e.calls_per_step) + "·" + num(one.seconds), source});
}

void Builder::retime(CommEntry& e, const CollectiveTime& one, const char* per_step_formula)
{
    for (Term& term : e.terms) {
        if (term.name == "comm.time_per_call") {
            term = one.term;
            term.name = "comm.time_per_call";
        } else if (term.name == "comm.time") {
            term = {"comm.time", e.time_s, "s", per_step_formula, num(e.calls_per_step) + "·" + num(one.seconds),
                    term.source};
        }
    }
}

void Builder::dedupLast(double top_k, double experts)
{
    if (out.empty() || out.back().collective != Collective::AllToAll)
        return;
    CommEntry& e = out.back();
    const GroupPlacement& g = in.placement.group(e.group);
    e.algorithm = CollectiveAlgorithm::DeepEp;
    const CollectiveTime one = collectiveTime(CollectiveAlgorithm::DeepEp, Collective::AllToAll, e.bytes_per_call, g,
                                              in.cluster, in.explain, {top_k, experts});
    e.time_s = e.calls_per_step * one.seconds;
    e.busbw_bytes_per_s = busBandwidth(e.collective, e.bytes_per_call, e.group_size, one.seconds);
    if (in.explain == Explain::Full)
        retime(e, one, "calls · t_call");
}

void Builder::addBoundaries(double S)
{
    if (out.empty() || out.back().group != Group::Pp)
        return;
    CommEntry& e = out.back();
    double slowest = 0;
    GroupPlacement slowest_pair;
    for (const PipelineBoundary& pb : in.placement.pp_boundaries) {
        GroupPlacement pair = in.placement.group(Group::Pp);
        pair.size = 2;
        pair.nodes = pb.link == Link::Network ? 2 : 1;
        pair.ranks_per_node = pair.nodes == 2 ? 1 : 2;
        pair.link = pb.link;
        const double t = collectiveTime(Collective::SendRecv, S, pair, in.cluster, Explain::NumbersOnly).seconds;
        e.boundaries.push_back({pb, t});
        if (t > slowest) {
            slowest = t;
            slowest_pair = pair;
            e.link = pb.link;
        }
    }
    if (slowest <= 0 || e.calls_per_step <= 0)
        return;
    e.time_s = e.calls_per_step * slowest;
    e.busbw_bytes_per_s = busBandwidth(Collective::SendRecv, S, 2, slowest);
    if (in.explain == Explain::Full)
        retime(e, collectiveTime(Collective::SendRecv, S, slowest_pair, in.cluster, Explain::Full),
               "calls · t_call (slowest stage boundary)");
}

} // namespace parascope::comm_plan
