// Issue 36 (fidelity, round 3): choices a scenario must express the way the frameworks run them,
// the uncertainty every prediction carries, and the three-state memory verdict.

#include "estimate/evaluate.h"
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
