#pragma once
// What evaluate() is asked to compute: the whole explained estimate with its timeline (the app),
// or numbers only within a budget (sweeps and search).

#include "types/term.h"

#include <cstddef>

namespace parascope {

// Ops the event simulation materialises at most; beyond, it simulates fewer microbatches and
// extrapolates the steady state. The timeline (ops kept for drawing and export) holds fewer.
inline constexpr std::size_t kMaxSimulatedOps = 400000;
inline constexpr std::size_t kMaxRecordedOps = 50000;

struct EvaluateOptions {
    bool record_timeline = true; // false: numbers only (sweeps and search)
    bool simulate = true; // false: the closed-form step instead of the event simulation
    Explain explain = Explain::Full; // NumbersOnly: no Term strings, no out-of-memory remedies (search)
    std::size_t max_simulated_ops = kMaxSimulatedOps; // search uses a smaller budget per candidate
};

} // namespace parascope
