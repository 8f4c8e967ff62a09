#include "comm/collective_cost.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace parascope {

namespace {

constexpr const char* kSource
    = "nccl-tests PERFORMANCE.md bus bandwidth; Thakur et al. 2005 α–β; hierarchical per §3.3";
constexpr const char* kChannelSource
    = "NCCL rings: one channel per NIC, each through a different GPU's NIC (schedules-and-comm §3.3: multi-node "
      "busbw ≈ NICs × per-NIC bandwidth, 192 GB/s for 8×HDR); α–β per link (Thakur et al. 2005)";

// One level over one link: steps·α + factor·S/busbw(S) (a send, an all-to-all inside a node).
CollectiveTime oneLevel(Collective c, double S, const GroupPlacement& g, const LinkSpec& link, Explain explain)
{
    CollectiveTime out;
    const double f = busFactor(c, g.size), steps = ringSteps(c, double(g.size));
    out.seconds = steps * link.latency_s + f * S / link.busBytesPerS(S);
    if (explain == Explain::Full)
        out.term
            = {"comm.time",
               out.seconds,
               "s",
               "steps·α + factor·S/busbw(S)",
               num(steps) + "·" + num(link.latency_s) + " + " + num(f) + "·" + num(S) + "/" + num(link.busBytesPerS(S)),
               kSource};
    return out;
}

// A ring's steps: 2(n−1) for an all-reduce, n−1 for a gather or scatter, and the pipelined
// broadcast's 2(n−1) (n chunks down the ring, as the explainer plays it).
double ringStepCount(Collective c, double n) { return c == Collective::Broadcast ? 2 * (n - 1) : ringSteps(c, n); }

// The ring with `channels` rings side by side (NCCL's: ringChannels; the flat ring: 1), each
// with S/channels: steps · ringStepSeconds(S/(n·channels)).
CollectiveTime ring(Collective c, double S, const GroupPlacement& g, const ClusterSpec& cl, double channels,
                    Explain explain)
{
    CollectiveTime out;
    const double n = double(g.size), steps = ringStepCount(c, n), chunk = S / (n * channels);
    const double step = ringStepSeconds(chunk, channels, S, g, cl);
    out.seconds = steps * step;
    if (explain == Explain::Full) {
        const bool across = g.crossesNodes();
        const char* formula = !across ? "steps · (α + S/n / busbw(S))"
            : channels > 1 ? "steps · max(α_net + S/(k·n)/busbw_net, α_nvl + (k−1)·S/(k·n)/busbw_nvl): k channels, "
                             "one per NIC"
                           : "steps · max(α_net + S/n/busbw_net, α_nvl + S/n/busbw_nvl): one ring through one NIC";
        out.term = {"comm.time",
                    out.seconds,
                    "s",
                    formula,
                    num(steps) + " · " + num(step) + (across ? "  (k = " + num(channels) + ")" : std::string()),
                    channels > 1 ? kChannelSource : kSource};
    }
    return out;
}

// Two levels (k GPUs per node on NVLink, N nodes, one NIC per GPU, rail-optimised), one after the other:
//   t = steps(k)·(α_nvl + (S/k)/busbw_nvl) + steps(N)·(α_net + (S/(kN))/busbw_net(S/k))
// (docs/reference/schedules-and-comm.md §3.3).
CollectiveTime hierarchical(Collective c, double S, const GroupPlacement& g, const ClusterSpec& cl, Explain explain)
{
    CollectiveTime out;
    const LinkSpec& intra = cl.intra_node;
    const LinkSpec inter = networkLink(g, cl);
    const double k = double(g.ranks_per_node), N = double(g.nodes);
    const double t_nvl = k > 1 ? ringSteps(c, k) * (intra.latency_s + S / k / intra.busBytesPerS(S)) : 0.0;
    const double t_net = ringSteps(c, N) * (inter.latency_s + S / (k * N) / inter.busBytesPerS(S / k));
    out.seconds = t_nvl + t_net;
    if (explain == Explain::Full)
        out.term = {"comm.time",
                    out.seconds,
                    "s",
                    "steps(k)·(α_nvl + (S/k)/busbw_nvl) + steps(N)·(α_net + (S/kN)/busbw_net)",
                    num(t_nvl) + " + " + num(t_net) + "  (k = " + num(k) + ", N = " + num(N) + ")",
                    kSource};
    return out;
}

// NCCL's double binary tree all-reduce: a chain of k GPUs inside each node, two binary trees over
// the N nodes with S/2 each. Every node sends and receives 2S over its k NICs, every GPU 2S over
// NVLink along the chain (up and down); latency 2·(⌈log₂N⌉ network hops + (k−1) NVLink hops):
//   t = 2(⌈log₂N⌉·α_net + (k−1)·α_nvl) + max(2S/(k·busbw_net), 2S/busbw_nvl) / 0.92
CollectiveTime doubleBinaryTree(double S, const GroupPlacement& g, const ClusterSpec& cl, Explain explain)
{
    CollectiveTime out;
    const double k = double(g.ranks_per_node), N = double(g.nodes);
    const double levels = std::ceil(std::log2(std::max(1.0, N)));
    const LinkSpec inter = networkLink(g, cl);
    const double latency = 2 * (levels * inter.latency_s + (k - 1) * cl.intra_node.latency_s);
    const double net = N > 1 ? 2 * S / (k * inter.busBytesPerS(S)) : 0.0;
    const double nvl = k > 1 ? 2 * S / cl.intra_node.busBytesPerS(S) : 0.0;
    out.seconds = latency + std::max(net, nvl) / kTreeBandwidthFactor;
    if (explain == Explain::Full)
        out.term = {"comm.time",
                    out.seconds,
                    "s",
                    "2(⌈log₂N⌉·α_net + (k−1)·α_nvl) + max(2S/(k·busbw_net), 2S/busbw_nvl) / 0.92",
                    num(latency) + " + max(" + num(net) + ", " + num(nvl) + ") / " + num(kTreeBandwidthFactor),
                    "NCCL double binary tree (Sanders, Speck & Träff 2009; NCCL 2.4 release); 0.92: NCCL "
                    "src/graph/tuning.cc, tree all-reduce"};
    return out;
}

// NVLink SHARP inside one node: the switch reduces, so the bus bandwidth is the preset's measured
// NVLS figure: α_nvls + factor·S/busbw_nvls (with the NVLink's size ramp).
CollectiveTime nvls(Collective c, double S, const GroupPlacement& g, const ClusterSpec& cl, Explain explain)
{
    CollectiveTime out;
    const double f = busFactor(c, g.size);
    const double ramp = cl.intra_node.half_bytes > 0 ? S / (S + cl.intra_node.half_bytes) : 1.0;
    const double bw = cl.nvls.busbw_bytes_per_s * ramp;
    out.seconds = cl.nvls.latency_s + f * S / bw;
    if (explain == Explain::Full)
        out.term = {"comm.time",
                    out.seconds,
                    "s",
                    "α_nvls + factor·S/busbw_nvls (the NVSwitch reduces)",
                    num(cl.nvls.latency_s) + " + " + num(f) + "·" + num(S) + "/" + num(bw),
                    "NVLink SHARP (NCCL ≥ 2.17); busbw: " + cl.nvls.source + "; α: NCCL tuning.cc hwLat NVLS"};
    return out;
}

// All-to-all across nodes: the (n−k)/n of S bound for other nodes leaves through the NIC, the
// (k−1)/n for the node's other GPUs goes over NVLink at the same time.
CollectiveTime pairwiseAcrossNodes(double S, const GroupPlacement& g, const ClusterSpec& cl, Explain explain)
{
    CollectiveTime out;
    const double n = double(g.size), k = double(g.ranks_per_node);
    const LinkSpec inter = networkLink(g, cl, true);
    // Node by node (the explainer's steps, comm/collective_steps.cpp): n − k sends of S/n across
    // the network, one a step, each a message of its own (α each); each GPU's k − 1 NVLink sends
    // go beside the first k − 1 of them.
    const double s_net = inter.latency_s + S / n / inter.busBytesPerS(S);
    const double s_nvl = cl.intra_node.latency_s + S / n / cl.intra_node.busBytesPerS(S);
    out.seconds = (k - 1) * std::max(s_net, s_nvl) + (n - 2 * k + 1) * s_net;
    if (explain == Explain::Full)
        out.term
            = {"comm.time",
               out.seconds,
               "s",
               "(k−1)·max(α_net + (S/n)/busbw_net, α_nvl + (S/n)/busbw_nvl) + (n−2k+1)·(α_net + "
               "(S/n)/busbw_net): n−k steps across the network, the NVLink sends beside the first k−1",
               num(k - 1) + "·max(" + num(s_net) + ", " + num(s_nvl) + ") + " + num(n - 2 * k + 1) + "·" + num(s_net),
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
    const LinkSpec inter = networkLink(g, cl);
    const double t_net = inter.latency_s + S / inter.busBytesPerS(S);
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

double ringChannels(const GroupPlacement& g)
{
    return g.crossesNodes() ? double(std::max<std::int64_t>(1, g.ranks_per_node)) : 1.0;
}

double ringStepSeconds(double chunk, double channels, double S, const GroupPlacement& g, const ClusterSpec& cl)
{
    const LinkSpec& intra = cl.intra_node;
    if (!g.crossesNodes())
        return intra.latency_s + channels * chunk / intra.busBytesPerS(S);
    const LinkSpec inter = networkLink(g, cl);
    const double t_net = inter.latency_s + chunk / inter.busBytesPerS(S);
    const double nvl_chunks = g.ranks_per_node > 1 ? std::max(1.0, channels - 1) : 0.0;
    const double t_nvl = nvl_chunks > 0 ? intra.latency_s + nvl_chunks * chunk / intra.busBytesPerS(S) : 0.0;
    return std::max(t_net, t_nvl);
}

bool available(CollectiveAlgorithm a, Collective c, const GroupPlacement& g, const ClusterSpec& cl)
{
    if (!runs(a, c))
        return false;
    if (a == CollectiveAlgorithm::Nvls)
        return !g.crossesNodes() && !cl.intra_is_pcie && cl.nvls.known() && g.size >= cl.nvls.min_ranks;
    return true;
}

CollectiveTime collectiveModelTime(CollectiveAlgorithm a, Collective c, double S, const GroupPlacement& g,
                                   const ClusterSpec& cl, Explain explain, ExpertRouting routing)
{
    if (g.size <= 1 && c != Collective::SendRecv) {
        CollectiveTime none;
        if (explain == Explain::Full)
            none.term = {"comm.time", 0, "s", "group of 1: nothing to send", "", kSource};
        return none;
    }
    if (!available(a, c, g, cl) && runs(CollectiveAlgorithm::Ring, c))
        a = CollectiveAlgorithm::Ring;
    const LinkSpec link = g.crossesNodes() ? networkLink(g, cl, a == CollectiveAlgorithm::Pairwise) : cl.intra_node;
    switch (a) {
    case CollectiveAlgorithm::Ring: return ring(c, S, g, cl, c == Collective::Broadcast ? 1 : ringChannels(g), explain);
    case CollectiveAlgorithm::FlatRing: return ring(c, S, g, cl, 1, explain);
    case CollectiveAlgorithm::Tree: return doubleBinaryTree(S, g, cl, explain);
    case CollectiveAlgorithm::Nvls: return nvls(c, S, g, cl, explain);
    case CollectiveAlgorithm::BinomialTree: return binomialTree(c, S, g, cl, explain);
    case CollectiveAlgorithm::DeepEp:
        if (routing.top_k > 0)
            return dedupAllToAllTime(S, routing.top_k, routing.experts, g, cl, explain);
        [[fallthrough]];
    case CollectiveAlgorithm::Pairwise:
        return g.crossesNodes() ? pairwiseAcrossNodes(S, g, cl, explain) : oneLevel(c, S, g, link, explain);
    case CollectiveAlgorithm::Hierarchical:
        return g.crossesNodes() ? hierarchical(c, S, g, cl, explain) : ring(c, S, g, cl, 1, explain);
    case CollectiveAlgorithm::PointToPoint: break;
    }
    return oneLevel(c, S, g, link, explain);
}

CollectiveAlgorithm assumedAlgorithm(Collective c, double S, const GroupPlacement& g, const ClusterSpec& cl)
{
    if (c == Collective::SendRecv)
        return CollectiveAlgorithm::PointToPoint;
    if (c == Collective::AllToAll)
        return CollectiveAlgorithm::Pairwise;
    CollectiveAlgorithm best = CollectiveAlgorithm::Ring;
    double fastest = collectiveModelTime(best, c, S, g, cl, Explain::NumbersOnly, {}).seconds;
    const auto consider = [&](CollectiveAlgorithm a) {
        if (!available(a, c, g, cl))
            return;
        if (const double t = collectiveModelTime(a, c, S, g, cl, Explain::NumbersOnly, {}).seconds; t < fastest) {
            fastest = t;
            best = a;
        }
    };
    if (g.crossesNodes())
        consider(CollectiveAlgorithm::Tree);
    consider(CollectiveAlgorithm::Nvls);
    return best;
}

CollectiveTime collectiveTime(CollectiveAlgorithm a, Collective c, double S, const GroupPlacement& g,
                              const ClusterSpec& cl, Explain explain, ExpertRouting routing)
{
    if (!cl.measured_collectives.empty() && a == assumedAlgorithm(c, S, g, cl))
        if (const double bw = measuredBusbw(c, S, g, cl); bw > 0)
            return measured(c, S, g, bw, explain);
    return collectiveModelTime(a, c, S, g, cl, explain, routing);
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
    const LinkSpec inter = networkLink(g, cl, true);
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
