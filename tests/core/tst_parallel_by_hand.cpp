// evaluate() on two layouts derived by hand from the formulas (core/time/op_costs.cpp,
// core/time/attention_rate.cpp, core/comm/group_collectives.cpp, the interleaved generator in
// core/schedule/generators.cpp): an interleaved 1F1B step replayed op by op, and the per-layer
// ring exchange of context parallelism against the attention it hides behind. Each fails when
// its formula changes: the interleaved op order or the chunk placement, the wrap-around send,
// the causal/unmasked attention blend of a CP ring, the 3·(CP−1) sends per layer, what hides them.
// (tst_step_by_hand holds the plain 1F1B step and the FP8 recipes, tst_step_by_hand_moe the MoE layers.)

#include "by_hand.h"
#include "schedule/pipeline_closed_form.h"

#include <cmath>

using namespace parascope;
using namespace parascope::test;

namespace {

// Llama-2 7B on the DGX A100 80GB preset, seq 4096, micro batch 1, bf16, flash attention, no
// recompute, AdamW with bf16 gradients.
Scenario llama7bOnA100(int tp, int pp, int dp)
{
    Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", tp, pp, dp);
    sc.training.seq_len = 4096;
    sc.training.micro_batch = 1;
    sc.training.recompute = Recompute::None;
    sc.training.flash_attention = true;
    sc.training.precision = Precision::Bf16;
    sc.training.grad_dtype = GradDtype::Bf16;
    sc.training.optimizer = Optimizer::AdamW;
    return sc;
}

const StageOpCost& firstStage(const OpCostModel& costs) { return costs.stages.front(); }

} // namespace

class TstParallelByHand : public QObject {
    Q_OBJECT

private slots:
    void presetNumbers()
    {
        const Scenario sc = llama7bOnA100(1, 1, 1);
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
        QCOMPARE(sc.model.layers, 32);
        QCOMPARE(sc.model.hidden, 4096);
        QCOMPARE(sc.model.kv_heads, 32);
    }

