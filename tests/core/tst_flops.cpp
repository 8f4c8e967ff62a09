// Training FLOPs: the generalised count reduces to Narayanan et al. 2021 eq. 3 for GPT, and the
// recompute variants follow Korthikanti et al. 2022 Appendix A.

#include "model/flops.h"
#include "io/scenario_json.h"

#include <QtTest>

using namespace parascope;

class TstFlops : public QObject {
    Q_OBJECT

    static ModelSpec model(const std::string& id)
    {
        std::vector<InputError> errors;
        return readModel(nlohmann::json(id), "model", errors).value();
    }

    static bool close(double a, double b, double rel = 1e-12) { return std::abs(a - b) <= rel * std::abs(b); }

private slots:
    void gptEqualsNarayananEq3()
    {
        // Narayanan eq. 3: F = 72·B·s·L·h²·(1 + s/(6h) + V/(12hL)).
        // Megatron GPT 1T: L = 128, h = 25600, V = 51200, s = 2048, B = 3072.
        const ModelSpec m = model("megatron-gpt-1t");
        TrainingConfig t;
        t.seq_len = 2048;
        t.global_batch = 3072;
        t.recompute = Recompute::None;
        t.flash_attention = false; // 2021: the whole s×s is computed, then masked
        const double B = 3072, s = 2048, L = 128, h = 25600, V = 51200;
        const double expected = 72 * B * s * L * h * h * (1 + s / (6 * h) + V / (12 * h * L));
        const FlopsReport f = trainingFlops(m, t);
        // The generalised count also counts the (small) bias-free matmuls only, as eq. 3 does.
        QVERIFY2(close(f.model_flops_per_step, expected),
                 qPrintable(QString::number(f.model_flops_per_step / expected, 'g', 15)));
        QCOMPARE(f.hardware_flops_per_step, f.model_flops_per_step);
        // With flash attention the kernels skip the masked half of the causal scores: the
        // scores' 3·B·s·L·4·s·h (forward and backward) count half, 72·BsLh²·s/(12h) fewer:
        // hardware = 72·BsLh²(1 + s/(12h) + V/(12hL)); the model FLOPs keep the convention.
        t.flash_attention = true;
        const FlopsReport flash = trainingFlops(m, t);
        QVERIFY(close(flash.model_flops_per_step, expected));
        QVERIFY(close(flash.hardware_flops_per_step, 72 * B * s * L * h * h * (1 + s / (12 * h) + V / (12 * h * L))));
    }

    void recomputeVariants()
    {
        // Korthikanti App. A: full recompute 96·BsLh²(1 + s/(6h) + V/(16hL));
        // selective 72·BsLh²(1 + s/(3h) + V/(12hL)). GPT 175B shape, B = 1536, s = 2048.
        ModelSpec m = model("gpt3-175b");
        m.vocab = 51200;
        TrainingConfig t;
        t.seq_len = 2048;
        t.global_batch = 1536;
        t.flash_attention = false; // Korthikanti et al. 2022 count the whole s×s
        const double B = 1536, s = 2048, L = 96, h = 12288, V = 51200;
        t.recompute = Recompute::Full;
        QVERIFY(close(trainingFlops(m, t).hardware_flops_per_step,
                      96 * B * s * L * h * h * (1 + s / (6 * h) + V / (16 * h * L))));
        t.recompute = Recompute::Selective;
        QVERIFY(close(trainingFlops(m, t).hardware_flops_per_step,
                      72 * B * s * L * h * h * (1 + s / (3 * h) + V / (12 * h * L))));

        // Recomputing the MoE block (--recompute-modules moe) runs the router and both routed
        // experts forward once more: Mixtral 8x7B (32 MoE layers, h 4096, E 8, k 2, f_e 14336,
        // SwiGLU) adds B·s·32·(2hE + 2·2·3·h·f_e) = B·s·32·(65,536 + 704,643,072) FLOPs.
        ModelSpec mix = model("mixtral-8x7b");
        TrainingConfig tm;
        tm.seq_len = 4096;
        tm.global_batch = 8;
        tm.recompute = Recompute::Selective;
        const double core_only = trainingFlops(mix, tm).hardware_flops_per_step;
        tm.recompute_modules |= unsigned(RecomputeModule::Moe);
        QVERIFY(close(trainingFlops(mix, tm).hardware_flops_per_step - core_only,
                      8.0 * 4096 * 32 * (2.0 * 4096 * 8 + 2 * 2 * 3 * 4096.0 * 14336)));
    }

    void gqaSwigluGeneralisation()
    {
        // Megatron num_floating_point_operations (2024):
        // 12·B·s·L·h²·[(1 + g/a + s/h)·(q/h) + (f/h)·(3/2) + V/(2Lh)], Llama-2 70B: g = 8, a = 64.
        const ModelSpec m = model("llama2-70b");
        TrainingConfig t;
        t.seq_len = 4096;
        t.global_batch = 512;
        t.recompute = Recompute::None;
        const double B = 512, s = 4096, L = 80, h = 8192, g = 8, a = 64, f = 28672, V = 32000;
        const double expected = 12 * B * s * L * h * h * ((1 + g / a + s / h) + (f / h) * 1.5 + V / (2 * L * h));
        QVERIFY(close(trainingFlops(m, t).model_flops_per_step, expected));
    }

    void moeCountsTopKExperts()
    {
        // Mixtral: per token and layer the MLP forward is router 2·h·E + top_k·2·3·h·f_e.
        const ModelSpec m = model("mixtral-8x7b");
        const LayerForwardFlops f = layerForwardFlops(m, 4096, true);
        QCOMPARE(f.mlp, 2.0 * 4096 * 8 + 2 * 2.0 * 3 * 4096 * 14336);
        // ≈ 6·active params per token for short sequences: the attention-score term is the rest.
        TrainingConfig t;
        t.seq_len = 1;
        t.global_batch = 1;
        t.recompute = Recompute::None;
        const double six_n = 6.0 * 12879925248.0;
        const double flops = trainingFlops(m, t).model_flops_per_step;
        // Differences: norms (not matmuls) and the input embedding lookup (not a matmul):
        // 6·(32·2·4096 + 4096 + 32000·4096) out of 6N.
        QVERIFY(close(flops, six_n - 6.0 * (32 * 2 * 4096 + 4096 + 32000.0 * 4096) + 3 * 4.0 * 1 * 4096 * 32, 1e-9));
    }
};

QTEST_GUILESS_MAIN(TstFlops)
#include "tst_flops.moc"
