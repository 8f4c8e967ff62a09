// Step times of evaluate() derived by hand from the op-cost formulas (core/time/op_costs.cpp),
// the α–β collective model (core/comm/collective_cost.cpp) and the schedule (simulator or closed
// form), with the derivation and its numbers written out. Unlike golden files, these fail when a
// formula changes: the attention backward factor, the logits on the last stage, the GEMM size
// curve, the FP8 recipes, the recompute modules, blocking pipeline sends, the backward share of
// the closed form. The MoE layers (the all-to-all count per MoE layer, EP overlap, grouped GEMMs)
// are tst_step_by_hand_moe.
//
// The preset numbers each derivation uses are asserted first, so the comments stay true.

#include "by_hand.h"

#include <cmath>

using namespace parascope;
using namespace parascope::test;

class TstStepByHand : public QObject {
    Q_OBJECT

private slots:
    void fp8RecipesByHand()
    {
        // Llama-2 7B on one H100 (DGX H100 preset), TP = PP = DP = 1, s = 4096, micro batch 1
        // (T = 4096 tokens), global batch 8 → m = 8 microbatches, no recompute. The same
        // scenario in bf16 and in fp8 (delayed scaling): only the linear layers' GEMMs change
        // rate and gain quantization; attention and the output layer stay bf16.
        const Scenario sc = llama7bOnH100(1, Recompute::None);
        const GpuSpec& g = sc.cluster.gpu;
        QCOMPARE(g.peak_bf16_flops, 989e12);
        QCOMPARE(g.peak_fp8_flops, 1979e12);
        QCOMPARE(g.gemm_efficiency, 0.803);
        QCOMPARE(g.sustained_clock, 0.78);
        QCOMPARE(g.hbm_bytes_per_s, 3350e9);
        QCOMPARE(g.hbm_efficiency, 0.9);
        const auto stage = [&](Precision precision, Fp8Recipe recipe) {
            Scenario x = sc;
            x.training.precision = precision;
            x.training.fp8_recipe = recipe;
            return firstStageCost(x);
        };
        const StageCost bf16 = stage(Precision::Bf16, Fp8Recipe::Delayed);
        const StageCost delayed = stage(Precision::Fp8, Fp8Recipe::Delayed);
        const StageCost tensorwise = stage(Precision::Fp8, Fp8Recipe::Tensorwise);

        // A GEMM of F FLOPs takes F/(rate·F/(F + half)) = F/rate + half/rate, with half 10 GFLOP
        // in bf16 and 55 GFLOP in FP8 (gemm_half_gflop_fp8, H100's measured FP8 sweep), so per
        // layer the 4 GEMMs (QKV, out, gate+up, down) save ΣF·(1/r_bf16 − 1/r_fp8)
        // + 4·(10e9/r_bf16 − 55e9/r_fp8) with r = peak·0.803·0.78 and
        // ΣF = 2T·(h(q + 2kv) + qh + 2fh + fh) = 2·4096·(4096·12288 + 4096² + 3·11008·4096)
        //    = 8192·(50,331,648 + 16,777,216 + 135,266,304) = 1,657,857,376,256 (h = q = kv = 4096,
        //    f = 11008).
        const double T = 4096, h = 4096, q = 4096, kv = 4096, f = 11008, L = 32, m = 8;
        const double F = 2 * T * (h * (q + 2 * kv) + q * h + 3 * f * h);
        QCOMPARE(F, 1657857376256.0);
        const double r_bf16 = 989e12 * 0.803 * 0.78, r_fp8 = 1979e12 * 0.803 * 0.78, hbm = 3350e9 * 0.9;
        QCOMPARE(g.gemm_half_flops, 10e9);
        QCOMPARE(g.gemm_half_flops_fp8, 55e9);
        const double gemm_saving = F * (1 / r_bf16 - 1 / r_fp8) + 4 * (10e9 / r_bf16 - 55e9 / r_fp8);
        // Quantization (delayed: 4 bytes per element): forward the inputs Σ M·K = T·(h + q + h + f)
        // and the weights Σ N·K (4 bytes, once per step → /m); backward the output gradients
        // Σ M·N = T·((q + 2kv) + h + 2f + h).
        const double in_elems = T * (h + q + h + f), weight_elems = h * (q + 2 * kv) + q * h + 3 * f * h;
        const double grad_elems = T * ((q + 2 * kv) + h + 2 * f + h);
        // Each of the 4 casts per pass is also a kernel with one kernel's fixed cost, the 150 µs
        // kernel overhead over the pass's 11 bf16 kernels.
        const double fixed = 4 * 150e-6 / 11;
        const double cast_f = (4 * in_elems + 4 * weight_elems / m) / hbm + fixed,
                     cast_b = 4 * grad_elems / hbm + fixed;
        QVERIFY2(near(bf16.forward_s - delayed.forward_s, L * (gemm_saving - cast_f)),
                 qPrintable(versus("forward saving", bf16.forward_s - delayed.forward_s, L * (gemm_saving - cast_f))));
        QVERIFY2(near(bf16.backward_input_s - delayed.backward_input_s, L * (gemm_saving - cast_b)),
                 qPrintable(versus("dgrad saving", bf16.backward_input_s - delayed.backward_input_s,
                                   L * (gemm_saving - cast_b))));
        QVERIFY2(
            near(bf16.backward_weight_s - delayed.backward_weight_s, L * gemm_saving),
            qPrintable(versus("wgrad saving", bf16.backward_weight_s - delayed.backward_weight_s, L * gemm_saving)));
        // Tensorwise ("current") scaling reads each input and gradient once more for its amax.
        QVERIFY(near(tensorwise.forward_s - delayed.forward_s, L * 2 * in_elems / hbm));
        QVERIFY(near(tensorwise.backward_input_s - delayed.backward_input_s, L * 2 * grad_elems / hbm));
    }

