#pragma once
// CollectiveCost: time of one NCCL-style collective on a placed group by a given algorithm
// (comm/comm_algorithm.h), α–β model with the nccl-tests bus-bandwidth factors; the algorithm the
// engine assumes for each collective and placement; DeepEP's deduplicated all-to-all.

#include "comm/comm_algorithm.h"
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

// DeepEP's routing: which GPUs and nodes one token's top_k experts reach.
struct ExpertRouting {
    double top_k = 0;
    double experts = 0;
};

// The algorithm the engine assumes: a send is p2p, an all-to-all pairwise, a collective inside
// a node a ring, one across nodes the multi-rail hierarchical ring (NCCL's channels spread a
// ring over every NIC: schedules-and-comm §3.3).
CollectiveAlgorithm assumedAlgorithm(Collective c, const GroupPlacement& g);

// One call of S bytes (nccl-tests "size") by algorithm `a`. A measured bus bandwidth for this
// op, group size and node count (the cluster's hardware profile) replaces the model for the
// assumed algorithm, which is what NCCL ran when it was measured. DeepEP needs `routing`.
// With Explain::NumbersOnly the term is left empty.
CollectiveTime collectiveTime(CollectiveAlgorithm a, Collective c, double S, const GroupPlacement& g,
                              const ClusterSpec& cluster, Explain explain = Explain::Full, ExpertRouting routing = {});

// By the algorithm the engine assumes.
inline CollectiveTime collectiveTime(Collective c, double S, const GroupPlacement& g, const ClusterSpec& cluster,
                                     Explain explain = Explain::Full)
{
    return collectiveTime(assumedAlgorithm(c, g), c, S, g, cluster, explain);
}

// Expected number of the other groups − 1 equal groups of `experts` experts (a GPU's, a node's)
// that one token's top_k distinct experts reach, drawn uniformly (balanced routing):
// (groups − 1)·(1 − C(E − E/groups, k)/C(E, k)).
double otherExpertGroupsReached(double experts, double top_k, double groups);

// DeepEP's dispatch or combine of S bytes per GPU (S = tokens·top_k·h·bytes: what an all-to-all
// with a copy per expert would send): a token crosses NVLink once per other GPU of its experts
// and, across nodes, the network once per other node, where NVLink forwards it (deepseek-ai/DeepEP,
// "normal kernels with NVLink and RDMA forwarding"). Balanced routing over `experts` experts.
CollectiveTime dedupAllToAllTime(double S, double top_k, double experts, const GroupPlacement& g,
                                 const ClusterSpec& cluster, Explain explain = Explain::Full);

} // namespace parascope
