// "What breaks": every diagnostic code that core/estimate/diagnostics*.cpp can emit has a scenario
// file tests/data/diag-<code>[-variant].parascope.json that triggers it. For each file: the code is
// there with the right severity (and stage, for out_of_memory), its message and suggestion exist in
// English and Chinese, and the invalid scenario still gets every number. A clean scenario has no
// errors. The comments in cases() (tests/support/diagnostic_cases.h) say why each file triggers
// its code, with the arithmetic. How the messages read (byte units, the bubble's two labelled
// numbers, suggestions that apply, English plurals) is tst_diagnostics_text.

#include "estimate/diagnostics.h"
#include "types/knobs.h"
#include "diagnostic_cases.h"
#include "scenario_fixture.h"
#include "string_contains.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace parascope;
using parascope::test::Case;
using parascope::test::cases;
using parascope::test::contains;

namespace {

// The codes DESIGN.md says must exist.
const char* const kRequiredCodes[] = {
    "gpu_count_mismatch",
    "heads_not_divisible_by_tp",
    "kv_heads_not_divisible_by_tp",
    "pp_exceeds_layers",
    "layers_not_divisible_by_pp",
    "vpp_not_divisible",
    "batch_not_divisible",
    "microbatches_lt_pp",
    "interleaved_needs_microbatch_multiple",
    "large_bubble",
    "out_of_memory",
    "tp_spans_nodes",
    "exposed_comm_high",
    "ep_invalid",
    "sp_requires_tp",
    "cp_not_divisible",
};

bool isCjk(uint c)
{
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0xF900 && c <= 0xFAFF);
}

bool hasCjk(const std::string& s)
{
    const auto ucs4 = QString::fromStdString(s).toUcs4();
    return std::any_of(ucs4.begin(), ucs4.end(), isCjk);
}

std::string describe(const Estimate& est)
{
    std::string out;
    for (const Diagnostic& d : est.diagnostics)
        out += std::string("\n  ") + toString(d.severity) + " " + d.code + " (stage " + std::to_string(d.stage)
            + "): " + d.message.en;
    return out.empty() ? std::string("\n  (no diagnostics)") : out;
}

const Diagnostic* find(const Estimate& est, const std::string& code, int stage)
{
    for (const Diagnostic& d : est.diagnostics)
        if (d.code == code && d.stage == stage)
            return &d;
    return nullptr;
}

bool finitePositive(double v) { return std::isfinite(v) && v > 0; }

// Every (code, severity) pair that the rules (core/estimate/rules_*.cpp) can emit, read from their
// source, so that a new severity of a rule without a scenario file fails here.
std::set<std::pair<std::string, std::string>> emittedBySource()
{
    std::stringstream ss;
    for (const char* file : {PARASCOPE_SOURCE_DIR "/core/estimate/rules_layout.cpp",
                             PARASCOPE_SOURCE_DIR "/core/estimate/rules_schedule.cpp",
                             PARASCOPE_SOURCE_DIR "/core/estimate/rules_features.cpp",
                             PARASCOPE_SOURCE_DIR "/core/estimate/rules_memory.cpp",
                             PARASCOPE_SOURCE_DIR "/core/estimate/rules_pipeline_comm.cpp"}) {
        std::ifstream in(file);
        ss << in.rdbuf();
    }
    const std::string src = ss.str();
    std::set<std::pair<std::string, std::string>> out;
    static const std::regex re(R"(make\(\s*Severity::(\w+)\s*,\s*\"(\w+)\")");
    for (auto it = std::sregex_iterator(src.begin(), src.end(), re); it != std::sregex_iterator(); ++it) {
        std::string sev = (*it)[1].str();
        std::transform(sev.begin(), sev.end(), sev.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        out.insert({(*it)[2].str(), sev});
    }
    return out;
}

} // namespace

class TstDiagnostics : public QObject {
    Q_OBJECT

private slots:
    void everyCodeHasAScenario();
    void triggers_data();
    void triggers();
    void outOfMemoryDetails_data();
    void outOfMemoryDetails();
    void cleanScenarioHasNoErrors();
};