    void recomputeModulesByHand()
    {
        // Llama-2 7B on one H100, TP = PP = DP = 1, T = 4096 tokens. Selective recompute of
        // core_attn only, then also layernorm and mlp (Megatron --recompute-modules): the
        // backward's input-gradient pass grows, per layer, by the norms rebuilt (twice the 4h bytes
        // per token they dropped: read the inputs, write the outputs; 2·4096·16,384 B at
        // 3.015e12 B/s) and the MLP's forward GEMMs again: (2·T·2f·h + 10e9)/r + (2·T·h·f + 10e9)/r,
        // r = 989e12·0.803·0.78, f = 11008.
        Scenario sc = llama7bOnH100(1, Recompute::Selective);
        const StageCost core = firstStageCost(sc);
        sc.training.recompute_modules |= unsigned(RecomputeModule::Layernorm) | unsigned(RecomputeModule::Mlp);
        const StageCost more = firstStageCost(sc);
        const double T = 4096, h = 4096, f = 11008, L = 32, r = 989e12 * 0.803 * 0.78, hbm = 3350e9 * 0.9;
        const double per_layer = 2 * T * 4 * h / hbm + (2 * T * 2 * f * h + 10e9) / r + (2 * T * h * f + 10e9) / r;
        QVERIFY2(near(more.backward_input_s - core.backward_input_s, L * per_layer),
                 qPrintable(versus("recompute", more.backward_input_s - core.backward_input_s, L * per_layer)));
        QVERIFY(near(more.forward_s, core.forward_s));
        QVERIFY(near(more.backward_weight_s, core.backward_weight_s));
    }

