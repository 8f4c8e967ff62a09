// Validation against published training runs (resources/presets/validation/reference-runs.json,
// the reference set, parascope.runs/1: every run a full scenario). Each run says which part it belongs to: "fit" runs are those an engine
// constant was chosen on (A100 and H100 sustained clock, kernel overhead, GEMM half-size and
// attention efficiency on every A100 and H100 run of the first set; kZeroOverlap and the flat
// ZeRO ring (removed since) on Narayanan 2021 Table 2's ZeRO-3 rows; the file's "parts" and docs/VALIDATION.md
// say which on which), "check" runs are those none was chosen on. The accuracy bounds hold on the
// check part only; the fit part gets a looser sanity bound, which is not evidence of accuracy.

#include "validation/runs_file.h"
#include "estimate/evaluate.h"
#include "io/scenario_json.h"
#include "scenario_fixture.h"
#include "util/json_reader.h"

#include <algorithm>
#include <cmath>

using namespace parascope;

namespace {

// The built-in reference set (validation/reference-runs.json, parascope.runs/1: every run a
// full scenario), what `validate` reads.
ValidationSummary referenceSet()
{
    std::vector<InputError> errors;
    const ValidationSummary v = validateRuns(findPreset("validation", "reference-runs")->json, errors);
    if (!errors.empty())
        qWarning("%s", errors.front().text().c_str());
    return v;
}

std::string table(const ValidationSummary& v, RunPart part)
{
    std::string out;
    for (const ValidationRow& r : v.rows)
        if (r.evaluated && r.part == part)
            out += r.id + " " + std::to_string(r.error * 100) + " %\n";
    return out;
}

// A bound from docs/VALIDATION.md's bounds table ("| `name` | value | …"), the one place it is
// written; NaN when the row is missing (every comparison with it then fails).
double bound(const char* name)
{
    QFile f(QStringLiteral(PARASCOPE_SOURCE_DIR "/docs/VALIDATION.md"));
    if (!f.open(QIODevice::ReadOnly))
        return std::nan("");
    const QByteArray prefix = QByteArray("| `") + name + "` | ";
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith(prefix)) {
            bool ok = false;
            const double v = line.mid(prefix.size()).split('|').front().trimmed().toDouble(&ok);
            return ok ? v : std::nan("");
        }
    return std::nan("");
}

} // namespace

class TstValidation : public QObject {
    Q_OBJECT

private slots:
    void everyRunHasAPart()
    {
        const ValidationSummary v = referenceSet();
        QCOMPARE(int(v.rows.size()), v.fit.runs + v.check.runs);
        for (const ValidationRow& r : v.rows)
            QVERIFY2(r.part.has_value(), r.id.c_str());
        // Every run some constant was fitted on is "fit" (docs/VALIDATION.md): all runs of the
        // first reference set that the engine evaluates.
        for (const ValidationRow& r : v.rows)
            for (const char* prefix : {"narayanan21_", "mtnlg530b_", "megatron_h100_weak_"})
                if (r.id.rfind(prefix, 0) == 0)
                    QVERIFY2(r.part == RunPart::Fit, r.id.c_str());
        // The 500 W H100's sustained clock was fitted on one torchtitan run; its other runs check.
        for (const ValidationRow& r : v.rows)
            if (r.id.rfind("tt24_", 0) == 0 || r.id.rfind("tt25_", 0) == 0)
                QVERIFY2(r.part == (r.id == "tt24_8b_8gpu_fsdp" ? RunPart::Fit : RunPart::Check), r.id.c_str());
    }

