#include "time/op_costs.h"

#include "time/attention_rate.h"
#include "time/layer_cost.h"
#include "time/layer_ops.h"
#include "time/loss_cost.h"
#include "time/fp8_casts.h"
#include "time/tail_costs.h"
#include "time/offload_costs.h"
#include "time/zero_costs.h"

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

using namespace layer_cost;

namespace {

// What every stage's cost is built from: a dense and a MoE layer's costs, the ZeRO-2/3
// collectives of each microbatch, CPU offload, the output layer and MTP's projection.
struct StageInputs {
    const Scenario& sc;
    const ParamCounts& params;
    const PipelineGeometry& geometry;
    const LayerCost& dense;
    const LayerCost& moe;
    ZeroRound zero; // ZeRO-2/3's collectives of one microbatch (time/zero_costs.h)
    const OffloadCosts& offload;
    double logits_s, mtp_projection_s;
    LossCost loss;
};

// Virtual stage s: its layers' compute, MoE host waits and the output layer (head) in each pass,
// with the TP/EP/CP communication they cannot hide and ZeRO-2/3's per-microbatch collectives.
StageOpCost stageCost(const StageInputs& in, int s)
{
    const ParallelConfig& p = in.sc.parallel;
    const TrainingConfig& t = in.sc.training;
    const ModelSpec& m = in.sc.model;
    const PipelineGeometry& geometry = in.geometry;
    const ParamCounts& params = in.params;
    const LayerCost& dense = in.dense;
    const LayerCost& moe = in.moe;
    const bool full = t.recompute == Recompute::Full;
    const int S = geometry.virtualStages();
    StageOpCost st;
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
    st.layers = layers;
    const auto sum = [&](auto field) { return dense_layers * field(dense) + moe_layers * field(moe); };
    st.forward.tp = sum([](const LayerCost& x) { return x.tp_f; });
    st.backward.tp = sum([](const LayerCost& x) { return x.tp_b; }) + (full ? st.forward.tp : 0);
    st.forward.ep = sum([](const LayerCost& x) { return x.ep_f; });
    st.backward.ep = sum([](const LayerCost& x) { return x.ep_b; }) + (full ? st.forward.ep : 0);
    st.forward.cp = sum([](const LayerCost& x) { return x.cp_f; });
    st.backward.cp = sum([](const LayerCost& x) { return x.cp_b; }) + (full ? st.forward.cp : 0);
    const double head = output ? (1 + mtp) * in.logits_s + mtp * in.mtp_projection_s : 0;
    const double loss_f = output ? (1 + mtp) * in.loss.forward_s : 0,
                 loss_b = output ? (1 + mtp) * in.loss.backward_s : 0;

    // The layers' compute (LayerCost::forward, backwardInput, backwardWeight), their MoE host
    // waits, and the output layer (head) and its loss in each pass.
    const double fwd = sum([](const LayerCost& x) { return x.forward() + x.host_f; }) + head + loss_f;
    const double bwd_in = sum([&](const LayerCost& x) { return x.backwardInput(t) + x.host_b; }) + head + loss_b;
    const double bwd_w = sum([](const LayerCost& x) { return x.backwardWeight(); }) + head;
    st.compute_s = fwd + bwd_in + bwd_w;
    const double attention_passes = full || t.recomputes(RecomputeModule::CoreAttn) ? 2 : 1;
    st.gemm_s = sum([&](const LayerCost& x) { return x.linear_s * (full ? 2 : 1) + x.linear_dx_s + x.linear_dw_s; })
        + 3 * head;
    st.attention_s = sum([&](const LayerCost& x) { return x.attention_s * attention_passes + x.attention_b_s; });
    st.host_wait_s = sum([](const LayerCost& x) { return x.host_f + x.host_b; });
    st.recompute_s = sum([&](const LayerCost& x) { return x.recomputed(t); });
    // The plan's ZeRO collectives cover the whole rank; this stage's share is its layers.
    const double stage_share = double(layers) / std::max(1, L.layers);
    // ZeRO-2/3's per-microbatch collectives, the dense parameters' and the routed experts'
    // (time/zero_costs.h); parameters offloaded to the host (FSDP CPUOffload(offload_params))
    // are first copied over PCIe, then all-gathered.
    ZeroPass zp{in.zero.gather_s * stage_share, 0, in.zero.reduce_s * stage_share};
    if (p.offload == Offload::Params)
        zp.gather_s += stage_share * in.offload.gatherCopy();
    // The backward's gather (which also serves a full recompute) unless the forward's
    // gathered weights were kept (reshard_after_forward = false).
    zp.backward_gather_s = p.reshard_after_forward ? zp.gather_s : 0;
    const ZeroEdges edges = zeroEdges(in.sc, in.params, in.geometry, in.zero, V);
    const auto beside = [&](const GroupExposure& x) { return in.zero.besideTime(x.tp, x.ep, x.cp); };
    const std::pair<double, double> exposed
        = zeroExposure(p, zp, edges, fwd + beside(st.forward), bwd_in + bwd_w + beside(st.backward));
    st.forward.dp += exposed.first;
    st.backward.dp += exposed.second;
    st.cost.forward_gather_s = zp.gather_s;
    st.cost.backward_gather_s = zp.backward_gather_s;
    st.cost.backward_reduce_s = zp.reduce_s;
    st.cost.forward_s = fwd + st.forward.total();
    st.cost.forward_comm_s = st.forward.total();
    st.cost.backward_input_s = bwd_in + st.backward.total();
    st.cost.backward_weight_s = bwd_w;
    st.cost.backward_comm_s = st.backward.total();
    st.cost.unpaired_forward_s = sum([](const LayerCost& x) { return x.unpaired_f; });
    st.cost.unpaired_backward_s = sum([](const LayerCost& x) { return x.unpaired_b; });
    return st;
}

// Every rank's tail after its last backward: the gradient reduction (ZeRO-0/1, HSDP's replica
// all-reduce, DualPipe's mirrored pair), the optimizer, the parameter gather, and compressed
// gradients' encode and decode.
RankTail rankTail(const Scenario& sc, const std::vector<CommEntry>& comm, const OpCostModel& out,
                  const OffloadCosts& offload)
{
    const ParallelConfig& p = sc.parallel;
    RankTail tail;
    tail.optimizer_s = out.optimizer_s;
    tail.grad_reduce_s += offload.gradients_s;
    tail.overlap_grad_reduce = p.overlap_grad_reduce;
    int buckets = 0;
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
        // Per weight update: once a step, or (PipeDream) once per microbatch, `rounds` times.
        const double updates = std::max(1.0, double(c.rounds));
        if (c.purpose == Purpose::Gradients && (p.zero <= 1 || c.collective == Collective::AllReduce)) {
            tail.grad_reduce_s += c.time_s / updates;
            if (c.calls_per_step > 0) {
                tail.last_bucket_s = std::max(tail.last_bucket_s, c.time_s / c.calls_per_step);
                buckets += int(std::lround(c.calls_per_step / updates));
            }
            tail.grad_reduce_type = c.collective == Collective::AllReduce ? OpType::AllReduce : OpType::ReduceScatter;
        }
        if (c.purpose == Purpose::Parameters && p.zero <= 2) {
            // Megatron overlap_param_gather hides it behind the next step's first forward.
            const double first_fwd = out.stages.empty() ? 0 : out.stages.front().cost.forward_s;
            const double gather = c.time_s / updates;
            tail.param_gather_s += p.overlap_grad_reduce ? std::max(0.0, gather - first_fwd) : gather;
        }
    }
    tail.grad_buckets = std::max(1, buckets);
    return tail;
}

