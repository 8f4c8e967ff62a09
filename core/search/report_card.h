#pragma once
// The layout report card: the current layout graded wall by wall beside the course's decision
// procedure's layout and the strategy search's best on the same GPUs (search/decision.h), with
// one sentence per difference saying what causes it ("PP 8 adds a 11.7 % bubble; the procedure's
// PP 1 has none: it needed no PP because ZeRO-1 fits"). It is the chapter's analysis-level check:
// a student types a layout and reads how it compares, and why.
//
// The marks per layout (lower is better except headroom):
//   memory headroom     1 − peak / capacity (negative: out of memory)
//   exposed comm        exposed communication / step (the communication wall)
//   bubble + imbalance  the efficiency wall's bubble and uneven-stage losses
//   stability           1 − goodput (the same GPU count: the same for all three but for checkpoints)
// and the step time and tokens/s the walls add up to.

#include "estimate/estimate.h"
#include "io/error_bands.h"
#include "search/decision.h"
#include "types/diagnostic.h"
#include "types/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace parascope {

struct LayoutMarks {
    std::string layout; // "TP 8 · PP 8 · DP 8 · ZeRO-1"
    bool fits = false;
    double memory_headroom = 0, exposed_comm = 0, bubble_imbalance = 0, stability = 0;
    double step_s = 0, tokens_per_s = 0;
    double time_goodput = 1; // the wall-clock share checkpoints and restarts leave (tokens/s has the straggler)
    ErrorBand step_band; // how sure the step is: its class's band (io/error_bands.h)
};

struct ReportCard {
    LayoutMarks yours, procedure;
    std::optional<LayoutMarks> search; // when the search found a layout
    // Yours against the procedure's, then against the search's: one sentence per wall where they
    // differ, naming the knobs that cause it, then which is faster.
    std::vector<Localized> differences;
};

LayoutMarks marksOf(const Scenario& sc, const Estimate& est);

// The layouts a card compares with, marked once per decision (the search's best is evaluated
// here), so that grading the layout on screen after a slider move evaluates nothing.
struct CardReferences {
    Scenario procedure;
    LayoutMarks procedure_marks;
    std::optional<Scenario> search;
    std::optional<LayoutMarks> search_marks;
};
CardReferences cardReferences(const DecisionResult& decision);

ReportCard reportCard(const Scenario& yours, const Estimate& yours_estimate, const CardReferences& references);
inline ReportCard reportCard(const Scenario& yours, const Estimate& yours_estimate, const DecisionResult& decision)
{
    return reportCard(yours, yours_estimate, cardReferences(decision));
}

// Evaluates `yours`, walks the decision procedure with the search, and grades.
ReportCard gradeLayout(const Scenario& yours);

} // namespace parascope
