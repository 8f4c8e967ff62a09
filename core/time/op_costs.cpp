#include "time/op_costs.h"

#include "time/attention_rate.h"
#include "time/layer_ops.h"
#include "time/fp8_casts.h"
#include "time/tail_costs.h"
#include "time/offload_costs.h"

#include "memory/activation_memory.h"
#include "model/parameter_count.h"
#include "memory/model_states.h"
#include "memory/stage_memory.h"
#include "model/flops.h"
#include "time/step_time.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

namespace parascope {

namespace {

// Fraction of an op's compute that can hide ZeRO-2/3 per-microbatch collectives: FSDP and
// DeepSpeed prefetch a bounded amount ahead and the collectives compete with compute for SMs and
// HBM. Chosen (0.7) on Narayanan et al. 2021 Table 2's ZeRO-3 rows (fit part) when those were
// costed as a flat ring; kept unchanged since, the held-out FSDP runs check it.
constexpr double kZeroOverlap = 0.7;

// Time of one call of (group, collective) from the communication plan; 0 if absent.
double callTime(const std::vector<CommEntry>& comm, Group group, Collective collective,
                std::optional<Purpose> purpose = std::nullopt)
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

struct LayerCost {
    double linear_s = 0; // forward GEMMs (= each of the dX and dW GEMM passes)
    // The GEMMs each TP collective runs next to (and can hide behind with tp_comm_overlap): the
    // attention's input projections after its all-gather, its output projection before its
    // reduce-scatter (all-reduce), the same for the MLP (experts, shared experts, router).
    double attn_in_s = 0, attn_out_s = 0, mlp_in_s = 0, mlp_out_s = 0;
    double attention_s = 0; // forward attention scores (QKᵀ, softmax, scores·V)
    double attention_b_s = 0; // their backward
    double elementwise_s = 0; // one pass over the layer's activations
    double cast_f_s = 0, cast_b_s = 0; // FP8 quantization before the forward / backward GEMMs
    double routing_s = 0; // MoE router softmax/top-k and token permutation, per direction
    double recompute_s = 0; // selective recompute modules other than core_attn, in the backward
    double tp_f = 0, tp_b = 0, ep_f = 0, ep_b = 0, cp_f = 0, cp_b = 0; // exposed comm
    double host_f = 0, host_b = 0; // MoE: the GPU waiting for the host to issue the layer's kernels
    // Combined 1F1B: what a pass without a partner (warm-up forwards, cool-down backwards) takes
    // beyond a paired one, its all-to-alls exposed again.
    double unpaired_f = 0, unpaired_b = 0;

    // The layer's compute per microbatch, before any host wait. Forward: GEMMs, attention,
    // elementwise, FP8 casts, routing. Backward, input gradients: dX GEMMs (= the forward's), the
    // attention backward, elementwise twice (read the activation, write the gradient), FP8's
    // quantization of the output gradients, and what recompute repeats of the forward; weight
    // gradients: the dW GEMMs.
    double forward() const { return linear_s + attention_s + elementwise_s + cast_f_s + routing_s; }
    double backwardInput(const TrainingConfig& t) const
    {
        return linear_s + attention_b_s + 2 * elementwise_s + cast_b_s + routing_s + recomputed(t);
    }
    // What the backward runs of the forward once more: core attention, the selective modules,
    // or the whole forward.
    double recomputed(const TrainingConfig& t) const
    {
        double r = t.recomputes(RecomputeModule::CoreAttn) ? attention_s : 0;
        if (t.recompute == Recompute::Selective)
            r += recompute_s;
        else if (t.recompute == Recompute::Full)
            r += forward();
        return r;
    }
    double backwardWeight() const { return linear_s; }
    // Exposed communication; a full recompute's backward runs the forward's once more.
    double commForward() const { return tp_f + ep_f + cp_f; }
    double commBackward(bool full) const { return tp_b + ep_b + cp_b + (full ? commForward() : 0); }
};

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
        if (op.rate == OpRate::Attention)
            c.attention_s = op.forward_s, c.attention_b_s = op.input_grad_s;
        else if (op.name == "elementwise")
            c.elementwise_s = op.forward_s;
        else if (op.name == "routing")
            c.routing_s = op.forward_s;
        c.cast_f_s += op.cast_forward_s;
        c.cast_b_s += op.cast_backward_s;
        c.recompute_s += op.recompute_s;
    }
    c.linear_s += c.mlp_in_s + c.mlp_out_s;
    return c;
}

} // namespace

