// The diagnostic rule table (core/estimate/diagnostic_rules.h), one row at a time: every rule
// fires on its own example, tests/data/diag-<id>.parascope.json, and stays silent on the default
// scenario; what it emits carries the rule's code and a knob the row names. Run directly (not
// through evaluate()), so a rule that only fires because another one does is caught.

#include "estimate/diagnostic_rules.h"
#include "estimate/diagnostics.h"
#include "estimate/evaluate.h"
#include "io/scenario_json.h"
#include "scenario_fixture.h"

#include <QtTest>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>

using namespace parascope;

namespace {

// The one example that a file cannot hold: stage_layers that do not add up to the layers are
// refused by the reader, so the file has [20, 20, 20, 20] and the test makes it 78 of 80 layers.
void editExample(const std::string& id, Scenario& sc)
{
    if (id == "layers_not_divisible_by_pp-stage-layers")
        sc.parallel.stage_layers = {19, 20, 20, 19};
}

std::vector<Diagnostic> runRule(const DiagnosticRule& rule, const Scenario& sc)
{
    std::vector<Diagnostic> out;
    if (rule.phase == RulePhase::OnScenario) {
        rule.check(RuleInput{sc}, out);
    } else {
        const Estimate est = evaluate(sc);
        rule.check(RuleInput{sc, &est, Explain::Full}, out);
    }
    return out;
}

Scenario defaultScenario()
{
    std::vector<InputError> errors;
    const auto sc = readScenarioFile(PARASCOPE_SOURCE_DIR "/resources/scenarios/default.parascope.json", errors);
    if (!sc)
        qFatal("default scenario: %s", errors.empty() ? "?" : errors.front().text().c_str());
    return *sc;
}

} // namespace

class TstDiagnosticRules : public QObject {
    Q_OBJECT

private slots:
    void rowsAreWellFormed();
    void firesOnItsExample_data();
    void firesOnItsExample();
    void silentOnTheDefaultScenario();
    void evaluateRunsTheTableInOrder();
};

void TstDiagnosticRules::rowsAreWellFormed()
{
    std::set<std::string> ids;
    bool outcome_seen = false;
    QVERIFY(diagnosticRules().size() >= 28);
    for (const DiagnosticRule& r : diagnosticRules()) {
        QVERIFY2(ids.insert(r.id).second, (std::string("two rows with id ") + r.id).c_str());
        // The id is the code, or the code and a variant: the example file sorts beside its code.
        QVERIFY2(std::string(r.id).rfind(r.code, 0) == 0, r.id);
        QVERIFY2(r.check && !r.knobs.empty(), r.id);
        // Configuration rules come first: they run before any number is computed.
        outcome_seen = outcome_seen || r.phase == RulePhase::OnEstimate;
        QVERIFY2(!outcome_seen || r.phase == RulePhase::OnEstimate, r.id);
        const std::string file = std::string(PARASCOPE_TEST_DATA) + "/diag-" + r.id + ".parascope.json";
        QVERIFY2(std::ifstream(file).good(), ("no example for rule " + std::string(r.id) + ": " + file).c_str());
    }
}

void TstDiagnosticRules::firesOnItsExample_data()
{
    QTest::addColumn<int>("index");
    for (std::size_t i = 0; i < diagnosticRules().size(); ++i)
        QTest::newRow(diagnosticRules()[i].id) << int(i);
}

void TstDiagnosticRules::firesOnItsExample()
{
    QFETCH(int, index);
    const DiagnosticRule& rule = diagnosticRules()[std::size_t(index)];
    Scenario sc = test::scenarioFromFile(std::string("diag-") + rule.id + ".parascope.json");
    if (QTest::currentTestFailed())
        return;
    editExample(rule.id, sc);
    const std::vector<Diagnostic> found = runRule(rule, sc);
    QVERIFY2(!found.empty(), (std::string(rule.id) + " is silent on its example").c_str());
    for (const Diagnostic& d : found) {
        QCOMPARE(QString::fromStdString(d.code), QString::fromUtf8(rule.code));
        const bool named
            = std::any_of(rule.knobs.begin(), rule.knobs.end(), [&](const char* k) { return d.knob == k; });
        QVERIFY2(named, (std::string(rule.id) + " highlights \"" + d.knob + "\", which its row does not name").c_str());
        QVERIFY(!d.message.en.empty() && !d.message.zh.empty());
        QVERIFY(!d.suggestion.en.empty() && !d.suggestion.zh.empty());
    }
}

void TstDiagnosticRules::silentOnTheDefaultScenario()
{
    const Scenario sc = defaultScenario();
    const Estimate est = evaluate(sc);
    for (const DiagnosticRule& r : diagnosticRules()) {
        std::vector<Diagnostic> found;
        r.check(RuleInput{sc, &est, Explain::Full}, found);
        const std::string what = found.empty() ? std::string() : found.front().message.en;
        QVERIFY2(found.empty(), (std::string(r.id) + " fires on the default scenario: " + what).c_str());
    }
}

// evaluate() reports exactly what the rows emit, in the table's order (the GUI's list and the
// CLI's report keep it).
void TstDiagnosticRules::evaluateRunsTheTableInOrder()
{
    for (const char* file :
         {"diag-heads_not_divisible_by_tp.parascope.json", "diag-microbatches_lt_pp.parascope.json",
          "diag-out_of_memory-activations.parascope.json", "diag-exposed_comm_high.parascope.json"}) {
        const Scenario sc = test::scenarioFromFile(file);
        const Estimate est = evaluate(sc);
        std::vector<std::string> expected;
        for (const DiagnosticRule& r : diagnosticRules()) {
            std::vector<Diagnostic> found;
            r.check(RuleInput{sc, &est, Explain::Full}, found);
            for (const Diagnostic& d : found)
                expected.push_back(d.code + "|" + d.message.en);
        }
        std::vector<std::string> got;
        for (const Diagnostic& d : est.diagnostics)
            got.push_back(d.code + "|" + d.message.en);
        QVERIFY2(got == expected, file);
    }
}

QTEST_GUILESS_MAIN(TstDiagnosticRules)
#include "tst_diagnostic_rules.moc"
