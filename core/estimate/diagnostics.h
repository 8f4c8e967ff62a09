#pragma once
// "What breaks": every rule that turns a scenario and its estimate into diagnostics, with a
// message and a suggestion in English and Chinese. A suggestion only names changes that apply to
// the scenario (no "lower the micro batch" at micro batch 1); search/advice.h evaluates concrete
// changes and states what each would give.

#include "estimate/estimate.h"
#include "types/scenario.h"
#include "parallel/pipeline_geometry.h"

#include <vector>

namespace parascope {

// Rules about the configuration itself (checked before any number is computed).
std::vector<Diagnostic> configurationDiagnostics(const Scenario& sc);

// Rules about the outcome: memory, bubble, exposed communication, placement. With
// Explain::NumbersOnly the same diagnostics appear, but out-of-memory ones do not work out what
// each remedy would save.
std::vector<Diagnostic> outcomeDiagnostics(const Scenario& sc, const Estimate& est, Explain explain = Explain::Full);

std::string formatBytes(double bytes); // "7.3 GiB"
std::string formatPercent(double fraction); // "65.7 %": one decimal, everywhere a share is shown

// "1 microbatch", "8 microbatches": a count with its English noun.
std::string countOf(long long n, const char* singular, const char* plural);

// The textbook bubble of a schedule as people write it, e.g. "(p−1)/(m+p−1)" for 1F1B, with
// its value: the closed form of schedule/pipeline_closed_form.h (bubbleFraction), which counts
// compute only, with equal stages. The simulated share (Estimate::time.bubble_fraction) is
// idle time / step time of the real step.
struct BubbleFormula {
    std::string formula;     // "(p−1)/(m+p−1)"
    std::string substituted; // "(16−1)/(8+16−1)"
    double fraction = 0;
};
BubbleFormula bubbleFormula(ScheduleKind s, int pp, int vpp, long long microbatches);

// Names for people, in both languages (reports, diagnostics, advice). The enums' name tables
// (util/enum_names.h) spell values as files and flags do ("1f1b", "all_reduce"); these are the
// words of the course ("1F1B", "AllReduce", "交错式 1F1B", "选择性重计算").
Localized displayName(ScheduleKind v);
Localized displayName(Recompute v);
Localized displayName(Precision v);
Localized displayName(Group v);
Localized displayName(Collective v);
Localized displayName(Purpose v);
Localized displayName(Link v);

} // namespace parascope
