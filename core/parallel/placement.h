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
Placement placeRanks(const ParallelConfig& p, const ClusterSpec& cluster);
std::vector<PipelineBoundary> pipelineBoundaries(const ParallelConfig& p, const ClusterSpec& cluster);

} // namespace parascope