    void checkPartWithinBounds()
    {
        // Held out: FlashAttention's GPT-3 training-speed table (5 runs, 125M-2.7B on one node of
        // 8 A100 80GB, DDP / ZeRO-1, no recompute), torchtitan's April 2024 FSDP2 table (6 runs,
        // Llama 2 13B / 70B and Llama 3 8B / 70B on 64 A100 80GB, no, full and op-level selective
        // recompute), and 23 torchtitan runs on H100
        // (96 GB HBM2e, 500 W; benchmarks of 2024-12 and 2025-06): Llama 3.1 8B FSDP on 8 and
        // 128 GPUs, bf16 and Float8; 8B with CP 1–8 at 32k–256k tokens; 70B FSDP 32 × TP 8,
        // bf16 and Float8, with and without async TP; 8B FSDP 8 × TP 8 likewise; 405B on 512
        // GPUs with TP 8 × PP 8 (1F1B and interleaved) and with CP 1–8 at 32k–256k tokens; and
        // 4 Megatron-Core Mixtral 8x22B runs on 128 H100 (TP 2 × PP 8 × EP 8, alltoall
        // dispatcher: dropless, forced balance, blockwise FP8, capacity factor 1) from the MoE
        // Model Zoo, TFLOP/s counted with attention's causal half; from the same Model Zoo 6
        // fine-grained Qwen3-235B-A22B runs on 256 H100 (128 experts of width 1536): EP 32 across
        // nodes with DeepEP, without and with the combined-1F1B all-to-all overlap, Megatron-FSDP
        // with EP 8, PP 32 × VPP 3 with the all-to-all dispatcher, and TP 4 · CP 1–8 at
        // 16k–128k tokens (the TP 4 run at 4k is the fit run of the MoE host time).
        // Korthikanti et al. 2022's step times are not used: the issue tracker reserves them as
        // an external check (docs/VALIDATION.md). Measured 2026-12-02 (attention costed causal
        // from FlashAttention-2/3 kernel sweeps, a CP ring's unmasked blocks at the unmasked
        // rate, TP overlap hiding each collective behind its own GEMM, the A100 and H100
        // sustained clocks refitted on the fit part, the 500 W H100's on one fit run, FP8's own
        // GEMM curve; DeepEP's one copy per node, the MoE host time): MAPE 10.4 % over 46 runs,
        // worst mcore_qwen3_235b_tp2_pp32 −31.4 %; by class dense 8.9 % (9), fp8 10.2 % (10),
        // fsdp 6.0 % (8), long_context 13.9 % (12: Megatron's Qwen3 CP runs +8.5 … +18.6 %, too
        // slow, torchtitan's 128k–256k runs −14 … −23 %, too fast), moe 11.4 % (7).
        // Bounds: docs/VALIDATION.md's bounds table, the one place they are written. The issue's
        // target (MAPE ≤ 10 %, no run off by more than 30 %) is not met yet with the fine-grained
        // MoE runs in, so the check bounds hold today's figures against regressions.
        const ValidationSummary v = referenceSet();
        QVERIFY2(v.check.evaluated >= 46, std::to_string(v.check.evaluated).c_str());
        for (const ValidationRow& r : v.rows) {
            QVERIFY2(r.id.rfind("korthikanti22_", 0) != 0, r.id.c_str());
            if (r.id.rfind("flashattn_", 0) == 0 || r.id.rfind("torchtitan_", 0) == 0) {
                QVERIFY2(r.evaluated, r.id.c_str());
                QVERIFY2(r.part == RunPart::Check, r.id.c_str());
            }
        }
        // Both published tokens per second: the step is the global batch's tokens over them.
        for (const ValidationRow& r : v.rows)
            if (r.id.rfind("flashattn_", 0) == 0 || r.id.rfind("torchtitan_", 0) == 0)
                QCOMPARE(r.convention, std::string("global batch tokens / (tokens/s per GPU · GPUs)"));
        qInfo("check part: MAPE %.1f %% over %d runs, worst %s %.1f %%", v.check.mape * 100, v.check.evaluated,
              v.check.worst.c_str(), v.check.max_abs_error * 100);
        const std::string t = table(v, RunPart::Check);
        QVERIFY2(v.check.mape <= bound("check.mape"), t.c_str());
        QVERIFY2(v.check.max_abs_error <= bound("check.max_abs_error"), t.c_str());
        qInfo("target (not met yet): MAPE %.1f %%, no run off by more than %.0f %%", bound("target.check.mape") * 100,
              bound("target.check.max_abs_error") * 100);
        // The one Qwen3 run a constant (gpu.moe_layer_host_us) was fitted on is in the fit part.
        for (const ValidationRow& r : v.rows)
            if (r.id.rfind("mcore_qwen3_", 0) == 0)
                QVERIFY2(r.part == (r.id == "mcore_qwen3_235b_tp4_ep8" ? RunPart::Fit : RunPart::Check), r.id.c_str());
        // Every class of the issue is in the check part.
        for (const char* cls : {"dense", "fp8", "fsdp", "long_context", "moe"}) {
            const auto it = std::find_if(v.check_classes.begin(), v.check_classes.end(),
                                         [&](const auto& c) { return c.first == cls; });
            QVERIFY2(it != v.check_classes.end() && it->second.evaluated >= 4, cls);
        }
    }

