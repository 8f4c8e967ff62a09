#include "search/advice.h"

#include "estimate/diagnostics.h"
#include "estimate/display_names.h"
#include "estimate/evaluate.h"
#include "io/report_json.h"
#include "memory/stage_memory.h"
#include "schedule/pipeline_geometry.h"
#include "parallel/placement.h"
#include "schedule/pipeline_closed_form.h"
#include "search/advice_moves.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace parascope {

namespace {

using namespace advice_detail;

// ---- Formatting --------------------------------------------------------------------------------

// "+8.0 %", "−24.7 %": the change from `before` to `after`.
std::string change(double before, double after)
{
    if (before <= 0)
        return "";
    const double pct = (after / before - 1) * 100;
    const std::string magnitude = formatFixed(std::abs(pct), 1, " %");
    return (pct < 0 && magnitude != "0.0 %" ? "−" : "+") + magnitude;
}

std::string n(long long v) { return std::to_string(v); }

// ---- Evaluation --------------------------------------------------------------------------------

struct Outcome {
    double peak = 0, capacity = 0, step = 0, tokens = 0, bubble = 0, exposed = 0;
    bool fits = false;
    bool certain = false; // fits beyond the band the memory model cannot resolve (memory_verdict.h)
    std::set<std::string> errors, warnings;
    bool has(const std::string& code) const { return errors.count(code) || warnings.count(code); }
    double exposedShare() const { return step > 0 ? exposed / step : 0; }
};

Outcome summarize(const Estimate& e)
{
    Outcome o;
    o.peak = e.memory.peak_bytes;
    o.capacity = e.memory.capacity_bytes;
    o.fits = e.memory.fits;
    o.certain = e.memory.verdict == MemoryVerdict::Fits;
    o.step = e.time.step_s;
    o.tokens = e.throughput.tokens_per_s;
    o.bubble = e.time.bubble_fraction;
    o.exposed = e.time.exposed_comm_s;
    for (const Diagnostic& d : e.diagnostics)
        (d.severity == Severity::Error ? o.errors : o.warnings).insert(d.code);
    return o;
}

class Evaluator {
public:
    Evaluator(int budget, const std::function<bool()>& cancelled)
        : budget_(budget)
        , cancelled_(cancelled)
    { }