// The terms that explain a MoE layer's costs: its GEMMs, routing, host waits and unpaired passes.
void explainMoeLayer(std::vector<Term>& terms, const Scenario& sc, const LayerOpRates& r, const LayerCost& moe)
{
    const ModelSpec& m = sc.model;
    const ParallelConfig& p = sc.parallel;
    const GpuSpec& gpu = sc.cluster.gpu;
    const double tokens = r.tokens, split = r.split, gemm_rate = r.gemm_rate, hbm = r.hbm;
    const MoeSpec& e = *m.moe;
    terms.push_back(
        {"time.moe_layer_forward_gemm", moe.linear_s, "s",
         "tokens·(2h(q + 2kv) + 2qh + 2·k·3h·f_e (SwiGLU; GELU 2h·f_e) + shared experts)/t + 2·tokens·h·E (router)"
         " / (peak · gemm_efficiency)",
         num(tokens) + " tokens, k = " + num(double(e.top_k)) + ", f_e = " + num(double(e.ffn_hidden))
             + ", t = " + num(split) + ", EP·ETP = " + num(double(p.ep)) + "·" + num(double(p.expertTp())) + "; /"
             + num(gemm_rate),
         "the expert grid re-slices the stage's tp·cp·dp GPUs: each GPU computes tokens·k/t of the "
         "routed expert FLOPs whatever EP and ETP are (Megatron-Core MoE, docs/ARCHITECTURE.md); one "
         "grouped GEMM per projection, each expert's rows padded to 128, the busiest rank's load"});
    terms.push_back(
        {"time.moe_routing", moe.routing_s, "s", "tokens/t_SP·(12·E + (4·(1 + k)·h + sort)·load) / HBM, each direction",
         num(moe.routing_s * hbm) + "/" + num(hbm),
         "Megatron-Core alltoall token dispatcher: router softmax/top-k, permute, sort by expert, unpermute"});
    if (gpu.moe_layer_host_s > 0)
        terms.push_back(
            {"time.moe_host_wait", moe.host_f + moe.host_b, "s",
             "max(0, H − GPU time of the layer's forward) + max(0, 2H − its backward's), per MoE layer and "
             "microbatch",
             "H = " + num(layer_cost::moeHostSeconds(sc)) + " s" + layer_cost::moeHostNote(sc) + "; waits "
                 + num(moe.host_f) + " s forward + " + num(moe.host_b) + " s backward",
             "eager PyTorch issues each kernel from the host; the dispatcher's device-to-host read of the token "
             "counts every forward keeps the host at most one layer ahead (Megatron-Core MoE report, "
             "arXiv 2603.07685: host-boundedness, CUDA graphs); H fitted, see the GPU preset's source"});
    if (moe.ep_sm_f + moe.ep_sm_b > 0)
        terms.push_back({"time.ep_overlap_sm_share", moe.ep_sm_f + moe.ep_sm_b, "s",
                         "k/(N − k) · the all-to-all time the partner pass hides, per MoE layer and pair",
                         "k = " + num(double(p.deepep_sms)) + " DeepEP SMs of N = " + num(double(gpu.sm_count)),
                         "the compute beside DeepEP's kernels runs on the SMs they leave (--moe-deepep-num-sms)"});
    if (moe.unpaired_f + moe.unpaired_b != 0)
        terms.push_back({"time.moe_unpaired_pass", moe.unpaired_f + moe.unpaired_b, "s",
                         "max(H, GPU + A) − max(H, GPU) per direction, A = the all-to-alls a partner pass hides; "
                         "each rank's warm-up forwards and cool-down backwards",
                         num(moe.unpaired_f) + " s forward + " + num(moe.unpaired_b) + " s backward per MoE layer",
                         "Megatron-Core combined 1F1B (--overlap-moe-expert-parallel-comm) overlaps a forward with a "
                         "backward; a rank's passes before its first backward and after its last forward have none"});
}

