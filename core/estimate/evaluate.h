#pragma once
// core::evaluate(): the one entry point from a Scenario to its Estimate. Pure, deterministic,
// no global state. An invalid scenario still gets every number that can be computed, plus the
// diagnostics that say what breaks.

#include "estimate/estimate.h"
#include "estimate/scenario.h"

namespace parascope {

struct EvaluateOptions {
    bool record_timeline = true; // false: numbers only (sweeps and search)
    bool simulate = true;        // false: the closed-form step instead of the event simulation
    Explain explain = Explain::Full; // NumbersOnly: no Term strings, no out-of-memory remedies (search)
};

Estimate evaluate(const Scenario& scenario, const EvaluateOptions& options = {});

} // namespace parascope