    void dense1F1BSimulatedByHand()
    {
        // Llama-2 7B (L = 32, h = q = kv = 4096, a = 32, f = 11008 SwiGLU, V = 32000) on one
        // DGX A100 80GB node, TP = DP = 1, PP = 4 (8 layers per stage), 1F1B, seq s = 4096,
        // micro batch 1 (T = 4096 tokens), global batch 8 → m = 8 microbatches, no recompute,
        // flash attention, bf16, AdamW with bf16 gradients. Simulated (the default).
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 4, 1);
        sc.parallel.schedule = ScheduleKind::OneFOneB;
        sc.training.seq_len = 4096;
        sc.training.micro_batch = 1;
        sc.training.global_batch = 8;
        sc.training.recompute = Recompute::None;
        sc.training.flash_attention = true;
        sc.training.precision = Precision::Bf16;
        sc.training.grad_dtype = GradDtype::Bf16;
        sc.training.optimizer = Optimizer::AdamW;
        const GpuSpec& g = sc.cluster.gpu;
        QCOMPARE(g.peak_bf16_flops, 312e12);
        QCOMPARE(g.gemm_efficiency, 0.869);
        QCOMPARE(g.attention_efficiency, 0.624);
        QCOMPARE(g.attention_half_seq, 495.0);
        QCOMPARE(g.attention_half_head_dim, 15.0);
        QCOMPARE(g.sustained_clock, 0.78);
        QCOMPARE(g.gemm_half_flops, 2e9);
        QCOMPARE(g.hbm_bytes_per_s, 2039e9);
        QCOMPARE(g.hbm_efficiency, 0.9);
        QCOMPARE(g.kernel_overhead_s, 150e-6);
        QCOMPARE(sc.cluster.intra_node.bytes_per_s, 300e9);
        QCOMPARE(sc.cluster.intra_node.efficiency, 0.77);
        QCOMPARE(sc.cluster.intra_node.latency_s, 3.4e-6);
        QCOMPARE(sc.cluster.intra_node.half_bytes, 0.0);

        // Rates: GEMM 312e12·0.869·0.78 = 2.1147984e14 FLOP/s, each GEMM of F FLOPs further
        // scaled by its size factor F/(F + 2e9); flash attention (causal) 312e12·0.624·0.78 times
        // s/(s + 495) = 4096/4591 at head dim 128 (its reference, factor 1) = 1.354835e14 FLOP/s;
        // HBM 2039e9·0.9 = 1.8351e12 B/s.
        // (tests/support/by_hand.h, Llama7bA100Layer, computes what follows.)
        const Llama7bA100Layer layer;
        const double h = layer.h, f = layer.f, V = layer.V, s = layer.s, hbm = layer.hbm;
        // One layer, one microbatch, forward:
        //   GEMMs  QKV 2·T·(q + 2kv)·h = 412.3 GFLOP (size factor 0.99517) → 1.9591 ms
        //          out 2·T·h·q         = 137.4 GFLOP (0.98566)              → 0.6593 ms
        //          gate+up 2·T·2f·h    = 738.7 GFLOP (0.99730)              → 3.5026 ms
        //          down 2·T·h·f        = 369.4 GFLOP (0.99461)              → 1.7560 ms
        //          lin                                                      = 7.8771 ms
        //   attention  causal: half of T·4·s·q, T·2·s·q = 137.4 GFLOP      att = 1.0144 ms
        //   elementwise: one pass over the layer's stored activations (Korthikanti, flash):
        //          s·(10h + 2q + 4kv + 2q + 6f + 4a) = 4096·139,904 = 573,046,784 B
        //          / 1.8351e12 B/s + 150 µs kernel overhead                elem = 0.46227 ms
        const double lin = layer.lin(), att = layer.att(), elem = layer.elem();
        // Per stage of 8 layers: forward F = 8·(lin + att + elem) = 74.831 ms; backward (1F1B runs
        // it whole, B = I + W) = 8·[(lin + 2.5·att + 2·elem) + lin] = 153.719 ms: dX GEMMs, the
        // flash attention backward at 2.5× its forward's FLOPs (FlashAttention-2 §4.1), the
        // elementwise passes twice, then the dW GEMMs.
        const double F = 8 * (lin + att + elem);
        const double B = 8 * ((lin + 2.5 * att + 2 * elem) + lin);
        // The last stage also runs the output layer, 2·T·h·V = 1073.7 GFLOP (0.99814) → 5.0867
        // ms, in its forward, its input gradient and its weight gradient, and the loss over its
        // T·V bf16 logits: one read forward, 262.1 MB / 1.8351e12 B/s = 0.14285 ms, a read and a
        // write backward (twice that). Per pass H = 5.0867 + 0.14285 = 5.2296 ms (the loss's
        // backward share rides on the input gradient's H, the same 3H in all):
        //   F₃ = F + H = 80.061 ms,   B₃ = B + 2H = 164.178 ms.
        // (The first stage's embedding is a lookup: no op time.)
        const double H = layer.head() + layer.loss();
        const double F3 = F + H, B3 = B + 2 * H;
        // A pipeline send of one activation (or its gradient), S = s·b·h·2 = 33,554,432 B over
        // NVLink (the 4 stages are on one node): t = α + S/(bw·eff) = 3.4 µs + S/(300e9·0.77)
        // = 148.657 µs.
        const double t = layer.send();