// A dense layer's exposed TP communication per microbatch, forward (the term's value) and
// backward: everything without overlap; with it, what each collective's own GEMM cannot hide
// (PyTorch's async TP leaves the backward's reduce-scatters exposed: layer_cost.cpp).
Term tpTerm(const Scenario& sc, const LayerCost& dense, const LayerComm& lc)
{
    const ParallelConfig& p = sc.parallel;
    const bool sp = p.sequence_parallel && p.tp > 1;
    const double tp_dir = tpCollectivesPerLayer(sc.model) * (sp ? lc.t_ag + lc.t_rs : lc.t_ar);
    if (!p.tp_comm_overlap)
        return {"time.layer_tp_comm",
                dense.tp_f,
                "s",
                sp ? "2·(t_AG + t_RS) per direction" : "2·t_AR per direction",
                num(tp_dir),
                "Megatron TP: 2 collectives per layer and direction"};
    const bool async = asyncTpSplitsBackward(sc);
    std::string formula = sp ? "Σ max(0, t_AG − GEMM_in) + max(0, t_RS − GEMM_out), attention and MLP"
                             : "Σ max(0, t_AR − GEMM_out), attention and MLP, per direction";
    if (async)
        formula += sc.model.mlp == MlpKind::SwiGlu
            ? "; backward: the reduce-scatters after q/k/v and SwiGLU's gate/up take t_RS each"
            : "; backward: the reduce-scatter after q/k/v takes t_RS";
    return {"time.layer_tp_comm",
            dense.tp_f,
            "s",
            formula,
            num(tp_dir) + " without overlap; QKV " + num(dense.attn_in_s) + ", out " + num(dense.attn_out_s)
                + ", MLP in " + num(dense.mlp_in_s) + ", MLP out " + num(dense.mlp_out_s) + " s; forward "
                + num(dense.tp_f) + " s, backward " + num(dense.tp_b) + " s",
            async ? "PyTorch async TP fuses a collective with one matmul: the backward's reduce-scatters follow a "
                    "sum of matmuls and stay exposed (pytorch/pytorch#149946)"
                  : "Megatron TP: 2 collectives per layer and direction; --tp-comm-overlap hides each behind its "
                    "own GEMM"};
}

