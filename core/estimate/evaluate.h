#pragma once
// core::evaluate(): the one entry point from a Scenario to its Estimate. Pure, deterministic,
// no global state. An invalid scenario still gets every number that can be computed, plus the
// diagnostics that say what breaks.

#include "estimate/estimate.h"
#include "types/evaluate_options.h"
#include "types/scenario.h"

namespace parascope {

Estimate evaluate(const Scenario& scenario, const EvaluateOptions& options = {});

} // namespace parascope
