// Advice (search/advice.h): every item is a real change (never a no-op), valid (no error or
// warning the scenario did not have, except a bubble or exposed communication whose cost the
// step already shows when the goal is memory), reproduces its numbers when applied, and removes
// or reduces its problem; out-of-memory advice actually fits and is the nearest change (fewest
// knobs, checked by brute force); nothing is advised when nothing is wrong; micro batch 1 is never
// told to lower the micro batch; the work stays within its evaluation budget.

#include "search/advice.h"
#include "estimate/evaluate.h"
#include "estimate/diagnostics.h"
#include "io/scenario_json.h"
#include "scenario_fixture.h"

#include <QDir>
#include <QtTest>

#include <algorithm>
#include <fstream>
#include <set>

using namespace parascope;
using namespace parascope::test;

namespace {

// The course's scenarios: the default one, every lesson step, and every test scenario that
// evaluates (tests/data/diag-*, cli-*), each with its own problems.
std::vector<std::pair<std::string, Scenario>> courseScenarios()
{
    std::vector<std::pair<std::string, Scenario>> out;
    std::vector<InputError> errors;
    if (auto sc = readScenarioFile(PARASCOPE_SOURCE_DIR "/resources/scenarios/default.parascope.json", errors))
        out.emplace_back("default", *sc);
    const QDir lessons(QStringLiteral(PARASCOPE_SOURCE_DIR "/resources/presets/lessons"));
    for (const QString& f : lessons.entryList({QStringLiteral("*.json")}, QDir::Files)) {
        std::ifstream in(lessons.filePath(f).toStdString());
        const nlohmann::json j = nlohmann::json::parse(in);
        int step = 0;
        for (const auto& s : j["steps"]) {
            errors.clear();
            if (auto sc = readScenario(s["scenario"], errors))
                out.emplace_back(f.toStdString() + " step " + std::to_string(step), *sc);
            ++step;
        }
    }
    const QDir data(QStringLiteral(PARASCOPE_TEST_DATA));
    for (const QString& f : data.entryList(
             {QStringLiteral("diag-*.parascope.json"), QStringLiteral("cli-*.parascope.json")}, QDir::Files)) {
        errors.clear();
        if (auto sc = readScenarioFile(data.filePath(f).toStdString(), errors))
            out.emplace_back(f.toStdString(), *sc);
    }
    return out;
}

std::set<std::string> codes(const Estimate& e, Severity s)
{
    std::set<std::string> out;
    for (const Diagnostic& d : e.diagnostics)
        if (d.severity == s)
            out.insert(d.code);
    return out;
}

// Llama-2 70B on 16 A100-80GB, plain DDP, no recompute, micro batch 2: 68.98e9 params × 16 B =
// 1.10 TB of model states per GPU. One knob cannot fit it: even ZeRO-3 over DP 16 leaves
// 1.10 TB / 16 = 69 GB = 64 GiB of states, plus the activations of 80 layers without recompute;
// TP 8 or PP 8 alone leaves 138 GB. It takes three.
Scenario seventyBOnSixteen()
{
    Scenario sc = presetScenario("llama2-70b", "dgx-a100-80g", 1, 1, 16);
    sc.training.micro_batch = 2;
    sc.training.global_batch = 64;
    sc.training.recompute = Recompute::None;
    return sc;
}

} // namespace

class TstAdvice : public QObject {
    Q_OBJECT

private slots:
    void nothingWrongNothingAdvised()
    {
        int clean = 0;
        for (const auto& [name, sc] : courseScenarios()) {
            const Estimate est = evaluate(sc);
            if (!est.diagnostics.empty())
                continue;
            ++clean;
            const AdviceList a = advise(sc, est);
            QVERIFY2(a.items.empty(), name.c_str());
            QCOMPARE(a.evaluations, 0);
            QVERIFY(adviceText(est, a.items, "en").empty());
        }
        QVERIFY(clean >= 4); // default, lessons 1b, 2, 3b, …
    }

