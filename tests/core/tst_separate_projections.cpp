// One GEMM per projection weight (training.fused_projections off), derived by hand. torchtitan's
// Llama writes wq, wk, wv and SwiGLU's w1, w3 as separate nn.Linear modules
// (torchtitan/models/llama/model.py at 9dec370 and 157a12c56, models/llama3/model.py at
// 820504e); Megatron fuses them (linear_qkv, linear_fc1). A GEMM of F FLOPs takes
// t(F) = (F + g_half)/rate (time/layer_ops.cpp gemmSeconds), so n GEMMs take n − 1 fixed costs
// more than their fused one; the input gradient adds up its n partial products; under async TP
// every GEMM is split into TP chunks (time/op_fixed_costs.cpp overlapSplitCosts).

#include "by_hand.h"
#include "io/scenario_json.h"
#include "time/gemm_shapes.h"
#include "time/layer_ops.h"

#include <QtTest>

#include <algorithm>

using namespace parascope;
using namespace parascope::test;

namespace {

// Llama-2 7B (h 4096, 32 heads of 128, MHA, SwiGLU of 11008) on the DGX H100 preset, seq 4096,
// micro batch 1 (T = 4096 tokens), bf16, no recompute. The bf16 GEMM rate 989e12·0.803·0.78 =
// 619.43e12 FLOP/s, g_half 10 GFLOP: one fixed cost 10e9/619.43e12 = 16.144 µs. HBM 3350e9·0.9.
Scenario llama7b(int tp, bool fused, const char* parallel_extra = "")
{
    const std::string json = std::string(R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-h100",
            "parallel":{"dp":1,"tp":)")
        + std::to_string(tp) + R"(,"sequence_parallel":)" + (tp > 1 ? "true" : "false") + parallel_extra
        + R"(},"training":{"seq_len":4096,"micro_batch":1,"global_batch":8,"precision":"bf16","recompute":"none",
            "fused_projections":)"
        + (fused ? "true" : "false") + "}}";
    return scenarioFromJson(json);
}

constexpr double kFixed = 10e9 / (989e12 * 0.803 * 0.78);
constexpr double kHbm = 3350e9 * 0.9;
constexpr double kInputBytes = 4096.0 * 4096 * 2; // T·h in bf16: 33 554 432 B

const LayerOp& op(const std::vector<LayerOp>& ops, const char* name)
{
    return *std::find_if(ops.begin(), ops.end(), [&](const LayerOp& o) { return o.name == name; });
}

} // namespace

class TestSeparateProjections : public QObject {
    Q_OBJECT

private slots:
    // Q, K and V in three GEMMs: 2 fixed costs more in each pass (32.29 µs), and dX sums three
    // partial products in one pass over 4·T·h·2 = 134 217 728 B (44.52 µs): dX 76.80 µs more.
    // Kernels: 3 forward; backward 3 dX + 3 dW + the sum = 7.
    void qkvInThreeGemms()
    {
        const Scenario fused = llama7b(1, true), apart = llama7b(1, false);
        const std::vector<LayerOp> a = layerOps(fused, layerOpRates(fused), false);
        const std::vector<LayerOp> b = layerOps(apart, layerOpRates(apart), false);
        const LayerOp &f = op(a, "qkv"), &s = op(b, "qkv");
        QCOMPARE(s.flops, f.flops); // the same work
        QVERIFY2(near(s.forward_s - f.forward_s, 2 * kFixed, 1e-9),
                 qPrintable(versus("forward", s.forward_s - f.forward_s, 32.29e-6)));
        QVERIFY(near(s.weight_grad_s - f.weight_grad_s, 2 * kFixed, 1e-9));
        const double dx = 2 * kFixed + 4 * kInputBytes / kHbm;
        QVERIFY2(near(s.input_grad_s - f.input_grad_s, dx, 1e-9),
                 qPrintable(versus("dX", s.input_grad_s - f.input_grad_s, dx)));
        QVERIFY(near(dx, 76.80e-6, 1e-3));
        QCOMPARE(s.gemms, 3);
        QCOMPARE(s.forward_kernels, 3);
        QCOMPARE(s.backward_kernels, 7);
        QCOMPARE(f.gemms, 1);
    }

