#include "time/layer_ops.h"

#include "memory/activation_memory.h"
#include "memory/model_states.h"
#include "model/flops.h"
#include "comm/comm_volume.h"
#include "model/parameter_count.h"
#include "time/layer_cost.h"
#include "time/op_fixed_costs.h"
#include "time/step_time.h"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace parascope {

namespace {

// Rows of a grouped GEMM's tile: each expert's tokens are padded to a multiple (CUTLASS and
// cuBLAS grouped GEMMs on Ampere/Hopper use 128-row tiles for large problems).
constexpr double kGroupedGemmTileRows = 128;

// FLOPs of the flash attention backward over its forward (Dao 2023, FlashAttention-2 §4.1).
constexpr double kFlashBackwardFlops = 2.5;

// The ops of one layer, built in the order they run.
class OpList {
public:
    OpList(const Scenario& sc, const LayerOpRates& r, bool moe)
        : sc_(sc)
        , r_(r)
        , moe_(moe)
    { }

    double gemmTime(double flops, double rate) const { return gemmSeconds(sc_.cluster.gpu, r_, flops, rate); }

    // A GEMM of M×K by K×N in the training precision. In FP8 it also quantizes its input (M·K)
    // forward and its output gradient (M·N) backward, and its weight (N·K) once per step.
    LayerOp& gemm(const char* name, TpSlot slot, double M, double N, double K)
    {
        LayerOp& op = add(name, OpRate::Gemm, slot, 2 * M * N * K, r_.gemm_rate);
        if (r_.fp8) {
            op.precision = Precision::Fp8;
            op.cast_forward_s
                = (M * K * r_.casts.bytes_per_element + N * K * r_.casts.weight_bytes / r_.microbatches) / r_.hbm;
            op.cast_backward_s = M * N * r_.casts.bytes_per_element / r_.hbm;
            ++op.forward_kernels, ++op.backward_kernels;
        }
        return op;
    }
    // A GEMM that FP8 recipes keep in bf16 (the router; the output layer is op_costs.cpp's).
    LayerOp& bf16Gemm(const char* name, TpSlot slot, double M, double N, double K)
    {
        return add(name, OpRate::Bf16Gemm, slot, 2 * M * N * K, r_.bf16_gemm_rate);
    }
    // What a selective recompute module runs again of a GEMM (no new quantization: the forward's
    // FP8 copies are recomputed alike, counted once).
    double again(double M, double N, double K) const { return gemmTime(2 * M * N * K, r_.gemm_rate); }
    // One GEMM per weight instead of one for the n of them (training.fused_projections off):
    // Σ t(F_i) = t(ΣF) + (n − 1)·g_half/rate, so each pass pays n − 1 more fixed costs of the size
    // curve; the input gradient adds up its n partial products (one fused add: read n, write 1,
    // of the input's `input_bytes`). Kernels: n − 1 more forward, 2(n − 1) + 1 backward.
    void separate(LayerOp& op, int n, double input_bytes) const
    {
        const double rate = op.precision == Precision::Fp8 ? r_.gemm_rate : r_.bf16_gemm_rate;
        const double fixed = (n - 1) * (gemmTime(op.flops, rate) - op.flops / rate);
        op.gemms = n;
        op.forward_s += fixed;
        op.input_grad_s += fixed + (n + 1) * input_bytes / r_.hbm;
        op.weight_grad_s += fixed;
        op.forward_kernels += n - 1;
        op.backward_kernels += 2 * (n - 1) + 1;
    }

    LayerOp& other(const char* name, OpRate rate)
    {
        LayerOp op;
        op.name = name;
        op.rate = rate;
        op.precision = bf16OrTraining();
        op.term = termOf(name, rate);
        ops_.push_back(std::move(op));
        return ops_.back();
    }

