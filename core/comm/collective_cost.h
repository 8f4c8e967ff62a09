#pragma once
// CollectiveCost: time of one NCCL-style collective on a placed group, α–β model with the
// nccl-tests bus-bandwidth factors, hierarchical (NVLink inside nodes, network across) when the
// group spans nodes.

#include "types/comm_types.h"
#include "types/term.h"
#include "types/gpu_spec.h"
#include "parallel/placement.h"

namespace parascope {


// busFactor(c, n), nccl-tests' busbw/algbw: types/comm_types.h.

struct CollectiveTime {
    double seconds = 0;
    Term term;
};

// S: the collective's buffer size in bytes (nccl-tests "size"). flat: the group's traffic does
// not aggregate inside nodes (ZeRO-2/3 per-layer gathers issued as many small calls).
// With Explain::NumbersOnly the term is left empty.
CollectiveTime collectiveTime(Collective c, double S, const GroupPlacement& g, const ClusterSpec& cluster, bool flat = false,
                              Explain explain = Explain::Full);

// Expected number of the other groups − 1 equal groups of `experts` experts (a GPU's, a node's)
// that one token's top_k distinct experts reach, drawn uniformly (balanced routing):
// (groups − 1)·(1 − C(E − E/groups, k)/C(E, k)).
double otherExpertGroupsReached(double experts, double top_k, double groups);

// DeepEP's dispatch or combine of S bytes per GPU (S = tokens·top_k·h·bytes: what an all-to-all
// with a copy per expert would send): a token crosses NVLink once per other GPU of its experts
// and, across nodes, the network once per other node, where NVLink forwards it (deepseek-ai/DeepEP,
// "normal kernels with NVLink and RDMA forwarding"). Balanced routing over `experts` experts.
CollectiveTime dedupAllToAllTime(double S, double top_k, double experts, const GroupPlacement& g, const ClusterSpec& cluster,
                                 Explain explain = Explain::Full);

} // namespace parascope
