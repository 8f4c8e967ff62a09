// A layer as a list of ops (core/time/layer_ops.h), each kind derived by hand: the GEMMs with
// the size curve, flash and unfused attention, the elementwise pass, FP8 casts, a MoE layer's
// grouped expert GEMMs, router and routing; async TP's GEMM chunks; batch-first SP's copies;
// FSDP2's copy-out; the kernel counts; and the stage cost the op costs add up from the same list.

#include "by_hand.h"
#include "io/layer_ops_report.h"
#include "io/report_json.h"
#include "time/layer_ops.h"

#include <algorithm>
#include <cmath>

using namespace parascope;
using namespace parascope::test;

namespace {

// Eight microbatches of one 4096-token sequence.
Scenario eightSequencesOf4096(Scenario sc)
{
    sc.training.seq_len = 4096;
    sc.training.micro_batch = 1;
    sc.training.global_batch = 8;
    return sc;
}

// Llama-2 7B (h = q = kv = 4096, a = 32, f = 11008 SwiGLU) on the DGX A100 80GB preset, TP = 1,
// s = 4096, micro batch 1 (T = 4096 tokens), bf16, flash attention, no recompute.
Scenario llama7b()
{
    Scenario sc = eightSequencesOf4096(presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 1));
    sc.training.recompute = Recompute::None;
    sc.training.flash_attention = true;
    sc.training.precision = Precision::Bf16;
    return sc;
}

// The same model on the DGX H100 preset in FP8 with the given scaling recipe (the preset's
// recompute and attention defaults).
Scenario llama7bFp8OnH100(Fp8Recipe recipe)
{
    Scenario sc = eightSequencesOf4096(presetScenario("llama2-7b", "dgx-h100", 1, 1, 1));
    sc.training.precision = Precision::Fp8;
    sc.training.fp8_recipe = recipe;
    return sc;
}

const LayerOp& named(const std::vector<LayerOp>& ops, const std::string& name)
{
    for (const LayerOp& op : ops)
        if (op.name == name)
            return op;
    qFatal("no op %s", name.c_str());
}

// A GEMM of F FLOPs at r FLOP/s with the size curve's half size g: F/(r·F/(F + g)).
double gemm(double M, double N, double K, double r, double g)
{
    return 2 * M * N * K / (r * (2 * M * N * K) / (2 * M * N * K + g));
}

} // namespace

