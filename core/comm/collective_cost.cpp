#include "comm/collective_cost.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace parascope {

namespace {

constexpr const char* kSource
    = "nccl-tests PERFORMANCE.md bus bandwidth; Thakur et al. 2005 α–β; hierarchical per §3.3";

// One level over one link: steps·α + factor·S/busbw(S) (a ring inside a node, a send, an
// all-to-all inside a node). Across nodes the same on the network link is the flat ring: one
// ring over all n ranks, every hop at the network's pace.
CollectiveTime oneLevel(Collective c, double S, const GroupPlacement& g, const LinkSpec& link, Explain explain,
                        const char* formula = "steps·α + factor·S/busbw(S)")
{
    CollectiveTime out;
    const double f = busFactor(c, g.size), steps = ringSteps(c, double(g.size));
    out.seconds = steps * link.latency_s + f * S / link.busBytesPerS(S);
    if (explain == Explain::Full)
        out.term
            = {"comm.time",
               out.seconds,
               "s",
               formula,
               num(steps) + "·" + num(link.latency_s) + " + " + num(f) + "·" + num(S) + "/" + num(link.busBytesPerS(S)),
               kSource};
    return out;
}

// Two levels (k GPUs per node on NVLink, N nodes, one NIC per GPU, rail-optimised):
//   t = steps(k)·α_nvl + factor(k)·S / busbw_nvl + steps(N)·α_net + factor(N)·(S/k) / busbw_net
// (docs/reference/schedules-and-comm.md §3.3; NCCL's flat ring over k·N ranks reaches the same bandwidth).
CollectiveTime hierarchical(Collective c, double S, const GroupPlacement& g, const ClusterSpec& cl, Explain explain)
{
    CollectiveTime out;
    const LinkSpec& intra = cl.intra_node;
    const LinkSpec& inter = cl.inter_node;
    const double k = double(g.ranks_per_node), N = double(g.nodes);
    const double fk = k > 1 ? busFactor(c, g.ranks_per_node) : 0.0;
    const double fN = busFactor(c, g.nodes);
    const double t_nvl = ringSteps(c, k) * intra.latency_s + fk * S / intra.busBytesPerS(S);
    const double t_net = ringSteps(c, N) * inter.latency_s + fN * (S / k) / inter.busBytesPerS(S / k);
    out.seconds = t_nvl + t_net;
    if (explain == Explain::Full)
        out.term = {"comm.time",
                    out.seconds,
                    "s",
                    "steps(k)·α_nvl + factor(k)·S/busbw_nvl + steps(N)·α_net + factor(N)·(S/k)/busbw_net",
                    num(ringSteps(c, k)) + "·" + num(intra.latency_s) + " + " + num(fk) + "·" + num(S) + "/"
                        + num(intra.busBytesPerS(S)) + " + " + num(ringSteps(c, N)) + "·" + num(inter.latency_s) + " + "
                        + num(fN) + "·(" + num(S) + "/" + num(k) + ")/" + num(inter.busBytesPerS(S / k)),
                    kSource};
    return out;
}

// All-to-all across nodes: the (n−k)/n of S bound for other nodes leaves through the NIC, the
// (k−1)/n for the node's other GPUs goes over NVLink at the same time.
CollectiveTime pairwiseAcrossNodes(double S, const GroupPlacement& g, const ClusterSpec& cl, Explain explain)
{
    CollectiveTime out;
    const double n = double(g.size), k = double(g.ranks_per_node), N = double(g.nodes);
    const double remote = (n - k) / n * S, local = (k - 1) / n * S;
    const double t_net = (N - 1) * cl.inter_node.latency_s + remote / cl.inter_node.busBytesPerS(S);
    const double t_nvl = (k - 1) * cl.intra_node.latency_s + local / cl.intra_node.busBytesPerS(S);
    out.seconds = std::max(t_net, t_nvl);
    if (explain == Explain::Full)
        out.term = {"comm.time",
                    out.seconds,
                    "s",
                    "max((N−1)·α_net + (n−k)/n·S/busbw_net, (k−1)·α_nvl + (k−1)/n·S/busbw_nvl)",
                    "max(" + num(t_net) + ", " + num(t_nvl) + ")",
                    kSource};
    return out;
}

// Binomial tree rooted at rank 0 over ranks that fill nodes in order (as the collective
// explainer plays it): level j joins ranks 2^j apart; each level takes α + S/busbw(S) on the
// slowest link it uses; an all-reduce reduces up and broadcasts down (2⌈log₂n⌉ levels), a
// broadcast only goes down (⌈log₂n⌉).
CollectiveTime binomialTree(Collective c, double S, const GroupPlacement& g, const ClusterSpec& cl, Explain explain)
{
    CollectiveTime out;
    const std::int64_t n = g.size, k = std::max<std::int64_t>(1, g.ranks_per_node);
    const double t_net = cl.inter_node.latency_s + S / cl.inter_node.busBytesPerS(S);
    const double t_nvl = cl.intra_node.latency_s + S / cl.intra_node.busBytesPerS(S);
    double down = 0;
    int levels = 0, network_levels = 0;
    for (std::int64_t d = 1; d < n; d *= 2, ++levels) {
        bool network = false, inside = false;
        for (std::int64_t r = d; r < n && !(network && inside); r += 2 * d)
            ((r - d) / k != r / k ? network : inside) = true;
        network_levels += network ? 1 : 0;
        down += std::max(network ? t_net : 0.0, inside ? t_nvl : 0.0);
    }
    const double passes = c == Collective::AllReduce ? 2 : 1;
    out.seconds = passes * down;
    if (explain == Explain::Full)
        out.term
            = {"comm.time",
               out.seconds,
               "s",
               c == Collective::AllReduce ? "2 · Σ over ⌈log₂n⌉ levels of (α + S/busbw) on the level's slowest link"
                                          : "Σ over ⌈log₂n⌉ levels of (α + S/busbw) on the level's slowest link",
               num(passes) + "·(" + num(double(network_levels)) + "·" + num(t_net) + " + "
                   + num(double(levels - network_levels)) + "·" + num(t_nvl) + ")",
               "Thakur, Rabenseifner & Gropp 2005 (binomial tree); α–β per link"};
    return out;
}

// Bus bandwidth measured for this collective on a group of the same size and node count, at
// message size S: log-linear interpolation between the measured sizes, clamped at the ends.
double measuredBusbw(Collective c, double S, const GroupPlacement& g, const ClusterSpec& cl)
{
    std::vector<const MeasuredCollective*> pts;
    for (const MeasuredCollective& m : cl.measured_collectives)
        if (m.op == c && m.ranks == g.size && m.nodes == g.nodes && m.bytes > 0 && m.busbw_bytes_per_s > 0)
            pts.push_back(&m);
    if (pts.empty())
        return 0;
    std::sort(pts.begin(), pts.end(), [](auto* a, auto* b) { return a->bytes < b->bytes; });
    if (S <= pts.front()->bytes)
        return pts.front()->busbw_bytes_per_s;
    if (S >= pts.back()->bytes)
        return pts.back()->busbw_bytes_per_s;
    for (std::size_t i = 1; i < pts.size(); ++i)
        if (S <= pts[i]->bytes) {
            const double x0 = std::log(pts[i - 1]->bytes), x1 = std::log(pts[i]->bytes);
            const double w = x1 > x0 ? (std::log(S) - x0) / (x1 - x0) : 0;
            return pts[i - 1]->busbw_bytes_per_s + w * (pts[i]->busbw_bytes_per_s - pts[i - 1]->busbw_bytes_per_s);
        }
    return pts.back()->busbw_bytes_per_s;
}

// Measured on this cluster: nccl-tests' busbw already includes latency and protocol.
CollectiveTime measured(Collective c, double S, const GroupPlacement& g, double bw, Explain explain)
{
    CollectiveTime out;
    const double f = busFactor(c, g.size);
    out.seconds = f * S / bw;
    if (explain == Explain::Full)
        out.term = {"comm.time",
                    out.seconds,
                    "s",
                    "factor·S / busbw_measured(S)",
                    num(f) + "·" + num(S) + "/" + num(bw),
                    "measured: hardware profile (nccl-tests / parascope-probe), " + std::string(toString(c)) + " on "
                        + num(double(g.size)) + " ranks, " + num(double(g.nodes)) + " node(s)"};
    return out;
}

} // namespace

