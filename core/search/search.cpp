#include "search/search.h"
#include "search/layout_grid.h"

#include "estimate/diagnostics.h"
#include "estimate/evaluate.h"
#include "schedule/generators.h"
#include "types/knobs.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <atomic>
#include <chrono>
#include <thread>

namespace parascope {

namespace {

// The schedules the search tries, from the schedule table's `search` column: the unchunked
// ones first, in table order, then each chunked one at vpp 2 and 4 where the layers split evenly
// over the virtual stages and its generator accepts the microbatch count.
struct Sched {
    ScheduleKind kind;
    int vpp;
};
std::vector<Sched> candidateSchedules(int pp, int layers, long long microbatches)
{
    const auto tried = [&](const ScheduleRow& row) {
        return row.search == SearchUse::Always || (row.search == SearchUse::WithPipeline && pp > 1);
    };
    std::vector<Sched> out;
    for (const ScheduleRow& row : scheduleTable())
        if (tried(row) && !row.chunks_from_vpp)
            out.push_back({row.kind, 1});
    for (const ScheduleRow& row : scheduleTable())
        if (tried(row) && row.chunks_from_vpp && microbatches <= (1 << 30))
            for (int vpp : {2, 4})
                if (layers % (pp * vpp) == 0 && scheduleRequirement({row.kind, pp, vpp, int(microbatches)}).empty())
                    out.push_back({row.kind, vpp});
    return out;
}

} // namespace

std::vector<Strategy> enumerateStrategies(const Scenario& base, const SearchOptions& o)
{
    std::vector<Strategy> out;
    const ModelSpec& m = base.model;
    const std::int64_t gpus = o.gpus > 0 ? o.gpus : base.parallel.gpus();
    const int experts = m.moe ? m.moe->experts : 1;
    const std::vector<long long> eps = offered(base, "parallel.ep"), zeros = offered(base, "parallel.zero");
    forEachGrid(base, o, gpus, [&](int tp, int pp, int cp, int dp) {
        for (long long ep_value : eps) {
            const int ep = int(ep_value);
            if (experts % ep || (static_cast<long long>(dp) * cp) % ep || (ep > 1 && !m.moe))
                continue;
            for (long long mb : o.micro_batches) {
                if (base.training.global_batch % (mb * dp))
                    continue;
                const long long microbatches = base.training.global_batch / (mb * dp);
                for (const Sched& s : candidateSchedules(pp, m.layers, microbatches))
                    for (long long zero : zeros) {
                        if (zero > 0 && dp * cp == 1)
                            continue; // nothing to shard over
                        if (zero > 1 && pp > 1)
                            continue; // ZeRO-2/3 shard gradients per microbatch: not with a pipeline
                        for (const EnumName<Recompute>& recompute : enumNames(Recompute{})) {
                            const Recompute rc = recompute.value;
                            Strategy sc{base.parallel, base.training};
                            ParallelConfig& p = sc.parallel;
                            p.tp = tp;
                            p.pp = pp;
                            p.cp = cp;
                            p.dp = dp;
                            p.ep = ep;
                            p.vpp = s.vpp;
                            p.schedule = s.kind;
                            p.zero = int(zero);
                            p.sequence_parallel = tp > 1;
                            p.stage_layers.clear();
                            sc.training.micro_batch = mb;
                            sc.training.recompute = rc;
                            out.push_back(std::move(sc));
                        }
                    }
            }
        }
    });
    return out;
}

Scenario applyStrategy(const Scenario& base, const Strategy& strategy)
{
    Scenario sc = base;
    sc.parallel = strategy.parallel;
    sc.training = strategy.training;
    sc.cluster.nodes = 0;
    return sc;
}

Scenario applyRow(const Scenario& base, const SearchRow& row)
{
    return applyStrategy(base, {row.parallel, row.training});
}

namespace {

// How much a layout asks of the people running it, smallest first: fewer parallel dimensions in
// use, a narrower model-parallel group, no virtual stages, less ZeRO sharding, plain 1F1B, less
// recompute. Only breaks ties: it never outranks tokens/s or memory.
std::array<long long, 6> complexity(const SearchRow& r)
{
    const ParallelConfig& p = r.parallel;
    const long long dimensions = (p.tp > 1) + (p.pp > 1) + (p.cp > 1) + (p.ep > 1);
    return {dimensions, (long long)p.tp * p.pp * p.cp * p.ep,         p.vpp,
            p.zero,     p.schedule == ScheduleKind::OneFOneB ? 0 : 1, (long long)r.training.recompute};
}

// Two throughputs tie when they differ by float noise only (1e-9 relative): the same step
// reached by different layouts.
bool tie(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b)); }