void TstDiagnostics::everyCodeHasAScenario()
{
    const auto emitted = emittedBySource();
    // The regex must see the rules at all (guards against a silent match failure).
    QVERIFY2(emitted.size() >= 18,
             ("only " + std::to_string(emitted.size()) + " rules found in core/estimate/rules_*.cpp").c_str());

    std::set<std::pair<std::string, std::string>> covered;
    for (const Case& c : cases())
        covered.insert({c.code, c.severity});
    for (const auto& [code, sev] : emitted) {
        QVERIFY2(covered.count({code, sev}),
                 ("diagnostics.cpp emits " + code + " as " + sev + " but no scenario file covers it").c_str());
        const std::string main = std::string(PARASCOPE_TEST_DATA) + "/diag-" + code + ".parascope.json";
        QVERIFY2(std::ifstream(main).good(), ("missing " + main).c_str());
    }
    for (const char* code : kRequiredCodes) {
        const bool in_source
            = std::any_of(emitted.begin(), emitted.end(), [&](const auto& p) { return p.first == code; });
        QVERIFY2(in_source,
                 (std::string("DESIGN.md requires diagnostic ") + code + ", diagnostics.cpp never emits it").c_str());
    }
}

void TstDiagnostics::triggers_data()
{
    QTest::addColumn<int>("index");
    for (std::size_t i = 0; i < cases().size(); ++i)
        QTest::newRow(cases()[i].file) << int(i);
}

void TstDiagnostics::triggers()
{
    QFETCH(int, index);
    const Case& c = cases()[std::size_t(index)];
    Scenario sc = test::scenarioFromFile(c.file);
    if (QTest::currentTestFailed())
        return;
    if (c.edit)
        c.edit(sc);
    const Estimate est = evaluate(sc);
    const std::string all = describe(est);

    // The code, with the expected severity and stage.
    QVERIFY2(est.has(c.code), (std::string(c.file) + " does not raise " + c.code + ":" + all).c_str());
    const Diagnostic* d = find(est, c.code, c.stage);
    QVERIFY2(d, (std::string(c.code) + " not raised for stage " + std::to_string(c.stage) + ":" + all).c_str());
    QCOMPARE(QString::fromUtf8(toString(d->severity)), QString::fromUtf8(c.severity));

    // Every diagnostic names a knob the app can highlight (one with a slider, the SP check box,
    // the offload or precision choice: ScenarioPanel::highlightKnob) or none: before, some named
    // parallel.stage_layers, parallel.etp or parallel.edp.
    for (const Diagnostic& x : est.diagnostics)
        QVERIFY2(x.knob.empty() || findKnob(x.knob) || x.knob == "parallel.sequence_parallel"
                     || x.knob == "parallel.offload" || x.knob == "training.precision",
                 (x.code + " names " + x.knob).c_str());

    // Both languages, message and suggestion; zh is Chinese, en is not.
    QVERIFY2(!d->message.en.empty() && !d->suggestion.en.empty(), c.code);
    QVERIFY2(!d->message.zh.empty() && !d->suggestion.zh.empty(), c.code);
    QVERIFY2(hasCjk(d->message.zh), ("zh message has no Chinese: " + d->message.zh).c_str());
    QVERIFY2(hasCjk(d->suggestion.zh), ("zh suggestion has no Chinese: " + d->suggestion.zh).c_str());
    QVERIFY2(!hasCjk(d->message.en), ("en message has Chinese: " + d->message.en).c_str());
    QVERIFY2(!hasCjk(d->suggestion.en), ("en suggestion has Chinese: " + d->suggestion.en).c_str());
    QVERIFY(d->message.in("zh_CN") == d->message.zh);
    QVERIFY(d->message.in("en") == d->message.en);

    // The knob to highlight names a scenario path (out_of_memory and memory_borderline concern
    // no single knob).
    if (std::string(c.code) != "out_of_memory" && std::string(c.code) != "memory_borderline")
        QVERIFY2(d->knob.rfind("parallel.", 0) == 0 || d->knob.rfind("training.", 0) == 0
                     || d->knob.rfind("faults.", 0) == 0 || d->knob.rfind("network.", 0) == 0,
                 ("knob \"" + d->knob + "\" is not a scenario path").c_str());

    // Exactly the intended errors: the file is a focused example of its rule.
    std::set<std::string> errors, expected(c.other_errors.begin(), c.other_errors.end());
    if (std::string(c.severity) == "error")
        expected.insert(c.code);
    for (const Diagnostic& x : est.diagnostics)
        if (x.severity == Severity::Error)
            errors.insert(x.code);
    QVERIFY2(errors == expected, ("unexpected set of errors:" + all).c_str());

    // An invalid configuration still gets every number.
    QVERIFY(est.params.total > 0);
    QVERIFY(est.params.active > 0 && est.params.active <= est.params.total);
    QCOMPARE(est.gpus, sc.parallel.gpus());
    QVERIFY(est.microbatches >= 1);
    QCOMPARE(est.memory.stages.size(), std::size_t(sc.parallel.pp));
    QVERIFY(finitePositive(est.memory.capacity_bytes));
    double peak = 0;
    int peak_stage = 0;
    for (std::size_t s = 0; s < est.memory.stages.size(); ++s) {
        const StageMemory& st = est.memory.stages[s];
        QCOMPARE(st.stage, int(s));
        QVERIFY2(finitePositive(st.total()), ("stage " + std::to_string(s) + " has no memory").c_str());
        for (double v : {st.weights, st.gradients, st.optimizer, st.activations, st.other})
            QVERIFY(std::isfinite(v) && v >= 0);
        if (st.total() > peak) {
            peak = st.total();
            peak_stage = int(s);
        }
    }
    QCOMPARE(est.memory.peak_bytes, peak);
    QCOMPARE(est.memory.peak_stage, peak_stage);
    QCOMPARE(est.memory.verdict, memoryVerdict(peak, est.memory.capacity_bytes));
    QCOMPARE(est.memory.fits, est.memory.verdict != MemoryVerdict::OutOfMemory);
    QCOMPARE(est.has("out_of_memory"), !est.memory.fits);
    QVERIFY(finitePositive(est.flops.model_flops_per_step));
    QVERIFY(finitePositive(est.time.step_s));
    QVERIFY(finitePositive(est.time.compute_s));
    QVERIFY(est.time.bubble_fraction >= 0 && est.time.bubble_fraction < 1);
    QVERIFY(finitePositive(est.throughput.tokens_per_s));
    QVERIFY(est.throughput.mfu > 0 && est.throughput.mfu < 1);
}