    // nullptr when the budget is spent or the caller cancelled.
    const Outcome* run(const Candidate& c)
    {
        if (const auto it = cache_.find(c.key); it != cache_.end())
            return &it->second;
        if (used_ >= budget_)
            return nullptr;
        if (cancelled_ && cancelled_()) {
            stopped_ = true;
            return nullptr;
        }
        ++used_;
        EvaluateOptions eo;
        eo.record_timeline = false;
        eo.explain = Explain::NumbersOnly; // the same numbers (tst_search numbersOnlyEqualsExplained)
        return &cache_.emplace(c.key, summarize(evaluate(c.sc, eo))).first->second;
    }
    int used() const { return used_; }
    void limit(int budget) { budget_ = budget; }
    bool stopped() const { return stopped_; }

private:
    int budget_, used_ = 0;
    bool stopped_ = false;
    const std::function<bool()>& cancelled_;
    std::map<std::string, Outcome> cache_;
};

enum class Goal { Fit, Remove, Bubble, Exposed };

// Valid (no new error; no new warning, except a bubble or exposed communication whose cost the
// step time already shows when the goal is memory or an error), no worse in memory, and the
// problem gone or smaller.
bool accepts(Goal goal, const std::string& code, const Outcome& base, const Outcome& alt)
{
    for (const std::string& e : alt.errors)
        if (!base.errors.count(e))
            return false;
    // A layout that cannot run is worse than any warning: fixing its error may bring warnings the
    // error hid (their figures were of a step that could not run).
    const bool fixes_error = base.errors.count(code) > 0 && code != "out_of_memory";
    const bool tolerant = goal == Goal::Fit || base.errors.count(code) > 0;
    for (const std::string& w : alt.warnings)
        if (!fixes_error && !base.warnings.count(w)
            && !(tolerant && (w == "large_bubble" || w == "exposed_comm_high"))
            // Under the capacity but inside the band: allowed, its peak is in the fix's text.
            && !(goal != Goal::Fit && w == "memory_borderline" && alt.peak <= alt.capacity))
            return false;
    if (base.fits && !alt.fits)
        return false;
    if (!base.fits && goal != Goal::Fit && alt.peak > base.peak)
        return false;
    if (alt.step <= 0)
        return false;
    switch (goal) {
    case Goal::Fit: return code == "memory_borderline" ? alt.certain : alt.fits;
    case Goal::Remove: return !alt.has(code);
    case Goal::Bubble: return alt.bubble < base.bubble - 1e-3 && alt.tokens > base.tokens * 1.001;
    case Goal::Exposed: return alt.exposedShare() < base.exposedShare() - 1e-3 && alt.tokens > base.tokens * 1.001;
    }
    return false;
}

Advice make(const std::string& code, Goal goal, const Candidate& c, const Outcome& base, const Outcome& alt,
            long long base_batch)
{
    Advice a;
    a.code = code;
    a.changes = c.changes;
    a.knobs = knobCount(c);
    a.what = describe(c);
    a.peak_bytes = alt.peak;
    a.capacity_bytes = alt.capacity;
    a.fits = alt.fits;
    a.step_s = alt.step;
    a.band = bandFor(builtInBands(), c.sc);
    a.tokens_per_s = alt.tokens;
    a.bubble_fraction = alt.bubble;
    a.exposed_comm_s = alt.exposed;
    std::vector<Localized> parts;
    // Relative to a step that ran; an invalid configuration's step is no reference.
    const bool relative = base.errors.empty() || (base.errors.size() == 1 && base.errors.count("out_of_memory"));
    // Lead with what the change does to the training's speed: the step time, or, when the global
    // batch moves (a longer step for more tokens), tokens/s first and the training choice named.
    const bool batch = changed(c, "training.global_batch");
    if (batch && relative)
        parts.push_back(
            {"tokens/s " + change(base.tokens, alt.tokens), "吞吐 tokens/s " + change(base.tokens, alt.tokens)});
    const std::string step_change = relative ? change(base.step, alt.step) : "";
    const std::string step = secondsWithBand(alt.step, a.band); // "108.24 s ±6.0 %"
    parts.push_back({"step " + step + (step_change.empty() ? "" : " (" + step_change + ")"),
                     "单步耗时 " + step + (step_change.empty() ? "" : "（" + step_change + "）")});
    if (batch && goal != Goal::Fit)
        parts.push_back(
            {"changes the training, not the layout: global batch " + n(base_batch) + " → "
                 + n(c.sc.training.global_batch),
             "改变的是训练设置而非并行布局：全局批大小 " + n(base_batch) + " → " + n(c.sc.training.global_batch)});
    const Localized peak{"peak " + formatBytes(alt.peak) + " of " + formatBytes(alt.capacity),
                         "峰值显存 " + formatBytes(alt.peak) + " / " + formatBytes(alt.capacity)};
    if (goal == Goal::Bubble)
        parts.push_back({"bubble " + formatPercent(alt.bubble) + " (now " + formatPercent(base.bubble) + ")",
                         "气泡占比 " + formatPercent(alt.bubble) + "（当前 " + formatPercent(base.bubble) + "）"});
    if (goal == Goal::Exposed)
        parts.push_back({"exposed communication " + formatPercent(alt.exposedShare()) + " of the step (now "
                             + formatPercent(base.exposedShare()) + ")",
                         "未重叠通信占单步耗时 " + formatPercent(alt.exposedShare()) + "（当前 "
                             + formatPercent(base.exposedShare()) + "）"});
    parts.push_back(peak);
    a.message = a.what;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        a.message.en += (i ? ", " : ": ") + parts[i].en;
        a.message.zh += (i ? "，" : "：") + parts[i].zh;
    }
    return a;
}

struct Found {
    Candidate candidate;
    Outcome outcome;
};

// Best first: fewest knobs, then the fastest step (Fit, Remove), or the most tokens/s (the
// performance goals, where a larger batch may lengthen the step).
void rank(Goal goal, std::vector<Found>& found)
{
    std::stable_sort(found.begin(), found.end(), [&](const Found& a, const Found& b) {
        // The global batch is a training choice: layouts that keep it come first.
        const bool ba = changed(a.candidate, "training.global_batch"),
                   bb = changed(b.candidate, "training.global_batch");
        if ((goal == Goal::Bubble || goal == Goal::Exposed) && ba != bb)
            return bb;
        if (goal == Goal::Bubble || goal == Goal::Exposed)
            return a.outcome.tokens > b.outcome.tokens;
        const int ka = knobCount(a.candidate), kb = knobCount(b.candidate);
        return ka != kb ? ka < kb : a.outcome.step < b.outcome.step;
    });
}