class TstLayerOps : public QObject {
    Q_OBJECT

private slots:
    void denseLayerByHand()
    {
        const Scenario sc = llama7b();
        QCOMPARE(sc.cluster.gpu.gemm_half_flops, 2e9);
        const std::vector<LayerOp> ops = layerOps(sc, layerOpRates(sc), false);
        QStringList names;
        for (const LayerOp& op : ops)
            names << QString::fromStdString(op.name);
        QCOMPARE(names.join(QLatin1Char(' ')), QStringLiteral("qkv attention out mlp_up mlp_down elementwise"));
        // GEMMs at 312e12·0.869·0.78 FLOP/s, half size 2 GFLOP; dX and dW the same size.
        const double T = 4096, h = 4096, q = 4096, kv = 4096, f = 11008, a = 32, s = 4096, r = 312e12 * 0.869 * 0.78;
        const double qkv = gemm(T, q + 2 * kv, h, r, 2e9); // 412.3 GFLOP → 1.9591 ms
        QVERIFY2(near(named(ops, "qkv").forward_s, qkv), qPrintable(versus("qkv", named(ops, "qkv").forward_s, qkv)));
        QCOMPARE(named(ops, "qkv").flops, 2 * T * (q + 2 * kv) * h);
        QCOMPARE(named(ops, "qkv").input_grad_s, named(ops, "qkv").forward_s);
        QCOMPARE(named(ops, "qkv").weight_grad_s, named(ops, "qkv").forward_s);
        QVERIFY(near(named(ops, "out").forward_s, gemm(T, h, q, r, 2e9)));
        QVERIFY(near(named(ops, "mlp_up").forward_s, gemm(T, 2 * f, h, r, 2e9)));
        QVERIFY(near(named(ops, "mlp_down").forward_s, gemm(T, h, f, r, 2e9)));
        // Flash attention: the causal half of T·4·s·q at 312e12·0.624·s/(s + 495)·0.78; its
        // backward 2.5× (FlashAttention-2 §4.1).
        const double att = T * 2 * s * q / (312e12 * 0.624 * (s / (s + 495)) * 0.78);
        QVERIFY2(near(named(ops, "attention").forward_s, att),
                 qPrintable(versus("attention", named(ops, "attention").forward_s, att)));
        QVERIFY(near(named(ops, "attention").input_grad_s, 2.5 * att));
        QCOMPARE(named(ops, "attention").weight_grad_s, 0.0);
        // Elementwise: one pass over the stored activations s·(10h + 2q + 4kv + 2q + 6f + 4a)
        // (Korthikanti, flash) at 2039e9·0.9 B/s, plus the 150 µs launch and tail; backward twice.
        const double bytes = s * (10 * h + 2 * q + 4 * kv + 2 * q + 6 * f + 4 * a);
        QCOMPARE(named(ops, "elementwise").bytes, bytes);
        QVERIFY(near(named(ops, "elementwise").forward_s, bytes / (2039e9 * 0.9) + 150e-6));
        QVERIFY(near(named(ops, "elementwise").input_grad_s, 2 * named(ops, "elementwise").forward_s));
        // Kernels: one per GEMM forward, two backward (dX, dW); flash 1 + 2; the elementwise
        // pass two norms, two residual adds, SwiGLU and the rotary embedding.
        QCOMPARE(named(ops, "qkv").forward_kernels, 1);
        QCOMPARE(named(ops, "qkv").backward_kernels, 2);
        QCOMPARE(named(ops, "attention").backward_kernels, 2);
        QCOMPARE(named(ops, "elementwise").forward_kernels, 6);
    }

    void unfusedAttentionByHand()
    {
        // Without flash: two batched GEMMs over the whole s×s, T·4·s·q FLOPs, at the bf16 GEMM
        // rate with the size curve; backward twice.
        Scenario sc = llama7b();
        sc.training.flash_attention = false;
        const std::vector<LayerOp> ops = layerOps(sc, layerOpRates(sc), false);
        const double T = 4096, s = 4096, q = 4096, F = T * 4 * s * q / 2, r = 312e12 * 0.869 * 0.78;
        const double att = 2 * F / (r * F / (F + 2e9));
        QVERIFY(near(named(ops, "attention").forward_s, att));
        QVERIFY(near(named(ops, "attention").input_grad_s, 2 * att));
        QCOMPARE(named(ops, "attention").forward_kernels, 3);
    }

    void fp8CastsByHand()
    {
        // H100, delayed scaling (4 bytes per element): the QKV GEMM quantizes its input M·K =
        // T·h and its weight N·K once per step (/m = 8) forward, its output gradient M·N backward,
        // at 3350e9·0.9 B/s; it runs at the FP8 rate with the FP8 half size (55 GFLOP).
        Scenario sc = llama7bFp8OnH100(Fp8Recipe::Delayed);
        QCOMPARE(sc.cluster.gpu.gemm_half_flops_fp8, 55e9);
        const std::vector<LayerOp> ops = layerOps(sc, layerOpRates(sc), false);
        const LayerOp& qkv = named(ops, "qkv");
        const double T = 4096, h = 4096, N = 3 * 4096, hbm = 3350e9 * 0.9, r8 = 1979e12 * 0.803 * 0.78;
        QCOMPARE(qkv.precision, Precision::Fp8);
        // Each cast is a kernel and pays one kernel's fixed cost: the 150 µs kernel overhead of a
        // pass over its 11 bf16 kernels (qkv, attention, out, mlp_up, mlp_down, 6 elementwise).
        const double fixed = 150e-6 / 11;
        QVERIFY(near(qkv.cast_forward_s, (T * h * 4 + N * h * 4 / 8) / hbm + fixed));
        QVERIFY(near(qkv.cast_backward_s, T * N * 4 / hbm + fixed));
        QVERIFY(near(qkv.forward_s, gemm(T, N, h, r8, 55e9)));
        QCOMPARE(qkv.forward_kernels, 2); // the cast, then the GEMM
        QCOMPARE(named(ops, "attention").precision, Precision::Bf16); // attention stays bf16
    }

