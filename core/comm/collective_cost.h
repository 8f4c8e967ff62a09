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

// The algorithm the engine assumes, as NCCL's tuner does: a send is p2p, an all-to-all pairwise;
// otherwise the fastest by this model of those NCCL chooses from for the placement: the ring
// (channels over rails across nodes), the double binary tree for an all-reduce across nodes,
// NVLS for an all-reduce inside a node where the cluster has it (comm/comm_algorithm.h).
CollectiveAlgorithm assumedAlgorithm(Collective c, double S, const GroupPlacement& g, const ClusterSpec& cluster);

// Whether the cluster and placement have the algorithm at all (NVLS: inside one node, at least
// the preset's min_ranks GPUs, a measured NVLS figure), beside runs() for the operation.
bool available(CollectiveAlgorithm a, Collective c, const GroupPlacement& g, const ClusterSpec& cluster);

// One call of S bytes (nccl-tests "size") by algorithm `a`. A measured bus bandwidth for this
// op, group size and node count (the cluster's hardware profile) replaces the model for the
// assumed algorithm, which is what NCCL ran when it was measured. DeepEP needs `routing`. An
// algorithm the placement does not have (available()) is timed as the ring.
// With Explain::NumbersOnly the term is left empty.
CollectiveTime collectiveTime(CollectiveAlgorithm a, Collective c, double S, const GroupPlacement& g,
                              const ClusterSpec& cluster, Explain explain = Explain::Full, ExpertRouting routing = {});

// The model alone, never a measurement (what the explainer plays).
CollectiveTime collectiveModelTime(CollectiveAlgorithm a, Collective c, double S, const GroupPlacement& g,
                                   const ClusterSpec& cluster, Explain explain = Explain::Full,
                                   ExpertRouting routing = {});

// By the algorithm the engine assumes.
inline CollectiveTime collectiveTime(Collective c, double S, const GroupPlacement& g, const ClusterSpec& cluster,
                                     Explain explain = Explain::Full)
{
    return collectiveTime(assumedAlgorithm(c, S, g, cluster), c, S, g, cluster, explain);
}

// The bandwidth a call "used", as nccl-tests reports it: busbw = busFactor(c, n) · S / t.
inline double busBandwidth(Collective c, double S, std::int64_t n, double seconds)
{
    return seconds > 0 ? busFactor(c, n) * S / seconds : 0;
}

// The ring's channels: across nodes one per GPU of a node (each GPU's NIC carries one), inside a
// node one (the channels share each GPU's NVLink).
double ringChannels(const GroupPlacement& g);

// One step of a ring over the placed group: every rank sends `chunk` bytes on each of `channels`
// rings at once; across nodes a GPU sends one of them over its NIC and the other channels − 1
// (at least one) over NVLink. The step lasts its slowest link: max(α_net + chunk/busbw_net,
// α_nvl + (channels − 1)·chunk/busbw_nvl). Bandwidths at the collective's size S (the ramp).
// The explainer times its ring steps by this, so both give one time.
double ringStepSeconds(double chunk, double channels, double S, const GroupPlacement& g, const ClusterSpec& cluster);

// The double binary tree's bandwidth factor (NCCL tuning.cc: tree all-reduce busBw × 0.92).
inline constexpr double kTreeBandwidthFactor = 0.92;

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