// ---- Out of memory: the nearest combination that fits -----------------------------------------

// Peak memory per GPU without the time model: the closed-form in-flight microbatches of the
// schedule and the memory model (as the out-of-memory diagnostic's remedies), a small part of an
// evaluation. The evaluation that follows decides.
double screenedPeak(const Scenario& s, const ParamCounts& params)
{
    const PipelineGeometry geometry = pipelineGeometry(s.model, s.parallel);
    const std::vector<double> inflight
        = inflightMicrobatches(s.parallel.schedule, s.parallel.pp, s.parallel.vpp, std::max(1LL, s.microbatches()));
    return computeMemory(s, params, geometry, inflight, placeRanks(s.parallel, s.cluster), Explain::NumbersOnly)
        .peak_bytes;
}

// The combinations, nearest first (fewest knobs), are screened for memory; those that fit on the
// screen are evaluated, the fewest knobs first and, among them, the ones closest to the capacity
// first (the smallest moves, usually the fastest), until the level with the fewest knobs is done
// and enough were found, or the budget is spent.
std::vector<Found> fitMemory(const std::string& code, const Scenario& base, const Estimate& est,
                             const Outcome& base_outcome, long long m, Evaluator& ev, std::size_t wanted)
{
    // Out of memory: under the capacity; borderline: under the band, so that it surely fits.
    const double target = est.memory.capacity_bytes * (code == "memory_borderline" ? 1 - kMemoryBandFraction : 1.0);
    struct Screened {
        Candidate candidate;
        int knobs = 0;
        double peak = 0;
    };
    // The screen, bounded like the evaluations: a pipeline of thousands of stages costs more.
    const std::size_t stages = std::max<std::size_t>(1, est.memory.stages.size());
    const std::size_t screens = std::max<std::size_t>(16, 400000 / stages);
    std::vector<Screened> fitting;
    std::size_t screened = 0;
    for (Candidate& c : memoryCombinations(base, m)) {
        const int knobs = knobCount(c);
        if (screened++ >= screens || (!fitting.empty() && knobs > fitting.front().knobs + 1))
            break; // two levels past the nearest: far enough
        // More virtual stages than layers (and the embedding's and the loss's stages) leaves
        // stages without a layer: no remedy, and PP 10⁵ × VPP 1,024 would lay out 10⁸ stages.
        if (double(c.sc.parallel.pp) * chunksPerRank(c.sc.parallel) > double(c.sc.model.layers) + 2)
            continue;
        const double peak = screenedPeak(c.sc, est.params);
        if (peak <= target)
            fitting.push_back({std::move(c), knobs, peak});
    }
    std::stable_sort(fitting.begin(), fitting.end(), [](const Screened& a, const Screened& b) {
        return a.knobs != b.knobs ? a.knobs < b.knobs : a.peak > b.peak;
    });
    std::vector<Found> found;
    for (const Screened& f : fitting) {
        // Done: the nearest level evaluated and enough found there (or below).
        if (!found.empty() && f.knobs > knobCount(found.front().candidate) && found.size() >= wanted)
            break;
        const Outcome* o = ev.run(f.candidate);
        if (!o)
            break; // budget spent (or cancelled)
        if (accepts(Goal::Fit, code, base_outcome, *o))
            found.push_back({f.candidate, *o});
    }
    return found;
}

// Each problem once: errors first, then memory, then the rest, in the estimate's order.
std::vector<const Diagnostic*> orderedProblems(const Estimate& est)
{
    std::vector<const Diagnostic*> problems;
    // A layout that cannot run: only its errors are answered; the warnings' figures (bubble,
    // exposed time) describe a step that cannot run.
    const bool invalid = est.layoutError() != nullptr;
    for (int pass = 0; pass < (invalid ? 1 : 3); ++pass)
        for (const Diagnostic& d : est.diagnostics) {
            const bool oom = d.code == "out_of_memory" || d.code == "memory_borderline";
            const int rank = oom ? 1 : d.severity == Severity::Error ? 0 : d.severity == Severity::Warning ? 2 : 3;
            if (rank != pass)
                continue;
            // The bubble is one problem: its advice answers large_bubble, which always comes
            // with the microbatches_lt_pp warning.
            if (d.code == "microbatches_lt_pp" && d.severity == Severity::Warning && est.has("large_bubble"))
                continue;
            if (std::none_of(problems.begin(), problems.end(), [&](const Diagnostic* x) { return x->code == d.code; }))
                problems.push_back(&d);
        }
    return problems;
}

