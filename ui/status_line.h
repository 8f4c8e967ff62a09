#pragma once
// The status line's key figures: step, tokens/s, MFU and peak memory (with the pinned scenario
// A's deltas), "OUT OF MEMORY" when it does not fit, and for an impossible layout only what is
// wrong (no step time or throughput to quote).

#include "estimate/estimate.h"
#include "types/scenario.h"

#include <QString>

namespace parascope::ui {

QString statusLine(const Scenario& sc, const Estimate& e, const Estimate* pinned);

} // namespace parascope::ui
