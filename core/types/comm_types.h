#pragma once
// The vocabulary of communication: which parallel group talks, which collective it runs and what
// it carries. Enums end to end; their names (the report's and the profile's spelling) only at the
// JSON and UI edges.

#include "util/enum_names.h"

#include <cstdint>

namespace parascope {

// Process groups of the 5-D layout (parallel/placement.cpp places them on the cluster).
enum class Group {
    Tp, // tensor parallel
    Cp, // context parallel
    Ep, // expert parallel
    Dp, // data parallel (dense parameters shard or replicate over dp·cp: see DpCp)
    DpCp, // the dense gradient group dp·cp (its collectives are reported under Dp)
    Edp, // expert data parallel: tp·cp·dp/(etp·ep)
    Pp, // pipeline neighbours
};
inline constexpr EnumName<Group> kGroupNames[]
    = {{Group::Tp, "tp"},      {Group::Cp, "cp"},   {Group::Ep, "ep"}, {Group::Dp, "dp"},
       {Group::DpCp, "dp_cp"}, {Group::Edp, "edp"}, {Group::Pp, "pp"}};
constexpr std::span<const EnumName<Group>> enumNames(Group) { return kGroupNames; }
inline const char* toString(Group v) { return nameOf(v); }

enum class Collective { AllReduce, AllGather, ReduceScatter, AllToAll, SendRecv, Broadcast, Reduce };
inline constexpr EnumName<Collective> kCollectiveNames[] = {{Collective::AllReduce, "all_reduce"},
                                                            {Collective::AllGather, "all_gather"},
                                                            {Collective::ReduceScatter, "reduce_scatter"},
                                                            {Collective::AllToAll, "all_to_all"},
                                                            {Collective::SendRecv, "send_recv"},
                                                            {Collective::Broadcast, "broadcast"},
                                                            {Collective::Reduce, "reduce"}};
constexpr std::span<const EnumName<Collective>> enumNames(Collective) { return kCollectiveNames; }
inline const char* toString(Collective v) { return nameOf(v); }

// nccl-tests doc/PERFORMANCE.md: busbw = algbw · factor(n) — all-reduce 2(n−1)/n; all-gather,
// reduce-scatter, all-to-all (n−1)/n; send/receive, broadcast, reduce 1. What each GPU sends of
// S, for the α–β times (comm/collective_cost.cpp) and to read nccl-tests logs.
// Latency steps of NCCL's ring: 2(n−1) for all-reduce (reduce-scatter then all-gather), n−1 for
// the others, 1 for a send/receive (nccl-tests PERFORMANCE.md; Thakur et al. 2005).
inline double ringSteps(Collective c, double n)
{
    if (c == Collective::SendRecv)
        return 1;
    return (c == Collective::AllReduce ? 2 : 1) * (n - 1);
}

inline double busFactor(Collective c, std::int64_t n)
{
    if (n <= 1)
        return c == Collective::SendRecv ? 1.0 : 0.0;
    const double nd = double(n);
    switch (c) {
    case Collective::AllReduce: return 2.0 * (nd - 1) / nd;
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll: return (nd - 1) / nd;
    case Collective::SendRecv:
    case Collective::Broadcast:
    case Collective::Reduce: return 1.0;
    }
    return 0.0;
}

// What a collective carries.
enum class Purpose { Activations, Gradients, Parameters, Kv, Tokens };
inline constexpr EnumName<Purpose> kPurposeNames[] = {{Purpose::Activations, "activations"},
                                                      {Purpose::Gradients, "gradients"},
                                                      {Purpose::Parameters, "parameters"},
                                                      {Purpose::Kv, "kv"},
                                                      {Purpose::Tokens, "tokens"}};
constexpr std::span<const EnumName<Purpose>> enumNames(Purpose) { return kPurposeNames; }
inline const char* toString(Purpose v) { return nameOf(v); }

} // namespace parascope