OpCostModel opCosts(const Scenario& sc, const ParamCounts& params, const PipelineGeometry& geometry,
                    const std::vector<CommEntry>& comm, Explain explain)
{
    const ParallelConfig& p = sc.parallel;
    const TrainingConfig& t = sc.training;
    const ModelSpec& m = sc.model;
    const GpuSpec& gpu = sc.cluster.gpu;
    OpCostModel out;
    out.geometry = geometry;
    // The rates every op runs at (time/layer_ops.h): FP8 GEMMs for the linear layers, bf16 for
    // the fused attention, the output layer and the router.
    const LayerOpRates rates = layerOpRates(sc);
    const bool fp8 = rates.fp8;
    const double bf16_peak = rates.bf16_peak, gemm_rate = rates.gemm_rate, bf16_gemm_rate = rates.bf16_gemm_rate,
                 hbm = rates.hbm;
    const double microbatches = rates.microbatches, tokens = rates.tokens, split = rates.split;
    const AttentionRate& attn = rates.attention;
    const Fp8Casts& casts = rates.casts;
    const bool sp = p.sequence_parallel && p.tp > 1;

    // Communication per layer and microbatch, from the plan's per-call times.
    const double t_ar = callTime(comm, Group::Tp, Collective::AllReduce);
    const double t_ag = callTime(comm, Group::Tp, Collective::AllGather, Purpose::Activations);
    // With FP8 gathers the backward's all-gathers (of bf16 gradients) are their own plan entry.
    const double t_ag_b = t.fp8Gathers() && callTime(comm, Group::Tp, Collective::AllGather, Purpose::Gradients) > 0
        ? callTime(comm, Group::Tp, Collective::AllGather, Purpose::Gradients)
        : t_ag;
    const double t_rs = callTime(comm, Group::Tp, Collective::ReduceScatter);
    // Per layer and direction: kTpCollectivesPerLayer all-reduces, or with SP as many all-gather +
    // reduce-scatter pairs (the counts of the communication plan, comm/comm_volume.h).
    const double tp_dir = tpCollectivesPerLayer(m) * (sp ? t_ag + t_rs : t_ar);
    const double t_a2a = callTime(comm, Group::Ep, Collective::AllToAll);
    const double t_kv = callTime(comm, Group::Cp, Collective::SendRecv);
    const bool full = t.recompute == Recompute::Full;

    const auto gemmTime = [&](double flops, double rate) { return gemmSeconds(gpu, rates, flops, rate); };
    const auto layerCost = [&](const std::vector<LayerOp>& ops, bool moe) {
        LayerCost c = sumOps(ops);
        // TP communication overlap (Megatron --tp-comm-overlap, PyTorch async TP) splits each
        // collective and the GEMM it feeds or follows into chunks, so a collective hides behind
        // that GEMM only (its dX GEMM in the backward, the same size): the attention's all-gather
        // behind the QKV projection, its reduce-scatter behind the output projection, the MLP's
        // behind its up and down projections. A parallel block's one collective per direction
        // hides behind all of them.
        const auto exposedTp = [&](double gather, double scatter) {
            if (!p.tp_comm_overlap)
                return tpCollectivesPerLayer(m) * (sp ? gather + scatter : t_ar);
            if (tpCollectivesPerLayer(m) == 1)
                return std::max(0.0, (sp ? gather + scatter : t_ar) - c.linear_s);
            const auto over = [](double collective, double hiding) { return std::max(0.0, collective - hiding); };
            return sp ? over(gather, c.attn_in_s) + over(scatter, c.attn_out_s) + over(gather, c.mlp_in_s)
                    + over(scatter, c.mlp_out_s)
                      : over(t_ar, c.attn_out_s) + over(t_ar, c.mlp_out_s);
        };
        c.tp_f = exposedTp(t_ag, t_rs);
        c.tp_b = exposedTp(t_ag_b, t_rs);
        // torchtitan's op SAC keeps the reduce-scatters' outputs but not the all-gathers': the
        // backward's recompute of k and of the MLP's up projection gathers their inputs again.
        if (sp && t.recomputes(RecomputeModule::EveryOtherMm))
            c.tp_b += exposedTp(t_ag, 0.0);
        double hidden_f = 0, hidden_b = 0; // the all-to-all time a combined-1F1B partner hides
        if (moe) {
            c.ep_f = kEpAllToAllsPerMoeLayer * t_a2a;
            // Recomputing the MoE block dispatches and combines once more (full recompute: below).
            c.ep_b = (t.recomputes(RecomputeModule::Moe) ? 2 : 1) * kEpAllToAllsPerMoeLayer * t_a2a;
            // Combined 1F1B (parallel_config.h ep_comm_overlap; Megatron-Core "Combined 1F1B:
            // Expert-Parallel All-to-All Overlap"): the forward's dispatch and combine hide behind
            // the paired backward's compute of the layer, the backward's behind the forward's.
            if (p.epOverlapApplies(full)) {
                hidden_f = std::min(c.ep_f, c.backwardInput(t) + c.backwardWeight());
                hidden_b = std::min(c.ep_b, c.forward());
                c.ep_f -= hidden_f;
                c.ep_b -= hidden_b;
            }
        }
        if (p.cp > 1 && p.cp_comm == CpComm::A2a) { // Ulysses: Q/K/V in and the output out, each direction
            c.cp_f = c.cp_b = callTime(comm, Group::Cp, Collective::AllToAll, Purpose::Kv)
                + callTime(comm, Group::Cp, Collective::AllToAll, Purpose::Activations);
        } else if (p.cp > 1 && p.cp_comm == CpComm::AllGather) { // K/V gathered, their gradients scattered
            c.cp_f = callTime(comm, Group::Cp, Collective::AllGather);
            c.cp_b = callTime(comm, Group::Cp, Collective::ReduceScatter);
        } else if (p.cp > 1) { // ring steps hidden behind the attention blocks they feed
            c.cp_f = std::max(0.0, (p.cp - 1) * t_kv - c.attention_s);
            // The backward's sends hide behind the attention backward.
            c.cp_b = std::max(0.0, kCpBackwardSendsPerStep * (p.cp - 1) * t_kv - c.attention_b_s);
        }
        // A MoE layer's forward reads its token counts back to the host (the all-to-all's split
        // sizes, DeepEP's receive counts), so the host is never more than this layer ahead: when
        // the GPU's work for the layer (compute and its exposed communication) takes less than
        // the host needs to issue it, the GPU waits for the difference (gpu.moe_layer_host_s per
        // forward, twice that per backward; the backward of a full recompute issues the forward
        // again).
        const double H = moe && m.moe ? gpu.moe_layer_host_s : 0.0;
        const double gpu_f = c.forward() + c.commForward();
        const double gpu_b = c.backwardInput(t) + c.backwardWeight() + c.commBackward(full);
        const double H_b = (full ? 3 : 2) * H;
        c.host_f = std::max(0.0, H - gpu_f);
        c.host_b = std::max(0.0, H_b - gpu_b);
        // A pass without a partner runs its all-to-alls exposed: the GPU's work grows by what the
        // partner hid, less what it had spent waiting for the host.
        c.unpaired_f = std::max(H, gpu_f + hidden_f) - std::max(H, gpu_f);
        c.unpaired_b = std::max(H_b, gpu_b + hidden_b) - std::max(H_b, gpu_b);
        return c;
    };
    out.dense_ops = layerOps(sc, rates, false);
    out.moe_ops = layerOps(sc, rates, true);
    const LayerCost dense = layerCost(out.dense_ops, false);
    const LayerCost moe = layerCost(out.moe_ops, true);
    if (!m.moe)
        out.moe_ops.clear();

    // ZeRO-2/3 collectives run every microbatch, hidden behind that microbatch's compute.
    const CommEntry* zero_rs = p.zero >= 2 ? findEntry(comm, Group::Dp, Purpose::Gradients) : nullptr;
    const CommEntry* zero_ag = p.zero >= 3 ? findEntry(comm, Group::Dp, Purpose::Parameters) : nullptr;

    // CPU offload (time/offload_costs.h).
    const OffloadCosts offload = offloadCosts(sc, params, geometry, out.terms, explain);

    const int S = geometry.virtualStages();
    out.stages.resize(std::size_t(S));
    const double logits_s = gemmTime(tokens * 2.0 * double(m.hidden) * double(m.vocab) / split, bf16_gemm_rate);
    const double mtp_projection_s
        = gemmTime(tokens * 2.0 * 2 * double(m.hidden) * double(m.hidden) / split, bf16_gemm_rate);
    for (int s = 0; s < S; ++s) {
        const VirtualStage& V = geometry.stages[std::size_t(s)];
        const StageLayers& L = geometry.rank_layers[std::size_t(V.rank)];
        const int layers = V.layers;
        const bool output = s == S - 1;
        // MTP modules run on the output stage: one more layer each (MoE when the model has MoE
        // layers), its 2h → h projection and the output layer once more (DeepSeek-V3 §2.2.1).
        const int mtp = output ? m.mtp_modules : 0;
        const bool mtp_moe = params.moe_layers > 0;
        const int moe_layers = V.moe_layers + (mtp_moe ? mtp : 0);
        const int dense_layers = layers - V.moe_layers + (mtp_moe ? 0 : mtp);
        StageOpCost& st = out.stages[std::size_t(s)];
        st.layers = layers;
        const auto sum = [&](auto field) { return dense_layers * field(dense) + moe_layers * field(moe); };
        st.forward.tp = sum([](const LayerCost& x) { return x.tp_f; });
        st.backward.tp = sum([](const LayerCost& x) { return x.tp_b; }) + (full ? st.forward.tp : 0);
        st.forward.ep = sum([](const LayerCost& x) { return x.ep_f; });
        st.backward.ep = sum([](const LayerCost& x) { return x.ep_b; }) + (full ? st.forward.ep : 0);
        st.forward.cp = sum([](const LayerCost& x) { return x.cp_f; });
        st.backward.cp = sum([](const LayerCost& x) { return x.cp_b; }) + (full ? st.forward.cp : 0);
        const double head = output ? (1 + mtp) * logits_s + mtp * mtp_projection_s : 0;

        // The layers' compute (LayerCost::forward, backwardInput, backwardWeight), their MoE host
        // waits, and the output layer (head) in each pass.
        const double fwd = sum([](const LayerCost& x) { return x.forward() + x.host_f; }) + head;
        const double bwd_in = sum([&](const LayerCost& x) { return x.backwardInput(t) + x.host_b; }) + head;
        const double bwd_w = sum([](const LayerCost& x) { return x.backwardWeight(); }) + head;
        st.compute_s = fwd + bwd_in + bwd_w;
        const double attention_passes = full || t.recomputes(RecomputeModule::CoreAttn) ? 2 : 1;
        st.gemm_s = sum([&](const LayerCost& x) { return x.linear_s * (full ? 4 : 3); }) + 3 * head;
        st.attention_s = sum([&](const LayerCost& x) { return x.attention_s * attention_passes + x.attention_b_s; });
        st.host_wait_s = sum([](const LayerCost& x) { return x.host_f + x.host_b; });
        st.recompute_s = sum([&](const LayerCost& x) { return x.recomputed(t); });
        // The plan's ZeRO collectives cover the whole rank; this stage's share is its layers.
        const double stage_share = double(layers) / std::max(1, L.layers);
        // ZeRO-2/3 prefetch hides the per-microbatch collectives behind at most kZeroOverlap
        // of the compute they run with.
        const double rs = zero_rs && zero_rs->rounds > 0 ? zero_rs->time_s / zero_rs->rounds * stage_share : 0;
        double ag = zero_ag && zero_ag->rounds > 0 ? zero_ag->time_s / zero_ag->rounds * stage_share : 0;
        // Parameters offloaded to the host (FSDP CPUOffload(offload_params)): each gather first
        // copies the stage's weight shard over PCIe, then all-gathers it.
        if (p.offload == Offload::Params)
            ag += stage_share * offload.gatherCopy();
        // The backward's gather (which also serves a full recompute) unless the forward's
        // gathered weights were kept (reshard_after_forward = false).
        const double backward_gathers = p.reshard_after_forward ? 1 : 0;
        st.forward.dp += std::max(0.0, ag - kZeroOverlap * fwd);
        st.backward.dp += std::max(0.0, backward_gathers * ag + rs - kZeroOverlap * (bwd_in + bwd_w));
        st.cost.forward_s = fwd + st.forward.total();
        st.cost.forward_comm_s = st.forward.total();
        st.cost.backward_input_s = bwd_in + st.backward.total();
        st.cost.backward_weight_s = bwd_w;
        st.cost.backward_comm_s = st.backward.total();
        st.cost.unpaired_forward_s = sum([](const LayerCost& x) { return x.unpaired_f; });
        st.cost.unpaired_backward_s = sum([](const LayerCost& x) { return x.unpaired_b; });
    }

    // Pipeline p2p and the per-rank tails (gradient reduction, optimizer, parameter gather).
    out.p2p_s = callTime(comm, Group::Pp, Collective::SendRecv, Purpose::Activations);
    out.blocking_p2p = !p.pp_comm_overlap;
    if (const CommEntry* pp = findEntry(comm, Group::Pp, Purpose::Activations))
        for (const BoundarySend& b : pp->boundaries)
            out.boundary_p2p_s.push_back(b.seconds);
    double shard_params = 0;
    for (const StageLayers& L : geometry.rank_layers)
        shard_params = std::max(shard_params, stageParams(params, L, p).total());
    const double opt_shard = p.zero >= 1 ? shard_params / zeroDegree(p) : shard_params;
    out.optimizer_s
        = offload.active ? offload.optimizer_s : optimizerStepSeconds(t, opt_shard, hbm, out.terms, explain);
    RankTail tail;
    tail.optimizer_s = out.optimizer_s;
    tail.grad_reduce_s += offload.gradients_s;
    tail.overlap_grad_reduce = p.overlap_grad_reduce;
    for (const CommEntry& c : comm) {
        // DualPipe's all-reduce of the two copies' gradients runs with the data-parallel one.
        if (c.group == Group::Pp && c.collective == Collective::AllReduce) {
            tail.grad_reduce_s += c.time_s;
            continue;
        }
        if (c.group != Group::Dp && c.group != Group::Edp)
            continue;
        // Once per step after the last backward: the gradient reduction of ZeRO-0/1, and HSDP's
        // all-reduce of the gradient shard across replicas (also under ZeRO-2/3, whose
        // reduce-scatters run inside every microbatch).
        if (c.purpose == Purpose::Gradients && (p.zero <= 1 || c.collective == Collective::AllReduce)) {
            tail.grad_reduce_s += c.time_s;
            if (c.calls_per_step > 0)
                tail.last_bucket_s = std::max(tail.last_bucket_s, c.time_s / c.calls_per_step);
            tail.grad_reduce_type = c.collective == Collective::AllReduce ? OpType::AllReduce : OpType::ReduceScatter;
        }
        if (c.purpose == Purpose::Parameters && p.zero <= 2) {
            // Megatron overlap_param_gather hides it behind the next step's first forward.
            const double first_fwd = out.stages.empty() ? 0 : out.stages.front().cost.forward_s;
            tail.param_gather_s += p.overlap_grad_reduce ? std::max(0.0, c.time_s - first_fwd) : c.time_s;
        }
    }
    // Compressed gradients (training.grad_comm): compressed before, decompressed after each reduction.
    tail.optimizer_s += gradCompressionSeconds(sc, shard_params, microbatches, hbm, out.terms, explain);
    out.tails.assign(std::size_t(geometry.ranks), tail);
    if (explain == Explain::NumbersOnly)
        return out;

    const std::string src = "FLOPs / (peak · efficiency); elementwise bytes / (HBM · efficiency)";
    out.terms.push_back({"time.layer_forward_gemm", dense.linear_s, "s",
                         "tokens·(2h(q + 2kv) + 2qh + MLP)/t / (peak · gemm_efficiency)",
                         num(tokens) + "·…/" + num(split) + "/" + num(gemm_rate), src});
    if (m.moe) {
        const MoeSpec& e = *m.moe;
        out.terms.push_back(
            {"time.moe_layer_forward_gemm", moe.linear_s, "s",
             "tokens·(2h(q + 2kv) + 2qh + 2·k·3h·f_e (SwiGLU; GELU 2h·f_e) + shared experts)/t + 2·tokens·h·E (router)"
             " / (peak · gemm_efficiency)",
             num(tokens) + " tokens, k = " + num(double(e.top_k)) + ", f_e = " + num(double(e.ffn_hidden))
                 + ", t = " + num(split) + ", EP·ETP = " + num(double(p.ep)) + "·" + num(double(p.expertTp())) + "; /"
                 + num(gemm_rate),
             "the expert grid re-slices the stage's tp·cp·dp GPUs: each GPU computes tokens·k/t of the "
             "routed expert FLOPs whatever EP and ETP are (Megatron-Core MoE, docs/ARCHITECTURE.md); one "
             "grouped GEMM per projection, each expert's rows padded to 128, the busiest rank's load"});
        out.terms.push_back(
            {"time.moe_routing", moe.routing_s, "s",
             "tokens/t_SP·(12·E + (4·(1 + k)·h + sort)·load) / HBM, each direction",
             num(moe.routing_s * hbm) + "/" + num(hbm),
             "Megatron-Core alltoall token dispatcher: router softmax/top-k, permute, sort by expert, unpermute"});
        if (gpu.moe_layer_host_s > 0)
            out.terms.push_back(
                {"time.moe_host_wait", moe.host_f + moe.host_b, "s",
                 "max(0, H − GPU time of the layer's forward) + max(0, 2H − its backward's), per MoE layer and "
                 "microbatch",
                 "H = " + num(gpu.moe_layer_host_s) + " s; waits " + num(moe.host_f) + " s forward + " + num(moe.host_b)
                     + " s backward",
                 "eager PyTorch issues each kernel from the host; the dispatcher's device-to-host read of the token "
                 "counts every forward keeps the host at most one layer ahead (Megatron-Core MoE report, "
                 "arXiv 2603.07685: host-boundedness, CUDA graphs); H fitted, see the GPU preset's source"});
        if (moe.unpaired_f + moe.unpaired_b > 0)
            out.terms.push_back(
                {"time.moe_unpaired_pass", moe.unpaired_f + moe.unpaired_b, "s",
                 "max(H, GPU + A) − max(H, GPU) per direction, A = the all-to-alls a partner pass hides; "
                 "each rank's warm-up forwards and cool-down backwards",
                 num(moe.unpaired_f) + " s forward + " + num(moe.unpaired_b) + " s backward per MoE layer",
                 "Megatron-Core combined 1F1B (--overlap-moe-expert-parallel-comm) overlaps a forward with a "
                 "backward; a rank's passes before its first backward and after its last forward have none"});
    }
    if (fp8) {
        out.terms.push_back({"time.layer_fp8_casts", dense.cast_f_s + dense.cast_b_s, "s",
                             "(Σ_GEMMs M·K + M·N)·c / HBM + Σ N·K·4 / (HBM·microbatches)",
                             "c = " + num(casts.bytes_per_element) + " bytes per element (" + toString(t.fp8_recipe)
                                 + "); " + num(dense.cast_f_s) + " s forward + " + num(dense.cast_b_s) + " s backward",
                             casts.source});
    }
    out.terms.push_back(attentionTerm(sc, attn, dense.attention_s, tokens, split, bf16_peak, fp8));
    out.terms.push_back(
        {"time.layer_elementwise", dense.elementwise_s, "s", "activation bytes per layer / (HBM · efficiency)",
         num(dense.elementwise_s * hbm) + "/" + num(hbm), "memory-bound kernels stream each activation once per pass"});
    if (p.tp_comm_overlap)
        out.terms.push_back({"time.layer_tp_comm", dense.tp_f, "s",
                             sp ? "Σ max(0, t_AG − GEMM_in) + max(0, t_RS − GEMM_out), attention and MLP, per direction"
                                : "Σ max(0, t_AR − GEMM_out), attention and MLP, per direction",
                             num(tp_dir) + " without overlap; QKV " + num(dense.attn_in_s) + ", out "
                                 + num(dense.attn_out_s) + ", MLP in " + num(dense.mlp_in_s) + ", MLP out "
                                 + num(dense.mlp_out_s) + " s",
                             "Megatron TP: 2 collectives per layer and direction; --tp-comm-overlap / async TP hide "
                             "each behind its own GEMM"});
    else
        out.terms.push_back({"time.layer_tp_comm", dense.tp_f, "s",
                             sp ? "2·(t_AG + t_RS) per direction" : "2·t_AR per direction", num(tp_dir),
                             "Megatron TP: 2 collectives per layer and direction"});
    return out;
}

} // namespace parascope
