// Two memory-bound passes derived by hand: the softmax cross-entropy over the logits
// (time/loss_cost.cpp) and the copies PyTorch's async TP makes on the compute stream around its
// fused collective matmuls (time/layer_ops.cpp sequenceRelayout, from
// torch/distributed/_symmetric_memory: _pipelined_all_gather_and_consume,
// _fused_matmul_reduce_scatter_impl's reduce_partials).

#include "by_hand.h"
#include "io/scenario_json.h"
#include "time/layer_cost.h"
#include "time/layer_ops.h"
#include "time/loss_cost.h"

#include <QtTest>

#include <algorithm>

using namespace parascope;
using namespace parascope::test;

namespace {

// Llama-2 7B (L 32, h 4096, V 32000, SwiGLU) on the DGX H100 preset: HBM 3350e9·0.9 =
// 3.015e12 B/s; seq 4096, micro batch 1 (T = 4096 tokens), bf16, no recompute.
Scenario llama7b(int tp, int pp, const char* extra_parallel = "")
{
    const std::string json = std::string(R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-h100",
            "parallel":{"tp":)")
        + std::to_string(tp) + R"(,"pp":)" + std::to_string(pp) + R"(,"dp":1,"sequence_parallel":)"
        + (tp > 1 ? "true" : "false") + extra_parallel + R"(},
            "training":{"seq_len":4096,"micro_batch":1,"global_batch":8,"precision":"bf16","recompute":"none"}})";
    return scenarioFromJson(json);
}

constexpr double kHbm = 3350e9 * 0.9;

} // namespace

class TestLossAndAsyncCopies : public QObject {
    Q_OBJECT

private slots:
    // TP 2 splits the vocabulary: T·V/tp = 4096·32000/2 = 65 536 000 logits per GPU. Forward: one
    // read of the bf16 logits, 131 072 000 B / 3.015e12 = 43.47 µs; backward: a read and a write
    // of the gradient, 262 144 000 B = 86.95 µs.
    void lossPassOverTheLogits()
    {
        const Scenario sc = llama7b(2, 1);
        const LossCost loss = lossCost(sc, layerOpRates(sc));
        QCOMPARE(loss.elements, 65536000.0);
        QCOMPARE(loss.forward_bytes, 131072000.0);
        QCOMPARE(loss.backward_bytes, 262144000.0);
        QVERIFY2(near(loss.forward_s, 131072000.0 / kHbm), qPrintable(versus("forward", loss.forward_s, 43.47e-6)));
        QVERIFY(near(loss.forward_s, 43.47e-6, 1e-3));
        QVERIFY(near(loss.backward_s, 86.95e-6, 1e-3));
        const Estimate e = evaluate(sc);
        const auto term = std::find_if(e.time.terms.begin(), e.time.terms.end(),
                                       [](const Term& t) { return t.name == "time.loss_cross_entropy"; });
        QVERIFY(term != e.time.terms.end());
        QVERIFY(near(term->value, loss.forward_s + loss.backward_s));
    }

    // PP 2: 16 layers on each stage, the output layer and its loss on the second. The stages
    // differ by the logits GEMM in each of the three passes, t = (F + 10 GFLOP)/(989e12·0.803·
    // 0.78) with F = 2·T·h·V/tp = 536.87 GFLOP (0.883 ms), plus the loss's 43.47 + 86.95 µs.
    void lossSitsOnTheOutputStage()
    {
        const Scenario sc = llama7b(2, 2);
        const Estimate e = evaluate(sc);
        const OpCostModel m = opCosts(sc, e.params, pipelineGeometry(sc.model, sc.parallel), e.communication);
        QCOMPARE(m.stages.size(), std::size_t(2));
        const double F = 2.0 * 4096 * 4096 * 32000 / 2, gemm = (F + 10e9) / (989e12 * 0.803 * 0.78);
        const double hand = 3 * gemm + 393216000.0 / kHbm;
        const double diff = m.stages.back().compute_s - m.stages.front().compute_s;
        QVERIFY2(near(diff, hand, 1e-9), qPrintable(versus("output stage − first stage", diff, hand)));
        const double fwd_diff = m.stages.back().cost.forward_s - m.stages.front().cost.forward_s;
        QVERIFY(near(fwd_diff, gemm + 131072000.0 / kHbm, 1e-9));
    }

    // Async TP on Megatron's [s, b, h] layout (nothing to reassemble): TP 8, S = T·h·2 =
    // 33 554 432 B. A fused all-gather copies the local shard into the symmetric buffer and into
    // the gathered output, 4·S/8 = 0.5·S; a fused reduce-scatter sums its 8 partials of S/8 and
    // writes its shard, (1 + 1/8)·S. Forward, 2 of each: S + 2.25·S = 3.25·S = 109 051 904 B =
    // 36.17 µs. Backward: the 2 gathers of the output gradients fused (S), the 2 scatters after
    // separate projections unfused and, in [s, b, h], copy-free: S = 11.13 µs. Op SAC gathers the
    // 2 inputs again: S. Without async TP: no op at all.
    void asyncTpCopiesItsShardsAndSumsItsPartials()
    {
        Scenario sc = llama7b(8, 1);
        QVERIFY(!findOp(layerOps(sc, layerOpRates(sc), false), "sequence_relayout"));
        sc = llama7b(8, 1, R"(,"tp_comm_overlap":true,"tp_overlap":"async_tp")");
        const double S = 4096.0 * 4096 * 2;
        std::vector<LayerOp> ops = layerOps(sc, layerOpRates(sc), false);
        const LayerOp* op = findOp(ops, "sequence_relayout");
        QVERIFY(op);
        QCOMPARE(op->bytes, 3.25 * S);
        QVERIFY2(near(op->forward_s, 3.25 * S / kHbm), qPrintable(versus("forward", op->forward_s, 36.17e-6)));
        QVERIFY(near(op->forward_s, 36.17e-6, 1e-3));
        QVERIFY(near(op->input_grad_s, S / kHbm));
        QCOMPARE(op->forward_kernels, 6); // 2 × (2 copies) + 2 reductions
        QCOMPARE(op->backward_kernels, 4);
        QCOMPARE(op->recompute_s, 0.0);
        const layer_cost::LayerCost c = layer_cost::sumOps(ops);
        QCOMPARE(c.relayout_f_s, op->forward_s);
        QCOMPARE(c.relayout_b_s, op->input_grad_s);
        sc.training.recompute = Recompute::Selective;
        sc.training.recompute_modules = unsigned(RecomputeModule::EveryOtherMm);
        ops = layerOps(sc, layerOpRates(sc), false);
        QVERIFY(near(findOp(ops, "sequence_relayout")->recompute_s, S / kHbm));
    }
};

QTEST_GUILESS_MAIN(TestLossAndAsyncCopies)
#include "tst_loss_and_async_copies.moc"
