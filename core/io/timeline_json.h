#pragma once
// The simulated step as `parascope.timeline/1` JSON (lanes and ops) and as a Chrome trace (Trace
// Event Format: one process per pipeline rank, a compute and a communication thread, "X" events
// in µs, named and coloured by op type, and a flow arrow from each pipeline send to the op that
// receives it on the next stage) that Perfetto and chrome://tracing open.

#include "estimate/estimate.h"
#include "types/scenario.h"

#include <nlohmann/json.hpp>

namespace parascope {

inline constexpr const char* kTimelineSchema = "parascope.timeline/1";

nlohmann::json timelineToJson(const Scenario& sc, const Estimate& est);
struct ChromeTraceOptions {
    // One thread per kind of communication instead of one: pipeline sends (PP), the data-parallel
    // gradient and parameter collectives (DP), and the TP / CP / EP communication the layers
    // could not hide, drawn at the end of the op that waits for it.
    bool comm_lanes = false;
};
nlohmann::json timelineToChromeTrace(const Scenario& sc, const Estimate& est, const ChromeTraceOptions& options = {});

} // namespace parascope