void TstDiagnostics::outOfMemoryDetails_data()
{
    QTest::addColumn<QString>("file");
    for (const Case& c : cases())
        if (std::string(c.code) == "out_of_memory")
            QTest::newRow(c.file) << QString::fromUtf8(c.file);
}

void TstDiagnostics::outOfMemoryDetails()
{
    QFETCH(QString, file);
    const Scenario sc = test::scenarioFromFile(file.toStdString());
    if (QTest::currentTestFailed())
        return;
    const Estimate est = evaluate(sc);
    const double cap = est.memory.capacity_bytes;
    QVERIFY(cap > 0);

    // One out_of_memory per stage that overflows, and none for a stage that fits.
    int overflowing = 0;
    for (const StageMemory& st : est.memory.stages) {
        const Diagnostic* d = find(est, "out_of_memory", st.stage);
        const double over = st.total() - cap;
        if (over <= 0) {
            QVERIFY2(!d, ("stage " + std::to_string(st.stage) + " fits but is reported").c_str());
            continue;
        }
        ++overflowing;
        QVERIFY2(d, ("stage " + std::to_string(st.stage) + " overflows but is not reported" + describe(est)).c_str());

        // The message says how much: total, the excess (total − capacity) and the capacity, as formatBytes prints them.
        const std::string& en = d->message.en;
        const std::string& zh = d->message.zh;
        QVERIFY2(contains(en, "Stage " + std::to_string(st.stage) + " "), en.c_str());
        QVERIFY2(contains(en, formatBytes(st.total()) + " per GPU"), en.c_str());
        QVERIFY2(contains(en, formatBytes(over) + " more than"), (en + " ≠ excess " + formatBytes(over)).c_str());
        QVERIFY2(contains(en, formatBytes(cap)), en.c_str());
        QVERIFY2(contains(en, sc.cluster.gpu.name), en.c_str());
        QVERIFY2(contains(zh, formatBytes(over)), zh.c_str());
        QVERIFY2(contains(zh, formatBytes(st.total())), zh.c_str());

        // It names the part that dominates, with its size.
        const std::pair<const char*, double> parts[] = {{"weights", st.weights},
                                                        {"gradients", st.gradients},
                                                        {"optimizer states", st.optimizer},
                                                        {"activations", st.activations},
                                                        {"other", st.other}};
        const auto top = std::max_element(std::begin(parts), std::end(parts),
                                          [](const auto& a, const auto& b) { return a.second < b.second; });
        QVERIFY2(contains(en, std::string(top->first) + " dominate (" + formatBytes(top->second) + ")"), en.c_str());

        // The suggestion is a remedy with its saving, in both languages.
        const std::string& sug = d->suggestion.en;
        QVERIFY2(contains(sug, " saves "), sug.c_str());
        QVERIFY2(contains(d->suggestion.zh, "可省"), d->suggestion.zh.c_str());

        // Each knob-level remedy's saving equals what evaluating the changed scenario gives for this
        // stage, and "(fits)" appears exactly when that saving covers the excess.
        struct Remedy {
            const char* label;
            Scenario alt;
            bool applies;
        };
        std::vector<Remedy> remedies;
        {
            Scenario alt = sc;
            alt.parallel.zero = 1;
            remedies.push_back(
                {"ZeRO-1 (distributed optimizer)", alt, sc.parallel.zero == 0 && sc.parallel.dp * sc.parallel.cp > 1});
        }
        {
            Scenario alt = sc;
            alt.training.recompute = Recompute::Full;
            remedies.push_back({"full recompute", alt, sc.training.recompute != Recompute::Full});
        }
        int checked = 0;
        for (const Remedy& r : remedies) {
            if (!r.applies)
                continue;
            const Estimate alt = evaluate(r.alt);
            const double saved = st.total() - alt.memory.stages[std::size_t(st.stage)].total();
            if (saved <= 0)
                continue;
            const std::string expect
                = std::string(r.label) + " saves " + formatBytes(saved) + (saved >= over ? " (fits)" : "");
            QVERIFY2(contains(sug, expect + ";") || contains(sug, expect + "."),
                     ("suggestion \"" + sug + "\" lacks \"" + expect + "\"").c_str());
            ++checked;
        }
        QVERIFY2(checked > 0, "no remedy could be checked for this stage");
    }
    QVERIFY(overflowing > 0);
    const Case* c = nullptr;
    for (const Case& x : cases())
        if (file.toStdString() == x.file)
            c = &x;
    QVERIFY(c);
    QVERIFY(est.memory.stages[std::size_t(c->stage)].total() > cap);
    QCOMPARE(est.memory.fits, false);
}

void TstDiagnostics::cleanScenarioHasNoErrors()
{
    std::vector<InputError> errors;
    const auto sc = readScenarioFile(PARASCOPE_SOURCE_DIR "/resources/scenarios/default.parascope.json", errors);
    QVERIFY2(sc, errors.empty() ? "no scenario" : errors.front().text().c_str());
    const Estimate est = evaluate(*sc);
    QVERIFY2(!est.hasErrors(), ("default scenario has errors:" + describe(est)).c_str());
    for (const Diagnostic& d : est.diagnostics)
        QVERIFY2(d.severity != Severity::Error, d.code.c_str());
    QVERIFY(est.memory.fits);
    QVERIFY(!est.has("out_of_memory"));
    // Every warning still comes in both languages.
    for (const Diagnostic& d : est.diagnostics)
        QVERIFY2(hasCjk(d.message.zh) && !d.message.en.empty(), d.code.c_str());
}

QTEST_GUILESS_MAIN(TstDiagnostics)
#include "tst_diagnostics.moc"