    // Every bound the tests read is in the table, a number in (0, 1].
    void boundsAreWrittenOnce()
    {
        for (const char* name :
             {"check.mape", "check.max_abs_error", "fit.mape", "fit.max_abs_error", "fit_without_zero3.mape",
              "fit_without_zero3.max_abs_error", "target.check.mape", "target.check.max_abs_error"}) {
            const double b = bound(name);
            QVERIFY2(b > 0 && b <= 1, name);
        }
        QVERIFY(bound("target.check.mape") <= bound("check.mape"));
    }

    void fitPartSanity()
    {
        // Not an accuracy claim: the constants were chosen on these runs. A sanity bound that
        // catches a broken engine. Measured 2026-12-01: MAPE 13.7 % over 35 runs. The six
        // DeepSpeed ZeRO-3 rows of Narayanan et al. 2021 Table 2 are 31–78 % too fast: their step
        // time stays at 66.75 s from 768 to 1536 GPUs (half the microbatches per GPU), which no
        // bandwidth model reproduces, and the flat ring once chosen to match them made real FSDP
        // runs 1.5× too slow. Without those six rows: MAPE 5.3 % over 29, worst mtnlg530b_3360gpu
        // −21.4 % (A100 80GB, as the MT-NLG announcement says).
        const ValidationSummary v = referenceSet();
        QVERIFY2(v.fit.evaluated >= 30, std::to_string(v.fit.evaluated).c_str());
        qInfo("fit part (sanity only): MAPE %.1f %% over %d runs, worst %s %.1f %%", v.fit.mape * 100, v.fit.evaluated,
              v.fit.worst.c_str(), v.fit.max_abs_error * 100);
        const std::string t = table(v, RunPart::Fit);
        QVERIFY2(v.fit.mape <= bound("fit.mape"), t.c_str());
        QVERIFY2(v.fit.max_abs_error <= bound("fit.max_abs_error"), t.c_str());
        double sum = 0;
        int n = 0;
        for (const ValidationRow& r : v.rows)
            if (r.evaluated && r.part == RunPart::Fit && r.id.find("_zero3_") == std::string::npos) {
                sum += std::abs(r.error);
                ++n;
                QVERIFY2(std::abs(r.error) <= bound("fit_without_zero3.max_abs_error"), (r.id + "\n" + t).c_str());
            }
        QVERIFY2(n >= 28 && sum / n <= bound("fit_without_zero3.mape"), t.c_str());
    }

    void runsFileOfYourOwnCluster()
    {
        // tests/data/runs-example.json (parascope.runs/1): three runs, each a full scenario and
        // one measured figure, turned into a published step time by hand:
        //  - 7B on DP 8: 64·4096 = 262,144 tokens at 3000 tokens/s per GPU on 8 GPUs:
        //    262144 / 24000 = 10.9227 s;
        //  - 7B FSDP on 64 GPUs, 512·4096 = 2,097,152 tokens at 150 TFLOP/s per GPU counted as
        //    6·N·D with N = 6,738,415,616: 6·N·D / (150e12·64) = 8.8343 s;
        //  - 7B on one GPU at MFU 0.4: model FLOPs / (0.4 · 312e12) (A100 dense bf16 peak).
        std::vector<InputError> errors;
        const auto file = readJsonFile(PARASCOPE_TEST_DATA "/runs-example.json", errors);
        QVERIFY(file);
        const ValidationSummary v = validateRuns(*file, errors);
        QVERIFY2(errors.empty(), errors.empty() ? "" : errors.front().text().c_str());
        QCOMPARE(v.rows.size(), std::size_t(3));
        const ValidationRow &dp8 = v.rows[0], &fsdp = v.rows[1], &one = v.rows[2];
        QVERIFY(dp8.evaluated && fsdp.evaluated && one.evaluated);
        QCOMPARE(dp8.published_step_s, 262144.0 / 24000.0);
        QCOMPARE(fsdp.published_step_s, 6.0 * 6738415616.0 * 2097152.0 / (150e12 * 64));
        const Scenario single = test::presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 1);
        Scenario sc1 = single;
        sc1.training.global_batch = 8;
        const Estimate e1 = evaluate(sc1);
        QCOMPARE(one.published_step_s, e1.flops.model_flops_per_step / (0.4 * 312e12));
        for (const ValidationRow& r : v.rows)
            QCOMPARE(r.error, r.predicted_step_s / r.published_step_s - 1);