    void everyItemIsApplicableAndDoesWhatItSays()
    {
        int items = 0, oom = 0, bubble = 0;
        EvaluateOptions eo;
        eo.record_timeline = false;
        for (const auto& [name, sc] : courseScenarios()) {
            const Estimate est = evaluate(sc, eo);
            const AdviceList list = advise(sc, est);
            QVERIFY2(list.evaluations <= 60, name.c_str());
            const std::set<std::string> errors = codes(est, Severity::Error), warnings = codes(est, Severity::Warning);
            for (const Advice& a : list.items) {
                const std::string what = name + ": " + a.code + ": " + a.message.en;
                ++items;
                // It answers a problem the estimate has.
                QVERIFY2(est.has(a.code), what.c_str());
                // Never a no-op: at least one field really moves.
                QVERIFY2(!a.changes.empty(), what.c_str());
                const Scenario changed = applyAdvice(sc, a);
                QVERIFY2(scenarioToJson(changed) != scenarioToJson(sc), what.c_str());
                // What it says is what evaluating the changed scenario gives.
                const Estimate after = evaluate(changed, eo);
                QCOMPARE(a.step_s, after.time.step_s);
                QCOMPARE(a.peak_bytes, after.memory.peak_bytes);
                QCOMPARE(a.fits, after.memory.fits);
                QVERIFY2(a.message.en.find(formatBytes(after.memory.peak_bytes)) != std::string::npos, what.c_str());
                QVERIFY2(a.message.zh.find(formatBytes(after.memory.peak_bytes)) != std::string::npos,
                         a.message.zh.c_str());
                // Valid: no error it did not have; no new warning but a bubble or exposed
                // communication, and those only as the price of fitting or fixing an error.
                for (const std::string& e : codes(after, Severity::Error))
                    QVERIFY2(errors.count(e), (what + " adds error " + e).c_str());
                const bool fixing = a.code == "out_of_memory" || errors.count(a.code);
                for (const std::string& w : codes(after, Severity::Warning))
                    QVERIFY2(warnings.count(w) || (fixing && (w == "large_bubble" || w == "exposed_comm_high")),
                             (what + " adds warning " + w).c_str());
                // It fits when the scenario fitted, and never needs more memory when it did not.
                if (est.memory.fits)
                    QVERIFY2(after.memory.fits, what.c_str());
                else if (a.code != "out_of_memory")
                    QVERIFY2(after.memory.peak_bytes <= est.memory.peak_bytes, what.c_str());
                // The problem is gone, or smaller.
                if (a.code == "out_of_memory") {
                    ++oom;
                    QVERIFY2(after.memory.fits && !after.has("out_of_memory"), what.c_str());
                } else if (a.code == "large_bubble") {
                    ++bubble;
                    QVERIFY2(after.time.bubble_fraction < est.time.bubble_fraction, what.c_str());
                    QVERIFY2(after.throughput.tokens_per_s > est.throughput.tokens_per_s, what.c_str());
                } else if (a.code == "exposed_comm_high") {
                    QVERIFY2(after.time.exposed_comm_s / after.time.step_s < est.time.exposed_comm_s / est.time.step_s,
                             what.c_str());
                    QVERIFY2(after.time.step_s < est.time.step_s, what.c_str());
                } else {
                    QVERIFY2(!after.has(a.code), what.c_str());
                }
                // Micro batch 1 is never told to lower it (nor anything else impossible).
                if (sc.training.micro_batch == 1)
                    for (const AdviceChange& c : a.changes)
                        QVERIFY2(c.path != "training.micro_batch", what.c_str());
                // Both languages, the Chinese one in Chinese punctuation.
                QVERIFY2(!a.message.en.empty() && a.message.zh.find("：") != std::string::npos, a.message.zh.c_str());
                // Each change read back from its JSON spelling is itself (the web edition applies
                // the fixes so).
                for (const AdviceChange& c : a.changes) {
                    std::string why;
                    const auto back = adviceChangeFromJson(c.path, adviceValueJson(c), why);
                    QVERIFY2(back && back->path == c.path && back->value == c.value, (what + " " + c.path).c_str());
                }
            }
        }
        // The course's scenarios exercise the main kinds.
        QVERIFY(items >= 20);
        QVERIFY(oom >= 4);
        QVERIFY(bubble >= 4);
    }