// One row per candidate, with whether it ran without errors and whether its layout is sound.
struct Evaluated {
    std::vector<SearchRow> rows;
    std::vector<char> ok;
    std::vector<char> layout_ok; // no error but running out of memory
};

// Row `i` from its candidate's estimate; touches only index `i`, so threads need no lock.
void recordRow(Evaluated& ev, std::size_t i, const Strategy& candidate, const Estimate& e)
{
    SearchRow& row = ev.rows[i];
    row.index = i;
    row.parallel = candidate.parallel;
    row.training = candidate.training;
    row.step_s = e.time.step_s;
    row.tokens_per_s = e.throughput.tokens_per_s;
    row.mfu = e.throughput.mfu;
    row.peak_bytes = e.memory.peak_bytes;
    row.bubble_fraction = e.time.bubble_fraction;
    row.fits = e.memory.fits;
    ev.ok[i] = !e.hasErrors();
    ev.layout_ok[i] = e.layoutError() == nullptr;
}

// Evaluates the candidates on a pool of threads; sets r.cancelled and r.evaluated.
Evaluated evaluateAll(const Scenario& base, const SearchOptions& o, const std::vector<Strategy>& candidates,
                      SearchResult& r)
{
    Evaluated ev{std::vector<SearchRow>(candidates.size()), std::vector<char>(candidates.size(), 0),
                 std::vector<char>(candidates.size(), 0)};
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<bool> cancel{false};
    const int threads = std::max(1, o.threads > 0 ? o.threads : int(std::thread::hardware_concurrency()));
    EvaluateOptions eo;
    eo.record_timeline = false;
    eo.simulate = o.simulate;
    eo.explain = Explain::NumbersOnly; // rows keep numbers only
    eo.max_simulated_ops = o.max_simulated_ops;
    // Each candidate writes only its own row: no locks, and the outcome is independent of which
    // thread took it. Each thread reuses one scenario (applyStrategy without the copy).
    const Scenario start = applyStrategy(base, {base.parallel, base.training});
    const auto evaluateNext = [&](Scenario& sc) -> bool {
        const std::size_t i = next.fetch_add(1);
        if (cancel || i >= candidates.size())
            return false;
        sc.parallel = candidates[i].parallel;
        sc.training = candidates[i].training;
        recordRow(ev, i, candidates[i], evaluate(sc, eo));
        ++done;
        return true;
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back([&] {
            Scenario sc = start;
            while (evaluateNext(sc)) { }
        });
    // The calling thread works too, and reports progress (and takes a cancel) between evaluations.
    Scenario sc = start;
    while (evaluateNext(sc))
        if (o.progress && !o.progress(done.load(), candidates.size()))
            cancel = true;
    for (std::thread& t : pool)
        t.join();
    r.cancelled = cancel;
    r.evaluated = done.load();
    return ev;
}

// Best step per (TP, PP): cells exist for every pair enumerated, fitting or not.
void fillCells(SearchResult& r, const Scenario& base, const std::vector<Strategy>& candidates, const Evaluated& ev)
{
    const std::vector<SearchRow>& rows = ev.rows;
    std::vector<std::size_t> best; // per cell, the row of its fastest fitting layout
    for (std::size_t i = 0; i < candidates.size() && i < rows.size(); ++i) {
        const ParallelConfig& p = candidates[i].parallel;
        auto it = std::find_if(r.cells.begin(), r.cells.end(),
                               [&](const SearchCell& c) { return c.tp == p.tp && c.pp == p.pp; });
        if (it == r.cells.end()) {
            r.cells.push_back({p.tp, p.pp, false, false, 0, 0, {}});
            best.push_back(rows.size());
            it = r.cells.end() - 1;
        }
        if (ev.layout_ok[i] && rows[i].step_s > 0)
            it->valid = true;
        if (ev.ok[i] && rows[i].fits && rows[i].step_s > 0 && (!it->fits || rows[i].step_s < it->best_step_s)) {
            it->fits = true;
            it->best_step_s = rows[i].step_s;
            it->best_tokens_per_s = rows[i].tokens_per_s;
            best[std::size_t(it - r.cells.begin())] = i;
        }
    }
    for (std::size_t c = 0; c < r.cells.size(); ++c)
        if (best[c] < rows.size())
            r.cells[c].best_band = bandFor(builtInBands(), applyRow(base, rows[best[c]]));
    std::sort(r.cells.begin(), r.cells.end(),
              [](const SearchCell& a, const SearchCell& b) { return a.tp != b.tp ? a.tp < b.tp : a.pp < b.pp; });
}

// Pareto front in (peak memory, step time): sweep by memory, keep strictly faster steps.
std::vector<SearchRow> paretoFront(std::vector<SearchRow> by_memory)
{
    std::vector<SearchRow> front;
    std::sort(by_memory.begin(), by_memory.end(), [](const SearchRow& a, const SearchRow& b) {
        if (a.peak_bytes != b.peak_bytes)
            return a.peak_bytes < b.peak_bytes;
        return a.step_s != b.step_s ? a.step_s < b.step_s : a.index < b.index;
    });
    double best_step = 1e300;
    for (const SearchRow& row : by_memory)
        if (row.step_s < best_step) {
            front.push_back(row);
            best_step = row.step_s;
        }
    return front;
}

} // namespace