// The copies the SP collectives add on the compute stream (layer_ops.cpp sequenceRelayout).
Term relayoutTerm(const Scenario& sc, const LayerCost& dense, const LayerOpRates& r)
{
    const bool fused = sc.parallel.asyncTp();
    return {"time.layer_sp_relayout",
            dense.relayout_f_s + dense.relayout_b_s,
            "s",
            fused ? "(4·S/tp per fused all-gather + (1 + 1/tp)·S per fused reduce-scatter + 2·S per unfused "
                    "batch-first one) / (HBM · efficiency), S = (s/cp)·b·h·bytes"
                  : "2·S per all-gather and reduce-scatter / (HBM · efficiency), S = (s/cp)·b·h·bytes",
            "S = " + num(r.tokens * double(sc.model.hidden)) + " elements; " + num(dense.relayout_f_s) + " s forward + "
                + num(dense.relayout_b_s) + " s backward",
            fused ? "PyTorch async TP (torch/distributed/_symmetric_memory): the local shard copied into the "
                    "symmetric buffer and into the gathered output; a fused reduce-scatter sums its TP partial "
                    "products in a kernel of its own (reduce_partials)"
                  : "PyTorch DTensor, batch-first [b, s, h]: all_gather_tensor and reduce_scatter_tensor along dim 1 "
                    "reassemble the sequence with torch.cat (torch/distributed/_functional_collectives.py); "
                    "Megatron's [s, b, h] gathers in place"};
}