        // The 1F1B simulation (rank i: p−i−1 warm-up forwards, then F/B pairs, then backwards):
        //   fill   microbatch 0 crosses stages 0–2 and three sends: stage 3 starts at 3·(F + t);
        //   steady stage 3 then runs F₃ B₃ for each microbatch without waiting, m·(F₃ + B₃):
        //          its next input leaves stage 2 after stage 2 has run B (ready t after stage 3's
        //          B) and F, so it arrives F + B + 2t after stage 3's previous B ended, while
        //          stage 3 is busy F₃ + B₃ = F + B + 3H in between (3H = 15.7 ms ≥ 2t = 0.30 ms);
        //          stages 0–2 follow stage 3's period the same way, each with that slack;
        //   drain  stage 3's last B walks back to stage 0: 3·(t + B), each stage idle by then.
        //   pipeline = 3·(F + t) + m·(F₃ + B₃) + 3·(t + B) = (p−1)·(F + B + 2t) + m·(F + B + 3H)
        //            = 3·(228.550 + 0.297) ms + 8·244.239 ms = 2.640453 s, ending on rank 0.
        const double p = 4, m = 8;
        const double pipeline = (p - 1) * (F + B + 2 * t) + m * (F3 + B3);
        // Tail: no DP, so no gradient reduction; the optimizer (fused AdamW, memory bound) on the
        // largest shard, stage 3: 8 layers · (4h² + 3hf + 2h) + V·h (output) + h (final norm)
        // = 8·202,383,360 + 131,072,000 + 4096 = 1,750,142,976 params, touching 24 (master, m, v
        // read + write) + 2 (grad) + 2 (weights) = 28 B each: 49.0 GB / 1.8351e12 B/s = 26.704 ms.
        const double shard = 8 * (4 * h * h + 3 * h * f + 2 * h) + V * h + h;
        const double optimizer = shard * 28 / hbm;
        const double step = pipeline + optimizer; // = 2.667157 s
        // Idle of the critical rank: rank 0 computes m·(F + B) = 1.828401 s; the exposed p2p is
        // what the sends add to the step, 2·(p−1)·t = 0.892 ms (the simulator reruns without
        // them); the rest is idle: (p−1)·(F + B) + 3·m·H = 0.685650 + 0.125511 = 0.811161 s.
        const double compute = m * (F + B);
        const double idle = (p - 1) * (F + B) + 3 * m * H;
        // The bubble, one definition for every schedule: the heaviest rank (3, m·(F₃ + B₃)) idle,
        // step − m·(F₃ + B₃) − 2(p−1)t − optimizer = (p−1)·(F + B) = 0.685650 s, 25.71 % of the
        // step: the textbook (p−1) slots. Uneven stages: the heaviest rank's compute over the
        // mean rank's, m·(F + B + 3H) − m·(F + B + 3H/4) = 2.25·m·H; the parts add up:
        // idle = bubble + uneven + (mean − rank 0's compute) = (p−1)(F + B) + 2.25mH + 0.75mH.
        const double bubble = (p - 1) * (F + B);
        const double uneven = 2.25 * m * H;

