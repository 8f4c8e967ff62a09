#include "time/layer_cost.h"

#include <algorithm>

namespace parascope::layer_cost {

double callTime(const std::vector<CommEntry>& comm, Group group, Collective collective, std::optional<Purpose> purpose)
{
    for (const CommEntry& c : comm)
        if (c.group == group && c.collective == collective && (!purpose || c.purpose == *purpose)
            && c.calls_per_step > 0)
            return c.time_s / c.calls_per_step;
    return 0;
}

const CommEntry* findEntry(const std::vector<CommEntry>& comm, Group group, Purpose purpose)
{
    for (const CommEntry& c : comm)
        if (c.group == group && c.purpose == purpose)
            return &c;
    return nullptr;
}

LayerComm layerComm(const Scenario& sc, const std::vector<CommEntry>& comm)
{
    LayerComm lc;
    lc.t_ar = callTime(comm, Group::Tp, Collective::AllReduce);
    lc.t_ag = callTime(comm, Group::Tp, Collective::AllGather, Purpose::Activations);
    // With FP8 gathers the backward's all-gathers (of bf16 gradients) are their own plan entry.
    lc.t_ag_b = sc.training.fp8Gathers() && callTime(comm, Group::Tp, Collective::AllGather, Purpose::Gradients) > 0
        ? callTime(comm, Group::Tp, Collective::AllGather, Purpose::Gradients)
        : lc.t_ag;
    lc.t_rs = callTime(comm, Group::Tp, Collective::ReduceScatter);
    lc.t_a2a = callTime(comm, Group::Ep, Collective::AllToAll);
    lc.t_kv = callTime(comm, Group::Cp, Collective::SendRecv, Purpose::Kv);
    lc.cp_dkv = callTime(comm, Group::Cp, Collective::SendRecv, Purpose::Gradients);
    lc.cp_a2a = callTime(comm, Group::Cp, Collective::AllToAll, Purpose::Kv)
        + callTime(comm, Group::Cp, Collective::AllToAll, Purpose::Activations);
    lc.cp_ag = callTime(comm, Group::Cp, Collective::AllGather);
    lc.cp_rs = callTime(comm, Group::Cp, Collective::ReduceScatter);
    return lc;
}

// A layer's ops added up as the passes use them: the GEMMs by the TP collective each runs next
// to, the attention, the elementwise and routing passes, FP8 casts and what recompute repeats.
LayerCost sumOps(const std::vector<LayerOp>& ops)
{
    LayerCost c;
    for (const LayerOp& op : ops) {
        switch (op.slot) {
        case TpSlot::AttentionIn: c.attn_in_s += op.forward_s, c.linear_s += op.forward_s; break;
        case TpSlot::AttentionOut: c.attn_out_s += op.forward_s, c.linear_s += op.forward_s; break;
        case TpSlot::MlpIn: c.mlp_in_s += op.forward_s; break;
        case TpSlot::MlpOut: c.mlp_out_s += op.forward_s; break;
        case TpSlot::None: break;
        }
        if (op.slot != TpSlot::None) {
            c.linear_dx_s += op.input_grad_s, c.linear_dw_s += op.weight_grad_s;
            c.overlap_split_s += op.overlap_split_s;
        }
        if (op.rate == OpRate::Attention)
            c.attention_s = op.forward_s, c.attention_b_s = op.input_grad_s;
        else if (op.name == "elementwise")
            c.elementwise_s = op.forward_s;
        else if (op.name == "routing")
            c.routing_s = op.forward_s;
        else if (op.name == "sequence_relayout")
            c.relayout_f_s = op.forward_s, c.relayout_b_s = op.input_grad_s;
        else if (op.name == "fsdp_copy_out")
            c.fsdp_copy_f_s = op.forward_s, c.fsdp_copy_b_s = op.input_grad_s;
        else if (op.name == "kv_repeat" || op.name == "cp_ring_merge")
            c.attn_copy_f_s += op.forward_s, c.attn_copy_b_s += op.input_grad_s;
        c.cast_f_s += op.cast_forward_s;
        c.cast_b_s += op.cast_backward_s;
        c.recompute_s += op.recompute_s;
    }
    c.linear_s += c.mlp_in_s + c.mlp_out_s;
    return c;
}

namespace {

double over(double collective, double hiding) { return std::max(0.0, collective - hiding); }

// TP communication overlap (Megatron --tp-comm-overlap, PyTorch async TP) splits each collective
// and the GEMM it feeds or follows into chunks, so a collective hides behind that GEMM only (its
// dX GEMM in the backward, the same size): the attention's all-gather behind the QKV projection,
// its reduce-scatter behind the output projection, the MLP's behind its up and down projections.
// A parallel block's one collective per direction hides behind all of them.
double exposedTp(const Scenario& sc, const LayerCost& c, const LayerComm& lc, double gather, double scatter)
{
    const ParallelConfig& p = sc.parallel;
    const bool sp = p.sequence_parallel && p.tp > 1;
    if (!p.tp_comm_overlap)
        return tpCollectivesPerLayer(sc.model) * (sp ? gather + scatter : lc.t_ar);
    if (tpCollectivesPerLayer(sc.model) == 1)
        return std::max(0.0, (sp ? gather + scatter : lc.t_ar) - c.linear_s);
    if (sp)
        return over(gather, c.attn_in_s) + over(scatter, c.attn_out_s) + over(gather, c.mlp_in_s)
            + over(scatter, c.mlp_out_s);
    return over(lc.t_ar, c.attn_out_s) + over(lc.t_ar, c.mlp_out_s);
}

// PyTorch's async TP fuses a collective with its GEMM only where torch.compile's graph shows one
// collective next to one matmul (torch/_inductor/fx_passes/micro_pipeline_tp.py). The backward's
// reduce-scatters of the input gradient after separate projections receive the sum of several
// matmuls (q, k and v; SwiGLU's gate and up), which no pattern matches: they run exposed, as
// without overlap (pytorch/pytorch#149946: "only valid ... patterns in the forward graph, but not
// in the backward graph ... the reduce-scatters are receiving as input the addition of various
// ... mms"). The backward's all-gathers (of the output gradients) feed one matmul each, the
// output projections' dX, and hide behind it. That is why async TP speeds the forward up far more
// than the step (the PyTorch announcement: ~29 % forward, ~8 % end to end on Llama 3 8B).
double asyncTpBackward(const Scenario& sc, const LayerCost& c, double gather, double scatter)
{
    const double mlp_scatter = sc.model.mlp == MlpKind::SwiGlu ? scatter : over(scatter, c.mlp_in_s);
    return over(gather, c.attn_out_s) + scatter + over(gather, c.mlp_out_s) + mlp_scatter;
}

void exposeTp(LayerCost& c, const Scenario& sc, const LayerComm& lc)
{
    c.tp_f = exposedTp(sc, c, lc, lc.t_ag, lc.t_rs);
    c.tp_b = asyncTpSplitsBackward(sc) ? asyncTpBackward(sc, c, lc.t_ag_b, lc.t_rs)
                                       : exposedTp(sc, c, lc, lc.t_ag_b, lc.t_rs);
    // torchtitan's op SAC keeps the reduce-scatters' outputs but not the all-gathers': the
    // backward's recompute of k and of the MLP's up projection gathers their inputs again.
    const bool sp = sc.parallel.sequence_parallel && sc.parallel.tp > 1;
    if (sp && sc.training.recomputes(RecomputeModule::EveryOtherMm))
        c.tp_b += exposedTp(sc, c, lc, lc.t_ag, 0.0);
}

// The compute that runs beside DeepEP's kernels slows by k/(N − k) of the time they run: they
// hold k = parallel.deepep_sms of the GPU's N SMs (DeepEP's Buffer.set_num_sms; Megatron's
// --moe-deepep-num-sms, default 20, and its Model Zoo's 1F1B-overlap recipe leaves as many SMs
// free in the norm kernels, NVTE_*_LAYERNORM_SM_MARGIN). NCCL's all-to-all takes SMs too, by its
// channel count, which no source here gives: not charged.
double deepEpSmShare(const Scenario& sc)
{
    const int N = sc.cluster.gpu.sm_count, k = sc.parallel.deepep_sms;
    if (sc.parallel.moe_dispatcher != MoeDispatcher::DeepEp || N <= 0 || k >= N)
        return 0.0;
    return double(k) / double(N - k);
}

// A MoE layer's dispatch and combine, forward and backward. Combined 1F1B (parallel_config.h
// ep_comm_overlap; Megatron-Core "Combined 1F1B: Expert-Parallel All-to-All Overlap"): the
// forward's hide behind the paired backward's compute of the layer, the backward's behind the
// forward's, which the communication kernels' SMs slow (deepEpSmShare; booked on the slowed
// pass). Returns what a pass without a partner adds back: the all-to-alls its partner would have
// hidden, less the slowdown it does not suffer.
std::pair<double, double> exposeEp(LayerCost& c, const Scenario& sc, const LayerComm& lc)
{
    const TrainingConfig& t = sc.training;
    c.ep_f = kEpAllToAllsPerMoeLayer * lc.t_a2a;
    // Recomputing the MoE block dispatches and combines once more (full recompute: in the stage).
    c.ep_b = (t.recomputes(RecomputeModule::Moe) ? 2 : 1) * kEpAllToAllsPerMoeLayer * lc.t_a2a;
    if (!sc.parallel.epOverlapApplies(t.recompute == Recompute::Full))
        return {0.0, 0.0};
    const double hidden_f = std::min(c.ep_f, c.backwardInput(t) + c.backwardWeight());
    const double hidden_b = std::min(c.ep_b, c.forward());
    const double share = deepEpSmShare(sc);
    c.ep_sm_f = share * hidden_b; // the forward's compute, beside the backward's all-to-alls
    c.ep_sm_b = share * hidden_f;
    c.ep_f += c.ep_sm_f - hidden_f;
    c.ep_b += c.ep_sm_b - hidden_b;
    return {hidden_f - c.ep_sm_f, hidden_b - c.ep_sm_b};
}

void exposeCp(LayerCost& c, const Scenario& sc, const LayerComm& lc)
{
    const ParallelConfig& p = sc.parallel;
    if (p.cp <= 1)
        return;
    if (p.cp_comm == CpComm::A2a) { // Ulysses: Q/K/V in and the output out, each direction
        c.cp_f = c.cp_b = lc.cp_a2a;
    } else if (p.cp_comm == CpComm::AllGather) { // K/V gathered, their gradients scattered
        c.cp_f = lc.cp_ag;
        c.cp_b = lc.cp_rs;
    } else if (p.cp_comm == CpComm::RingAllGather) {
        // The gather runs beside the first block (the local keys, causal: 1/cp of the rank's
        // attention); each block's gradient send beside the next block, the last one after all.
        const double cp = double(p.cp), block_f = c.attention_s / cp, block_b = c.attention_b_s / cp;
        c.cp_f = over(lc.cp_ag, block_f);
        c.cp_b = over(lc.cp_ag, block_b) + (cp - 1) * over(lc.cp_dkv, block_b) + lc.cp_dkv;
    } else { // ring steps hidden behind the attention blocks they feed
        c.cp_f = std::max(0.0, (p.cp - 1) * lc.t_kv - c.attention_s);
        // The backward's sends hide behind the attention backward.
        c.cp_b = std::max(0.0, kCpBackwardSendsPerStep * (p.cp - 1) * lc.t_kv - c.attention_b_s);
    }
}

// A MoE layer's forward reads its token counts back to the host (the all-to-all's split sizes,
// DeepEP's receive counts), so the host is never more than this layer ahead: when the GPU's work
// for the layer (compute and its exposed communication) takes less than the host needs to issue
// it, the GPU waits for the difference (gpu.moe_layer_host_s per forward, twice that per
// backward; the backward of a full recompute issues the forward again). A pass without a partner
// runs its all-to-alls exposed: the GPU's work grows by what the partner hid, less what it had
// spent waiting for the host.
void hostWaits(LayerCost& c, const Scenario& sc, bool moe, std::pair<double, double> hidden)
{
    const TrainingConfig& t = sc.training;
    const bool full = t.recompute == Recompute::Full;
    const double H = moe ? moeHostSeconds(sc) : 0.0;
    const double gpu_f = c.forward() + c.commForward();
    const double gpu_b = c.backwardInput(t) + c.backwardWeight() + c.commBackward(full);
    const double H_b = (full ? 3 : 2) * H;
    c.host_f = std::max(0.0, H - gpu_f);
    c.host_b = std::max(0.0, H_b - gpu_b);
    c.unpaired_f = std::max(H, gpu_f + hidden.first) - std::max(H, gpu_f);
    c.unpaired_b = std::max(H_b, gpu_b + hidden.second) - std::max(H_b, gpu_b);
    // (Negative where the slowdown a pair pays outweighs what its partner hid: an unpaired pass
    // is then the shorter.)
}

} // namespace

double moeHostSeconds(const Scenario& sc)
{
    return sc.model.moe && !sc.training.moeGraphed() ? sc.cluster.gpu.moe_layer_host_s : 0.0;
}

const char* moeHostNote(const Scenario& sc)
{
    switch (sc.training.cuda_graphs) {
    case CudaGraphs::None: return "";
    case CudaGraphs::Partial: return " (partial CUDA graphs: the dispatcher and the experts stay eager, H as eager)";
    case CudaGraphs::Layers:
    case CudaGraphs::FullIteration: return " (CUDA graphs replay the MoE layers: no host issues them)";
    }
    return "";
}

bool asyncTpSplitsBackward(const Scenario& sc)
{
    const ParallelConfig& p = sc.parallel;
    return p.asyncTp() && p.sequence_parallel && p.tp > 1 && tpCollectivesPerLayer(sc.model) == 2;
}

LayerCost layerCost(const Scenario& sc, const std::vector<LayerOp>& ops, const LayerComm& lc, bool moe)
{
    LayerCost c = sumOps(ops);
    exposeTp(c, sc, lc);
    const std::pair<double, double> hidden = moe ? exposeEp(c, sc, lc) : std::pair{0.0, 0.0};
    exposeCp(c, sc, lc);
    hostWaits(c, sc, moe, hidden);
    return c;
}

} // namespace parascope::layer_cost
