#pragma once
// CollectiveCost: time of one NCCL-style collective on a placed group, α–β model with the
// nccl-tests bus-bandwidth factors, hierarchical (NVLink inside nodes, network across) when the
// group spans nodes.

#include "types/comm_types.h"
#include "types/term.h"
#include "types/gpu_spec.h"
#include "parallel/placement.h"

namespace parascope {


// nccl-tests doc/PERFORMANCE.md: busbw = algbw · factor.
double busFactor(Collective c, std::int64_t n);

struct CollectiveTime {
    double seconds = 0;
    Term term;
};

// S: the collective's buffer size in bytes (nccl-tests "size"). flat: the group's traffic does
// not aggregate inside nodes (ZeRO-2/3 per-layer gathers issued as many small calls).
// With Explain::NumbersOnly the term is left empty.
CollectiveTime collectiveTime(Collective c, double S, const GroupPlacement& g, const ClusterSpec& cluster, bool flat = false,
                              Explain explain = Explain::Full);

} // namespace parascope
