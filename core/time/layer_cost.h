#pragma once
// One layer's costs per microbatch on one GPU: its ops (time/layer_ops.h) added up as the passes
// use them, then the TP, EP and CP communication it cannot hide and the MoE host waits. Internal
// to time/: op_costs.cpp builds every pipeline stage from a dense and a MoE layer's costs.

#include "comm/comm_volume.h"
#include "time/layer_ops.h"
#include "types/scenario.h"

#include <optional>
#include <vector>

namespace parascope::layer_cost {

struct LayerCost {
    double linear_s = 0; // forward GEMMs
    double linear_dx_s = 0, linear_dw_s = 0; // the dX and dW GEMM passes (the forward's size)
    double overlap_split_s = 0; // of linear_s and of linear_dx_s each: TP overlap's chunks (layer_ops.h)
    // The GEMMs each TP collective runs next to (and can hide behind with tp_comm_overlap): the
    // attention's input projections after its all-gather, its output projection before its
    // reduce-scatter (all-reduce), the same for the MLP (experts, shared experts, router).
    double attn_in_s = 0, attn_out_s = 0, mlp_in_s = 0, mlp_out_s = 0;
    double attention_s = 0; // forward attention scores (QKᵀ, softmax, scores·V)
    double attention_b_s = 0; // their backward
    double elementwise_s = 0; // one pass over the layer's activations
    double cast_f_s = 0, cast_b_s = 0; // FP8 quantization before the forward / backward GEMMs
    double routing_s = 0; // MoE router softmax/top-k and token permutation, per direction
    double relayout_f_s = 0, relayout_b_s = 0; // SP's copies with batch-first activations (layer_ops.cpp)
    double fsdp_copy_f_s = 0, fsdp_copy_b_s = 0; // FSDP2's copy-out of a gathered unit (layer_ops.cpp)
    // The attention's own memory-bound passes: GQA's K/V repeat, PyTorch CP's fp32 merges of the
    // blocks (layer_ops.cpp kvRepeat, ringMerges), per direction.
    double attn_copy_f_s = 0, attn_copy_b_s = 0;
    double recompute_s = 0; // selective recompute modules other than core_attn, in the backward
    double tp_f = 0, tp_b = 0, ep_f = 0, ep_b = 0, cp_f = 0, cp_b = 0; // exposed comm
    // Of ep_f and ep_b: combined 1F1B's compute slowed by the DeepEP kernels beside it, which hold
    // parallel.deepep_sms of the GPU's SMs (layer_cost.cpp exposeEp).
    double ep_sm_f = 0, ep_sm_b = 0;
    double host_f = 0, host_b = 0; // MoE: the GPU waiting for the host to issue the layer's kernels
    // Combined 1F1B: what a pass without a partner (warm-up forwards, cool-down backwards) takes
    // beyond a paired one, its all-to-alls exposed again.
    double unpaired_f = 0, unpaired_b = 0;

    // The layer's compute per microbatch, before any host wait. Forward: GEMMs, attention and its
    // copies, elementwise, FP8 casts, routing, SP's relayout copies, FSDP2's copy-out. Backward,
    // input gradients: dX GEMMs (= the forward's), the attention backward and its copies,
    // elementwise twice (read the activation, write the gradient), the backward collectives'
    // relayout copies, the backward gather's copy-out, FP8's quantization of the output
    // gradients, and what recompute repeats of the forward (not its copy-out: the recompute runs
    // on the backward's gathered unit); weight gradients: the dW GEMMs.
    double forward() const { return forwardCompute() + fsdp_copy_f_s; }
    double forwardCompute() const
    {
        return linear_s + attention_s + attn_copy_f_s + elementwise_s + cast_f_s + routing_s + relayout_f_s;
    }
    double backwardInput(const TrainingConfig& t) const
    {
        return linear_dx_s + attention_b_s + attn_copy_b_s + 2 * elementwise_s + cast_b_s + routing_s + relayout_b_s
            + fsdp_copy_b_s + recomputed(t);
    }
    // What the backward runs of the forward once more: core attention, the selective modules,
    // or the whole forward.
    double recomputed(const TrainingConfig& t) const
    {
        double r = t.recomputes(RecomputeModule::CoreAttn) ? attention_s + attn_copy_f_s : 0;
        if (t.recompute == Recompute::Selective)
            r += recompute_s;
        else if (t.recompute == Recompute::Full)
            r += forwardCompute();
        return r;
    }
    double backwardWeight() const { return linear_dw_s; }
    // Exposed communication; a full recompute's backward runs the forward's once more.
    double commForward() const { return tp_f + ep_f + cp_f; }
    double commBackward(bool full) const { return tp_b + ep_b + cp_b + (full ? commForward() : 0); }
};

// Whether PyTorch's async TP leaves the backward's reduce-scatters exposed (layer_cost.cpp
// asyncTpBackward): async TP with SP over two TP collectives per layer and direction.
bool asyncTpSplitsBackward(const Scenario& sc);
// The host's time to issue one MoE layer's forward (gpu.moe_layer_host_s): 0 where the model has
// no MoE or its MoE layers replay as CUDA graphs (training.cuda_graphs layers or full_iteration).
// Partial graphs leave it: the dispatcher and the experts stay eager and the token counts still
// go to the host every forward.
double moeHostSeconds(const Scenario& sc);
// What training.cuda_graphs does to that time, said beside it ("" when eager).
const char* moeHostNote(const Scenario& sc);

// Time of one call of (group, collective) from the communication plan; 0 if absent.
double callTime(const std::vector<CommEntry>& comm, Group group, Collective collective,
                std::optional<Purpose> purpose = std::nullopt);
const CommEntry* findEntry(const std::vector<CommEntry>& comm, Group group, Purpose purpose);

// The per-call times of the collectives inside a layer, from the communication plan.
struct LayerComm {
    double t_ar = 0, t_ag = 0, t_ag_b = 0, t_rs = 0; // TP: all-reduce, all-gather (backward's), reduce-scatter
    double t_a2a = 0; // EP: one all-to-all
    double t_kv = 0; // CP ring: one K/V send
    double cp_dkv = 0; // CP ring_allgather: one send of the fp32 K/V gradients
    double cp_a2a = 0, cp_ag = 0, cp_rs = 0; // CP Ulysses (both all-to-alls); CP all-gather and its reduce-scatter
};
LayerComm layerComm(const Scenario& sc, const std::vector<CommEntry>& comm);

// A layer's ops added up as the passes use them.
LayerCost sumOps(const std::vector<LayerOp>& ops);

// A dense or MoE layer's costs: its ops added up, then what it cannot hide.
LayerCost layerCost(const Scenario& sc, const std::vector<LayerOp>& ops, const LayerComm& lc, bool moe);

} // namespace parascope::layer_cost