    std::vector<LayerOp> take() { return std::move(ops_); }

private:
    Precision bf16OrTraining() const { return r_.fp8 ? Precision::Bf16 : sc_.training.precision; }
    // The Term that explains an op of this layer (op_costs.cpp writes them): a MoE layer's GEMMs
    // are explained together, routing has its own.
    const char* termOf(std::string_view name, OpRate rate) const
    {
        switch (rate) {
        case OpRate::Gemm:
        case OpRate::Bf16Gemm: return moe_ ? "time.moe_layer_forward_gemm" : "time.layer_forward_gemm";
        case OpRate::Attention: return "time.layer_forward_attention";
        case OpRate::Memory:
            return name == "routing"                             ? "time.moe_routing"
                : name == "sequence_relayout"                    ? "time.layer_sp_relayout"
                : name == "fsdp_copy_out"                        ? "time.fsdp_copy_out"
                : name == "kv_repeat" || name == "cp_ring_merge" ? "time.attention_copies"
                                                                 : "time.layer_elementwise";
        case OpRate::Host: return "time.moe_host_wait";
        }
        return "";
    }

    LayerOp& add(const char* name, OpRate rate, TpSlot slot, double flops, double flop_rate)
    {
        LayerOp& op = other(name, rate);
        op.slot = slot;
        op.flops = op.input_grad_flops = op.weight_grad_flops = flops; // dX and dW: the same size
        op.forward_s = gemmTime(flops, flop_rate);
        op.input_grad_s = op.weight_grad_s = op.forward_s; // dX and dW: the same size
        op.gemms = 1;
        op.forward_kernels = 1;
        op.backward_kernels = 2;
        return op;
    }