// Bounded work: a pipeline of thousands of stages costs more per evaluation.
int evaluationBudget(const Estimate& est, const AdviceOptions& options)
{
    const long long stages = std::max<long long>(1, (long long)est.memory.stages.size());
    return stages <= 1024
        ? options.max_evaluations
        : std::min<int>(options.max_evaluations, std::max<long long>(4, options.max_evaluations * 1024 / stages));
}

// What the advice for a problem aims at.
Goal goalOf(const Diagnostic& problem)
{
    const std::string& code = problem.code;
    Goal goal = Goal::Remove;
    if (code == "out_of_memory" || code == "memory_borderline")
        goal = Goal::Fit;
    else if (code == "large_bubble" || (code == "microbatches_lt_pp" && problem.severity == Severity::Warning))
        goal = Goal::Bubble;
    else if (code == "exposed_comm_high")
        goal = Goal::Exposed;
    return goal;
}

// The layout moves for a goal other than Fit that are accepted, each candidate once.
std::vector<Found> acceptedMoves(Goal goal, const std::string& code, const Scenario& sc, const Estimate& est,
                                 const Outcome& base, long long m, Evaluator& ev)
{
    std::vector<Found> found;
    std::vector<Scenario> moves = goal == Goal::Bubble ? bubbleMoves(sc, m)
        : goal == Goal::Exposed                        ? exposedMoves(sc, est, m)
                                                       : ruleFixes(code, sc, m);
    for (const Scenario& s : moves) {
        const std::optional<Candidate> c = candidateOf(sc, s);
        if (!c || std::any_of(found.begin(), found.end(), [&](const Found& f) { return f.candidate.key == c->key; }))
            continue;
        const Outcome* o = ev.run(*c);
        if (o && accepts(goal, code, base, *o))
            found.push_back({*c, *o});
    }
    return found;
}

// Different moves first: the best of each set of changed fields (ZeRO-1, then TP, not
// ZeRO-1, 2 and 3), then the next best.
std::vector<const Found*> chooseVaried(const std::vector<Found>& found, std::size_t per_problem)
{
    std::vector<const Found*> chosen;
    std::set<std::string> kinds;
    for (int pass = 0; pass < 2; ++pass)
        for (const Found& f : found) {
            if (chosen.size() >= per_problem)
                break;
            std::string kind;
            for (const AdviceChange& c : f.candidate.changes)
                kind += c.path + ";";
            if (std::find(chosen.begin(), chosen.end(), &f) != chosen.end()
                || (pass == 0 && !kinds.insert(kind).second))
                continue;
            chosen.push_back(&f);
        }
    return chosen;
}

} // namespace

AdviceList advise(const Scenario& sc, const Estimate& est, const AdviceOptions& options)
{
    AdviceList out;
    const std::vector<const Diagnostic*> problems = orderedProblems(est);
    if (problems.empty())
        return out;

    const int budget = evaluationBudget(est, options);
    Evaluator ev(budget, options.cancelled);
    const Outcome base = summarize(est);
    const long long m = std::max(1LL, est.microbatches);

    for (std::size_t i = 0; i < problems.size(); ++i) {
        const std::string& code = problems[i]->code;
        const Goal goal = goalOf(*problems[i]);

        // What the problems after this one need at least (a few each).
        const int reserve = 4 * int(problems.size() - i - 1);
        ev.limit(std::max(ev.used(), budget - reserve));
        std::vector<Found> found = goal == Goal::Fit ? fitMemory(code, sc, est, base, m, ev, options.per_problem)
                                                     : acceptedMoves(goal, code, sc, est, base, m, ev);
        ev.limit(budget);
        rank(goal, found);
        const std::vector<const Found*> chosen = chooseVaried(found, options.per_problem);
        // Every fix raises the global batch: say that no layout on these GPUs helps.
        const bool only_batch = goal != Goal::Fit && !chosen.empty()
            && std::all_of(chosen.begin(), chosen.end(),
                           [](const Found* f) { return changed(f->candidate, "training.global_batch"); });
        for (const Found* f : chosen) {
            out.items.push_back(make(code, goal, f->candidate, base, f->outcome, sc.training.global_batch));
            if (only_batch) {
                out.items.back().message.en += "; only a bigger global batch helps: no other layout on these GPUs does";
                out.items.back().message.zh += "；只有增大全局批大小才有帮助：这些 GPU 上没有别的并行布局能改善";
            }
        }
        if (ev.stopped())
            break;
    }
    out.evaluations = ev.used();
    out.cancelled = ev.stopped();
    return out;
}

