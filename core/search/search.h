#pragma once
// Search: every valid strategy for a model on a number of GPUs — tp, pp, vpp, dp, cp, ep,
// sequence parallelism, ZeRO stage, micro batch, recompute and schedule within sensible bounds —
// evaluated with the same evaluate() as everything else (so a result equals a full evaluation
// of its configuration), ranked by tokens/s, plus the Pareto front of peak memory vs step time.
// Uses every core; results do not depend on the thread count.
//
// Ranking (the table, the app's "best tokens/s" star and the CLI all read `top`): more tokens/s
// first; rows that tie (equal to 1e-9, relative) go to the lower peak memory, then the fewer GPUs,
// then the simpler layout (see rankRows), so the best row is never dominated by one it ties with.

#include "estimate/estimate.h"
#include "io/error_bands.h"
#include "types/scenario.h"

#include <functional>
#include <string>
#include <vector>

namespace parascope {

struct SearchOptions {
    std::int64_t gpus = 0; // 0: the base scenario's tp·pp·dp·cp
    bool tp_across_nodes = false; // allow TP beyond one node
    std::vector<long long> micro_batches{1, 2, 4, 8};
    std::size_t top = 10;
    int threads = 0; // 0: all cores
    bool simulate = true; // false: the closed-form step (faster)
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
    ErrorBand band; // how sure its step is: its layout's class (set on the rows a result keeps)
};

// The best strategy of each (TP, PP) pair, for the TP×PP heatmap.
struct SearchCell {
    int tp = 1, pp = 1;
    bool valid = false; // some strategy with this TP and PP breaks no rule but memory
    bool fits = false; // some strategy with this TP and PP fits
    double best_step_s = 0; // the fastest of those
    double best_tokens_per_s = 0; // its throughput
    ErrorBand best_band; // how sure its step is: its layout's class (io/error_bands.h)
};

struct SearchResult {
    // valid: breaks no rule but memory; fitting: of those, error-free and within the GPU.
    std::size_t enumerated = 0, evaluated = 0, valid = 0, fitting = 0;
    bool cancelled = false;
    std::vector<SearchRow> top; // by tokens/s, best first
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

// Why a search found nothing, and where it would find something.
struct EmptySearchReason {
    Localized text; // what rules every layout out (or that none fits in memory)
    std::vector<std::int64_t> nearest; // the nearest GPU counts (whole nodes) with a valid layout
};

// For a search that returned no row: a layout-independent error (e.g. the sequence is longer
// than the model's positions), the divisibility rules that leave no layout for this GPU count
// (with the data-parallel widths they leave), or memory. Bounded: a few hundred structural checks.
EmptySearchReason explainEmptySearch(const Scenario& base, const SearchOptions& options, const SearchResult& result);

// Errors that no parallel layout can fix (checked on the scenario with every degree 1).
std::vector<Diagnostic> layoutIndependentErrors(const Scenario& base);

struct FewestGpusResult {
    std::int64_t gpus = 0; // 0: none up to searched_up_to
    std::int64_t searched_up_to = 0; // 0 with gpus == 0: no GPU count can work (see reason)
    int searches = 0; // strategy searches it took (bounded by ~2·log2(max_gpus))
    Localized reason; // when gpus == 0: why
};

// The fewest GPUs on which some strategy fits. More GPUs never need more memory per GPU (the same
// layout with twice the data parallelism fits too), so doubling from one GPU finds the first
// power-of-two multiple of a node that fits, and bisection over whole nodes below it finds the
// fewest. At most ~2·log2(max_gpus) searches; a layout-independent error answers at once.
FewestGpusResult fewestGpus(const Scenario& base, std::int64_t max_gpus = 1 << 16);

Scenario applyRow(const Scenario& base, const SearchRow& row);

// The search's ranking, in place: more tokens/s first. A tie (tokens/s equal to 1e-9, relative:
// two layouts with the same step) goes to the lower peak memory (to the byte), then the fewer
// GPUs, then the simpler layout — fewer parallel dimensions in use (TP, PP, CP, EP > 1), then the
// smaller model-parallel width TP·PP·CP·EP, no virtual stages, the lower ZeRO stage, plain 1F1B,
// the lighter recompute — and last the enumeration index, so the order is deterministic.
void rankRows(std::vector<SearchRow>& rows);

// Whether `a` ranks before `b` when their tokens/s tie (the tie-break of rankRows).
bool winsTie(const SearchRow& a, const SearchRow& b);

} // namespace parascope
