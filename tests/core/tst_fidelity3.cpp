// Issue 36 (fidelity, round 3): choices a scenario must express the way the frameworks run them,
// the uncertainty every prediction carries, and the three-state memory verdict.

#include "estimate/evaluate.h"
#include "memory/activation_memory.h"
#include "time/layer_ops.h"
#include "io/error_bands.h"
#include "io/scenario_json.h"
#include "scenario_fixture.h"
#include "validation/runs_file.h"

#include <QtTest>

using namespace parascope;
using namespace parascope::test;

namespace {

bool hasCode(const Estimate& e, Severity s, const std::string& code)
{
    return std::any_of(e.diagnostics.begin(), e.diagnostics.end(),
                       [&](const Diagnostic& d) { return d.severity == s && d.code == code; });
}

} // namespace

class TstFidelity3 : public QObject {
    Q_OBJECT
private slots:
    // §4: `schedule: interleaved` with VPP 1 is 1F1B, as Megatron runs it without
    // --num-layers-per-virtual-pipeline-stage. Llama-2 70B on TP 8 · PP 8 · DP 8, 64 microbatches:
    // stage 0 holds min(p, m) = 8 microbatches' activations under 1F1B, where the interleaved
    // warm-up with v = 1, 2·(p − r − 1) + 1 = 15, held 15 (the default scenario's 18.5 GiB
    // became 28.7 GiB: the false jump a slider user saw moving VPP to 1).
    void interleavedWithOneChunkIsOneFOneB()
    {
        Scenario one = presetScenario("llama2-70b", "dgx-a100-80g", 8, 8, 8);
        one.training.global_batch = 512;
        one.parallel.schedule = ScheduleKind::OneFOneB;
        Scenario inter = one;
        inter.parallel.schedule = ScheduleKind::Interleaved;
        inter.parallel.vpp = 1;
        const Estimate a = evaluate(one), b = evaluate(inter);
        QCOMPARE(b.memory.peak_bytes, a.memory.peak_bytes);
        QCOMPARE(b.memory.stages.front().inflight_microbatches, 8.0);
        QCOMPARE(b.time.step_s, a.time.step_s);
        QVERIFY(b.layoutError() == nullptr);
        QVERIFY(hasCode(b, Severity::Info, "vpp_not_divisible"));
        // VPP 2 interleaves: a different schedule again.
        inter.parallel.vpp = 2;
        QVERIFY(evaluate(inter).time.step_s != a.time.step_s);
    }

    // §1: the bands the app shows are the check part's errors as `validate` measures them now.
    // A change detector on purpose: when the engine changes, run
    //   parascope-cli validate --out resources/presets/validation/error-bands.json
    // and report the classes before and after in docs/VALIDATION.md.
    void storedBandsAreTheCheckPartsErrors()
    {
        std::vector<InputError> errors;
        const ValidationSummary v = validateRuns(findPreset("validation", "reference-runs")->json, errors);
        QVERIFY(errors.empty());
        const nlohmann::json stored = findPreset("validation", "error-bands")->json;
        QVERIFY2(bandsToJson(v) == stored, "error-bands.json is stale: run parascope-cli validate --out …");
        const ErrorBands& bands = builtInBands();
        QCOMPARE(bands.all.runs, v.check.evaluated);
        QCOMPARE(bands.all.mape, v.check.mape);
        // Each run's class is the one a scenario like it shows: the band is about such runs.
        for (const ValidationRow& r : v.rows)
            QVERIFY2(r.run_class == r.derived_class, (r.id + ": " + r.run_class + " vs " + r.derived_class).c_str());
    }

