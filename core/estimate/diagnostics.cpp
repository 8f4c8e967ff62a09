// "What breaks": the rule table (estimate/diagnostic_rules.h) run in order. The rules themselves
// are in estimate/rules_*.cpp, one function each.

#include "estimate/diagnostics.h"

#include "estimate/diagnostic_rules.h"

namespace parascope {

std::span<const DiagnosticRule> diagnosticRules()
{
    static const std::vector<DiagnosticRule> table = [] {
        std::vector<DiagnosticRule> all;
        for (auto part : {rules::layout, rules::schedule, rules::features, rules::faultSettings, rules::asyncPipeline,
                          rules::memory, rules::pipelineAndCommunication, rules::faults, rules::network})
            for (DiagnosticRule& r : part())
                all.push_back(std::move(r));
        return all;
    }();
    return table;
}

namespace {

std::vector<Diagnostic> run(RulePhase phase, const RuleInput& in)
{
    std::vector<Diagnostic> out;
    for (const DiagnosticRule& r : diagnosticRules())
        if (r.phase == phase)
            r.check(in, out);
    return out;
}

} // namespace

std::vector<Diagnostic> configurationDiagnostics(const Scenario& sc)
{
    return run(RulePhase::OnScenario, RuleInput{sc});
}

std::vector<Diagnostic> outcomeDiagnostics(const Scenario& sc, const Estimate& est, Explain explain)
{
    return run(RulePhase::OnEstimate, RuleInput{sc, &est, explain});
}

} // namespace parascope