    void interleavedSimulatedByHand()
    {
        // PP = 2, VPP = 2 (4 chunks of 32/4 = 8 layers: chunk c on rank c mod 2), m = 2
        // microbatches (global batch 2). Megatron's interleaved order with m = p: all m·v = 4
        // forwards first, then the 4 backwards. Rank r runs F(c_r, 0) F(c_r, 1) F(c_r+2, 0)
        // F(c_r+2, 1) B(c_r+2, 0) B(c_r+2, 1) B(c_r, 0) B(c_r, 1) (generators.cpp: the k-th
        // forward is chunk ⌊(k mod pv)/p⌋·p + r on microbatch ⌊k/pv⌋·p + k mod p).
        Scenario sc = llama7bOnA100(1, 2, 1);
        sc.parallel.schedule = ScheduleKind::Interleaved;
        sc.parallel.vpp = 2;
        sc.training.global_batch = 2;

        // One chunk of 8 layers is the 1F1B test's stage (tst_step_by_hand, the same scenario
        // per layer): f = 8·(lin + att + elem), b = 8·((lin + 2.5·att + 2·elem) + lin); the last
        // chunk (3, on rank 1) also runs the output layer and its loss, H = gemm(T, V, h) + T·V·2/hbm
        // (the loss's read of the bf16 logits), in its forward and twice in its backward (the
        // GEMM's dX and dW; the loss's read and write); one send of s·b·h·2 bytes over NVLink
        // t = 3.4 µs + S/(231e9).
        const Llama7bA100Layer layer; // tests/support/by_hand.h
        const double h = layer.h, f_ = layer.f, V = layer.V, hbm = layer.hbm;
        const double lin = layer.lin(), att = layer.att(), elem = layer.elem();
        const double f = 8 * (lin + att + elem), b = 8 * ((lin + 2.5 * att + 2 * elem) + lin);
        const double H = layer.head() + layer.loss();
        const double t = layer.send();

        // Replayed (an op starts when its rank is free and its input has arrived, t after the
        // op that sends it; the last chunk's backward follows its own forward):
        //   rank 0  F(0,0) [0, f]   F(0,1) [f, 2f]
        //   rank 1  F(1,0) [f + t, 2f + t]   F(1,1) [2f + t, 3f + t]
        //   rank 0  F(2,0) [2f + 2t, 3f + 2t]   F(2,1) [3f + 2t, 4f + 2t]   (wrap: rank 1 → 0)
        //   rank 1  F(3,0) [3f + 3t, 4f + 3t + H]   F(3,1) waits for the rank: [4f + 3t + H, 5f + 3t + 2H]
        //           B(3,0) → 5f + b + 3t + 4H   B(3,1) → 5f + 2b + 3t + 6H
        //   rank 0  B(2,0) [5f + b + 4t + 4H, 5f + 2b + 4t + 4H]   B(2,1) [5f + 2b + 4t + 6H, 5f + 3b + 4t + 6H]
        //   rank 1  B(1,0) waits for the rank (2H = 10.2 ms > 2t = 0.3 ms): → 5f + 3b + 3t + 6H
        //           B(1,1) [5f + 3b + 5t + 6H, 5f + 4b + 5t + 6H]
        //   rank 0  B(0,0) [5f + 3b + 4t + 6H, 5f + 4b + 4t + 6H]   B(0,1) [5f + 4b + 6t + 6H, 5f + 5b + 6t + 6H]
        // The step's pipeline ends on rank 0 at 5f + 5b + 6t + 6H.
        QVERIFY(2 * H > 2 * t);
        const double pipeline = 5 * f + 5 * b + 6 * t + 6 * H;
        // Then the optimizer on the largest shard, rank 1's: 16 layers · (4h² + 3hf + 2h) + V·h
        // (output) + h (final norm), 28 B each (master, m, v read + write; grad; weights).
        const double optimizer = (16 * (4 * h * h + 3 * h * f_ + 2 * h) + V * h + h) * 28 / hbm;
        const double step = pipeline + optimizer;
        // Rank 0 computes 2 microbatches × 2 chunks × (f + b); the sends add 6t (without them it
        // ends at 5f + 5b + 6H); the rest is idle: f + b (the textbook's (p − 1)/(v·m) of the
        // ideal 4(f + b)) and the 6H rank 1 spends on the output layer.
        const double compute = 4 * (f + b), idle = f + b + 6 * H;
        // The bubble, one definition for every schedule: the heaviest rank (1: 4(f + b) + 6H)
        // idle, step − 4(f + b) − 6H − 6t − optimizer = f + b; the uneven stages, that rank's
        // compute over the mean, 6H − 3H = 3H; idle = bubble + uneven + (mean − rank 0's) = f + b + 6H.
        const double bubble = f + b, uneven = 3 * H;

        const Estimate e = evaluate(sc);
        QCOMPARE(e.time.method, std::string("simulated"));
        QCOMPARE(e.microbatches, 2LL);
        QCOMPARE(e.time.critical_rank, 0);
        QVERIFY2(near(e.time.step_s, step), qPrintable(versus("step", e.time.step_s, step)));
        QVERIFY2(near(e.time.compute_s, compute), qPrintable(versus("compute", e.time.compute_s, compute)));
        QVERIFY2(near(e.time.exposed_comm_s, 6 * t), qPrintable(versus("exposed p2p", e.time.exposed_comm_s, 6 * t)));
        QVERIFY2(near(e.time.idle_s, idle), qPrintable(versus("idle", e.time.idle_s, idle)));
        QVERIFY2(near(e.time.bubble_fraction, bubble / step),
                 qPrintable(versus("bubble", e.time.bubble_fraction, bubble / step)));
        QVERIFY2(near(e.time.uneven_s, uneven), qPrintable(versus("uneven stages", e.time.uneven_s, uneven)));
        // The textbook's interleaved bubble (p − 1)/(v·m + p − 1) = 1/5 is the f + b idle of a
        // pipeline of 5(f + b) with equal chunks, no output layer and no sends.
        QVERIFY(near(bubbleTerm(ScheduleKind::Interleaved, 2, 2, 2).value, 1.0 / 5));
    }

