#include "parallel/placement.h"

#include <algorithm>
#include <stdexcept>

namespace parascope {

// The group of rank 0 holds ranks 0, stride, 2·stride, … (size members). With G GPUs per node:
// if stride ≥ G every member sits on its own node; otherwise members fill consecutive ranks
// 0 … stride·(size−1), which span ceil((stride·(size−1)+1)/G) nodes.
GroupPlacement placeGroup(Group group, std::int64_t size, std::int64_t stride, const ClusterSpec& cluster)
{
    GroupPlacement g;
    g.group = group;
    g.size = size < 1 ? 1 : size;
    g.stride = stride < 1 ? 1 : stride;
    const std::int64_t G = cluster.gpus_per_node > 0 ? cluster.gpus_per_node : 1;
    if (g.size == 1)
        g.nodes = 1;
    else if (g.stride >= G)
        g.nodes = g.size;
    else
        g.nodes = (g.stride * (g.size - 1) + 1 + G - 1) / G;
    g.ranks_per_node = g.size / g.nodes > 0 ? g.size / g.nodes : 1;
    g.link = g.nodes > 1 ? Link::Network : (cluster.intra_is_pcie ? Link::Pcie : Link::NvLink);
    networkShares(g, cluster);
    return g;
}

void networkShares(GroupPlacement& g, const ClusterSpec& cluster)
{
    g.network_share = g.all_to_all_share = g.nic_share = 1;
    g.leaves = 1;
    if (g.nodes <= 1)
        return;
    const FabricSpec& f = cluster.fabric;
    const double gpus = std::max(1, cluster.gpus_per_node);
    g.nic_share = f.nics_per_node > 0 ? std::min(1.0, f.nics_per_node / gpus) : 1.0;
    double ring = 1, all_to_all = 1;
    if (f.nodes_per_leaf > 0 && g.nodes > f.nodes_per_leaf) {
        const double n = f.nodes_per_leaf, N = double(g.nodes), o = std::max(1, f.oversubscription);
        g.leaves = (g.nodes + f.nodes_per_leaf - 1) / f.nodes_per_leaf;
        ring = std::max(1.0, o / n);
        all_to_all = std::max(1.0, o * (N - n) / N);
    }
    g.network_share = g.nic_share / ring;
    g.all_to_all_share = g.nic_share / all_to_all;
}

LinkSpec networkLink(const GroupPlacement& g, const ClusterSpec& cluster, bool all_to_all)
{
    LinkSpec l = cluster.inter_node;
    l.bytes_per_s *= all_to_all ? g.all_to_all_share : g.network_share;
    return l;
}

Placement placeRanks(const ParallelConfig& p, const ClusterSpec& cluster)
{
    Placement pl;
    pl.gpus = p.gpus();
    const std::int64_t G = cluster.gpus_per_node > 0 ? cluster.gpus_per_node : 1;
    pl.nodes = (pl.gpus + G - 1) / G;
    const std::int64_t tp = p.tp, cp = p.cp, dp = p.dp;
    const std::int64_t etp = p.expertTp(), ep = p.ep;
    // Expert data parallel: the ranks of one pipeline stage (tp·cp·dp) that hold the same experts.
    const std::int64_t stage_ranks = tp * cp * dp;
    const std::int64_t edp = (etp * ep > 0 && stage_ranks % (etp * ep) == 0) ? stage_ranks / (etp * ep) : 1;
    pl.groups.push_back(placeGroup(Group::Tp, tp, 1, cluster));
    pl.groups.push_back(placeGroup(Group::Cp, cp, tp, cluster));
    pl.groups.push_back(placeGroup(Group::Ep, ep, etp, cluster));
    pl.groups.push_back(placeGroup(Group::Dp, dp, tp * cp, cluster));
    // Gradients are reduced over dp·cp: CP ranks hold the same weights (Megatron's
    // data-parallel group "with cp"). cp and dp are adjacent in the rank order, so stride tp.
    pl.groups.push_back(placeGroup(Group::DpCp, dp * cp, tp, cluster));
    pl.groups.push_back(placeGroup(Group::Edp, edp, etp * ep, cluster));
    pl.groups.push_back(placeGroup(Group::Pp, p.pp, stage_ranks, cluster));
    pl.pp_boundaries = pipelineBoundaries(p, cluster);
    return pl;
}

// Stage r holds ranks r·T … r·T + T − 1 (T = tp·cp·dp); member k of stage r sends to member k of
// the next stage. A boundary crosses nodes when any such pair sits on two nodes. The pairs'
// node test depends only on the member's rank modulo G, so the first min(T, G) members decide.
std::vector<PipelineBoundary> pipelineBoundaries(const ParallelConfig& p, const ClusterSpec& cluster)
{
    std::vector<PipelineBoundary> out;
    if (p.pp <= 1)
        return out;
    const std::int64_t G = cluster.gpus_per_node > 0 ? cluster.gpus_per_node : 1;
    const std::int64_t T = std::int64_t(p.tp) * p.cp * p.dp;
    const Link inside = cluster.intra_is_pcie ? Link::Pcie : Link::NvLink;
    const bool wraps = p.schedule == ScheduleKind::Interleaved && p.vpp > 1;
    const int count = wraps ? p.pp : p.pp - 1;
    for (int r = 0; r < count; ++r) {
        const int next = (r + 1) % p.pp;
        bool crosses = false;
        for (std::int64_t k = 0; k < std::min(T, G) && !crosses; ++k)
            crosses = (r * T + k) / G != (next * T + k) / G;
        out.push_back({r, next, crosses ? Link::Network : inside});
    }
    return out;
}

const GroupPlacement& Placement::group(Group which) const
{
    for (const GroupPlacement& g : groups)
        if (g.group == which)
            return g;
    throw std::out_of_range(std::string("no parallel group ") + toString(which));
}

} // namespace parascope