CollectiveAlgorithm assumedAlgorithm(Collective c, const GroupPlacement& g)
{
    if (c == Collective::SendRecv)
        return CollectiveAlgorithm::PointToPoint;
    if (c == Collective::AllToAll)
        return CollectiveAlgorithm::Pairwise;
    return g.crossesNodes() ? CollectiveAlgorithm::Hierarchical : CollectiveAlgorithm::Ring;
}

CollectiveTime collectiveTime(CollectiveAlgorithm a, Collective c, double S, const GroupPlacement& g,
                              const ClusterSpec& cl, Explain explain, ExpertRouting routing)
{
    if (a == assumedAlgorithm(c, g))
        if (const double bw = measuredBusbw(c, S, g, cl); bw > 0)
            return measured(c, S, g, bw, explain);
    if (g.size <= 1 && c != Collective::SendRecv) {
        CollectiveTime none;
        if (explain == Explain::Full)
            none.term = {"comm.time", 0, "s", "group of 1: nothing to send", "", kSource};
        return none;
    }
    const LinkSpec& link = g.crossesNodes() ? cl.inter_node : cl.intra_node;
    switch (a) {
    case CollectiveAlgorithm::Tree: return binomialTree(c, S, g, cl, explain);
    case CollectiveAlgorithm::DeepEp:
        if (routing.top_k > 0)
            return dedupAllToAllTime(S, routing.top_k, routing.experts, g, cl, explain);
        [[fallthrough]];
    case CollectiveAlgorithm::Pairwise:
        return g.crossesNodes() ? pairwiseAcrossNodes(S, g, cl, explain) : oneLevel(c, S, g, link, explain);
    case CollectiveAlgorithm::Hierarchical:
        return g.crossesNodes() ? hierarchical(c, S, g, cl, explain) : oneLevel(c, S, g, link, explain);
    case CollectiveAlgorithm::Ring:
        return oneLevel(c, S, g, link, explain,
                        g.crossesNodes() ? "flat ring over the network: steps·α_net + factor·S/busbw_net(S)"
                                         : "steps·α + factor·S/busbw(S)");
    case CollectiveAlgorithm::PointToPoint: break;
    }
    return oneLevel(c, S, g, link, explain);
}