    void contextParallelRingByHand()
    {
        // CP = 8 on one node, TP = PP = DP = 1, s = 4096: each GPU holds s' = 512 tokens (T = 512),
        // global batch 1 (m = 1).
        Scenario sc = llama7bOnA100(1, 1, 1);
        sc.parallel.cp = 8;
        sc.parallel.cp_comm = CpComm::P2p;
        sc.training.global_batch = 1;
        const double s = 4096, T = 512, q = 4096, kv = 4096, cp = 8;

        // Attention: T·2·s·q = 17.18 GFLOP per layer forward (the causal half of T·4·s·q). On the
        // ring 1/CP of it meets the mask (the call on the GPU's own chunks, at the causal rate for
        // s' = 512); the rest are unmasked blocks with s'/2 and s' keys, which run at the causal
        // rate over r(x) = 0.92·x/(x + 248) (FlashAttention-3 Fig. 5):
        //   η(x) = 0.624·x/(x + 495) (head dim 128: factor 1), rate(x) = 312e12·η(x)·0.78
        //   1/R = (1/8)/rate(512) + (7/8)·½·(r(256)/rate(256) + r(512)/rate(512))  → R ≈ 110.1 TFLOP/s
        const auto eta = [](double x) { return 0.624 * x / (x + 495); };
        const auto rate = [&](double x) { return 312e12 * eta(x) * 0.78; };
        const auto r = [](double x) { return 0.92 * x / (x + 248); };
        const double per_flop = (1 / cp) / rate(512) + (cp - 1) / cp * 0.5 * (r(256) / rate(256) + r(512) / rate(512));
        const double att = T * 2 * s * q * per_flop; // ≈ 0.156 ms
        // Ring: a K/V chunk of S = s'·(k + v)·2 = 512·8192·2 = 8,388,608 B per send, over NVLink
        // t_kv = 3.4 µs + S/231e9 = 39.71 µs. Forward: CP − 1 = 7 sends per layer behind the
        // attention; backward 2·7 (K/V and dK/dV) behind its 2.5× backward. What shows:
        //   cp_f = max(0, 7·t_kv − att) ≈ 0.122 ms,  cp_b = max(0, 14·t_kv − 2.5·att) ≈ 0.166 ms.
        const double S = 512 * (kv + kv) * 2, t_kv = 3.4e-6 + S / (300e9 * 0.77);
        const double cp_f = std::max(0.0, (cp - 1) * t_kv - att), cp_b = std::max(0.0, 2 * (cp - 1) * t_kv - 2.5 * att);
        QVERIFY(cp_f > 0 && cp_b > 0); // this layout exposes the ring

        const Estimate e = evaluate(sc);
        const Term* attention = findTerm(e.time.terms, "time.layer_forward_attention");
        QVERIFY(attention);
        QVERIFY2(near(attention->value, att), qPrintable(versus("attention per layer", attention->value, att)));
        const CommEntry* ring = findComm(e, Group::Cp, Collective::SendRecv);
        QVERIFY(ring);
        QCOMPARE(ring->algorithm, CollectiveAlgorithm::PointToPoint);
        QCOMPARE(ring->bytes_per_call, S);
        QCOMPARE(ring->calls_per_step, 3 * (cp - 1) * 32); // 3·(CP − 1) sends per layer, 32 layers, m = 1
        QVERIFY2(near(ring->time_s / ring->calls_per_step, t_kv),
                 qPrintable(versus("one send", ring->time_s / ring->calls_per_step, t_kv)));
        const OpCostModel costs = opCosts(sc, e.params, pipelineGeometry(sc.model, sc.parallel), e.communication);
        QVERIFY2(near(firstStage(costs).forward.cp, 32 * cp_f),
                 qPrintable(versus("forward ring", firstStage(costs).forward.cp, 32 * cp_f)));
        QVERIFY2(near(firstStage(costs).backward.cp, 32 * cp_b),
                 qPrintable(versus("backward ring", firstStage(costs).backward.cp, 32 * cp_b)));

        // Twice the sequence per GPU (s = 8192, CP = 2: s' = 4096) and the attention outgrows the
        // ring: T·2·s·q grows 16-fold, the sends halve in number and double in size; nothing shows.
        sc.parallel.cp = 2;
        sc.training.seq_len = 8192;
        const Estimate wide = evaluate(sc);
        const OpCostModel hidden
            = opCosts(sc, wide.params, pipelineGeometry(sc.model, sc.parallel), wide.communication);
        QCOMPARE(firstStage(hidden).forward.cp, 0.0);
        QCOMPARE(firstStage(hidden).backward.cp, 0.0);
    }
};

QTEST_GUILESS_MAIN(TstParallelByHand)
#include "tst_parallel_by_hand.moc"
