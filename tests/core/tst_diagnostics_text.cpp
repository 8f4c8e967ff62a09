// How the diagnostics read (from tst_diagnostics): byte sizes switch units at 1 GiB and 1 TiB; the
// pipeline bubble is one diagnostic with the simulated share and the formula side by side, each
// labelled, one decimal everywhere (lesson 4: Llama-2 7B on PP 16); suggestions name only
// remedies that apply to the scenario; and English plurals are right ("1 microbatch", never
// "1 microbatches" or "node(s)") in every diagnostic of every file in
// tests/support/diagnostic_cases.h.

#include "estimate/diagnostics.h"
#include "schedule/pipeline_closed_form.h"
#include "diagnostic_cases.h"
#include "scenario_fixture.h"
#include "string_contains.h"

#include <QtTest>

#include <regex>
#include <string>
#include <vector>

using namespace parascope;
using parascope::test::Case;
using parascope::test::cases;
using parascope::test::contains;

class TstDiagnosticsText : public QObject {
    Q_OBJECT

private slots:
    void formatBytesUnits();
    void bubbleHasOneLabelledPairOfNumbers_data();
    void bubbleHasOneLabelledPairOfNumbers();
    void suggestionsNameOnlyWhatApplies();
    void englishPlurals();
};

namespace {

// Lesson 4: Llama-2 7B (32 layers) on PP 16, one GPU per stage, micro batch 1.
Scenario lessonFour(long long global_batch, long long micro_batch = 1)
{
    Scenario sc = test::presetScenario("llama2-7b", "dgx-a100-80g", 1, 16, 1);
    sc.parallel.zero = 0;
    sc.training.micro_batch = micro_batch;
    sc.training.global_batch = global_batch;
    return sc;
}

// Every number followed by "%" (or " %") in the text.
std::vector<std::string> percentages(const std::string& text)
{
    static const std::regex re(R"(([0-9][0-9.]*) ?%)");
    std::vector<std::string> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
        out.push_back((*it)[1].str());
    return out;
}

} // namespace

void TstDiagnosticsText::formatBytesUnits()
{
    // The unit switches at 1 GiB and 1 TiB (binary units, as the capacity line shows them).
    QCOMPARE(QString::fromStdString(formatBytes(512.0 * (1 << 20))), QStringLiteral("512 MiB"));
    QCOMPARE(QString::fromStdString(formatBytes(80 * test::GiB)), QStringLiteral("80.0 GiB"));
    QCOMPARE(QString::fromStdString(formatBytes(1.5 * 1024 * test::GiB)), QStringLiteral("1.50 TiB"));
}

void TstDiagnosticsText::bubbleHasOneLabelledPairOfNumbers_data()
{
    // The textbook 1F1B bubble (p−1)/(m+p−1) with p = 16 (Narayanan et al. 2021 §2.2):
    //   m = 8:  15/23 = 0.6522 → 65.2 %;  m = 1: 15/16 = 0.9375 → 93.8 %;  m = 64: 15/79 = 0.1899 → 19.0 %.
    QTest::addColumn<long long>("global_batch");
    QTest::addColumn<QString>("substituted");
    QTest::addColumn<QString>("formula");
    QTest::newRow("m = 8 (lesson 4)") << 8LL << QStringLiteral("(16−1)/(8+16−1)") << QStringLiteral("65.2 %");
    QTest::newRow("m = 1") << 1LL << QStringLiteral("(16−1)/(1+16−1)") << QStringLiteral("93.8 %");
    QTest::newRow("m = 64") << 64LL << QStringLiteral("(16−1)/(64+16−1)") << QStringLiteral("19.0 %");
}

