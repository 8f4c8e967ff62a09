#pragma once
// core::evaluate(): the one entry point from a Scenario to its Estimate. Pure, deterministic,
// no global state. An invalid scenario still gets every number that can be computed, plus the
// diagnostics that say what breaks.

#include "estimate/estimate.h"
#include "estimate/scenario.h"

namespace parascope {

// Ops the event simulation materialises at most; beyond, it simulates fewer microbatches and
// extrapolates the steady state. The timeline (ops kept for drawing and export) holds fewer.
inline constexpr std::size_t kMaxSimulatedOps = 400000;
inline constexpr std::size_t kMaxRecordedOps = 50000;

struct EvaluateOptions {
    bool record_timeline = true; // false: numbers only (sweeps and search)
    bool simulate = true;        // false: the closed-form step instead of the event simulation
    Explain explain = Explain::Full; // NumbersOnly: no Term strings, no out-of-memory remedies (search)
    std::size_t max_simulated_ops = kMaxSimulatedOps; // search uses a smaller budget per candidate
};

Estimate evaluate(const Scenario& scenario, const EvaluateOptions& options = {});

} // namespace parascope