    // §4: FP8 activation storage (DeepSeek-V3 §3.3.2) keeps the linear layers' inputs as their
    // FP8 copies: 1 byte of each 2 saved. Llama-2 7B (h 4096, SwiGLU f 11008), s 4096, b 1, TP 1,
    // selective recompute of core_attn: the QKV input h + the MLP input h (both replicated) and
    // the down projection's input f (split by TP):
    //   4096·1·(2·4096 + 11008) = 4096·19200 = 78 643 200 bytes per layer;
    // with TP 2 + SP every part is split by 2: 39 321 600. Mixtral 8×7B (top 2 of 8 experts,
    // f_e 14336): the QKV input h and, per routed slot, the dispatched input h and the down
    // projection's input f_e: 4096·(4096 + 2·(4096 + 14336)) = 4096·40960 = 167 772 160; with
    // moe_act recompute the latter is not kept: 4096·(4096 + 2·4096) = 50 331 648. Nothing in
    // bf16 (fp8_activations_need_fp8 says so) or under full recompute.
    void fp8ActivationStorageHalvesTheLinearInputs()
    {
        Scenario sc = presetScenario("llama2-7b", "dgx-h100", 1, 1, 8);
        sc.training.precision = Precision::Fp8;
        // What it saves, or −1 when the stored bytes or the term do not say so.
        const auto saved = [](const Scenario& x, bool moe) {
            Scenario with = x;
            with.training.fp8_activations = true;
            const LayerActivation a = layerActivation(x.model, x.training, x.parallel, moe);
            const LayerActivation b = layerActivation(with.model, with.training, with.parallel, moe);
            const bool named = b.term.formula.find("− FP8 linear inputs") != std::string::npos;
            return b.fp8_saved == a.stored - b.stored && named == (b.fp8_saved > 0) ? b.fp8_saved : -1.0;
        };
        QCOMPARE(saved(sc, false), 78643200.0);
        Scenario tp2 = sc;
        tp2.parallel.tp = 2;
        tp2.parallel.sequence_parallel = true;
        QCOMPARE(saved(tp2, false), 39321600.0);
        Scenario moe = presetScenario("mixtral-8x7b", "dgx-h100", 1, 1, 8);
        moe.training.precision = Precision::Fp8;
        QCOMPARE(saved(moe, true), 167772160.0);
        moe.training.addRecomputeModule(RecomputeModule::MoeAct);
        QCOMPARE(saved(moe, true), 50331648.0);
        Scenario bf16 = sc;
        bf16.training.precision = Precision::Bf16;
        QCOMPARE(saved(bf16, false), 0.0);
        Scenario full = sc;
        full.training.recompute = Recompute::Full;
        QCOMPARE(saved(full, false), 0.0);
        // The file keeps it; evaluate shows the smaller activations.
        sc.training.fp8_activations = true;
        std::vector<InputError> errors;
        const std::optional<Scenario> back = readScenario(scenarioToJson(sc), errors);
        QVERIFY(back && errors.empty());
        QVERIFY(back->training.fp8_activations);
    }

    // §1 "what breaks" names FP8 activation storage and MoE activation recompute where they
    // apply, and the advice that makes the stage fit prices each in step time.
    void whatBreaksOffersFp8ActivationsAndMoeRecompute()
    {
        Scenario sc = presetScenario("mixtral-8x7b", "dgx-h100", 1, 1, 8);
        sc.training.precision = Precision::Fp8;
        sc.training.recompute = Recompute::None;
        sc.training.micro_batch = 4;
        sc.training.global_batch = 256;
        sc.parallel.ep = 8;
        const Estimate e = evaluate(sc);
        QVERIFY(hasCode(e, Severity::Error, "out_of_memory"));
        const auto oom = std::find_if(e.diagnostics.begin(), e.diagnostics.end(),
                                      [](const Diagnostic& d) { return d.code == "out_of_memory"; });
        QVERIFY2(oom->suggestion.en.find("FP8 activation storage saves") != std::string::npos,
                 oom->suggestion.en.c_str());
        QVERIFY2(oom->suggestion.en.find("recomputing the experts' activation (moe_act) saves") != std::string::npos,
                 oom->suggestion.en.c_str());
        QVERIFY(oom->suggestion.zh.find("FP8 激活存储可省") != std::string::npos);
    }

    // §3: FSDP's first all-gather and last reduce-scatter of each microbatch cannot hide. Llama 3.1
    // 8B (h 4096, 8 KV heads of 128, SwiGLU f 14336, vocabulary 128256, untied) with ZeRO-3 on 8
    // H100s, TP 1, one microbatch:
    //   layer L = 4096·(4096 + 1024 + 1024 + 4096) + 3·4096·14336 + 2·4096 = 218 112 000
    //   root R = 2·128256·4096 + 4096 (embedding, output layer, final norm) = 1 050 677 248
    //   P = 32·L + R = 8 030 261 248
    // forward: AG·(R + L)/P; backward: AG·L/P (the first layer gathered again) + RS·(R + L)/P,
    // AG and RS the plan's per-microbatch times. Before, one microbatch on 8 GPUs showed 0 s.
    void fsdpEdgesCannotHide()
    {
        Scenario sc = presetScenario("llama3.1-8b", "dgx-h100", 1, 1, 8);
        sc.parallel.zero = 3;
        sc.training.global_batch = 8; // one microbatch
        sc.training.seq_len = 8192;
        const Estimate e = evaluate(sc);
        double ag = 0, rs = 0;
        for (const CommEntry& c : e.communication)
            if (c.group == Group::Dp && c.purpose == Purpose::Parameters)
                ag = c.time_s / c.rounds;
            else if (c.group == Group::Dp && c.purpose == Purpose::Gradients)
                rs = c.time_s / c.rounds;
        QVERIFY(ag > 0 && rs > 0);
        const double L = 218112000, R = 1050677248, P = 32 * L + R;
        QCOMPARE(P, 8030261248.0);
        const double expected = ag * (R + L) / P + ag * L / P + rs * (R + L) / P;
        const auto term = std::find_if(e.time.terms.begin(), e.time.terms.end(),
                                       [](const Term& t) { return t.name == "time.fsdp_edges"; });
        QVERIFY(term != e.time.terms.end());
        QVERIFY2(std::abs(term->value / expected - 1) < 1e-9,
                 (std::to_string(term->value) + " vs " + std::to_string(expected)).c_str());
        QVERIFY(e.time.exposed_comm_s >= expected * (1 - 1e-9));
        // ZeRO-1 has no per-microbatch gathers: no such term.
        sc.parallel.zero = 1;
        const Estimate z1 = evaluate(sc);
        QVERIFY(std::none_of(z1.time.terms.begin(), z1.time.terms.end(),
                             [](const Term& t) { return t.name == "time.fsdp_edges"; }));
    }