// FSDP2's copy-out of each gathered unit (layer_ops.cpp fsdpCopyOut): the MoE layer's where every
// layer is one.
Term fsdpCopyOutTerm(const Scenario& sc, const LayerCost& dense, const LayerCost& moe, const LayerOpRates& r)
{
    const bool moe_only = sc.model.moe && sc.model.moeLayerCount() >= sc.model.layers;
    const LayerCost& l = moe_only ? moe : dense;
    return {"time.fsdp_copy_out",
            l.fsdp_copy_f_s + l.fsdp_copy_b_s,
            "s",
            "2·Ψ_layer·bytes / (HBM · efficiency) per gather: the forward's, and the backward's with "
            "reshard_after_forward",
            "Ψ_layer·bytes = " + num(l.fsdp_copy_f_s * r.hbm / 2) + " bytes of the layer on this GPU; "
                + num(l.fsdp_copy_f_s) + " s forward + " + num(l.fsdp_copy_b_s) + " s backward",
            "PyTorch FSDP2, per-parameter shards: foreach_all_gather_copy_out copies the gathered buffer into the "
            "unsharded parameters with torch.split_with_sizes_copy on the compute stream "
            "(torch/distributed/fsdp, _fsdp_collectives.py); FSDP1, DeepSpeed ZeRO-3 and Megatron-FSDP gather "
            "in place"};
}

// The attention's own copies (layer_ops.cpp kvRepeat, ringMerges): the dense layer's.
Term attentionCopiesTerm(const Scenario& sc, const LayerCost& dense)
{
    const bool ring = sc.parallel.cp > 1 && sc.parallel.cp_comm == CpComm::RingAllGather;
    const char* repeat = "repeat_kv: tokens·((k + v)/t + (q + o)/t)·2 B forward, twice that backward (rebuilt, "
                         "then the gradients summed; once with full recompute)";
    const char* merges = "ring merges: E_o·(12 + 38·(cp − 1)) B forward, E_q·(10 + 10·cp) + "
                         "E_kv·(20 + 13·(cp − 1) + 8·cp) B backward (fp32)";
    const std::string formula = sc.training.repeat_kv && ring ? std::string(repeat) + "; " + merges
        : ring                                                ? std::string(merges)
                                                              : std::string(repeat);
    return {"time.attention_copies",
            dense.attn_copy_f_s + dense.attn_copy_b_s,
            "s",
            formula + " / (HBM · efficiency)",
            num(dense.attn_copy_f_s) + " s forward + " + num(dense.attn_copy_b_s) + " s backward",
            "GQA's repeat_kv before the attention kernel (torchtitan's Llama until pytorch/torchtitan#2259); PyTorch "
            "context_parallel's fp32 merges and gradient accumulation, _SDPAMerger and "
            "_templated_ring_attention_backward (torch/distributed/tensor/experimental/_attention.py)"};
}

