#pragma once
// The course's decision procedure (chapter 1), walked on a scenario's model, cluster and batch:
//   1. Memory — does it fit with data parallelism alone? If not, ZeRO-1, -2, -3 in turn.
//   2. Topology — still not: tensor parallelism inside a node over NVLink (the smallest TP that
//      fits), then pipeline parallelism across nodes (the smallest PP that fits); DP takes the
//      rest of the GPUs.
//   3. Communication — the volume and time of every group of the layout, and how much of it
//      compute cannot hide (the communication wall).
//   4. Balance and bubble — microbatches against PP, uneven stages; interleaving (VPP 2) when
//      the bubble is large and it helps.
// Each step says what it found, with its numbers, its verdict and the rule it applied, and the
// result is a scenario. The strategy search on the same GPUs is then asked for its best, and the
// difference explained: the procedure stops at the first layout that fits, the search weighs
// every layout by its step time (a smaller TP with ZeRO-3, a larger micro batch …).
//
// Every candidate is evaluated with evaluate(), as everything else; the sequence length, global
// batch, micro batch, precision and recompute stay the scenario's. Pure and deterministic.

#include "estimate/estimate.h"
#include "types/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace parascope {

enum class DecisionVerdict { Ok, Changed, Warn };
inline constexpr EnumName<DecisionVerdict> kDecisionVerdictNames[]
    = {{DecisionVerdict::Ok, "ok"}, {DecisionVerdict::Changed, "changed"}, {DecisionVerdict::Warn, "warn"}};
constexpr std::span<const EnumName<DecisionVerdict>> enumNames(DecisionVerdict) { return kDecisionVerdictNames; }
inline const char* toString(DecisionVerdict v) { return nameOf(v); }

struct DecisionStep {
    std::string id; // "memory", "topology", "communication", "balance"
    Localized title;
    DecisionVerdict verdict = DecisionVerdict::Ok;
    Localized finding; // what this step found, with its numbers
    Localized why; // the rule it applies
    std::vector<Term> numbers;
};

struct DecisionResult {
    std::vector<DecisionStep> steps;
    Scenario scenario; // the procedure's layout
    Estimate estimate; // its evaluation
    bool fits = false;
    // The strategy search's best on the same GPUs (when asked for and it found one).
    std::optional<Scenario> search_best;
    double search_best_step_s = 0;
    Localized comparison; // how the two differ, and why
};

struct DecisionOptions {
    bool compare_with_search = true;
};

DecisionResult decide(const Scenario& base, const DecisionOptions& options = {});

// "TP 8 · PP 1 · DP 64 · ZeRO-1" (CP, EP and VPP when above 1): the knobs the procedure sets.
std::string layoutText(const ParallelConfig& p);

} // namespace parascope