    const Scenario& sc_;
    const LayerOpRates& r_;
    bool moe_;
    std::vector<LayerOp> ops_;
};

// MLA's projections one by one (the down projections run whole on every TP rank), or Megatron's
// fused linear_qkv and the output projection, each with what recompute modules repeat of it.
void attentionProjections(OpList& ops, const Scenario& sc, const LayerOpRates& r, bool after_core)
{
    const ModelSpec& m = sc.model;
    const TrainingConfig& t = sc.training;
    const double T = r.tokens, split = r.split;
    if (m.mla) {
        for (const Projection& pr : parascope::attentionProjections(m)) {
            const bool out = std::string_view(pr.name) == "o";
            if (out != after_core)
                continue;
            LayerOp& g = ops.gemm(pr.name, out ? TpSlot::AttentionOut : TpSlot::AttentionIn, T,
                                  double(pr.out) / (pr.tp_split ? split : 1.0), double(pr.in));
            if (pr.tp_split && !out && t.recomputes(RecomputeModule::MlaUpProj))
                g.recompute_s = ops.again(T, double(pr.out) / split, double(pr.in));
        }
        return;
    }
    const double h = double(m.hidden), q = double(m.queryWidth()), kv = double(m.kvWidth());
    const bool every_other = t.recomputes(RecomputeModule::EveryOtherMm); // k and o again
    if (!after_core) {
        LayerOp& qkv = ops.gemm("qkv", TpSlot::AttentionIn, T, (q + 2 * kv) / split, h);
        if (!t.fused_projections) // wq, wk, wv
            ops.separate(qkv, 3, T * h * t.activationBytes());
        if (every_other)
            qkv.recompute_s = ops.again(T, kv / split, h);
    } else {
        LayerOp& o = ops.gemm("out", TpSlot::AttentionOut, T, h, q / split);
        if (every_other)
            o.recompute_s = ops.again(T, h, q / split);
    }
}

// Attention scores. A flash kernel skips the masked half of the causal s×s (the FLOPs' full
// count halved) and runs at its own efficiency; its backward does 2.5× the forward's FLOPs
// (FlashAttention-2 §4.1: 5 matmuls against 2, QKᵀ recomputed). Without flash (Megatron 2021)
// two batched GEMMs compute the whole s×s before the mask, and the backward repeats each twice
// (dQ and dK from dS; dV and dP).
void attentionCore(OpList& ops, const Scenario& sc, const LayerOpRates& r, bool moe)
{
    const LayerForwardFlops f = layerForwardFlops(sc.model, sc.training.seq_len, moe);
    const double score_flops = r.tokens * f.attention_scores / r.split;
    LayerOp& op = ops.other("attention", OpRate::Attention);
    if (sc.training.flash_attention) {
        op.flops = score_flops / 2;
        op.input_grad_flops = kFlashBackwardFlops * op.flops;
        op.forward_s = score_flops / 2 / r.attention.flops_per_s;
        op.input_grad_s = kFlashBackwardFlops * op.forward_s;
        op.forward_kernels = 1; // the fused forward
        op.backward_kernels = 2; // FlashAttention-2: the dO·O preprocess, then the fused backward
    } else {
        op.flops = score_flops;
        op.input_grad_flops = 2 * op.flops;
        op.forward_s = 2 * ops.gemmTime(score_flops / 2, r.bf16_gemm_rate);
        op.input_grad_s = 2 * op.forward_s;
        op.forward_kernels = 3; // baddbmm, softmax, bmm
        op.backward_kernels = 5; // four batched GEMMs and the softmax's backward
    }
}

// GQA's repeat_kv (training.repeat_kv): the model code copies K and V out to every query head
// before the attention kernel (expand + reshape): the KV heads' bytes read and the repeated ones
// written. The backward rebuilds the copies for the attention's backward (torch.compile's min-cut
// partitioner keeps the smaller tensors before the expansion, op SAC recomputes it like any
// non-matmul op; a full recompute's forward has already rebuilt them) and sums each head group's
// gradient back: once or twice the forward's bytes. Nothing with as many KV heads as query heads
// (repeat_kv returns its input) or MLA. The kept activations stay at the KV heads' width.
void kvRepeat(OpList& ops, const Scenario& sc, const LayerOpRates& r)
{
    const ModelSpec& m = sc.model;
    const TrainingConfig& t = sc.training;
    if (!t.repeat_kv || !m.groupedKv())
        return;
    const double bytes = t.activationBytes();
    const bool rebuilt = t.recompute == Recompute::Full;
    LayerOp& op = ops.other("kv_repeat", OpRate::Memory);
    op.bytes = r.tokens * (kernelKvWidth(m, sc.parallel, false) + kernelKvWidth(m, sc.parallel, true)) * bytes;
    op.forward_s = op.bytes / r.hbm;
    op.input_grad_s = (rebuilt ? 1 : 2) * op.forward_s;
    op.forward_kernels = 2; // K and V
    op.backward_kernels = rebuilt ? 2 : 4;
}

// PyTorch's ring attention (CpComm::RingAllGather) merges each block's output into the running
// one in fp32 and accumulates the gradients of Q, K and V in fp32 (_SDPAMerger and
// _templated_ring_attention_backward in torch/distributed/tensor/experimental/_attention.py), in
// eager kernels beside the flash calls. The ring's last rank, whose blocks all take the whole Q:
// forward, per element of the output E_o, the first block's cast to fp32 (2 + 4 B) and the
// result's back (4 + 2), then per later block its cast (6), out − block (12), σ(Δlse)·that (8) and
// out − that (12): E_o·(12 + 38·(cp − 1)). Backward, per element of Q, the fp32 zeros (4), a
// bf16 dQ added per block (2 + 4 + 4) and the cast back (6): E_q·(10 + 10·cp); per element of K
// and V, zeros (4), the first block's add (10), each later block's add into the received half
// (5) and torch.cat of the whole (8), the concatenation sent on every block (8), the cast back
// (6): E_kv·(20 + 13·(cp − 1) + 8·cp).
void ringMerges(OpList& ops, const Scenario& sc, const LayerOpRates& r)
{
    const ParallelConfig& p = sc.parallel;
    const ModelSpec& m = sc.model;
    if (p.cp <= 1 || p.cp_comm != CpComm::RingAllGather)
        return;
    const double cp = double(p.cp), tp = double(p.tp);
    const double E_o = r.tokens * double(m.attentionOutWidth()) / tp, E_q = r.tokens * double(m.queryWidth()) / tp;
    const double E_kv = r.tokens * kernelKvWidth(m, p, sc.training.repeat_kv);
    LayerOp& op = ops.other("cp_ring_merge", OpRate::Memory);
    op.bytes = E_o * (12 + 38 * (cp - 1));
    op.forward_s = op.bytes / r.hbm;
    op.input_grad_s = (E_q * (10 + 10 * cp) + E_kv * (20 + 13 * (cp - 1) + 8 * cp)) / r.hbm;
    op.forward_kernels = int(2 + 4 * (cp - 1)); // two casts, then per block a cast and three passes
    op.backward_kernels = int(5 + 5 * cp); // three fills, two casts; per block three adds, two cats
}

// The expert grid re-slices the stage's tp·cp·dp GPUs: an ETP group holds every token of etp/tp
// attention-TP groups and 1/etp of each local expert's width, so a GPU's routed-expert FLOPs are
// tokens·top_k·(MLP FLOPs)/tp whatever EP and ETP are (docs/ARCHITECTURE.md, "expert grid"); per
// expert it sees tokens·top_k·(etp/tp)/local. The busiest expert rank sets the pace:
// t.moeLoad() times the mean tokens. Grouped GEMM (Megatron --moe-grouped-gemm,
// torch._grouped_mm): one kernel for the rank's local experts pays the size curve's fixed cost
// once; each expert's rows are padded to the kernel's tile.
void experts(OpList& ops, const Scenario& sc, const LayerOpRates& r)
{
    const ModelSpec& m = sc.model;
    const ParallelConfig& p = sc.parallel;
    const TrainingConfig& t = sc.training;
    const MoeSpec& e = *m.moe;
    const double h = double(m.hidden), up = m.mlp == MlpKind::SwiGlu ? 2 : 1, T = r.tokens, split = r.split;
    const double etp = p.expertTp(), local_experts = std::max(1.0, double(e.experts) / p.ep);
    const double per_expert = T * e.top_k * (etp / p.tp) / local_experts * t.moeLoad();
    const double fe = double(e.ffn_hidden);
    const double rows = local_experts * std::ceil(per_expert / kGroupedGemmTileRows) * kGroupedGemmTileRows;
    const double routed_up = ops.gemm("experts_up", TpSlot::MlpIn, rows, up * fe / etp, h).forward_s;
    const double router = ops.bf16Gemm("router", TpSlot::MlpIn, T, double(e.experts), h).forward_s;
    const double routed_down = ops.gemm("experts_down", TpSlot::MlpOut, rows, h, fe / etp).forward_s;
    // Memory-bound routing work per direction: the router's softmax and top-k over E fp32 scores
    // (3 passes of 4 bytes), the permutation of each token to its top_k slots and back
    // ((1 + k)·h·2 bytes each way), and, when a rank holds several experts, the sort of the
    // received tokens by expert and back (2·2·k·h·2). Megatron's alltoall token dispatcher; the
    // tokens each rank routes are its SP share.
    const bool sp = p.sequence_parallel && p.tp > 1;
    const double routed = T / (sp ? p.tp : 1);
    const bool sorts = local_experts > 1 && p.ep > 1;
    LayerOp& routing = ops.other("routing", OpRate::Memory);
    routing.bytes
        = routed * (12.0 * e.experts + (4.0 * (1 + e.top_k) * h + (sorts ? 8.0 * e.top_k * h : 0.0)) * t.moeLoad());
    routing.forward_s = routing.input_grad_s = routing.bytes / r.hbm;
    routing.forward_kernels = routing.backward_kernels
        = sorts ? 6 : 4; // softmax, top-k, permute, unpermute (+ sort and back)
    // --recompute-modules moe runs the whole block again: router, routing, experts (its
    // all-to-alls are counted with the communication).
    const bool whole_block = t.recomputes(RecomputeModule::Moe);
    if (whole_block)
        routing.recompute_s = (routed_up + router) + routed_down + routing.forward_s;
    if (e.shared_experts > 0) {
        const double fs = double(e.shared_ffn_hidden > 0 ? e.shared_ffn_hidden : e.ffn_hidden) * e.shared_experts;
        LayerOp& shared_up = ops.gemm("shared_up", TpSlot::MlpIn, T, up * fs / split, h);
        if (!t.fused_projections && up > 1)
            ops.separate(shared_up, 2, T * h * t.activationBytes());
        LayerOp& down = ops.gemm("shared_down", TpSlot::MlpOut, T, h, fs / split);
        if (t.recomputes(RecomputeModule::SharedExperts) || whole_block)
            down.recompute_s = ops.again(T, up * fs / split, h) + ops.again(T, h, fs / split);
    }
}

void denseMlp(OpList& ops, const Scenario& sc, const LayerOpRates& r)
{
    const ModelSpec& m = sc.model;
    const TrainingConfig& t = sc.training;
    const double h = double(m.hidden), up = m.mlp == MlpKind::SwiGlu ? 2 : 1, ff = double(m.ffn_hidden), T = r.tokens,
                 split = r.split;
    LayerOp& mlp_up = ops.gemm("mlp_up", TpSlot::MlpIn, T, up * ff / split, h);
    if (!t.fused_projections && up > 1) // SwiGLU's w1 and w3
        ops.separate(mlp_up, 2, T * h * t.activationBytes());
    LayerOp& down = ops.gemm("mlp_down", TpSlot::MlpOut, T, h, ff / split);
    if (t.recomputes(RecomputeModule::Mlp))
        down.recompute_s = ops.again(T, up * ff / split, h) + ops.again(T, h, ff / split);
    else if (t.recomputes(RecomputeModule::EveryOtherMm)) // SwiGLU's up projection, GELU's fc2
        down.recompute_s = m.mlp == MlpKind::SwiGlu ? ops.again(T, ff / split, h) : ops.again(T, h, ff / split);
}

// Elementwise kernels (norms, activations, dropout, residuals, rotary, softmax without flash)
// stream the activations: one pass of the layer's no-recompute working set, plus the launch and
// tail cost of a layer's pass. Elementwise recompute modules (layernorm, moe_act) read their
// inputs and write their outputs again: twice the bytes they dropped.
void elementwise(OpList& ops, const Scenario& sc, const LayerOpRates& r, bool moe)
{
    const TrainingConfig& t = sc.training;
    TrainingConfig whole = t;
    whole.recompute = Recompute::None;
    LayerOp& op = ops.other("elementwise", OpRate::Memory);
    op.bytes = layerActivation(sc.model, whole, sc.parallel, moe).stored;
    op.forward_s = op.bytes / r.hbm + sc.cluster.gpu.kernel_overhead_s;
    op.input_grad_s = 2 * op.forward_s; // read the activation, write the gradient
    // Two norms, two residual adds, the MLP's activation, and the rotary embedding where used.
    op.forward_kernels = op.backward_kernels = 5 + (sc.model.position == PositionKind::Rope ? 1 : 0);
    TrainingConfig modules = t;
    modules.recompute_modules &= unsigned(RecomputeModule::Layernorm) | unsigned(RecomputeModule::MoeAct)
        | unsigned(RecomputeModule::EveryOtherMm) | unsigned(RecomputeModule::Moe);
    op.recompute_s = 2 * layerActivation(sc.model, modules, sc.parallel, moe, Explain::NumbersOnly).recomputed / r.hbm;
}

// The copies an SP collective adds on the compute stream, in bytes, for a buffer of x bytes.
// Batch-first ([b, s, h], parallel.activation_layout bsh): PyTorch's DTensor shards the sequence
// along dimension 1, its functional all_gather_tensor gathers along dimension 0 and reassembles
// the sequence with torch.cat(torch.chunk(out, tp), dim=1), and reduce_scatter_tensor first lays
// its input out with torch.cat(torch.chunk(in, tp, dim=1)) (torch/distributed/
// _functional_collectives.py): the whole buffer read and written once more, 2·x. Megatron's
// [s, b, h] gathers in place: nothing. Async TP's fused collective matmuls
// (torch/distributed/_symmetric_memory: _pipelined_all_gather_and_consume,
// _fused_matmul_reduce_scatter_impl) take each shard as it arrives, whatever the layout, but
// copy the local shard into the symmetric buffer before the first chunk and into the gathered
// output after the last (4·x/tp), and a reduce-scatter's partial products arrive unsummed:
// reduce_partials reads the TP partials and writes the shard, (1 + 1/tp)·x.
struct SpCopies {
    double tp;
    bool bsh;
    double gather(double x, bool fused) const { return fused ? 4 * x / tp : bsh ? 2 * x : 0.0; }
    double scatter(double x, bool fused) const { return fused ? (1 + 1 / tp) * x : bsh ? 2 * x : 0.0; }
    // Their kernels: two shard copies, one reduction, one relayout copy.
    int gatherKernels(bool fused) const { return fused ? 2 : bsh ? 1 : 0; }
    int scatterKernels(bool fused) const { return fused || bsh ? 1 : 0; }
};

// Per layer and direction: n all-gathers and n reduce-scatters (n = 2; 1 for a parallel block),
// S = (s/cp)·b·h times the bytes an element carries (the forward's FP8 gathers: 1). The backward
// gathers the output gradients (fused by async TP) and scatters the input gradients (unfused
// after separate projections: layer_cost::asyncTpSplitsBackward); op SAC (every_other_mm)
// gathers the forward's inputs once more.
void sequenceRelayout(OpList& ops, const Scenario& sc, const LayerOpRates& r)
{
    const ParallelConfig& p = sc.parallel;
    const TrainingConfig& t = sc.training;
    const bool fused = p.asyncTp();
    const bool bsh = p.activation_layout == ActivationLayout::Bsh;
    if (p.tp <= 1 || !p.sequence_parallel || (!bsh && !fused))
        return;
    const SpCopies c{double(p.tp), bsh};
    const double n = tpCollectivesPerLayer(sc.model);
    const double S = r.tokens * double(sc.model.hidden) * t.activationBytes();
    const double gathered = t.fp8Gathers() ? S / 2 : S; // the forward's all-gathers
    const bool fused_b = fused && !layer_cost::asyncTpSplitsBackward(sc);
    const bool regather = t.recompute != Recompute::Full && t.recomputes(RecomputeModule::EveryOtherMm);
    LayerOp& op = ops.other("sequence_relayout", OpRate::Memory);
    op.bytes = n * (c.gather(gathered, fused) + c.scatter(S, fused));
    const double backward = n * (c.gather(S, fused) + c.scatter(S, fused_b));
    op.forward_s = op.bytes / r.hbm;
    op.input_grad_s = backward / r.hbm;
    op.recompute_s = regather ? n * c.gather(gathered, fused) / r.hbm : 0.0;
    op.forward_kernels = int(n) * (c.gatherKernels(fused) + c.scatterKernels(fused));
    op.backward_kernels = int(n) * (c.gatherKernels(fused) + c.scatterKernels(fused_b));
}

// PyTorch FSDP2 (parallel.zero3_sharding: per_parameter) gathers a unit's shards into one flat
// buffer, then, on the compute stream after the gather's event, copies them out into the
// unsharded parameters (foreach_all_gather_copy_out: torch.split_with_sizes_copy, in
// torch/distributed/fsdp's _fsdp_collectives.py): the gathered bytes read once and written once,
// serial with the layer's kernels. Once per gather, as comm/group_collectives.cpp counts them:
// the forward's, and the backward's when reshard_after_forward freed the unit in between. The
// unit is the layer's parameters on this GPU, split as the memory model splits a stage's
// (memory/model_states.h stageParams); a group of one shard gathers nothing.
void fsdpCopyOut(OpList& ops, const Scenario& sc, const LayerOpRates& r, bool moe)
{
    const ParallelConfig& p = sc.parallel;
    const TrainingConfig& t = sc.training;
    if (p.zero < 3 || p.zero3_sharding != Zero3Sharding::PerParameter)
        return;
    StageLayers one_layer;
    one_layer.layers = 1;
    one_layer.moe_layers = moe ? 1 : 0;
    const StageParams layer = stageParams(countParameters(sc.model, Explain::NumbersOnly), one_layer, p);
    const double dense = p.zeroShard() > 1 ? layer.dense : 0.0;
    const double experts = p.expertZeroShard() > 1 ? layer.experts : 0.0;
    const double gathered = t.fp8Gathers() ? 1.0 : t.precision == Precision::Fp32 ? 4.0 : 2.0;
    if (dense + experts <= 0)
        return;
    LayerOp& op = ops.other("fsdp_copy_out", OpRate::Memory);
    op.bytes = 2 * (dense + experts) * gathered;
    op.forward_s = op.bytes / r.hbm;
    op.input_grad_s = p.reshard_after_forward ? op.forward_s : 0.0;
    op.forward_kernels = 1;
    op.backward_kernels = p.reshard_after_forward ? 1 : 0;
}

} // namespace