bool winsTie(const SearchRow& a, const SearchRow& b)
{
    // Memory to the byte: a sub-byte difference is float noise, not a reason to prefer a layout.
    const long long ma = std::llround(a.peak_bytes), mb = std::llround(b.peak_bytes);
    if (ma != mb)
        return ma < mb;
    if (a.parallel.gpus() != b.parallel.gpus())
        return a.parallel.gpus() < b.parallel.gpus();
    const auto ca = complexity(a), cb = complexity(b);
    if (ca != cb)
        return ca < cb;
    return a.index < b.index;
}

void rankRows(std::vector<SearchRow>& rows)
{
    // Exact order first (a strict weak order), then each run of tied throughputs — every row within
    // 1e-9 of the run's first — re-ordered by the tie-break. Grouping after sorting keeps the
    // tolerance from breaking the sort's ordering rules.
    std::sort(rows.begin(), rows.end(), [](const SearchRow& a, const SearchRow& b) {
        return a.tokens_per_s != b.tokens_per_s ? a.tokens_per_s > b.tokens_per_s : a.index < b.index;
    });
    for (auto first = rows.begin(); first != rows.end();) {
        auto last = first + 1;
        while (last != rows.end() && tie(first->tokens_per_s, last->tokens_per_s))
            ++last;
        std::sort(first, last, winsTie);
        first = last;
    }
}

SearchResult searchStrategies(const Scenario& base, const SearchOptions& o)
{
    const auto t0 = std::chrono::steady_clock::now();
    SearchResult r;
    const std::vector<Strategy> candidates = enumerateStrategies(base, o);
    r.enumerated = candidates.size();
    const Evaluated ev = evaluateAll(base, o, candidates, r);
    fillCells(r, base, candidates, ev);
    std::vector<SearchRow> good;
    for (std::size_t i = 0; i < ev.rows.size(); ++i) {
        if (!ev.layout_ok[i] || ev.rows[i].step_s <= 0)
            continue;
        ++r.valid; // breaks no rule but memory (it counted only the error-free, so always the fitting)
        if (ev.ok[i] && ev.rows[i].fits) {
            ++r.fitting;
            good.push_back(ev.rows[i]);
        }
    }
    // Deterministic order: tokens/s; ties to the lower memory, fewer GPUs, simpler layout, index.
    rankRows(good);
    r.top.assign(good.begin(), good.begin() + std::min(good.size(), o.top));
    r.pareto = paretoFront(good);
    for (std::vector<SearchRow>* kept : {&r.top, &r.pareto})
        for (SearchRow& row : *kept)
            row.band = bandFor(builtInBands(), applyRow(base, row)); // a CP layout's class can differ
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

long long largestFittingMicroBatch(const Scenario& base)
{
    long long best = 0;
    EvaluateOptions eo;
    eo.record_timeline = false;
    for (long long mb = 1; mb <= 1024; mb *= 2) {
        Scenario sc = base;
        sc.training.micro_batch = mb;
        // Keep the global batch divisible: at least one microbatch per pipeline.
        const long long unit = mb * sc.parallel.dp;
        if (sc.training.global_batch % unit)
            sc.training.global_batch = std::max(unit, sc.training.global_batch / unit * unit);
        if (!evaluate(sc, eo).memory.fits)
            break;
        best = mb;
    }
    return best;
}

std::vector<Diagnostic> layoutIndependentErrors(const Scenario& base)
{
    Scenario one = base;
    one.parallel = ParallelConfig{};
    one.cluster.nodes = 0;
    one.training.global_batch = std::max<long long>(1, base.training.micro_batch);
    std::vector<Diagnostic> out;
    for (Diagnostic& d : configurationDiagnostics(one))
        if (d.severity == Severity::Error)
            out.push_back(std::move(d));
    return out;
}

} // namespace parascope
