#pragma once
// "What breaks" as a table: one row per rule, in the order the diagnostics appear. A rule reads
// the scenario (and, for an outcome rule, its estimate) and appends what it finds, with the
// message and the fixes in English and Chinese. Adding a diagnostic is adding a row and an
// example file tests/data/diag-<id>.parascope.json; tst_diagnostic_rules runs every row on its
// example (it must fire) and on the default scenario (it must stay silent).

#include "estimate/estimate.h"
#include "types/scenario.h"
#include "types/term.h"

#include <span>
#include <vector>

namespace parascope {

// When a rule runs: before any number is computed (the configuration itself), or on the
// evaluated outcome (memory, bubble, communication, placement).
enum class RulePhase { OnScenario, OnEstimate };

// What a rule is about: whether the layout can run at all, or the wall it warns of.
enum class RuleWall { Layout, Memory, Communication, Efficiency };

struct RuleInput {
    const Scenario& sc;
    const Estimate* est = nullptr; // set for outcome rules only
    Explain explain = Explain::Full;
};

using RuleCheck = void (*)(const RuleInput&, std::vector<Diagnostic>& out);

struct DiagnosticRule {
    const char* id; // unique; its example scenario is tests/data/diag-<id>.parascope.json
    const char* code; // the Diagnostic::code it emits (stable: DESIGN.md); several rows may share one
    RulePhase phase;
    RuleWall wall;
    std::vector<const char*> knobs; // what its diagnostics highlight (Diagnostic::knob); "" = a stage
    RuleCheck check;
};

// Every rule, configuration rules first, each phase in emission order.
std::span<const DiagnosticRule> diagnosticRules();

// The rows of each part of the table, in order (estimate/rules_*.cpp).
namespace rules {
std::vector<DiagnosticRule> layout();
std::vector<DiagnosticRule> schedule();
std::vector<DiagnosticRule> features();
std::vector<DiagnosticRule> memory();
std::vector<DiagnosticRule> pipelineAndCommunication();
std::vector<DiagnosticRule> faultSettings(); // configuration: before the outcome rules
std::vector<DiagnosticRule> asyncPipeline(); // configuration: before the outcome rules
std::vector<DiagnosticRule> faults();
std::vector<DiagnosticRule> network();
} // namespace rules

} // namespace parascope
