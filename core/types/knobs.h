#pragma once
// The knobs: every scenario value a user moves one at a time — a slider in the app, a sweep's
// axis, `parascope-cli … --set PATH=VALUE` — in one table. Each knob has its scenario path, its
// name in both languages, the range a scenario file may hold, the values worth offering for the
// current scenario, and the rule for what else moves with it (DP keeps the microbatch count, so
// the global batch follows; PP drops an uneven stage_layers list). A slider, a sweep point and
// `--set` go through the same set(), so they give the same scenario, number for number.

#include "types/diagnostic.h"
#include "types/scenario.h"

#include <functional>
#include <string>
#include <optional>
#include <string_view>
#include <vector>

namespace parascope {

struct Knob {
    std::string path; // scenario JSON path ("parallel.dp"), or "gpus" (through DP)
    std::string short_name; // "DP", for axes and breaking points ("from DP = 64: …")
    Localized label; // "Data parallel (DP)" / "数据并行（DP）"
    long long min = 1, max = 1; // the range a value may take (as the scenario reader accepts)
    std::string rule; // what else moves when this one does ("" when nothing)
    std::function<long long(const Scenario&)> get;
    // Sets the value and applies the rule; the value is in [min, max].
    std::function<void(Scenario&, long long)> set;
    // Sorted values worth offering for this scenario (powers of two, divisors of the layer count,
    // multiples of micro batch × DP, …), always including the current value.
    std::function<std::vector<long long>(const Scenario&)> offered;
    // Enum knobs: the name of a value, from the enum's name table ("full", "interleaved");
    // empty for numeric knobs.
    std::function<const char*(long long)> value_name = nullptr;
};

// Every knob, in the order the app shows them.
const std::vector<Knob>& knobs();
const Knob* findKnob(std::string_view path);
// The knobs that set the GPU count through DP ("gpus", "gpus_same_batch"): their values must be
// multiples of one replica's tp·pp·cp GPUs.
inline bool isGpuCountKnob(std::string_view path) { return path == "gpus" || path == "gpus_same_batch"; }

// Sets `path` to `value` by its knob's rule. False (with the reason in `why`) for an unknown path,
// a value out of range, or a value the rule cannot apply (gpus not a multiple of tp·pp·cp).
bool applyKnob(Scenario& sc, std::string_view path, long long value, std::string& why);

// Parses "PATH=VALUE" (as `--set` takes it) and applies it. Enum knobs take their names too:
// training.recompute=full, parallel.schedule=interleaved.
bool applyKnobAssignment(Scenario& sc, std::string_view assignment, std::string& why);
// A value as --set and sweep --values take it: a whole number, or an enum knob's value by its
// name (training.cuda_graphs=layers); nullopt for anything else.
std::optional<long long> parseKnobValue(const Knob& k, std::string_view text);

} // namespace parascope
