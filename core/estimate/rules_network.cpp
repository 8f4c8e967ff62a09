// Diagnostic rules about the network fabric (the topology what-ifs, types/gpu_spec.h FabricSpec;
// parallel/placement.h networkShares): a group whose traffic crosses oversubscribed leaf uplinks
// (estimate/diagnostic_rules.h).

#include "estimate/diagnostic_rules.h"

#include "estimate/diagnostic_text.h"
#include "estimate/display_names.h"

namespace parascope {

using namespace diagnostic_text;

namespace {

void spineOversubscribed(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const FabricSpec& f = in.sc.cluster.fabric;
    for (const GroupPlacement& g : in.est->placement.groups) {
        if (g.size <= 1 || g.leaves <= 1 || g.group == Group::DpCp)
            continue;
        // Expert parallelism moves its tokens by all-to-all; the other groups by rings and trees.
        const bool a2a = g.group == Group::Ep;
        const double slower = g.nic_share / (a2a ? g.all_to_all_share : g.network_share);
        if (slower <= 1 + 1e-9)
            continue;
        const Localized name = displayName(g.group);
        const std::string times = num(slower), o = n(f.oversubscription), per_leaf = n(f.nodes_per_leaf);
        out.push_back(make(Severity::Warning, "spine_oversubscribed", "network.oversubscription",
                           name.en + " spans " + n(g.nodes) + " nodes on " + n(g.leaves) + " leaf switches of "
                               + countOf(f.nodes_per_leaf, "node", "nodes") + ": its " + (a2a ? "all-to-all" : "ring")
                               + " traffic crosses uplinks " + o + ":1 oversubscribed and runs " + times
                               + "× slower than on a non-blocking fabric.",
                           name.zh + " 跨 " + n(g.nodes) + " 个节点、" + n(g.leaves) + " 个叶交换机（每个 " + per_leaf
                               + " 个节点）：其" + (a2a ? " All-to-All " : "环形") + "流量经过收敛比 " + o
                               + ":1 的上行链路，比无阻塞网络慢 " + times + " 倍。",
                           "Keep " + name.en + " within " + countOf(f.nodes_per_leaf, "node", "nodes")
                               + " (a smaller degree, or the group inside a leaf), or a fabric with less "
                                 "oversubscription.",
                           "让 " + name.zh + " 留在 " + per_leaf
                               + " 个节点之内（减小并行度，或把该组放在一个叶交换机下），"
                               + "或使用收敛比更低的网络。"));
    }
}

} // namespace

std::vector<DiagnosticRule> rules::network()
{
    // clang-format off
    using enum RulePhase;
    using enum RuleWall;
    return {
        {"spine_oversubscribed", "spine_oversubscribed", OnEstimate, Communication, {"network.oversubscription"}, spineOversubscribed},
    };
    // clang-format on
}

} // namespace parascope
