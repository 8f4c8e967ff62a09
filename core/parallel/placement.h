#pragma once
// Rank placement in Megatron order: tp innermost, then cp, dp, pp (rank = tp_rank + tp·(cp_rank
// + cp·(dp_rank + dp·pp_rank))). EP is carved out of dp·cp: an EP group takes ep consecutive
// expert-tp blocks (Megatron's expert grid etp-ep-edp-pp). For every group: its size, the stride
// between its members, whether it stays inside a node, and how many nodes it spans.

#include "types/comm_types.h"
#include "types/gpu_spec.h"
#include "types/parallel_config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace parascope {

enum class Link { NvLink, Network, Pcie };
inline constexpr EnumName<Link> kLinkNames[]
    = {{Link::NvLink, "nvlink"}, {Link::Network, "network"}, {Link::Pcie, "pcie"}};
constexpr std::span<const EnumName<Link>> enumNames(Link) { return kLinkNames; }
inline const char* toString(Link v) { return nameOf(v); }

struct GroupPlacement {
    Group group = Group::Tp;
    std::int64_t size = 1;
    std::int64_t stride = 1; // rank distance between neighbouring members
    std::int64_t nodes = 1; // nodes the group of rank 0 spans
    std::int64_t ranks_per_node = 1; // members that share a node (size / nodes)
    Link link = Link::NvLink; // the slowest link the group's traffic crosses
    // Of each GPU's datasheet network bandwidth, what this group's traffic gets on the cluster's
    // fabric (networkShares): rings and trees, and all-to-alls. 1 inside a node.
    double network_share = 1, all_to_all_share = 1;
    double nic_share = 1; // the node's NICs shared by its GPUs (fabric.nics_per_node / GPUs per node)
    std::int64_t leaves = 1; // leaf switches the group spans (1: its traffic stays below one leaf)
    bool crossesNodes() const { return nodes > 1; }
};

// One pipeline boundary: the ranks of stage from_rank send to those of to_rank over `link`
// (NVLink or PCIe inside a node, the network when any pair of partners sits on different nodes).
struct PipelineBoundary {
    int from_rank = 0;
    int to_rank = 1;
    Link link = Link::NvLink;
};

struct Placement {
    std::int64_t gpus = 1;
    std::int64_t nodes = 1;
    std::vector<GroupPlacement> groups; // tp, cp, ep, dp, dp_cp, edp, pp
    // Boundary i joins pipeline rank i and i+1; the interleaved schedule also wraps from the last
    // rank back to rank 0 (its next model chunk). Empty without PP.
    std::vector<PipelineBoundary> pp_boundaries;
    const GroupPlacement& group(Group g) const;
};

GroupPlacement placeGroup(Group group, std::int64_t size, std::int64_t stride, const ClusterSpec& cluster);

// The group's shares of the network on the cluster's fabric (FabricSpec), set by placeGroup.
// Every GPU of a node runs a group of each kind at once (the DP groups of all TP ranks reduce
// together), so a node's traffic is its GPUs' and its NICs carry it: nic_share = min(1, NICs /
// GPUs per node). A group over more nodes than a leaf switch holds (n nodes per leaf, o : 1
// oversubscribed uplinks of n·B/o) sends part of its traffic up: a ring or a tree one node's per
// leaf (B against n·B/o: slower by max(1, o/n)); an all-to-all (N − n)/N of every node's
// (n·B·(N − n)/N against n·B/o: slower by max(1, o·(N − n)/N)). Leiserson 1985 (fat trees);
// NVIDIA DGX SuperPOD reference architecture (rail-optimised, non-blocking).
void networkShares(GroupPlacement& g, const ClusterSpec& cluster);

// The network link a group's traffic sees: the cluster's inter-node link at its share.
LinkSpec networkLink(const GroupPlacement& g, const ClusterSpec& cluster, bool all_to_all = false);
Placement placeRanks(const ParallelConfig& p, const ClusterSpec& cluster);
std::vector<PipelineBoundary> pipelineBoundaries(const ParallelConfig& p, const ClusterSpec& cluster);

} // namespace parascope