    void fp8BlockScalesSlowTheGemms()
    {
        // Blockwise FP8 on H100: the GEMMs run at fp8_block_gemm_ratio = 0.82 of the tensor-scaled
        // FP8 rate (Transformer Engine's H200 GEMM benchmark: block kernels 20.58 ms against the
        // current-scaling kernels' 16.79 ms per layer of its 5B config), same half size; the
        // casts move 4 + 2/32 bytes per element (one fp32 scale per 128).
        Scenario sc = llama7bFp8OnH100(Fp8Recipe::Blockwise);
        QCOMPARE(sc.cluster.gpu.fp8_block_gemm_ratio, 0.82);
        const std::vector<LayerOp> block = layerOps(sc, layerOpRates(sc), false);
        const double T = 4096, h = 4096, N = 3 * 4096, rb = 1979e12 * 0.803 * 0.78 * 0.82;
        QVERIFY(near(named(block, "qkv").forward_s, gemm(T, N, h, rb, 55e9)));
        QVERIFY(near(named(block, "qkv").cast_backward_s, T * N * (4 + 2.0 / 32) / (3350e9 * 0.9) + 150e-6 / 11));
        // Delayed scaling keeps the full FP8 rate; bf16 ops (attention, the router) do not move.
        sc.training.fp8_recipe = Fp8Recipe::Delayed;
        const std::vector<LayerOp> delayed = layerOps(sc, layerOpRates(sc), false);
        QVERIFY(near(named(delayed, "qkv").forward_s, gemm(T, N, h, rb / 0.82, 55e9)));
        QCOMPARE(named(block, "attention").forward_s, named(delayed, "attention").forward_s);
        // A GPU that scales blocks in hardware (ratio 1) runs blockwise at the FP8 rate.
        sc.training.fp8_recipe = Fp8Recipe::Blockwise;
        sc.cluster.gpu.fp8_block_gemm_ratio = 1;
        QCOMPARE(named(layerOps(sc, layerOpRates(sc), false), "qkv").forward_s, named(delayed, "qkv").forward_s);
    }

    void moeLayerByHand()
    {
        // Mixtral 8x7B (8 experts of width 14336, top 2, h = 4096, SwiGLU), TP 1, EP 8: one
        // expert per GPU, which receives, with balanced routing, the T·k/E tokens each of the 8
        // GPUs routes to it: T·k·(etp/tp)/local = 4096·2·1/1 = 8192 rows (a multiple of the
        // 128-row tile), so experts_up = gemm(8192, 2·14336, 4096). The router: a bf16 GEMM of
        // T×E. Routing: T·(12·E + 4·(1 + k)·h) bytes per direction (one expert per GPU: no sort).
        Scenario sc = presetScenario("mixtral-8x7b", "dgx-a100-80g", 1, 1, 8);
        sc.parallel.ep = 8;
        sc.training.seq_len = 4096;
        sc.training.micro_batch = 1;
        sc.training.global_batch = 8;
        sc.training.precision = Precision::Bf16;
        const MoeSpec& e = *sc.model.moe;
        QCOMPARE(e.experts, 8);
        QCOMPARE(e.top_k, 2);
        QCOMPARE(e.ffn_hidden, 14336);
        QCOMPARE(sc.training.moeLoad(), 1.0);
        const std::vector<LayerOp> ops = layerOps(sc, layerOpRates(sc), true);
        const double T = 4096, h = 4096, fe = 14336, r = 312e12 * 0.869 * 0.78, rows = 8192;
        QVERIFY(near(named(ops, "experts_up").forward_s, gemm(rows, 2 * fe, h, r, 2e9)));
        QVERIFY(near(named(ops, "experts_down").forward_s, gemm(rows, h, fe, r, 2e9)));
        QVERIFY(near(named(ops, "router").forward_s, gemm(T, 8, h, r, 2e9)));
        QCOMPARE(named(ops, "router").rate, OpRate::Bf16Gemm);
        QCOMPARE(named(ops, "routing").bytes, T * (12.0 * 8 + 4.0 * 3 * h));
        QVERIFY(near(named(ops, "routing").forward_s, T * (12.0 * 8 + 4.0 * 3 * h) / (2039e9 * 0.9)));
        QCOMPARE(named(ops, "routing").forward_kernels, 4);
    }