    void outOfMemoryCombinesKnobsAndFits()
    {
        const Scenario sc = seventyBOnSixteen();
        const Estimate est = evaluate(sc);
        QVERIFY(!est.memory.fits);
        const AdviceList list = advise(sc, est);
        QVERIFY(list.evaluations <= 60);
        std::vector<Advice> oom;
        for (const Advice& a : list.items)
            if (a.code == "out_of_memory")
                oom.push_back(a);
        QVERIFY(!oom.empty());

        // Brute force over the same knobs (TP in the node with SP, PP dividing the 80 layers, ZeRO,
        // the optimizer states offloaded to the host, recompute, micro batch; DP = 16/(TP·PP)):
        // the fewest knobs with which anything fits.
        EvaluateOptions eo;
        eo.record_timeline = false;
        eo.explain = Explain::NumbersOnly;
        int fewest = 99;
        double fastest = 0;
        for (int tp : {1, 2, 4, 8})
            for (int pp : {1, 2, 4, 8})
                for (int zero : {0, 1, 2, 3})
                    for (Recompute rc : {Recompute::None, Recompute::Selective, Recompute::Full})
                        for (long long mb : {1LL, 2LL})
                            for (Offload off : {Offload::None, Offload::Optimizer}) {
                                if (16 % (tp * pp) || (zero >= 2 && pp > 1) || (zero > 0 && tp * pp == 16))
                                    continue;
                                Scenario alt = sc;
                                alt.parallel.offload = off;
                                alt.parallel.tp = tp;
                                alt.parallel.pp = pp;
                                alt.parallel.dp = 16 / (tp * pp);
                                alt.parallel.sequence_parallel = tp > 1;
                                alt.parallel.zero = zero;
                                alt.training.recompute = rc;
                                alt.training.micro_batch = mb;
                                const Estimate e = evaluate(alt, eo);
                                bool fine = e.memory.fits && !e.hasErrors();
                                for (const Diagnostic& d : e.diagnostics)
                                    fine = fine && (d.code == "large_bubble" || d.code == "exposed_comm_high");
                                if (!fine)
                                    continue;
                                const int knobs = (tp != 1) + (pp != 1) + (zero != 0) + (rc != Recompute::None)
                                    + (mb != 2) + (off != Offload::None);
                                if (knobs < fewest || (knobs == fewest && e.time.step_s < fastest)) {
                                    fewest = knobs;
                                    fastest = e.time.step_s;
                                }
                            }
        // No one knob fits (see seventyBOnSixteen); two do since the optimizer states may go to
        // the host, the out-of-memory diagnostic's remedy (three without it).
        QCOMPARE(fewest, 2);
        QCOMPARE(oom.front().knobs, fewest);
        QVERIFY(oom.front().fits && oom.front().peak_bytes <= oom.front().capacity_bytes);
        // The nearest is also (close to) the fastest of those: the search backs off each knob
        // while it still fits.
        QVERIFY2(
            oom.front().step_s <= fastest * 1.05,
            qPrintable(
                QStringLiteral("advised %1 s, fastest three-knob change %2 s").arg(oom.front().step_s).arg(fastest)));
        for (const Advice& a : oom)
            QVERIFY(a.knobs >= oom.front().knobs);
    }

    // Llama-2 7B on one A100 (102.2 GiB, 75.3 of it Adam's states): "What breaks" said offloading
    // the optimizer states fits, and the evaluated fixes said nothing removes the problem — the
    // offload was no move of theirs. It is now, and the two agree: the fix is the remedy, its peak
    // the remedy's (102.2 − 75.3 = 26.9 GiB).
    void theDiagnosticsRemedyIsAFix()
    {
        const Scenario sc = sevenBOnOneGpu();
        const Estimate est = evaluate(sc);
        QVERIFY(est.has("out_of_memory"));
        const Diagnostic* d = nullptr;
        for (const Diagnostic& x : est.diagnostics)
            d = x.code == "out_of_memory" ? &x : d;
        QVERIFY(d
                && d->suggestion.en.find("offloading the optimizer states to CPU memory saves 75.3 GiB (fits)")
                    != std::string::npos);
        const AdviceList list = advise(sc, est);
        QVERIFY(!list.items.empty());
        const Advice& a = list.items.front();
        QCOMPARE(int(a.changes.size()), 1);
        QCOMPARE(a.changes.front().path, std::string("parallel.offload"));
        QCOMPARE(adviceValueJson(a.changes.front()).get<std::string>(), std::string("optimizer"));
        QVERIFY(a.fits && a.message.en.find("optimizer states offloaded to CPU memory") != std::string::npos);
        Scenario off = sc;
        off.parallel.offload = Offload::Optimizer;
        QCOMPARE(a.peak_bytes, evaluate(off).memory.peak_bytes);
        QVERIFY(std::abs(est.memory.peak_bytes - a.peak_bytes - 75.31 * (1ull << 30)) < 0.01 * (1ull << 30));
        QCOMPARE(applyAdvice(sc, a).parallel.offload, Offload::Optimizer);
    }