Scenario applyAdvice(const Scenario& sc, const Advice& advice)
{
    Scenario out = sc;
    for (const AdviceChange& c : advice.changes)
        if (const Field* f = fieldOf(c.path))
            f->set(out, c.value);
    return out;
}

nlohmann::json adviceValueJson(const AdviceChange& change)
{
    const Field* f = fieldOf(change.path);
    if (change.path == "training.recompute_modules") // as the scenario file spells it
        return recomputeModuleNames(unsigned(change.value));
    if (f && f->name)
        return f->name(change.value);
    if (f && f->flag)
        return change.value != 0;
    return change.value;
}

nlohmann::json adviceToJson(const std::vector<Advice>& advice, const std::string& lang)
{
    nlohmann::json list = nlohmann::json::array();
    for (const Advice& a : advice) {
        nlohmann::json changes = nlohmann::json::object();
        for (const AdviceChange& c : a.changes)
            changes[c.path] = adviceValueJson(c);
        list.push_back({{"code", a.code},
                        {"changes", changes},
                        {"knobs", a.knobs},
                        {"message", a.message.in(lang)},
                        {"message_en", a.message.en},
                        {"message_zh", a.message.zh},
                        {"peak_bytes", std::int64_t(a.peak_bytes + 0.5)},
                        {"capacity_bytes", std::int64_t(a.capacity_bytes + 0.5)},
                        {"fits", a.fits},
                        {"step_s", a.step_s},
                        {"tokens_per_s", a.tokens_per_s},
                        {"step_band", bandJson(a.band, lang)},
                        {"bubble_fraction", a.bubble_fraction},
                        {"exposed_comm_s", a.exposed_comm_s}});
    }
    return list;
}

std::string adviceText(const Estimate& est, const std::vector<Advice>& advice, const std::string& lang)
{
    const bool zh = lang.rfind("zh", 0) == 0;
    const bool problems = std::any_of(est.diagnostics.begin(), est.diagnostics.end(),
                                      [](const Diagnostic& d) { return d.severity != Severity::Info; });
    if (!problems)
        return "";
    // The same change answering several problems with the same result is one line.
    std::vector<std::pair<std::string, std::string>> lines; // codes, message
    for (const Advice& a : advice) {
        const std::string& message = a.message.in(lang);
        const auto same = std::find_if(lines.begin(), lines.end(), [&](const auto& l) { return l.second == message; });
        if (same != lines.end())
            same->first += (zh ? "、" : ", ") + a.code;
        else
            lines.emplace_back(a.code, message);
    }
    std::string o = zh ? "\n建议（每项调整均已重新评估，共 " + n((long long)lines.size()) + " 条）\n"
                       : "\nAdvice, each change evaluated (" + n((long long)lines.size()) + ")\n";
    if (lines.empty())
        o += zh
            ? "  尝试过的调整（GPU 数不变）都无法在不引入新问题的前提下解决上述问题。\n"
            : "  none found: none of the changes tried (on the same GPUs) removes a problem without adding another.\n";
    for (const auto& [codes, message] : lines)
        o += "  " + codes + (zh ? "：" : ": ") + message + "\n";
    return o;
}

nlohmann::json reportWithAdviceJson(const Scenario& sc, const Estimate& est, const std::string& lang, bool explain)
{
    nlohmann::json report = reportToJson(sc, est, lang, explain);
    const AdviceList advice = advise(sc, est);
    if (!advice.items.empty())
        report["advice"] = adviceToJson(advice.items, lang);
    return report;
}

} // namespace parascope
