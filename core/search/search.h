#pragma once
// Search: every valid strategy for a model on a number of GPUs — tp, pp, vpp, dp, cp, ep,
// sequence parallelism, ZeRO stage, micro batch, recompute and schedule within sensible bounds —
// evaluated with the same evaluate() as everything else (so a result equals a full evaluation
// of its configuration), ranked by tokens/s, plus the Pareto front of peak memory vs step time.
// Uses every core; results do not depend on the thread count.

#include "estimate/estimate.h"
#include "estimate/scenario.h"

#include <functional>
#include <string>
#include <vector>

namespace parascope {

struct SearchOptions {
    std::int64_t gpus = 0;             // 0: the base scenario's tp·pp·dp·cp
    bool tp_across_nodes = false;      // allow TP beyond one node
    std::vector<long long> micro_batches{1, 2, 4, 8};
    std::size_t top = 10;
    int threads = 0;                   // 0: all cores
    bool simulate = true;              // false: the closed-form step (faster)
    // Simulated ops per candidate at most (bounded work: 10⁶ microbatches or PP 10⁴ stay fast);
    // longer schedules simulate a prefix and extrapolate, or use the closed form.
    std::size_t max_simulated_ops = 5000;
    std::function<bool(std::size_t done, std::size_t total)> progress; // return false to cancel
};

// One candidate: the knobs the search sets. Everything else (model, cluster, sequence length,
// global batch, overheads) comes from the base scenario.
struct Strategy {
    ParallelConfig parallel;
    TrainingConfig training;
};

struct SearchRow {
    std::size_t index = 0; // position in the enumeration (ties break on it)
    ParallelConfig parallel;
    TrainingConfig training;
    double step_s = 0, tokens_per_s = 0, mfu = 0, peak_bytes = 0, bubble_fraction = 0;
    bool fits = false;
};

// The best strategy of each (TP, PP) pair, for the TP×PP heatmap.
struct SearchCell {
    int tp = 1, pp = 1;
    bool fits = false;    // some strategy with this TP and PP fits
    double best_step_s = 0; // the fastest of those
};

struct SearchResult {
    std::size_t enumerated = 0, evaluated = 0, valid = 0, fitting = 0;
    bool cancelled = false;
    std::vector<SearchRow> top;    // by tokens/s, best first
    std::vector<SearchRow> pareto; // fitting, not dominated in (peak memory, step time); by memory
    std::vector<SearchCell> cells; // every (TP, PP) enumerated, by TP then PP
    double seconds = 0;
};

// All candidate strategies (cheap structural checks only) for the base scenario's model,
// cluster, sequence length and global batch.
std::vector<Strategy> enumerateStrategies(const Scenario& base, const SearchOptions& options);

// The base scenario with a strategy's knobs (node count derived from the GPU count again).
Scenario applyStrategy(const Scenario& base, const Strategy& strategy);

SearchResult searchStrategies(const Scenario& base, const SearchOptions& options);

// The largest micro batch (power of two, ≤ 1024) that fits with the base strategy; 0 if none.
long long largestFittingMicroBatch(const Scenario& base);

// The fewest GPUs (multiples of a node, up to `max_gpus`) on which any strategy fits; 0 if none.
std::int64_t fewestGpus(const Scenario& base, std::int64_t max_gpus = 1 << 16);

Scenario applyRow(const Scenario& base, const SearchRow& row);

} // namespace parascope