    // What adviceChangeFromJson refuses, with the setting's path: a path advice does not change,
    // a value of the wrong kind, a module no recompute has.
    void adviceChangesReadBackOrSayWhy()
    {
        std::string why;
        QVERIFY(!adviceChangeFromJson("training.seed", 1, why) && why.find("training.seed") != std::string::npos);
        QVERIFY(!adviceChangeFromJson("parallel.offload", "disk", why) && why.find("\"disk\"") != std::string::npos);
        QVERIFY(!adviceChangeFromJson("parallel.tp", "eight", why));
        QVERIFY(!adviceChangeFromJson("parallel.sequence_parallel", 1, why));
        QVERIFY(!adviceChangeFromJson("training.recompute_modules", nlohmann::json::array({"core_attn", "moes"}), why)
                && why.find("moes") != std::string::npos);
        const auto mods = adviceChangeFromJson("training.recompute_modules",
                                               nlohmann::json::array({"core_attn", "moe_act", "core_attn"}), why);
        QVERIFY(mods
                && mods->value == (long long)(unsigned(RecomputeModule::CoreAttn) | unsigned(RecomputeModule::MoeAct)));
        const auto params = adviceChangeFromJson("parallel.offload", "params", why);
        QVERIFY(params && params->value == 2); // none, optimizer, params
    }

    void microBatchOneIsNotToldToLowerIt()
    {
        // Lesson 4: Llama-2 7B, PP 16, micro batch 1, global batch 8 → 8 microbatches < 16 stages.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 16, 1);
        sc.parallel.zero = 0;
        sc.training.micro_batch = 1;
        sc.training.global_batch = 8;
        const Estimate est = evaluate(sc);
        QVERIFY(est.has("microbatches_lt_pp") && est.has("large_bubble"));
        for (const Diagnostic& d : est.diagnostics) {
            QVERIFY2(d.suggestion.en.find("micro batch") == std::string::npos, d.suggestion.en.c_str());
            QVERIFY2(d.suggestion.zh.find("微批大小") == std::string::npos, d.suggestion.zh.c_str());
            // 8 microbatches on PP 16: the interleaved schedule needs m to be a multiple of PP.
            QVERIFY2(d.suggestion.en.find("interleaved") == std::string::npos, d.suggestion.en.c_str());
        }
        const AdviceList list = advise(sc, est);
        QVERIFY(!list.items.empty());
        bool batch = false;
        for (const Advice& a : list.items) {
            QVERIFY2(a.message.en.find("micro batch") == std::string::npos, a.message.en.c_str());
            QVERIFY2(a.message.en.find("interleaved") == std::string::npos, a.message.en.c_str());
            // A larger global batch lengthens the step (it does more work) while it raises the
            // throughput: the fix leads with tokens/s, the step follows.
            for (const AdviceChange& c : a.changes)
                if (c.path == "training.global_batch") {
                    batch = true;
                    const std::size_t tokens = a.message.en.find("tokens/s"), step = a.message.en.find("step ");
                    QVERIFY2(tokens != std::string::npos && step != std::string::npos && tokens < step,
                             a.message.en.c_str());
                }
        }
        QVERIFY(batch);
        // With micro batch 4 (2 microbatches), lowering it is advice, and it says what it gives.
        sc.training.micro_batch = 4;
        sc.training.global_batch = 8;
        const Estimate est4 = evaluate(sc);
        bool lower = false;
        for (const Advice& a : advise(sc, est4).items)
            for (const AdviceChange& c : a.changes)
                lower = lower
                    || (c.path == "training.micro_batch" && c.value < 4
                        && a.message.en.find("bubble ") != std::string::npos);
        QVERIFY(lower);
    }

