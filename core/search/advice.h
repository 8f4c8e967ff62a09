#pragma once
// Advice: for each problem an estimate diagnoses, concrete changes on the same GPUs, each one
// evaluated with evaluate() and kept only when it is valid (no new error or warning) and removes
// or reduces the problem; each says what it gives ("ZeRO-2 + full recompute: peak 71.2 GiB of
// 80.0 GiB, step 5.10 s (+8.0 %)"), in English and Chinese.
//
// Out of memory: combinations of TP (with SP, DP shrinking), PP (DP shrinking), CP for long
// sequences, ZeRO stage, recompute and a smaller micro batch; the nearest change that fits wins:
// fewest knobs changed, then the fastest step. The bubble, exposed communication, a TP group
// across nodes and the configuration errors each get their own short candidate list. The GPU
// count stays; so does the global batch, except where the batch is the problem or DP grows and
// the batch no longer divides (then the microbatch count stays, as the DP knob does).
//
// Bounded: at most AdviceOptions::max_evaluations evaluations in all (60: well under a second
// for the course's scenarios), fewer for pipelines of thousands of stages. Pure and
// deterministic, no shared state: the app calls it on a worker thread.

#include "estimate/estimate.h"
#include "io/error_bands.h"
#include "types/scenario.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace parascope {

// One scenario field set to a value. Paths are those of the knob table (types/knobs.h:
// "parallel.tp", "training.global_batch"; enum knobs by their position in the enum's name table,
// "training.recompute" 2 = full) plus the switches "parallel.sequence_parallel",
// "parallel.tp_comm_overlap" and "parallel.overlap_grad_reduce" (0 or 1). Every field that moves
// is listed (DP next to TP, the global batch when it moves): apply them with applyAdvice(), which
// sets each field as listed, not through the knobs' rules.
struct AdviceChange {
    std::string path;
    long long value = 0;
};

struct Advice {
    std::string code; // the diagnostic it answers ("out_of_memory", "large_bubble", …)
    std::vector<AdviceChange> changes; // never empty
    int knobs = 0; // knobs a user moves (TP with its DP and SP is one)
    Localized what; // "ZeRO-2 + full recompute"
    Localized message; // what + ": " + what it gives
    // The evaluation of the changed scenario.
    double peak_bytes = 0, capacity_bytes = 0, step_s = 0, tokens_per_s = 0, bubble_fraction = 0, exposed_comm_s = 0;
    bool fits = false;
    ErrorBand band; // how sure its step time is: the changed scenario's class (io/error_bands.h)
};

struct AdviceOptions {
    int max_evaluations = 60; // evaluate() calls in all
    std::size_t per_problem = 3; // advice items per diagnostic code at most
    std::function<bool()> cancelled; // polled between evaluations (the app's cancel token)
};

struct AdviceList {
    // Per diagnostic code (errors first, then out_of_memory, then the warnings, each in the
    // estimate's order; microbatches_lt_pp's warning is answered under large_bubble), best first
    // within a code, different moves before variants of one. A problem may have none: nothing
    // tried fixes it on these GPUs without adding another.
    std::vector<Advice> items;
    int evaluations = 0; // evaluate() calls made (≤ max_evaluations)
    bool cancelled = false; // `cancelled` said stop: the items found until then
};

// `est` must be evaluate(sc) (any EvaluateOptions). Nothing diagnosed (no warning, no error): no
// advice and no evaluation. Candidates for memory are first screened with the memory model alone
// (closed-form in-flight microbatches, as the out-of-memory diagnostic does), which costs a small
// part of an evaluation; each item's numbers come from evaluate() itself.
AdviceList advise(const Scenario& sc, const Estimate& est, const AdviceOptions& options = {});

// The scenario with the advice's changes (a change of PP drops parallel.stage_layers, as the PP
// knob does).
Scenario applyAdvice(const Scenario& sc, const Advice& advice);

// A change's value as the scenario file spells it: 8, "full", "interleaved", true.
nlohmann::json adviceValueJson(const AdviceChange& change);
// Back from that spelling (the web edition applies an item of "advice" by its "changes"):
// nullopt, with why, for a path advice does not change or a value of the wrong kind.
std::optional<AdviceChange> adviceChangeFromJson(const std::string& path, const nlohmann::json& value,
                                                 std::string& why);

// `"advice": [{"code", "changes": {path: value}, "knobs", "message", "message_en", "message_zh",
// "peak_bytes", "capacity_bytes", "fits", "step_s", "tokens_per_s", "bubble_fraction",
// "exposed_comm_s"}]`; lang picks "message".
nlohmann::json adviceToJson(const std::vector<Advice>& advice, const std::string& lang);

// `parascope.report/1` (io/report_json.h) with the fixes of advise() as its "advice" (absent when
// there are none): what `parascope-cli evaluate --format json` prints and the web edition answers.
nlohmann::json reportWithAdviceJson(const Scenario& sc, const Estimate& est, const std::string& lang, bool explain);

// The report's section: a heading and one line per item ("  out_of_memory: ZeRO-3: …"), or a line
// saying that nothing was found. Empty when the estimate diagnosed nothing.
std::string adviceText(const Estimate& est, const std::vector<Advice>& advice, const std::string& lang);

} // namespace parascope