        const Estimate e = evaluate(sc);
        QCOMPARE(e.time.method, std::string("simulated"));
        QCOMPARE(e.microbatches, 8LL);
        QCOMPARE(e.time.critical_rank, 0);
        const Term* layer_gemm = findTerm(e.time.terms, "time.layer_forward_gemm");
        QVERIFY(layer_gemm);
        QVERIFY2(near(layer_gemm->value, lin), qPrintable(versus("layer GEMMs", layer_gemm->value, lin)));
        QVERIFY2(near(e.time.optimizer_s, optimizer), qPrintable(versus("optimizer", e.time.optimizer_s, optimizer)));
        QVERIFY2(near(e.time.compute_s, compute), qPrintable(versus("compute", e.time.compute_s, compute)));
        QVERIFY2(near(e.time.exposed_comm_s, 2 * (p - 1) * t),
                 qPrintable(versus("exposed p2p", e.time.exposed_comm_s, 2 * (p - 1) * t)));
        QVERIFY2(near(e.time.step_s, step), qPrintable(versus("step", e.time.step_s, step)));
        QVERIFY2(near(e.time.idle_s, idle), qPrintable(versus("idle", e.time.idle_s, idle)));
        QVERIFY2(near(e.time.bubble_fraction, bubble / step),
                 qPrintable(versus("bubble fraction", e.time.bubble_fraction, bubble / step)));
        QVERIFY2(near(e.time.uneven_s, uneven), qPrintable(versus("uneven stages", e.time.uneven_s, uneven)));
        // The critical rank's compute by kind (set beside a measured trace): rank 0 holds no
        // output layer, so over m microbatches of 8 layers the GEMMs run forward, dX and dW,
        // 3·lin; attention its forward and its 2.5× backward, 3.5·att; the rest the elementwise
        // passes, elem + 2·elem; nothing waits for the host.
        const ComputeKinds& k = e.time.compute_kinds;
        QVERIFY2(near(k.gemm_s, m * 8 * 3 * lin), qPrintable(versus("GEMMs", k.gemm_s, m * 8 * 3 * lin)));
        QVERIFY2(near(k.attention_s, m * 8 * 3.5 * att),
                 qPrintable(versus("attention", k.attention_s, m * 8 * 3.5 * att)));
        QVERIFY2(near(k.other_s, m * 8 * 3 * elem), qPrintable(versus("other compute", k.other_s, m * 8 * 3 * elem)));
        QCOMPARE(k.host_wait_s, 0.0);
        // Uneven stages: ranks 0–2 compute F + B per microbatch, rank 3 F₃ + B₃ = F + B + 3H;
        // 1 − mean/max = 1 − (4(F + B) + 3H)/4 / (F + B + 3H) = 0.0470.
        const double imbalance = 1 - (4 * (F + B) + 3 * H) / 4 / (F + B + 3 * H);
        QVERIFY2(near(e.time.load_imbalance, imbalance),
                 qPrintable(versus("load imbalance", e.time.load_imbalance, imbalance)));
        QCOMPARE(k.recompute_s, 0.0);