    // §3: FP8 at small hidden sizes: each quantization is a kernel and pays a kernel's fixed cost,
    // the bf16 layer pass's launches and tails (gpu.kernel_overhead_s) over its kernels. Llama-2
    // 7B on H100 (kernel overhead 150 µs), TP 1, FP8: a pass has qkv, attention, out, mlp_up,
    // mlp_down and 6 elementwise kernels (2 norms, 2 residual adds, SwiGLU, rotary) = 11, so each
    // of the 4 FP8 GEMMs' casts, forward and backward, costs its bytes over HBM plus 150/11 =
    // 13.64 µs.
    void fp8CastsPayAKernelsFixedCost()
    {
        Scenario sc = presetScenario("llama2-7b", "dgx-h100", 1, 1, 8);
        sc.training.precision = Precision::Fp8;
        QCOMPARE(sc.cluster.gpu.kernel_overhead_s, 150e-6);
        const LayerOpRates r = layerOpRates(sc);
        int fp8_gemms = 0;
        for (const LayerOp& op : layerOps(sc, r, false)) {
            if (op.precision != Precision::Fp8)
                continue;
            ++fp8_gemms;
            const double M = r.tokens, bytes_f = op.flops / 2 / M; // N·K
            const double K = op.name == std::string("mlp_down") ? 11008.0 : 4096.0, N = bytes_f / K;
            const double fixed = 150e-6 / 11;
            const double forward
                = (M * K * r.casts.bytes_per_element + N * K * r.casts.weight_bytes / r.microbatches) / r.hbm;
            QVERIFY2(std::abs(op.cast_forward_s - (forward + fixed)) < 1e-12, op.name.c_str());
            QVERIFY2(std::abs(op.cast_backward_s - (M * N * r.casts.bytes_per_element / r.hbm + fixed)) < 1e-12,
                     op.name.c_str());
        }
        QCOMPARE(fp8_gemms, 4);
    }

    // §1: which band a scenario carries, and how it reads. Long context before MoE (the Qwen3 CP
    // runs), MoE before FP8 (Mixtral FP8), FP8 before FSDP; a class with fewer than 4 check runs
    // falls back to the whole check part.
    void aScenarioCarriesItsClassBand()
    {
        Scenario sc = presetScenario("llama2-70b", "dgx-a100-80g", 8, 8, 8);
        QCOMPARE(predictionClass(sc), std::string("dense"));
        sc.parallel.zero = 3;
        QCOMPARE(predictionClass(sc), std::string("fsdp"));
        sc.training.precision = Precision::Fp8;
        QCOMPARE(predictionClass(sc), std::string("fp8"));
        sc.training.seq_len = 32768;
        QCOMPARE(predictionClass(sc), std::string("long_context"));
        Scenario moe = presetScenario("mixtral-8x7b", "dgx-h100", 2, 1, 4);
        moe.training.precision = Precision::Fp8;
        QCOMPARE(predictionClass(moe), std::string("moe"));

        ErrorBands bands;
        bands.all = {"", 0.104, 0.314, 46};
        bands.classes = {{"dense", 0.069, 0.129, 5}, {"moe", 0.30, 0.62, 3}};
        const ErrorBand dense = bandFor(bands, presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 8));
        QCOMPARE(dense.run_class, std::string("dense"));
        QCOMPARE(bandText(dense, true).en, std::string("±6.9 %"));
        QCOMPARE(
            bandText(dense).en,
            std::string("±6.9 % (dense: the mean error of 5 reference runs no constant was fitted on; worst 12.9 %)"));
        QCOMPARE(bandText(dense).zh,
                 std::string("±6.9 %（稠密模型：5 个未参与拟合的参考运行的平均误差；最大 12.9 %）"));
        const ErrorBand few = bandFor(bands, moe); // 3 MoE runs < 4: the whole check part
        QCOMPARE(few.run_class, std::string(""));
        QCOMPARE(bandText(few, true).en, std::string("±10.4 %"));
    }
};

QTEST_GUILESS_MAIN(TstFidelity3)
#include "tst_fidelity3.moc"