    // The stage's forward is its layers' ops added up: 32 layers of the dense list plus the
    // output layer (PP 1: one stage holds both), no communication on one GPU.
    // PyTorch async TP runs each GEMM beside a TP collective as TP chunks, one after another:
    // each chunk pays the size curve's fixed cost g/r, so the GEMM takes TP·t(F/TP) − t(F) =
    // (TP − 1)·g/r longer, forward and input gradient, not its dW. TP 8 with SP on the A100
    // preset (g = 2 GFLOP, r = 312e12·0.869·0.78): 7 · 2e9 / 211.5e12 = 66.2 µs per GEMM.
    // Transformer Engine's userbuffers overlap their chunks on three streams: not charged.
    void asyncTpSplitsTheGemmsBesideItsCollectives()
    {
        Scenario sc = llama7b();
        sc.parallel.tp = 8;
        sc.parallel.sequence_parallel = true;
        sc.parallel.tp_comm_overlap = true;
        const std::vector<LayerOp> userbuffers = layerOps(sc, layerOpRates(sc), false);
        sc.parallel.tp_overlap = TpOverlap::AsyncTp;
        const std::vector<LayerOp> async = layerOps(sc, layerOpRates(sc), false);
        const double r = 312e12 * 0.869 * 0.78, extra = 7 * 2e9 / r; // 66.2 µs
        QVERIFY(near(extra, 66.19e-6, 1e-3));
        for (const char* name : {"qkv", "out", "mlp_up", "mlp_down"}) {
            const LayerOp &a = named(async, name), &u = named(userbuffers, name);
            QCOMPARE(u.overlap_split_s, 0.0);
            QVERIFY2(near(a.overlap_split_s, extra), qPrintable(versus(name, a.overlap_split_s, extra)));
            QVERIFY(near(a.forward_s, u.forward_s + extra));
            QVERIFY(near(a.input_grad_s, u.input_grad_s + extra));
            QCOMPARE(a.weight_grad_s, u.weight_grad_s); // dW is not split
        }
        QCOMPARE(named(async, "attention").forward_s, named(userbuffers, "attention").forward_s);
        // Without SP only the output projections sit beside a collective (the all-reduce).
        sc.parallel.sequence_parallel = false;
        const std::vector<LayerOp> no_sp = layerOps(sc, layerOpRates(sc), false);
        QCOMPARE(named(no_sp, "qkv").overlap_split_s, 0.0);
        QVERIFY(near(named(no_sp, "out").overlap_split_s, extra));
        QVERIFY(near(named(no_sp, "mlp_down").input_grad_s - named(userbuffers, "mlp_down").input_grad_s, extra));
        // The stage's compute (communication apart): 4 GEMMs × (forward + input gradient) × 32
        // layers more than userbuffers' as GEMM time, and async TP's own copies, 3.25·S forward
        // and 1·S backward (S = 4096·4096·2 B; tst_loss_and_async_copies).
        sc.parallel.sequence_parallel = true;
        const StageOpCost a = firstStageOpCost(sc);
        sc.parallel.tp_overlap = TpOverlap::Userbuffers;
        const StageOpCost u = firstStageOpCost(sc);
        const double copies = 4.25 * 4096.0 * 4096 * 2 / (2039e9 * 0.9);
        QVERIFY2(near(a.compute_s - u.compute_s, 32 * (4 * 2 * extra + copies), 1e-6),
                 qPrintable(versus("stage compute", a.compute_s - u.compute_s, 32 * (4 * 2 * extra + copies))));
        QVERIFY(near(a.gemm_s - u.gemm_s, 32 * 4 * 2 * extra, 1e-6));
    }

