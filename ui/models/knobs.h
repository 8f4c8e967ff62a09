#pragma once
// The sliders of the scenario panel: a view of the core's knob table (core/types/knobs.h) —
// which scenario field each one moves, by which rule, and which values make sense for the current
// scenario — with the UI's translatable labels. The panel draws them, the tests check them.

#include "types/scenario.h"

#include <QString>

#include <functional>
#include <vector>

namespace parascope::ui {

struct Knob {
    const char* path; // scenario JSON path, e.g. "parallel.pp" (diagnostics highlight by it)
    const char* label; // untranslated; shown through QCoreApplication::translate("Knobs", label)
    std::function<std::vector<long long>(const Scenario&)> values; // sorted, contains the current value
    std::function<long long(const Scenario&)> get;
    std::function<void(Scenario&, long long)> set;
};

const std::vector<Knob>& knobs();
const Knob* findKnob(const QString& path);

// What the Sweep tab can sweep: the sliders, then the GPU count by DP — keeping the microbatches
// per replica (the global batch grows: weak scaling) or the global batch (the step falls: strong
// scaling; the stability wall rises either way).
const std::vector<Knob>& sweepKnobs();
const Knob* findSweepKnob(const QString& path);

// Index of the value closest to v (for a typed number that is not a valid value).
std::size_t nearestIndex(const std::vector<long long>& values, long long v);

} // namespace parascope::ui