double otherExpertGroupsReached(double experts, double top_k, double groups)
{
    if (groups <= 1 || experts <= 0)
        return 0;
    // Probability that none of the k picks (without replacement) falls in one given group.
    const double outside = experts - experts / groups;
    double none = 1;
    for (int i = 0; i < int(top_k); ++i)
        none *= std::max(0.0, (outside - i) / (experts - i));
    return (groups - 1) * (1 - none);
}

CollectiveTime dedupAllToAllTime(double S, double top_k, double experts, const GroupPlacement& g, const ClusterSpec& cl,
                                 Explain explain)
{
    CollectiveTime out;
    if (g.size <= 1 || top_k <= 0)
        return out;
    const double n = double(g.size), k = double(g.ranks_per_node), N = double(g.nodes);
    const double token = S / top_k; // one copy of the tokens
    const double gpus_reached = otherExpertGroupsReached(experts, top_k, n);
    const LinkSpec& intra = cl.intra_node;
    const LinkSpec& inter = cl.inter_node;
    const char* src = "deepseek-ai/DeepEP (intranode and internode normal kernels: one copy per GPU, one per node "
                      "over RDMA forwarded by NVLink); balanced routing";
    // Inside the node every other GPU of the token's experts gets one copy over NVLink (across
    // nodes this also bounds the forwarding at the destination).
    const double t_nvl = (std::min(n, k) - 1) * intra.latency_s + token * gpus_reached / intra.busBytesPerS(S);
    if (!g.crossesNodes()) {
        out.seconds = t_nvl;
        if (explain == Explain::Full)
            out.term = {"comm.time",
                        out.seconds,
                        "s",
                        "(n−1)·α_nvl + S/k·(n−1)(1 − C(E−E/n, k)/C(E, k))/busbw_nvl",
                        num(n - 1) + "·" + num(intra.latency_s) + " + " + num(token) + "·" + num(gpus_reached) + "/"
                            + num(intra.busBytesPerS(S)),
                        src};
        return out;
    }
    const double nodes_reached = otherExpertGroupsReached(experts, top_k, N);
    const double t_net = (N - 1) * inter.latency_s + token * nodes_reached / inter.busBytesPerS(S);
    out.seconds = std::max(t_net, t_nvl);
    if (explain == Explain::Full)
        out.term = {"comm.time",
                    out.seconds,
                    "s",
                    "max((N−1)·α_net + S/k·(N−1)(1 − C(E−E/N, k)/C(E, k))/busbw_net, S/k·(n−1)(1 − C(E−E/n, k)/C(E, "
                    "k))/busbw_nvl)",
                    "max(" + num(N - 1) + "·" + num(inter.latency_s) + " + " + num(token) + "·" + num(nodes_reached)
                        + "/" + num(inter.busBytesPerS(S)) + ", " + num(t_nvl) + ")",
                    src};
    return out;
}

} // namespace parascope