    // PyTorch's batch-first SP (activation_layout bsh): each all-gather and reduce-scatter copies
    // its whole buffer once more (torch.cat of the chunks along the sequence dimension). Llama-2
    // 7B with TP 8 and SP on the A100 preset: T = 4096 tokens, S = T·h·2 = 4096·4096·2 = 32 MiB,
    // HBM 2039e9·0.9 = 1.835e12 B/s. Forward: 2 all-gathers + 2 reduce-scatters, 2·S each:
    // 8·S/HBM = 268.4 MB / 1.835e12 = 146.3 µs; the backward the same; op SAC gathers the 2
    // inputs again: 4·S/HBM = 73.1 µs. Async TP fuses all but the backward's 2 reduce-scatters
    // (asyncTpSplitsBackward), whose relayout stays (4·S), and copies of its own: 3.25·S forward,
    // 1·S + 4·S backward (tst_loss_and_async_copies derives them). Megatron's [s, b, h]: no copy.
    void batchFirstSequenceParallelCopies()
    {
        Scenario sc = llama7b();
        sc.parallel.tp = 8;
        sc.parallel.sequence_parallel = true;
        const auto has = [](const std::vector<LayerOp>& ops) {
            return std::any_of(ops.begin(), ops.end(),
                               [](const LayerOp& op) { return op.name == "sequence_relayout"; });
        };
        QVERIFY(!has(layerOps(sc, layerOpRates(sc), false)));
        sc.parallel.activation_layout = ActivationLayout::Bsh;
        const double S = 4096.0 * 4096 * 2, hbm = 2039e9 * 0.9, copy = 8 * S / hbm;
        QVERIFY(near(copy, 146.28e-6, 1e-3));
        std::vector<LayerOp> ops = layerOps(sc, layerOpRates(sc), false);
        const LayerOp& plain = named(ops, "sequence_relayout");
        QVERIFY2(near(plain.forward_s, copy), qPrintable(versus("forward", plain.forward_s, copy)));
        QVERIFY(near(plain.input_grad_s, copy));
        QCOMPARE(plain.recompute_s, 0.0);
        QCOMPARE(plain.forward_kernels, 4);
        QCOMPARE(std::string(plain.term), std::string("time.layer_sp_relayout"));
        sc.training.recompute = Recompute::Selective;
        sc.training.recompute_modules = unsigned(RecomputeModule::EveryOtherMm);
        ops = layerOps(sc, layerOpRates(sc), false);
        QVERIFY(near(named(ops, "sequence_relayout").recompute_s, 4 * S / hbm));
        sc.training.recompute = Recompute::None;
        sc.parallel.tp_comm_overlap = true;
        sc.parallel.tp_overlap = TpOverlap::AsyncTp;
        ops = layerOps(sc, layerOpRates(sc), false);
        QVERIFY(near(named(ops, "sequence_relayout").forward_s, 3.25 * S / hbm));
        QVERIFY(near(named(ops, "sequence_relayout").input_grad_s, 5 * S / hbm));
        // The stage: 32 layers, each microbatch's forward and input gradient 2 · 146.3 µs more.
        sc.parallel.tp_comm_overlap = false;
        const Estimate e = evaluate(sc);
        QVERIFY(std::any_of(e.time.terms.begin(), e.time.terms.end(),
                            [](const Term& t) { return t.name == "time.layer_sp_relayout"; }));
        const double with = firstStageOpCost(sc).compute_s;
        sc.parallel.activation_layout = ActivationLayout::Sbh;
        const double added = with - firstStageOpCost(sc).compute_s;
        QVERIFY2(near(added, 32 * 2 * copy, 1e-6), qPrintable(versus("stage compute", added, 32 * 2 * copy)));
    }