// The terms that explain a layer's costs: GEMMs (a MoE layer's after the dense one's), FP8 casts,
// attention, elementwise, TP.
void explainLayer(std::vector<Term>& terms, const Scenario& sc, const LayerOpRates& r, const LayerCost& dense,
                  const LayerCost& moe, const LayerComm& lc)
{
    const ParallelConfig& p = sc.parallel;
    const TrainingConfig& t = sc.training;
    const double tokens = r.tokens, split = r.split, gemm_rate = r.gemm_rate, hbm = r.hbm;
    const std::string src = std::string("FLOPs / (peak · efficiency); elementwise bytes / (HBM · efficiency)")
        + (t.fused_projections ? "" : kSeparateProjectionsNote);
    const bool block = r.fp8 && t.fp8_recipe == Fp8Recipe::Blockwise && sc.cluster.gpu.fp8_block_gemm_ratio < 1;
    terms.push_back({"time.layer_forward_gemm", dense.linear_s, "s",
                     block ? "tokens·(2h(q + 2kv) + 2qh + MLP)/t / (peak · gemm_efficiency · fp8_block_gemm_ratio)"
                           : "tokens·(2h(q + 2kv) + 2qh + MLP)/t / (peak · gemm_efficiency)",
                     num(tokens) + "·…/" + num(split) + "/" + num(gemm_rate),
                     block ? src + "; FP8 block scales: " + num(sc.cluster.gpu.fp8_block_gemm_ratio)
                             + " of the tensor-scaled FP8 rate (the GPU preset's source)"
                           : src});
    if (sc.model.moe)
        explainMoeLayer(terms, sc, r, moe);
    if (r.fp8) {
        terms.push_back({"time.layer_fp8_casts", dense.cast_f_s + dense.cast_b_s, "s",
                         "(Σ_GEMMs M·K + M·N)·c / HBM + Σ N·K·4 / (HBM·microbatches) + 2·GEMMs·kernel_overhead/kernels",
                         "c = " + num(r.casts.bytes_per_element) + " bytes per element (" + toString(t.fp8_recipe)
                             + "); " + num(dense.cast_f_s) + " s forward + " + num(dense.cast_b_s) + " s backward",
                         r.casts.source});
    }
    terms.push_back(attentionTerm(sc, r.attention, dense.attention_s, tokens, split, r.bf16_peak, r.fp8));
    terms.push_back({"time.layer_elementwise", dense.elementwise_s, "s",
                     "activation bytes per layer / (HBM · efficiency)", num(dense.elementwise_s * hbm) + "/" + num(hbm),
                     "memory-bound kernels stream each activation once per pass"});
    terms.push_back(tpTerm(sc, dense, lc));
    if (dense.relayout_f_s + dense.relayout_b_s > 0)
        terms.push_back(relayoutTerm(sc, dense, r));
    if (dense.fsdp_copy_f_s + moe.fsdp_copy_f_s > 0)
        terms.push_back(fsdpCopyOutTerm(sc, dense, moe, r));
    if (dense.attn_copy_f_s + dense.attn_copy_b_s > 0)
        terms.push_back(attentionCopiesTerm(sc, dense));
    if (dense.overlap_split_s > 0)
        terms.push_back({"time.layer_tp_overlap_split", 2 * dense.overlap_split_s, "s",
                         "2 · Σ over the GEMMs beside a TP collective: n·t(F/n) − t(F) = (n − 1)·g_half/rate",
                         num(dense.overlap_split_s) + " s forward + the same in the input gradient; n = TP "
                             + num(double(p.tp)) + " (async_tp), g_half = " + num(sc.cluster.gpu.gemm_half_flops / 1e9)
                             + " GFLOP (FP8: its own)",
                         "PyTorch async TP runs every such GEMM in TP chunks, one after another; Transformer "
                         "Engine's userbuffers overlap its chunks on three streams (not charged)"});
}

// The MoE layer's host wait as a row of its op list (the op breakdown): the GPU idles
// max(0, H − its forward work) in the forward and max(0, 2H − its backward work) in the backward
// (layer_cost.cpp hostWaits), no kernel of its own.
LayerOp hostWaitOp(const LayerCost& moe)
{
    LayerOp op;
    op.name = "host_wait";
    op.rate = OpRate::Host;
    op.forward_s = moe.host_f;
    op.input_grad_s = moe.host_b;
    op.term = "time.moe_host_wait";
    return op;
}

} // namespace