    // Issue 35 §5: Llama-3.1 8B on 16 H100 with TP 1 · PP 16 · ZeRO-1 and 16 sequences a step:
    // the bubble's first fix keeps the global batch and drops the pipeline (PP 1 × DP 16 fits
    // with the distributed optimizer), led by the step time; a fix that raises the batch comes
    // after every one that keeps it and says that it changes the training.
    void bubbleFixesKeepTheGlobalBatchFirst()
    {
        Scenario sc = presetScenario("llama3.1-8b", "dgx-h100", 1, 16, 1);
        sc.parallel.zero = 1;
        sc.training.seq_len = 8192;
        sc.training.global_batch = 16;
        const Estimate e = evaluate(sc);
        QVERIFY(e.has("large_bubble"));
        AdviceOptions o;
        o.per_problem = 4;
        const AdviceList list = advise(sc, e, o);
        std::vector<const Advice*> bubble;
        for (const Advice& a : list.items)
            if (a.code == "large_bubble")
                bubble.push_back(&a);
        QVERIFY(!bubble.empty());
        const Scenario first = applyAdvice(sc, *bubble.front());
        QCOMPARE(first.parallel.pp, 1);
        QCOMPARE(first.parallel.dp, 16);
        QCOMPARE(first.training.global_batch, 16LL);
        QVERIFY2(bubble.front()->message.en.find(": step ") != std::string::npos, bubble.front()->message.en.c_str());
        bool batch_seen = false;
        for (const Advice* a : bubble) {
            const bool batch = applyAdvice(sc, *a).training.global_batch != 16;
            QVERIFY2(!batch_seen || batch, a->message.en.c_str()); // nothing that keeps it after one that moves it
            batch_seen = batch_seen || batch;
            if (batch)
                QVERIFY(a->message.en.find("changes the training, not the layout") != std::string::npos);
        }
    }

    // Issue 35 §9: a layout that cannot run (interleaved chunks without a layer) is answered for its error
    // alone: no bubble or communication figures of a step that cannot run.
    void anInvalidLayoutGetsFixesForItsErrorOnly()
    {
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 2, 4, 2);
        sc.training.global_batch = 16;
        sc.parallel.schedule = ScheduleKind::Interleaved;
        sc.parallel.vpp = 16; // PP·VPP = 64 virtual stages for 32 layers
        const Estimate e = evaluate(sc);
        QVERIFY(codes(e, Severity::Error).count("vpp_not_divisible"));
        const AdviceList list = advise(sc, e);
        QVERIFY(!list.items.empty());
        for (const Advice& a : list.items) {
            QCOMPARE(QString::fromStdString(a.code), QStringLiteral("vpp_not_divisible"));
            const Estimate fixed = evaluate(applyAdvice(sc, a));
            QVERIFY2(codes(fixed, Severity::Error).empty(), a.message.en.c_str());
        }
    }

    void budgetAndCancel()
    {
        const Scenario sc = seventyBOnSixteen();
        const Estimate est = evaluate(sc);
        AdviceOptions small;
        small.max_evaluations = 5;
        QVERIFY(advise(sc, est, small).evaluations <= 5);
        AdviceOptions stop;
        stop.cancelled = [] { return true; };
        const AdviceList none = advise(sc, est, stop);
        QVERIFY(none.cancelled);
        QCOMPARE(none.evaluations, 0);
        QVERIFY(none.items.empty());
    }

    void jsonNamesEveryChange()
    {
        const Scenario sc = seventyBOnSixteen();
        const Estimate est = evaluate(sc);
        const AdviceList list = advise(sc, est);
        const nlohmann::json j = adviceToJson(list.items, "zh");
        QCOMPARE(j.size(), list.items.size());
        for (std::size_t i = 0; i < j.size(); ++i) {
            for (const char* k :
                 {"code", "changes", "knobs", "message", "message_en", "message_zh", "peak_bytes", "capacity_bytes",
                  "fits", "step_s", "tokens_per_s", "bubble_fraction", "exposed_comm_s"})
                QVERIFY2(j[i].contains(k), k);
            QCOMPARE(j[i]["message"].get<std::string>(), list.items[i].message.zh);
            QCOMPARE(j[i]["changes"].size(), list.items[i].changes.size());
            // Values as the scenario file spells them: enums by name, switches as booleans.
            if (j[i]["changes"].contains("training.recompute"))
                QVERIFY(j[i]["changes"]["training.recompute"].is_string());
            if (j[i]["changes"].contains("parallel.sequence_parallel"))
                QVERIFY(j[i]["changes"]["parallel.sequence_parallel"].is_boolean());
        }
    }
};

QTEST_GUILESS_MAIN(TstAdvice)
#include "tst_advice.moc"
