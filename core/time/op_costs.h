#pragma once
// How long each pipeline op takes: the forward, input-gradient and weight-gradient time of every
// virtual stage for one microbatch on one GPU, built from the FLOPs (GEMMs at the GPU's GEMM
// efficiency, fused attention at its attention efficiency), memory-bound elementwise work (bytes
// over achievable HBM bandwidth) and the communication inside the op that compute cannot hide
// (TP collectives, EP all-to-all, CP ring exchange, ZeRO-2/3 per-microbatch collectives).
// The simulator turns these into the step; the closed form multiplies them out.

#include "comm/comm_volume.h"
#include "time/layer_ops.h"
#include "model/parameter_count.h"
#include "types/scenario.h"
#include "schedule/pipeline_geometry.h"
#include "schedule/simulator.h"

#include <vector>

namespace parascope {

// Exposed communication inside one op, by parallel group (seconds).
struct GroupExposure {
    double tp = 0, ep = 0, cp = 0, dp = 0;
    double total() const { return tp + ep + cp + dp; }
};

struct StageOpCost {
    StageCost cost; // what the simulator needs
    GroupExposure forward, backward; // what of forward_comm_s / backward_comm_s each group is
    int layers = 0;
    // The compute of one microbatch (forward + backward, communication apart) and of it the
    // GEMMs, the attention kernels and the MoE host waits: the op breakdown set beside a
    // measured trace (TimeReport::compute_kinds).
    double compute_s = 0, gemm_s = 0, attention_s = 0, host_wait_s = 0;
    double recompute_s = 0; // of compute_s, what recompute runs again in the backward
};

// CPU offload's PCIe copies per GPU and step (time/offload_costs.h), at the achievable rate.
struct PcieTraffic {
    double d2h_bytes = 0, h2d_bytes = 0, bytes_per_s = 0;
    double seconds() const { return bytes_per_s > 0 ? (d2h_bytes + h2d_bytes) / bytes_per_s : 0; }
};

struct OpCostModel {
    PipelineGeometry geometry; // the pipeline the stages belong to
    std::vector<StageOpCost> stages; // per virtual stage
    double p2p_s = 0; // one pipeline send over the slowest stage boundary
    std::vector<double> boundary_p2p_s; // one send over each boundary (Placement::pp_boundaries)
    bool blocking_p2p = false; // sends block their sender (parallel.pp_comm_overlap false)
    std::vector<RankTail> tails; // per rank
    double optimizer_s = 0;
    PcieTraffic offload_pcie; // CPU offload's copies (time/offload_costs.h)
    std::vector<Term> terms; // per-layer costs of a typical layer, explained
    // One layer's ops (time/layer_ops.h) for one microbatch: a dense layer's, and a MoE layer's
    // when the model has experts (else empty). The stage costs above add these up.
    std::vector<LayerOp> dense_ops, moe_ops;
};

OpCostModel opCosts(const Scenario& sc, const ParamCounts& params, const PipelineGeometry& geometry,
                    const std::vector<CommEntry>& comm, Explain explain = Explain::Full);

} // namespace parascope