    // PyTorch FSDP2 (zero3_sharding per_parameter) copies each gathered unit out of the gather's
    // flat buffer into the unsharded parameters on the compute stream. Llama-2 7B, one layer:
    // attention 4·h² = 67 108 864, SwiGLU 3·h·f = 3·4096·11008 = 135 266 304, two RMSNorms 2·h =
    // 8192: Ψ = 202 383 360 parameters. In bf16 a copy reads and writes 2 bytes each: 4·Ψ =
    // 809.5 MB / 1.835e12 B/s = 441.1 µs, in the forward and again in the backward's gather
    // (reshard_after_forward); none without it. TP 2 halves attention and MLP: Ψ = 101 195 776,
    // 220.6 µs. FSDP1, DeepSpeed and Megatron-FSDP (flat) gather in place: no copy; nor does
    // ZeRO-1. A full recompute runs on the backward's gathered unit: no third copy.
    void fsdp2CopiesOutEachGather()
    {
        Scenario sc = llama7b();
        sc.parallel.dp = 8;
        sc.parallel.zero = 3;
        const auto has = [](const Scenario& s) {
            const std::vector<LayerOp> ops = layerOps(s, layerOpRates(s), false);
            return std::any_of(ops.begin(), ops.end(), [](const LayerOp& op) { return op.name == "fsdp_copy_out"; });
        };
        QVERIFY(!has(sc));
        sc.parallel.zero3_sharding = Zero3Sharding::PerParameter;
        const double psi = 4.0 * 4096 * 4096 + 3.0 * 4096 * 11008 + 2 * 4096, hbm = 2039e9 * 0.9;
        QCOMPARE(psi, 202383360.0);
        const double copy = 4 * psi / hbm;
        QVERIFY(near(copy, 441.14e-6, 1e-3));
        const std::vector<LayerOp> ops = layerOps(sc, layerOpRates(sc), false);
        const LayerOp& op = named(ops, "fsdp_copy_out");
        QVERIFY2(near(op.forward_s, copy), qPrintable(versus("forward", op.forward_s, copy)));
        QVERIFY(near(op.input_grad_s, copy));
        QCOMPARE(op.forward_kernels, 1);
        QCOMPARE(std::string(op.term), std::string("time.fsdp_copy_out"));
        sc.parallel.reshard_after_forward = false;
        QCOMPARE(named(layerOps(sc, layerOpRates(sc), false), "fsdp_copy_out").input_grad_s, 0.0);
        sc.parallel.reshard_after_forward = true;
        sc.parallel.tp = 2;
        const double half = 4 * (psi - 2 * 4096) / 2 / hbm + 4 * 2 * 4096 / hbm;
        QVERIFY(near(half, 220.6e-6, 1e-3));
        QVERIFY(near(named(layerOps(sc, layerOpRates(sc), false), "fsdp_copy_out").forward_s, half));
        sc.parallel.tp = 1;
        sc.parallel.zero = 1;
        QVERIFY(!has(sc));
        // The stage: 32 layers, forward and input gradient 441.1 µs more each, with and without a
        // full recompute.
        sc.parallel.zero = 3;
        const Estimate e = evaluate(sc);
        QVERIFY(std::any_of(e.time.terms.begin(), e.time.terms.end(),
                            [](const Term& t) { return t.name == "time.fsdp_copy_out"; }));
        for (const Recompute r : {Recompute::None, Recompute::Full}) {
            sc.training.recompute = r;
            sc.parallel.zero3_sharding = Zero3Sharding::PerParameter;
            const double with = firstStageOpCost(sc).compute_s;
            sc.parallel.zero3_sharding = Zero3Sharding::Flat;
            const double added = with - firstStageOpCost(sc).compute_s;
            QVERIFY2(near(added, 32 * 2 * copy, 1e-6), qPrintable(versus("stage compute", added, 32 * 2 * copy)));
        }
    }

    void theStageAddsUpTheOps()
    {
        const Scenario sc = llama7b();
        const Estimate e = evaluate(sc);
        const OpCostModel costs = opCosts(sc, e.params, pipelineGeometry(sc.model, sc.parallel), e.communication);
        double layer = 0;
        for (const LayerOp& op : costs.dense_ops)
            layer += op.forward_s + op.cast_forward_s;
        // The output layer's GEMM and the loss's read of its 4096·32000 bf16 logits.
        const double head = gemm(4096, 32000, 4096, 312e12 * 0.869 * 0.78, 2e9) + 4096.0 * 32000 * 2 / (2039e9 * 0.9);
        QVERIFY2(near(costs.stages.front().cost.forward_s, 32 * layer + head),
                 qPrintable(versus("stage forward", costs.stages.front().cost.forward_s, 32 * layer + head)));
        QVERIFY(costs.moe_ops.empty()); // a dense model
        // What the JSON report lists (time.layer_ops) is that list, op by op.
        const nlohmann::json ops = reportToJson(sc, e)["time"]["layer_ops"];
        QCOMPARE(ops.size(), costs.dense_ops.size());
        for (std::size_t i = 0; i < costs.dense_ops.size(); ++i) {
            QCOMPARE(ops[i]["name"].get<std::string>(), costs.dense_ops[i].name);
            QCOMPARE(ops[i]["forward_s"].get<double>(), costs.dense_ops[i].forward_s);
            QCOMPARE(ops[i]["forward_kernels"].get<int>(), costs.dense_ops[i].forward_kernels);
            QCOMPARE(ops[i]["term"].get<std::string>(), std::string(costs.dense_ops[i].term));
        }
    }

