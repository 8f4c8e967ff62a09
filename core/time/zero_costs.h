#pragma once
// ZeRO-2/3 and FSDP's per-microbatch collectives as one round of a rank: what the dense
// parameters (over dp·cp) and the routed experts (over expert-dp) gather and reduce-scatter each
// microbatch, and the part of it nothing can hide (the first gather, the last reduce-scatter).

#include "comm/comm_volume.h"
#include "model/parameter_count.h"
#include "schedule/pipeline_geometry.h"
#include "types/scenario.h"

#include <utility>
#include <vector>

namespace parascope {

// One microbatch's collectives for a whole rank, in link seconds: the dense parameters' entry
// (Group::Dp) and the routed experts' (Group::Edp) together — they share the network and run one
// after the other, layer by layer. HSDP's replica all-reduce is a per-step tail, not in here.
struct ZeroRound {
    double gather_s = 0; // ZeRO-3: the all-gathers of the rank's parameters
    double reduce_s = 0; // ZeRO-2/3: the reduce-scatters of its gradients
    // Prefetched on their own stream, they run beside everything the pass does that does not use
    // their link: the compute, and the TP, EP and CP collectives on another link (NVLink while
    // the ZeRO groups cross nodes). Those on the same link take turns with them.
    bool tp_beside = false, ep_beside = false, cp_beside = false;
    // Of a pass's exposed TP, EP and CP time, what the ZeRO collectives run beside.
    double besideTime(double tp, double ep, double cp) const
    {
        return (tp_beside ? tp : 0) + (ep_beside ? ep : 0) + (cp_beside ? cp : 0);
    }
};

ZeroRound zeroRound(const std::vector<CommEntry>& comm, int zero);

// The per-microbatch collectives nothing can hide (FSDP2's implicit prefetch issues a unit's
// all-gather when the unit before it starts; ZeRO-3's prefetch alike): the forward's first
// gather — the root unit (embedding, final norm, output layer) and the first layer, with nothing
// before them to run behind — and in the backward the first layer's gather (resharded after the
// forward) and the last reduce-scatter, the first layer's and the root's, with nothing after
// them. A unit is one transformer layer (torchtitan and Megatron FSDP wrap each block). Bytes by
// share of the rank's parameters; on each rank's first chunk.
struct ZeroEdges {
    double forward_s = 0, backward_s = 0;
    double edge_params = 0, layer_params = 0, rank_params = 0; // the parameter counts they gather
};

ZeroEdges zeroEdges(const Scenario& sc, const ParamCounts& params, const PipelineGeometry& geometry,
                    const ZeroRound& round, const VirtualStage& V);

// One virtual stage's share of a round: the forward's gathers, the backward's (0 when the
// forward's gathered weights are kept) and its reduce-scatters.
struct ZeroPass {
    double gather_s = 0, backward_gather_s = 0, reduce_s = 0;
};

// What the stage's forward and backward expose of them: the edges, and beyond them what does not
// hide behind kZeroOverlap of the time the pass runs beside them (busy_f, busy_b: its compute
// and the collectives on another link).
std::pair<double, double> zeroExposure(const ParallelConfig& p, const ZeroPass& z, const ZeroEdges& edges,
                                       double busy_f, double busy_b);

} // namespace parascope