OpCostModel opCosts(const Scenario& sc, const ParamCounts& params, const PipelineGeometry& geometry,
                    const std::vector<CommEntry>& comm, Explain explain)
{
    const ParallelConfig& p = sc.parallel;
    const TrainingConfig& t = sc.training;
    const ModelSpec& m = sc.model;
    OpCostModel out;
    out.geometry = geometry;
    // The rates every op runs at (time/layer_ops.h), a dense and a MoE layer's ops, and what each
    // layer costs with the communication it cannot hide (time/layer_cost.h).
    const LayerOpRates rates = layerOpRates(sc);
    const LayerComm lc = layerComm(sc, comm);
    out.dense_ops = layerOps(sc, rates, false);
    out.moe_ops = layerOps(sc, rates, true);
    const LayerCost dense = layerCost(sc, out.dense_ops, lc, false);
    const LayerCost moe = layerCost(sc, out.moe_ops, lc, true);
    if (!m.moe)
        out.moe_ops.clear();
    else if (moe.host_f + moe.host_b > 0)
        out.moe_ops.push_back(hostWaitOp(moe));

    // ZeRO-2/3 collectives run every microbatch, hidden behind that microbatch's compute; CPU
    // offload (time/offload_costs.h); the output layer and MTP's 2h → h projection in bf16.
    const OffloadCosts offload = offloadCosts(sc, params, geometry, out.terms, explain);
    if (offload.active)
        out.offload_pcie = {offload.d2h_bytes, offload.h2d_bytes, offload.pcie_bytes_per_s};
    const auto bf16Gemm = [&](double flops) { return gemmSeconds(sc.cluster.gpu, rates, flops, rates.bf16_gemm_rate); };
    const StageInputs in{sc,
                         params,
                         geometry,
                         dense,
                         moe,
                         zeroRound(comm, p.zero),
                         offload,
                         bf16Gemm(rates.tokens * 2.0 * double(m.hidden) * double(m.vocab) / rates.split),
                         bf16Gemm(rates.tokens * 2.0 * 2 * double(m.hidden) * double(m.hidden) / rates.split),
                         lossCost(sc, rates)};
    for (int s = 0; s < geometry.virtualStages(); ++s)
        out.stages.push_back(stageCost(in, s));

    // Pipeline p2p and the per-rank tails (gradient reduction, optimizer, parameter gather).
    out.p2p_s = callTime(comm, Group::Pp, Collective::SendRecv, Purpose::Activations);
    out.blocking_p2p = !p.pp_comm_overlap;
    if (const CommEntry* pp = findEntry(comm, Group::Pp, Purpose::Activations))
        for (const BoundarySend& b : pp->boundaries)
            out.boundary_p2p_s.push_back(b.seconds);
    double shard_params = 0;
    for (const StageLayers& L : geometry.rank_layers)
        shard_params = std::max(shard_params, stageParams(params, L, p).total());
    const double opt_shard = largestOptimizerShard(params, geometry, p); // experts: over expert-dp
    out.optimizer_s
        = offload.active ? offload.optimizer_s : optimizerStepSeconds(t, opt_shard, rates.hbm, out.terms, explain);
    RankTail tail = rankTail(sc, comm, out, offload);
    // Compressed gradients (training.grad_comm): compressed before, decompressed after each reduction.
    tail.optimizer_s += gradCompressionSeconds(sc, shard_params, rates.microbatches, rates.hbm, out.terms, explain);
    // PipeDream updates after every microbatch: m optimizer steps a step (time/async_pipeline.h).
    if (p.asyncPipeline() && p.async_pipeline == AsyncPipeline::PipeDream) {
        out.optimizer_s *= double(rates.microbatches);
        tail.optimizer_s *= double(rates.microbatches);
    }
    out.tails.assign(std::size_t(geometry.ranks), tail);
    if (explain == Explain::NumbersOnly)
        return out;
    explainLayer(out.terms, sc, rates, dense, moe, lc);
    out.terms.push_back(lossTerm(in.loss));
    if (const ZeroEdges e = zeroEdges(sc, params, geometry, in.zero, geometry.stages.front());
        e.forward_s + e.backward_s > 0)
        out.terms.push_back(
            {"time.fsdp_edges", e.forward_s + e.backward_s, "s",
             "per microbatch: AG·(root + layer)/P (forward) + AG·layer/P + RS·(root + layer)/P (backward)",
             "(" + num(e.edge_params) + " + " + num(e.layer_params) + ") of P = " + num(e.rank_params)
                 + " parameters: " + num(e.forward_s) + " s forward + " + num(e.backward_s) + " s backward",
             "FSDP2 issues a unit's all-gather when the unit before it starts (implicit prefetch): the first "
             "gather of each pass (root: embedding, final norm, output layer; then the first layer) and the last "
             "reduce-scatter have nothing to hide behind; the other collectives hide as ZeRO-3's do"});
    return out;
}

} // namespace parascope