    // The text report's op table reads the same list: each op's label, its kernels and its
    // forward time in ms with three decimals, and the layer's sum; in both languages.
    void theTextReportListsTheSameOps()
    {
        const Scenario sc = llama7b();
        const Estimate e = evaluate(sc);
        for (const std::string lang : {"en", "zh"}) {
            const std::string text = textReport(sc, e, lang);
            const std::size_t at = text.find(lang == "en" ? "One dense layer's ops" : "每个稠密层的算子");
            QVERIFY2(at != std::string::npos, text.c_str());
            QVERIFY(text.find("MoE", at) == std::string::npos || text.find("MoE", at) > text.find("\n\n", at));
            for (const LayerOp& op : e.time.layer_ops) {
                char forward[32];
                std::snprintf(forward, sizeof forward, "%.3f", op.forward_s * 1e3);
                const std::size_t row = text.find(layerOpLabel(op.name).in(lang), at);
                QVERIFY2(row != std::string::npos, op.name.c_str());
                const std::string line = text.substr(row, text.find('\n', row) - row);
                QVERIFY2(line.find(forward) != std::string::npos, line.c_str());
                QVERIFY2(line.find(std::to_string(op.forward_kernels) + "/" + std::to_string(op.backward_kernels))
                             != std::string::npos,
                         line.c_str());
            }
            // Six ops: 1 + 1 + 1 + 1 + 1 + 6 (five elementwise kernels and the rotary) = 11
            // forward; 2 + 2 + 2 + 2 + 2 + 6 = 16 backward.
            const LayerOpsTotal sum = sumLayerOps(e.time.layer_ops);
            QCOMPARE(sum.forward_kernels, 11);
            QCOMPARE(sum.backward_kernels, 16);
            QVERIFY(text.find("11/16", at) != std::string::npos);
        }
    }

    // Each op names the Term that explains it, and that Term is in the report; the backward's
    // FLOPs: a GEMM's dX and dW the size of its forward, flash attention's dX 2.5× (FA2 §4.1), no dW.
    void eachOpNamesItsTerm()
    {
        for (const Scenario& sc : {llama7b(), presetScenario("mixtral-8x7b", "dgx-h100", 2, 1, 4)}) {
            const Estimate e = evaluate(sc);
            for (const auto* list : {&e.time.layer_ops, &e.time.moe_layer_ops})
                for (const LayerOp& op : *list) {
                    const bool found = std::any_of(e.time.terms.begin(), e.time.terms.end(),
                                                   [&](const Term& t) { return t.name == op.term; });
                    QVERIFY2(found, (op.name + ": " + op.term).c_str());
                }
        }
        const std::vector<LayerOp> ops = layerOps(llama7b(), layerOpRates(llama7b()), false);
        QCOMPARE(named(ops, "qkv").input_grad_flops, named(ops, "qkv").flops);
        QCOMPARE(named(ops, "qkv").weight_grad_flops, named(ops, "qkv").flops);
        QCOMPARE(std::string(named(ops, "qkv").term), std::string("time.layer_forward_gemm"));
        QCOMPARE(named(ops, "attention").input_grad_flops, 2.5 * named(ops, "attention").flops);
        QCOMPARE(named(ops, "attention").weight_grad_flops, 0.0);
        QCOMPARE(std::string(named(ops, "elementwise").term), std::string("time.layer_elementwise"));
    }