void TstDiagnosticsText::bubbleHasOneLabelledPairOfNumbers()
{
    // One bubble diagnostic, with the simulated share and the formula side by side, each
    // labelled; no other diagnostic gives a bubble number of its own (before: "65 %" in
    // microbatches_lt_pp and "66 %" in large_bubble, the chart 65.7 %). One decimal everywhere.
    QFETCH(long long, global_batch);
    QFETCH(QString, substituted);
    QFETCH(QString, formula);
    const Scenario sc = lessonFour(global_batch);
    const Estimate est = evaluate(sc);
    QVERIFY(est.time.method.rfind("simulated", 0) == 0);
    QCOMPARE(QString::fromStdString(formatPercent(bubbleFraction(ScheduleKind::OneFOneB, 16, 1, global_batch))),
             formula);
    int bubbles = 0;
    for (const Diagnostic& d : est.diagnostics) {
        if (d.code == "large_bubble") {
            ++bubbles;
            const std::string simulated = "simulated " + formatPercent(est.time.bubble_fraction);
            const std::string textbook
                = "formula (p−1)/(m+p−1) = " + substituted.toStdString() + " = " + formula.toStdString();
            QVERIFY2(contains(d.message.en, simulated), d.message.en.c_str());
            QVERIFY2(contains(d.message.en, textbook), d.message.en.c_str());
            QVERIFY2(contains(d.message.zh, "模拟得单步耗时的 " + formatPercent(est.time.bubble_fraction)),
                     d.message.zh.c_str());
            QVERIFY2(contains(d.message.zh,
                              "公式 (p−1)/(m+p−1) = " + substituted.toStdString() + " = " + formula.toStdString()),
                     d.message.zh.c_str());
            // Two different numbers for one thing are explained.
            if (formatPercent(est.time.bubble_fraction) != formula.toStdString())
                QVERIFY2(contains(d.message.en, "The formula counts compute only"), d.message.en.c_str());
        } else {
            QVERIFY2(!contains(d.message.en, "bubble") && !contains(d.message.zh, "气泡"), d.message.en.c_str());
        }
        for (const std::string* text : {&d.message.en, &d.message.zh, &d.suggestion.en, &d.suggestion.zh})
            for (const std::string& pct : percentages(*text)) {
                const std::size_t dot = pct.find('.');
                QVERIFY2(dot != std::string::npos && pct.size() - dot - 1 == 1, (pct + " % in: " + *text).c_str());
            }
    }
    // m = 64 = 4·PP: the bubble, the heaviest stage's idle (one definition for every schedule),
    // is below the warning's 25 %; the uneven stages (the output layer's) are the efficiency
    // wall's own part, not the bubble's.
    QCOMPARE(bubbles, est.time.bubble_fraction > 0.25 || global_batch < 16 ? 1 : 0);
    QCOMPARE(bubbles, global_batch == 64 ? 0 : 1);
    // m < PP: the cause is its own warning, without a number.
    QCOMPARE(est.has("microbatches_lt_pp"), global_batch < 16);
}