// GEMM efficiency rises with size and saturates (mamf-finder sweeps): eff·g/(g + g_half). g_half
// is the size whose fixed costs (launch, prologue, the last wave) equal its compute time; FP8
// GEMMs have their own, measured (gemm_half_gflop_fp8), or else the fixed costs are taken as
// bf16's: at twice the rate the half size doubles.
double gemmSeconds(const GpuSpec& gpu, const LayerOpRates& r, double flops, double rate)
{
    const bool fp8_gemm = r.fp8 && rate > r.bf16_gemm_rate;
    const double half = fp8_gemm && gpu.gemm_half_flops_fp8 > 0 ? gpu.gemm_half_flops_fp8
                                                                : gpu.gemm_half_flops * rate / r.bf16_gemm_rate;
    return half > 0 ? flops / (rate * (flops / (flops + half))) : flops / (rate * 1.0);
}

LayerOpRates layerOpRates(const Scenario& sc)
{
    const GpuSpec& gpu = sc.cluster.gpu;
    const TrainingConfig& t = sc.training;
    LayerOpRates r;
    // FP8 (Transformer Engine, torchao float8): the linear layers' GEMMs run on the FP8 tensor
    // cores; the fused attention, the output layer and the router stay in bf16.
    r.fp8 = t.precision == Precision::Fp8 && gpu.peak_fp8_flops > 0;
    const double peak = peakFlops(gpu, t.precision);
    r.bf16_peak = r.fp8 ? gpu.peak_bf16_flops : peak;
    // Tensor-core work runs at the sustained clock, not the boost clock the peak is quoted at.
    r.gemm_rate = peak * gpu.gemm_efficiency * gpu.sustained_clock;
    r.bf16_gemm_rate = r.bf16_peak * gpu.gemm_efficiency * gpu.sustained_clock;
    if (r.fp8 && t.fp8_recipe == Fp8Recipe::Blockwise)
        r.gemm_rate *= gpu.fp8_block_gemm_ratio;
    r.attention = attentionRate(sc, r.bf16_peak);
    r.hbm = gpu.hbm_bytes_per_s * gpu.hbm_efficiency;
    r.casts = fp8Casts(t.fp8_recipe);
    r.microbatches = double(std::max<std::int64_t>(1, sc.microbatches()));
    r.tokens = double(t.seq_len) / sc.parallel.cp * double(t.micro_batch);
    r.split = double(sc.parallel.tp) * 1.0; // matmuls split over TP (CP already in tokens)
    return r;
}

std::vector<LayerOp> layerOps(const Scenario& sc, const LayerOpRates& r, bool moe)
{
    OpList ops(sc, r, moe && sc.model.moe);
    attentionProjections(ops, sc, r, false);
    kvRepeat(ops, sc, r);
    attentionCore(ops, sc, r, moe);
    ringMerges(ops, sc, r);
    attentionProjections(ops, sc, r, true);
    if (moe && sc.model.moe)
        experts(ops, sc, r);
    else
        denseMlp(ops, sc, r);
    elementwise(ops, sc, r, moe);
    sequenceRelayout(ops, sc, r);
    fsdpCopyOut(ops, sc, r, moe && sc.model.moe);
    std::vector<LayerOp> out = ops.take();
    castKernelCosts(out, sc.cluster.gpu, r);
    overlapSplitCosts(out, sc, r);
    return out;
}

} // namespace parascope