    // A MoE layer that waits for the host lists the wait as a row of its ops (the op breakdown):
    // Mixtral 8x7B with TP 1, EP 1 (no communication inside the layer), no recompute, and a host
    // that needs H = 0.1 s per layer forward (2H per backward), far above the GPU work: the
    // layer's forward takes H, so the row is H − Σ the kernels' forward, and its backward 2H − Σ
    // their dX + dW (layer_cost.cpp hostWaits). The rows then add up to H and 2H exactly.
    void aHostBoundMoeLayerListsItsWait()
    {
        Scenario sc = presetScenario("mixtral-8x7b", "dgx-h100", 1, 2, 4);
        sc.parallel.ep = 1;
        sc.training.recompute = Recompute::None;
        const double H = 0.1;
        sc.cluster.gpu.moe_layer_host_s = H;
        const Estimate e = evaluate(sc);
        const std::vector<LayerOp>& ops = e.time.moe_layer_ops;
        QVERIFY(!ops.empty());
        const LayerOp& wait = ops.back();
        QCOMPARE(wait.name, std::string("host_wait"));
        QCOMPARE(wait.rate, OpRate::Host);
        QCOMPARE(wait.forward_kernels + wait.backward_kernels, 0);
        double forward = 0, backward = 0;
        for (std::size_t i = 0; i + 1 < ops.size(); ++i) {
            forward += ops[i].forward_s;
            backward += ops[i].input_grad_s + ops[i].weight_grad_s;
        }
        QVERIFY(near(wait.forward_s, H - forward, 1e-12));
        QVERIFY(near(wait.input_grad_s, 2 * H - backward, 1e-12));
        const LayerOpsTotal sum = sumLayerOps(ops);
        QVERIFY(near(sum.forward_s, H, 1e-12));
        QVERIFY(near(sum.input_grad_s + sum.weight_grad_s, 2 * H, 1e-12));
        // Its Term is in the report, and the text and JSON reports list the row.
        QVERIFY(std::any_of(e.time.terms.begin(), e.time.terms.end(),
                            [](const Term& t) { return t.name == "time.moe_host_wait"; }));
        QVERIFY(textReport(sc, e, "en").find("host: the GPU waits") != std::string::npos);
        QVERIFY(textReport(sc, e, "zh").find("主机下发：GPU 等待") != std::string::npos);
        const nlohmann::json json = reportToJson(sc, e, "en")["time"]["moe_layer_ops"];
        QCOMPARE(json.back()["rate"].get<std::string>(), std::string("host"));
        QCOMPARE(json.back()["forward_s"].get<double>(), wait.forward_s);
        // A host faster than the GPU work: no wait, no row.
        sc.cluster.gpu.moe_layer_host_s = 1e-6;
        const Estimate fast = evaluate(sc);
        QVERIFY(std::none_of(fast.time.moe_layer_ops.begin(), fast.time.moe_layer_ops.end(),
                             [](const LayerOp& op) { return op.rate == OpRate::Host; }));
    }

    // A model whose every layer is MoE lists only the MoE layer; the JSON labels follow --lang.
    void aMoeModelListsItsMoeLayer()
    {
        const Scenario sc = presetScenario("mixtral-8x7b", "dgx-h100", 2, 1, 4);
        const Estimate e = evaluate(sc);
        const std::string text = textReport(sc, e, "en");
        QVERIFY(text.find("One MoE layer's ops (32 layers), one microbatch on one GPU, in ms") != std::string::npos);
        QVERIFY(text.find("One dense layer's ops") == std::string::npos);
        QVERIFY(text.find("routed experts, up (grouped GEMM)") != std::string::npos);
        const nlohmann::json zh = reportToJson(sc, e, "zh")["time"]["moe_layer_ops"];
        QCOMPARE(zh.size(), e.time.moe_layer_ops.size());
        QCOMPARE(zh[0]["label"].get<std::string>(), layerOpLabel(e.time.moe_layer_ops[0].name).zh);
    }
};

QTEST_GUILESS_MAIN(TstLayerOps)
#include "tst_layer_ops.moc"
