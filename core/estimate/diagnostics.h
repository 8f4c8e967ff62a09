#pragma once
// "What breaks": every rule that turns a scenario and its estimate into diagnostics, with a
// message and a suggestion in English and Chinese. A suggestion only names changes that apply to
// the scenario (no "lower the micro batch" at micro batch 1); search/advice.h evaluates concrete
// changes and states what each would give.

#include "estimate/estimate.h"
#include "types/scenario.h"
#include "estimate/display_names.h"
#include "schedule/pipeline_geometry.h"

#include <vector>

namespace parascope {

// Rules about the configuration itself (checked before any number is computed).
std::vector<Diagnostic> configurationDiagnostics(const Scenario& sc);

// Rules about the outcome: memory, bubble, exposed communication, placement. With
// Explain::NumbersOnly the same diagnostics appear, but out-of-memory ones do not work out what
// each remedy would save.
std::vector<Diagnostic> outcomeDiagnostics(const Scenario& sc, const Estimate& est, Explain explain = Explain::Full);

} // namespace parascope
