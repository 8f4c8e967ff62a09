#pragma once
// The algorithm a collective runs by, as a value. One model serves every view: the communication
// plan names the one the engine assumes for each entry (CommEntry::algorithm, comm/collective_cost.h's
// assumedAlgorithm: the fastest of those NCCL chooses from, as NCCL's own tuner does), the
// collective explainer (comm/collective_steps.h) plays any of them, and collectiveTime(algorithm, …)
// times any of them with the same α–β model, so that the explainer, `collective` and `evaluate`
// give one time for one algorithm and placement.
//
// What NCCL runs (docs: reference schedules-and-comm §3.3–3.4):
//   ring          NCCL's ring: inside a node one ring over NVLink; across nodes one ring per NIC
//                 (channels), each with 1/k of the data, each leaving the node through a different
//                 GPU's NIC, so the network hop of every step uses all k NICs of a node and a GPU's
//                 NVLink carries the other k − 1 channels
//   tree          NCCL's double binary tree all-reduce (Sanders, Speck & Träff 2009; NCCL 2.4):
//                 a chain inside each node, two binary trees across nodes with half the data each;
//                 2·⌈log₂N⌉ network hops of latency instead of the ring's 2(n−1)
//   nvls          NVLink SHARP (NCCL ≥ 2.17, NVSwitch gen 3): the switch reduces; all-reduce inside
//                 one node, on clusters whose preset gives its measured bus bandwidth
//   pairwise      all-to-all by pairwise exchange, each rank's (n−1)/n of the buffer; across
//                 nodes the part bound for other nodes leaves through the NICs
//   deepep        DeepEP's dispatch/combine: one copy of a token per GPU and per node its experts
//                 are on, forwarded over NVLink inside the destination node
//   p2p           one send between two GPUs (pipeline stages, ring-attention steps)
// For teaching (never assumed by the engine; the explainer labels them and gives the factor to
// what NCCL does):
//   flat_ring     the textbook's ring: one ring, one channel; across nodes every step waits for
//                 one NIC (Patarasuk & Yuan 2009)
//   binomial_tree binomial tree rooted at rank 0: reduce up, broadcast down (Thakur et al. 2005)
//   hierarchical  two-level ring: reduce-scatter inside each node, all-reduce of each 1/k shard
//                 across nodes on every rail at once, all-gather inside (Horovod's hierarchical
//                 all-reduce; schedules-and-comm §3.3); NCCL's channels overlap the two levels

#include "types/comm_types.h"
#include "util/enum_names.h"

namespace parascope {

enum class CollectiveAlgorithm {
    Ring,
    Tree,
    Nvls,
    Hierarchical,
    FlatRing,
    BinomialTree,
    Pairwise,
    DeepEp,
    PointToPoint
};
inline constexpr EnumName<CollectiveAlgorithm> kCollectiveAlgorithmNames[]
    = {{CollectiveAlgorithm::Ring, "ring"},          {CollectiveAlgorithm::Tree, "tree"},
       {CollectiveAlgorithm::Nvls, "nvls"},          {CollectiveAlgorithm::Hierarchical, "hierarchical"},
       {CollectiveAlgorithm::FlatRing, "flat_ring"}, {CollectiveAlgorithm::BinomialTree, "binomial_tree"},
       {CollectiveAlgorithm::Pairwise, "pairwise"},  {CollectiveAlgorithm::DeepEp, "deepep"},
       {CollectiveAlgorithm::PointToPoint, "p2p"}};
constexpr std::span<const EnumName<CollectiveAlgorithm>> enumNames(CollectiveAlgorithm)
{
    return kCollectiveAlgorithmNames;
}
inline const char* toString(CollectiveAlgorithm a) { return nameOf(a); }

// A teaching form: shown by the explainer, never what NCCL (or the engine) runs.
constexpr bool teachingOnly(CollectiveAlgorithm a)
{
    return a == CollectiveAlgorithm::FlatRing || a == CollectiveAlgorithm::BinomialTree
        || a == CollectiveAlgorithm::Hierarchical;
}

// Whether the algorithm has a form for the operation (ring and flat ring: all but all-to-all and
// a send; tree and nvls: all-reduce; binomial tree: all-reduce and broadcast; hierarchical:
// all-reduce, all-gather, reduce-scatter; pairwise and deepep: all-to-all; p2p: a send).
constexpr bool runs(CollectiveAlgorithm a, Collective c)
{
    switch (a) {
    case CollectiveAlgorithm::Ring:
    case CollectiveAlgorithm::FlatRing: return c != Collective::SendRecv && c != Collective::AllToAll;
    case CollectiveAlgorithm::Tree:
    case CollectiveAlgorithm::Nvls: return c == Collective::AllReduce;
    case CollectiveAlgorithm::BinomialTree: return c == Collective::AllReduce || c == Collective::Broadcast;
    case CollectiveAlgorithm::Hierarchical:
        return c == Collective::AllReduce || c == Collective::AllGather || c == Collective::ReduceScatter;
    case CollectiveAlgorithm::Pairwise:
    case CollectiveAlgorithm::DeepEp: return c == Collective::AllToAll;
    case CollectiveAlgorithm::PointToPoint: return c == Collective::SendRecv;
    }
    return false;
}

} // namespace parascope