    // SwiGLU's w1 and w3: one fixed cost more (16.14 µs), dX sums two products over 3·T·h·2 B
    // (33.39 µs): 49.53 µs. The down projection (w2) is one GEMM either way.
    void swigluUpInTwoGemms()
    {
        const Scenario fused = llama7b(1, true), apart = llama7b(1, false);
        const std::vector<LayerOp> a = layerOps(fused, layerOpRates(fused), false);
        const std::vector<LayerOp> b = layerOps(apart, layerOpRates(apart), false);
        const LayerOp &f = op(a, "mlp_up"), &s = op(b, "mlp_up");
        QVERIFY(near(s.forward_s - f.forward_s, kFixed, 1e-9));
        const double dx = kFixed + 3 * kInputBytes / kHbm;
        QVERIFY2(near(s.input_grad_s - f.input_grad_s, dx, 1e-9),
                 qPrintable(versus("dX", s.input_grad_s - f.input_grad_s, dx)));
        QVERIFY(near(dx, 49.53e-6, 1e-3));
        QCOMPARE(s.backward_kernels, 5);
        QCOMPARE(op(b, "mlp_down").forward_s, op(a, "mlp_down").forward_s);
    }

    // Async TP at TP 8 splits every GEMM beside its collective into 8 chunks, 7 fixed costs more
    // each: the fused QKV pays 7·16.14 = 113.0 µs per pass, the three apart 3·113.0; w1 and w3 2×.
    void asyncTpSplitsEachGemm()
    {
        const char* async = R"(,"tp_comm_overlap":true,"tp_overlap":"async_tp")";
        const Scenario fused = llama7b(8, true, async), apart = llama7b(8, false, async);
        const std::vector<LayerOp> a = layerOps(fused, layerOpRates(fused), false);
        const std::vector<LayerOp> b = layerOps(apart, layerOpRates(apart), false);
        QVERIFY(near(op(a, "qkv").overlap_split_s, 7 * kFixed, 1e-9));
        QVERIFY(near(op(b, "qkv").overlap_split_s, 3 * 7 * kFixed, 1e-9));
        QVERIFY(near(op(b, "mlp_up").overlap_split_s, 2 * op(a, "mlp_up").overlap_split_s, 1e-9));
        QVERIFY(near(op(b, "out").overlap_split_s, op(a, "out").overlap_split_s, 1e-9));
    }

    // The step grows, the GEMM term says why, the probe measures the shapes apart, and the file
    // keeps the choice (written only when off).
    void reportsProbeAndFile()
    {
        const Scenario fused = llama7b(1, true), apart = llama7b(1, false);
        const Estimate e = evaluate(apart);
        QVERIFY(e.time.step_s > evaluate(fused).time.step_s);
        const auto term = std::find_if(e.time.terms.begin(), e.time.terms.end(),
                                       [](const Term& t) { return t.name == "time.layer_forward_gemm"; });
        QVERIFY(term != e.time.terms.end() && term->source.find("wq, wk, wv") != std::string::npos);
        std::vector<std::string> names;
        for (const GemmShape& g : scenarioGemmShapes(apart))
            names.push_back(g.name);
        QVERIFY(std::count(names.begin(), names.end(), "attention q") == 1);
        QVERIFY(std::count(names.begin(), names.end(), "qkv") == 0);
        QCOMPARE(scenarioToJson(apart)["training"]["fused_projections"].get<bool>(), false);
        QVERIFY(!scenarioToJson(fused)["training"].contains("fused_projections"));
        QCOMPARE(scenarioFromJson(scenarioToJson(apart).dump()).training.fused_projections, false);
    }
};

QTEST_APPLESS_MAIN(TestSeparateProjections)
#include "tst_separate_projections.moc"
