#pragma once
// The simulated step as `parascope.timeline/1` JSON (lanes and ops) and as a Chrome trace (Trace
// Event Format: one process per pipeline rank, a compute and a communication thread, "X" events
// in µs, named and coloured by op type) that Perfetto and chrome://tracing open.

#include "estimate/estimate.h"
#include "types/scenario.h"

#include <nlohmann/json.hpp>

namespace parascope {

inline constexpr const char* kTimelineSchema = "parascope.timeline/1";

nlohmann::json timelineToJson(const Scenario& sc, const Estimate& est);
nlohmann::json timelineToChromeTrace(const Scenario& sc, const Estimate& est);

} // namespace parascope