        // Full recompute: each backward runs its stage's forward once more, 8·(lin + att + elem)
        // = F, so rank 0 recomputes m·F over the step (the efficiency wall's recompute loss).
        Scenario full = sc;
        full.training.recompute = Recompute::Full;
        const Estimate r = evaluate(full);
        QCOMPARE(r.time.critical_rank, 0);
        QVERIFY2(near(r.time.compute_kinds.recompute_s, m * F),
                 qPrintable(versus("recompute", r.time.compute_kinds.recompute_s, m * F)));
        QVERIFY2(near(r.time.compute_s, m * (2 * F + B)),
                 qPrintable(versus("compute with recompute", r.time.compute_s, m * (2 * F + B))));
    }

    void blockingPipelineSendsByHand()
    {
        // parallel.pp_comm_overlap = false: a send holds its sender until it has arrived. PP 2,
        // 1F1B, m = 2 microbatches; rank 0 runs F0 F1 B0 B1, rank 1 F0 B0 F1 B1; f_r, b_r the
        // ranks' forward and backward, t one send. Overlapped (the default):
        //   rank 1: F0 [f0 + t, f0 + t + f1], B0 → f0 + t + f1 + b1, F1 → f0 + t + 2f1 + b1,
        //           B1 → f0 + t + 2f1 + 2b1;  rank 0: B0 from f0 + 2t + f1 + b1, B1 from
        //           f0 + 2t + 2f1 + 2b1 → the step ends at f0 + 2t + 2f1 + 2b1 + b0.
        // Blocking: rank 0 is held t after F0 and after F1 (clock 2f0 + 2t); rank 1 after B0
        //   (f0 + 2t + f1 + b1, when F1's input arrives too), so F1 → f0 + 2t + 2f1 + b1 and B1
        //   → f0 + 2t + 2f1 + 2b1, whose gradient reaches rank 0 at + t: the step ends at
        //   f0 + 3t + 2f1 + 2b1 + b0 — exactly one send longer (f1 + b1 ≥ f0 and ≥ b0 here).
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 2, 1);
        sc.training.seq_len = 4096;
        sc.training.micro_batch = 1;
        sc.training.global_batch = 2;
        const Estimate overlapped = evaluate(sc);
        const CommEntry* pp = findComm(overlapped, Group::Pp, Collective::SendRecv);
        QVERIFY(pp && !pp->boundaries.empty());
        const double t = pp->boundaries.front().seconds;
        sc.parallel.pp_comm_overlap = false;
        const Estimate blocking = evaluate(sc);
        QCOMPARE(blocking.time.method, std::string("simulated"));
        QVERIFY2(near(blocking.time.step_s - overlapped.time.step_s, t),
                 qPrintable(versus("one send more", blocking.time.step_s - overlapped.time.step_s, t)));
    }

    void closedFormGradientReduceByHand()
    {
        // The closed form hides the gradient all-reduce behind the backward share of the last
        // microbatch, 4/6 of its time (forward 2, backward 4 of the 6 FLOPs per parameter and
        // token). A scenario where it does not fully hide: Llama-2 7B on two DGX A100 80GB
        // nodes, TP = PP = 1, DP = 16, short sequences (s = 512, micro batch 1, T = 512),
        // global batch 32 → m = 2, no recompute. Only the matmuls cost time (flat GEMM curve,
        // no kernel overhead, an HBM so fast that elementwise passes and the optimizer vanish).
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 16);
        sc.parallel.overlap_grad_reduce = true;
        sc.training.seq_len = 512;
        sc.training.micro_batch = 1;
        sc.training.global_batch = 32;
        sc.training.recompute = Recompute::None;
        sc.training.precision = Precision::Bf16;
        sc.training.grad_dtype = GradDtype::Bf16;
        GpuSpec& g = sc.cluster.gpu;
        g.gemm_half_flops = 0;
        g.kernel_overhead_s = 0;
        g.hbm_bytes_per_s = 1e30;
        QCOMPARE(g.peak_bf16_flops, 312e12);
        QCOMPARE(g.gemm_efficiency, 0.869);
        QCOMPARE(g.attention_efficiency, 0.624);
        QCOMPARE(g.attention_half_seq, 495.0);
        QCOMPARE(g.sustained_clock, 0.78);
        QCOMPARE(sc.cluster.intra_node.bytes_per_s, 300e9);
        QCOMPARE(sc.cluster.intra_node.efficiency, 0.77);
        QCOMPARE(sc.cluster.intra_node.latency_s, 3.4e-6);
        QCOMPARE(sc.cluster.inter_node.bytes_per_s, 25e9);
        QCOMPARE(sc.cluster.inter_node.efficiency, 0.96);
        QCOMPARE(sc.cluster.inter_node.latency_s, 6e-6);
        EvaluateOptions o;
        o.simulate = false;

        // One microbatch (as in TstTimeline::closedFormStepByHand):
        //   per layer GEMMs 2T·h·(q + 2kv) + 2T·q·h + 3·2T·h·f = 207.2 GFLOP / 2.1147984e14 = 0.97991 ms
        //   per layer attention (flash, causal) T·2·s·q = 2.15 GFLOP at 312e12·0.624·0.78 ·
        //     512/(512 + 495) = 7.721013e13 FLOP/s                                           = 27.813 µs
        //   output layer 2T·h·V = 134.2 GFLOP / 2.1147984e14                                = 0.63466 ms
        //   t_mb = L·(3·gemm + 3.5·attn) + 3·head = 99.091 ms (forward 1×, backward dX 1× +
        //   2.5× the attention, dW 1×).
        const double L = 32, T = 512, s = 512, h = 4096, q = 4096, kv = 4096, f = 11008, V = 32000, m = 2;
        const double gemm_rate = 312e12 * 0.869 * 0.78, attn_rate = 312e12 * 0.624 * 0.78 * s / (s + 495);
        const double gemm = (2 * T * h * (q + 2 * kv) + 2 * T * q * h + 3 * 2 * T * h * f) / gemm_rate;
        const double attn = T * 2 * s * q / attn_rate;
        const double head = 2 * T * h * V / gemm_rate;
        const double t_mb = L * (3 * gemm + 3.5 * attn) + 3 * head;
        // Gradients: Ψ = 6,738,415,616 params, bf16, in ceil(Ψ/max(40M, 16M)) = 169 buckets of
        // S = 2Ψ/169 = 79.74 MB, each all-reduced by NCCL's ring over 8 GPUs × 2 nodes with 8
        // channels (one per NIC), 2·15 steps of a chunk S/128 on every NIC and 7 on each NVLink:
        //   30·max(6 µs + S/128/(25e9·0.96), 3.4 µs + 7·S/128/(300e9·0.77)) = 30·31.96 µs
        //   = 0.95876 ms (the double binary tree would take 0.962 ms); ×169 = 162.030 ms.
        const double P = 6738415616.0, buckets = 169, Sb = 2 * P / buckets;
        const double grad
            = buckets * 30 * std::max(6e-6 + Sb / 128 / (25e9 * 0.96), 3.4e-6 + 7 * Sb / 128 / (300e9 * 0.77));
        // Exposed: the buckets go out one after another behind the backward share of the last
        //   microbatch (the closed form's D = 4/6·t_mb = 66.061 ms), the first ready D/169 into it
        //   (schedule/grad_buckets.h): G + D/n − D = 162.030 + 0.391 − 66.061 = 96.360 ms;
        //   step = m·t_mb + exposed = 294.542 ms.
        const double D = 4.0 / 6.0 * t_mb;
        const double exposed = grad + D / buckets - D;
        const double step = m * t_mb + exposed;

        const Estimate e = evaluate(sc, o);
        QCOMPARE(e.time.method, std::string("closed-form"));
        const CommEntry* ar = findComm(e, Group::Dp, Collective::AllReduce);
        QVERIFY(ar);
        QCOMPARE(ar->calls_per_step, buckets);
        QVERIFY2(near(ar->time_s, grad), qPrintable(versus("gradient all-reduce", ar->time_s, grad)));
        QVERIFY2(near(e.time.exposed_comm_s, exposed), qPrintable(versus("exposed", e.time.exposed_comm_s, exposed)));
        QVERIFY2(near(e.time.step_s, step), qPrintable(versus("step", e.time.step_s, step)));
    }
};

QTEST_GUILESS_MAIN(TstStepByHand)
#include "tst_step_by_hand.moc"