        // Parts and classes: the check part over the two check runs, then per class.
        QCOMPARE(v.check.evaluated, 2);
        QCOMPARE(v.check.mape, (std::abs(dp8.error) + std::abs(fsdp.error)) / 2);
        QCOMPARE(v.check_classes.size(), std::size_t(2));
        QCOMPARE(v.check_classes[0].first, std::string("dense"));
        QCOMPARE(v.check_classes[0].second.mape, std::abs(dp8.error));
        QCOMPARE(v.check_classes[1].first, std::string("fsdp"));
        QCOMPARE(v.fit.evaluated, 1);

        // Memory: the DP 8 run reported 60 GiB; a 7B model with Adam on one 80 GB GPU (16 bytes
        // per parameter, 100 GiB of states alone) is out of memory, though that run trained.
        QVERIFY(dp8.measured_peak_gib);
        QCOMPARE(dp8.memory_error, dp8.predicted_peak_gib / 60.0 - 1);
        QCOMPARE(v.memory.evaluated, 1);
        QVERIFY(one.predicted_oom && !dp8.predicted_oom);
        QCOMPARE(v.false_oom, 1);
    }

    void reservedPeaksAreABound()
    {
        // The same run twice: its peak measured as allocated (a target: MAPE) and as the caching
        // allocator's max reserved (an upper bound, summarised apart). 7B on DP 8, ZeRO-1.
        const nlohmann::json scenario = {{"schema", "parascope.scenario/1"},
                                         {"model", "llama2-7b"},
                                         {"cluster", "dgx-a100-80g"},
                                         {"parallel", {{"dp", 8}, {"zero", 1}}},
                                         {"training", {{"global_batch", 64}, {"seq_len", 4096}, {"micro_batch", 1}}}};
        const auto run = [&](const char* id, double gib, const char* kind) {
            nlohmann::json measured = {{"step_s", 10.0}, {"peak_memory_gib", gib}};
            if (kind)
                measured["peak_memory_kind"] = kind;
            return nlohmann::json{{"id", id}, {"source", "s"}, {"scenario", scenario}, {"measured", measured}};
        };
        std::vector<InputError> errors;
        const ValidationSummary v = validateRuns(
            {{"schema", kRunsSchema},
             {"runs", {run("allocated", 40, nullptr), run("reserved", 70, "reserved"), run("tight", 1, "reserved")}}},
            errors);
        QVERIFY2(errors.empty(), errors.empty() ? "" : errors.front().text().c_str());
        const double predicted = v.rows[0].predicted_peak_gib;
        QVERIFY(!v.rows[0].measured_peak_reserved && v.rows[1].measured_peak_reserved);
        QCOMPARE(v.memory.evaluated, 1);
        QCOMPARE(v.memory.mape, std::abs(predicted / 40 - 1));
        QCOMPARE(v.memory_reserved.evaluated, 2);
        // Predicted above 1 GiB reserved: more than the run ever held, counted.
        QCOMPARE(v.above_reserved, 1);
        // A kind without a peak is an error with its path.
        nlohmann::json bad = run("x", 1, "reserved");
        bad["measured"].erase("peak_memory_gib");
        validateRuns({{"schema", kRunsSchema}, {"runs", {bad}}}, errors);
        QVERIFY(!errors.empty());
        QCOMPARE(errors.front().path, std::string("runs[0].measured.peak_memory_kind"));
    }

    void megatronCausalConvention()
    {
        // Megatron-LM's throughput log (2025) counts attention's causal half: its FLOPs are the
        // model FLOPs less half the scores' 3·B·s·L·4·s·q. Llama-2 7B on DP 8, B 64, s 4096
        // (L 32, q 4096): 3·64·4096·32·4·4096·4096/2 = 8.4442e14 fewer FLOPs; at 200 TFLOP/s
        // per GPU on 8 GPUs the step is (model − that)/(200e12·8).
        const nlohmann::json scenario = {{"schema", "parascope.scenario/1"},
                                         {"model", "llama2-7b"},
                                         {"cluster", "dgx-a100-80g"},
                                         {"parallel", {{"dp", 8}}},
                                         {"training", {{"global_batch", 64}, {"seq_len", 4096}, {"micro_batch", 1}}}};
        const nlohmann::json run
            = {{"id", "causal"},
               {"source", "s"},
               {"scenario", scenario},
               {"measured", {{"model_tflops_per_gpu", 200}, {"flops_convention", "megatron_causal"}}}};
        std::vector<InputError> errors;
        const ValidationSummary v = validateRuns({{"schema", kRunsSchema}, {"runs", {run}}}, errors);
        QVERIFY(errors.empty());
        std::vector<InputError> e2;
        const Estimate e = evaluate(*readScenario(scenario, e2));
        const double half_scores = 3.0 * 64 * 4096 * 32 * 4 * 4096 * 4096 / 2;
        QCOMPARE(half_scores, 844424930131968.0);
        QCOMPARE(v.rows[0].published_step_s, (e.flops.model_flops_per_step - half_scores) / (200e12 * 8));
    }

    void runsFileErrorsNameTheirPlace()
    {
        const auto errorsOf = [](const std::string& text) {
            std::vector<InputError> errors;
            validateRuns(nlohmann::json::parse(text), errors);
            std::string all;
            for (const InputError& e : errors)
                all += e.text() + "\n";
            return all;
        };
        const std::string scenario
            = R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-a100-80g"})";
        // No scenario; two measured figures; TFLOP/s without its convention; a bad scenario field.
        QVERIFY(errorsOf(R"({"schema":"parascope.runs/1","runs":[{"id":"a","source":"s","measured":{"step_s":1}}]})")
                    .find("runs[0].scenario: is required")
                != std::string::npos);
        QVERIFY(errorsOf(R"({"schema":"parascope.runs/1","runs":[{"id":"a","source":"s","scenario":)" + scenario
                         + R"(,"measured":{"step_s":1,"mfu":0.5}}]})")
                    .find("runs[0].measured: needs exactly one of")
                != std::string::npos);
        QVERIFY(errorsOf(R"({"schema":"parascope.runs/1","runs":[{"id":"a","source":"s","scenario":)" + scenario
                         + R"(,"measured":{"model_tflops_per_gpu":100}}]})")
                    .find("runs[0].measured.flops_convention: is required")
                != std::string::npos);
        const std::string bad
            = errorsOf(R"({"schema":"parascope.runs/1","runs":[{"id":"a","source":"s","scenario":)"
                       R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-a100-80g",)"
                       R"("parallel":{"tp":0}},"measured":{"step_s":1}}]})");
        QVERIFY2(bad.find("runs[0].scenario.parallel.tp") != std::string::npos, bad.c_str());
        QVERIFY(errorsOf(R"({"schema":"parascope.runs/1","runs":[{"id":"a","source":"s","scenario":)" + scenario
                         + R"(,"measured":{"step_s":1},"tuned":true}]})")
                    .find("runs[0].tuned: unknown key")
                != std::string::npos);
    }

    void falseOutOfMemory()
    {
        // Runs that trained and that the engine calls out of memory (issue 15's false OOMs): none.
        // The last one was the DeepSpeed ZeRO-3 529B run at micro batch 4 on 640 GPUs, while the
        // engine kept 2 whole layers gathered (10.1 B parameters, 84.2 GiB in all); DeepSpeed
        // gathers module by module and keeps at most stage3_max_live_parameters = 1e9 live
        // (zero3_max_live_params in its scenario): 67.3 GiB of 80.
        const ValidationSummary a = referenceSet();
        QCOMPARE(a.false_oom, 0);
        for (const ValidationRow& r : a.rows)
            if (r.id == "narayanan21_t2_zero3_529B_640gpu")
                QVERIFY(!r.predicted_oom && r.predicted_peak_gib > 60 && r.predicted_peak_gib < 70);
    }

    void partsAddUp()
    {
        const ValidationSummary v = referenceSet();
        QCOMPARE(v.evaluated, v.fit.evaluated + v.check.evaluated);
        const double weighted = (v.fit.mape * v.fit.evaluated + v.check.mape * v.check.evaluated) / v.evaluated;
        QVERIFY(std::abs(weighted - v.mape) < 1e-12);
    }

    void partIsTyped()
    {
        // An unknown part or a part that is not a string is an input error with its path, like
        // every other field; a run without a part is accepted and counts in neither part.
        const nlohmann::json run
            = {{"id", "x"},
               {"source", "s"},
               {"scenario", {{"schema", "parascope.scenario/1"}, {"model", "llama2-7b"}, {"cluster", "dgx-a100-80g"}}},
               {"measured", {{"step_s", 10}}}};
        nlohmann::json bad = run, number = run, none = run;
        bad["part"] = "train";
        number["part"] = 1;
        std::vector<InputError> errors;
        validateRuns({{"schema", kRunsSchema}, {"runs", {run, bad, number}}}, errors);
        QCOMPARE(errors.size(), std::size_t(2));
        QCOMPARE(errors[0].text(), std::string("runs[1].part: must be one of fit, check, got \"train\""));
        QCOMPARE(errors[1].path, std::string("runs[2].part"));
        errors.clear();
        const ValidationSummary v = validateRuns({{"schema", kRunsSchema}, {"runs", {none, none}}}, errors);
        QVERIFY(errors.empty());
        QCOMPARE(v.evaluated, 2);
        QCOMPARE(v.fit.runs + v.check.runs, 0);
        QVERIFY(!v.rows[0].part && !v.rows[1].part);
    }

    void everyRunSaysWhereItComesFrom()
    {
        // Each run of the reference set names its source, and what the source left unstated is
        // written out in its notes (the family defaults docs/VALIDATION.md cites).
        const nlohmann::json& file = findPreset("validation", "reference-runs")->json;
        for (const nlohmann::json& run : file["runs"]) {
            const std::string id = run["id"];
            QVERIFY2(!run.value("source", std::string()).empty(), id.c_str());
            QVERIFY2(!run.value("notes", std::string()).empty(), id.c_str());
            QVERIFY2(!run.value("class", std::string()).empty(), id.c_str());
        }
        for (const ValidationRow& r : referenceSet().rows) {
            QVERIFY2(r.evaluated, (r.id + ": " + r.skipped_because).c_str());
            QVERIFY2(!r.convention.empty(), r.id.c_str());
            QVERIFY(r.published_step_s > 0 && r.predicted_step_s > 0);
        }
    }

    void publishedConventionsAreApplied()
    {
        // Narayanan 2021 counts TFLOP/s with eq. 3 including recomputation:
        // 96·B·s·L·h²(1 + s/6h + V/16Lh). For the 1T run (B 3072, s 2048, L 128, h 25600,
        // V 51200, 3072 GPUs, 163 TFLOP/s) that is a step of F/(163e12·3072).
        for (const ValidationRow& r : referenceSet().rows)
            if (r.id == "narayanan21_t1_1T") {
                const double B = 3072, s = 2048, L = 128, h = 25600, V = 51200;
                const double F = 96 * B * s * L * h * h * (1 + s / (6 * h) + V / (16 * L * h));
                QCOMPARE(r.published_step_s, F / (163e12 * 3072));
                return;
            }
        QFAIL("narayanan21_t1_1T missing");
    }

    void badFileIsAnError()
    {
        std::vector<InputError> errors;
        validateRuns(nlohmann::json::array(), errors);
        QCOMPARE(errors.size(), std::size_t(1));
        QVERIFY(errors[0].message.find("parascope.runs/1") != std::string::npos);
        // The old published-records format (no schema) is no longer read.
        errors.clear();
        validateRuns({{"runs", nlohmann::json::array()}}, errors);
        QCOMPARE(errors.size(), std::size_t(1));
        QCOMPARE(errors[0].path, std::string("schema"));
    }
};

QTEST_GUILESS_MAIN(TstValidation)
#include "tst_validation.moc"