void TstDiagnosticsText::suggestionsNameOnlyWhatApplies()
{
    const auto diag = [](const Estimate& e, const char* code) -> const Diagnostic* {
        for (const Diagnostic& d : e.diagnostics)
            if (d.code == code)
                return &d;
        return nullptr;
    };
    // Lesson 4, m = 8 on PP 16, micro batch 1: nothing about the micro batch (it is 1), nothing
    // about the interleaved schedule (m = 8 is not a multiple of PP = 16); global batch 64 gives
    // m = 4·PP.
    {
        const Estimate est = evaluate(lessonFour(8));
        for (const char* code : {"microbatches_lt_pp", "large_bubble"}) {
            const Diagnostic* d = diag(est, code);
            QVERIFY2(d, code);
            QVERIFY2(!contains(d->suggestion.en, "micro batch") && !contains(d->suggestion.zh, "微批大小"),
                     d->suggestion.en.c_str());
            QVERIFY2(!contains(d->suggestion.en, "interleaved") && !contains(d->suggestion.zh, "交错式"),
                     d->suggestion.en.c_str());
            QVERIFY2(contains(d->suggestion.en, "global batch") && contains(d->suggestion.en, "64"),
                     d->suggestion.en.c_str());
        }
    }
    // m = 32 = 2·PP: "more microbatches" (global batch 64 gives 4·PP); 32 layers / (16·2) and
    // 32 % 16 = 0, so VPP = 2 applies too.
    {
        const Estimate est = evaluate(lessonFour(32));
        const Diagnostic* d = diag(est, "large_bubble");
        QVERIFY(d);
        QVERIFY2(contains(d->suggestion.en, "more microbatches") && contains(d->suggestion.en, "64"),
                 d->suggestion.en.c_str());
        QVERIFY2(contains(d->suggestion.en, "interleaved schedule (VPP = 2)"), d->suggestion.en.c_str());
    }
    // Micro batch 2, global batch 8: m = 4; micro batch 1 would give m = 8.
    {
        const Estimate est = evaluate(lessonFour(8, 2));
        const Diagnostic* d = diag(est, "microbatches_lt_pp");
        QVERIFY(d);
        QVERIFY2(contains(d->suggestion.en, "micro batch 1 gives m = 8"), d->suggestion.en.c_str());
    }
    // Exposed communication with TP 8 inside one node (lesson 3c): no "keep TP inside a node";
    // with TP 16 across two nodes: yes.
    {
        Scenario sc = test::presetScenario("llama2-7b", "dgx-a100-80g", 8, 1, 1);
        sc.parallel.sequence_parallel = true;
        sc.training.global_batch = 64;
        const Estimate est = evaluate(sc);
        const Diagnostic* d = diag(est, "exposed_comm_high");
        QVERIFY(d);
        QVERIFY(!est.has("tp_spans_nodes"));
        QVERIFY2(!contains(d->suggestion.en, "inside a node") && !contains(d->suggestion.zh, "节点内"),
                 d->suggestion.en.c_str());
        QVERIFY2(contains(d->suggestion.en, "tp_comm_overlap"), d->suggestion.en.c_str());
        const Estimate across = evaluate(test::scenarioFromFile("diag-tp_spans_nodes.parascope.json"));
        const Diagnostic* x = diag(across, "exposed_comm_high");
        QVERIFY(x);
        QVERIFY2(contains(x->suggestion.en, "keep TP inside a node"), x->suggestion.en.c_str());
    }
    // overlap_grad_reduce is suggested only while it is off.
    {
        Scenario sc = test::scenarioFromFile("diag-exposed_comm_high.parascope.json");
        const Estimate off = evaluate(sc); // the diagnostic points into it: keep it alive
        const Diagnostic* d = diag(off, "exposed_comm_high");
        QVERIFY(d && contains(d->suggestion.en, "overlap_grad_reduce"));
        sc.parallel.overlap_grad_reduce = true;
        const Estimate on = evaluate(sc);
        if (const Diagnostic* e = diag(on, "exposed_comm_high"))
            QVERIFY2(!contains(e->suggestion.en, "overlap_grad_reduce"), e->suggestion.en.c_str());
    }
}

void TstDiagnosticsText::englishPlurals()
{
    // "1 microbatch", "2 nodes": never "1 microbatches", "1 nodes" or "node(s)".
    static const std::regex wrong(R"(\b1 (microbatches|nodes|layers|stages|GPUs|heads|experts|KV heads)\b|\(s\))");
    std::vector<Scenario> scenarios{lessonFour(1), lessonFour(8)};
    for (const Case& c : cases()) {
        scenarios.push_back(test::scenarioFromFile(c.file));
        if (c.edit)
            c.edit(scenarios.back());
    }
    for (const Scenario& sc : scenarios)
        for (const Diagnostic& d : evaluate(sc).diagnostics)
            for (const std::string* text : {&d.message.en, &d.suggestion.en})
                QVERIFY2(!std::regex_search(*text, wrong), text->c_str());
    const Estimate one = evaluate(lessonFour(1));
    bool said = false;
    for (const Diagnostic& d : one.diagnostics)
        said = said || contains(d.message.en, "Only 1 microbatch for 16 pipeline stages");
    QVERIFY(said);
}

QTEST_GUILESS_MAIN(TstDiagnosticsText)
#include "tst_diagnostics_text.moc"
