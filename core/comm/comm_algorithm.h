#pragma once
// The algorithm a collective runs by, as a value: the communication plan names the one the
// engine assumes for each entry (CommEntry::algorithm, comm/collective_cost.h's
// assumedAlgorithm), the collective explainer (comm/collective_steps.h) plays one step by step,
// and collectiveTime(algorithm, …) times any of them with the same α–β model, so that both can
// speak of the same algorithm.
//
//   ring          one ring over the group (Patarasuk & Yuan 2009); across nodes every hop waits
//                 for the network: the textbook's flat ring
//   hierarchical  multi-rail two-level ring: inside each node, then every rail across nodes at
//                 once, 1/k of the data per NIC (NCCL's channels, one per NIC; schedules-and-comm
//                 §3.3)
//   tree          binomial tree rooted at rank 0: reduce up, broadcast down (Thakur et al. 2005)
//   pairwise      all-to-all by pairwise exchange, each rank's (n−1)/n of the buffer; across
//                 nodes the part bound for other nodes leaves through the NICs
//   deepep        DeepEP's dispatch/combine: one copy of a token per GPU and per node its experts
//                 are on, forwarded over NVLink inside the destination node
//   p2p           one send between two GPUs (pipeline stages, ring-attention steps)
//
// NVLink SHARP (NVLS) is not modelled: its bandwidth has no defensible value without a
// measurement (nccl-tests with NCCL_ALGO=NVLS; import it as a measured collective).

#include "types/comm_types.h"
#include "util/enum_names.h"

namespace parascope {

enum class CollectiveAlgorithm { Ring, Tree, Hierarchical, Pairwise, DeepEp, PointToPoint };
inline constexpr EnumName<CollectiveAlgorithm> kCollectiveAlgorithmNames[]
    = {{CollectiveAlgorithm::Ring, "ring"},
       {CollectiveAlgorithm::Tree, "tree"},
       {CollectiveAlgorithm::Hierarchical, "hierarchical"},
       {CollectiveAlgorithm::Pairwise, "pairwise"},
       {CollectiveAlgorithm::DeepEp, "deepep"},
       {CollectiveAlgorithm::PointToPoint, "p2p"}};
constexpr std::span<const EnumName<CollectiveAlgorithm>> enumNames(CollectiveAlgorithm)
{
    return kCollectiveAlgorithmNames;
}
inline const char* toString(CollectiveAlgorithm a) { return nameOf(a); }

// Whether the algorithm has a form for the operation (ring: all but all-to-all and a send; tree:
// all-reduce and broadcast; hierarchical: all-reduce, all-gather, reduce-scatter; pairwise and
// deepep: all-to-all; p2p: a send).
constexpr bool runs(CollectiveAlgorithm a, Collective c)
{
    switch (a) {
    case CollectiveAlgorithm::Ring: return c != Collective::SendRecv && c != Collective::AllToAll;
    case CollectiveAlgorithm::Tree: return c == Collective::AllReduce || c == Collective::Broadcast;
    case CollectiveAlgorithm::Hierarchical:
        return c == Collective::AllReduce || c == Collective::AllGather || c == Collective::ReduceScatter;
    case CollectiveAlgorithm::Pairwise:
    case CollectiveAlgorithm::DeepEp: return c == Collective::AllToAll;
    case CollectiveAlgorithm::PointToPoint: return c == Collective::SendRecv;
    }
    return false;
}

} // namespace parascope
