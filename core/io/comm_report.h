#pragma once
// The communication plan in the JSON report: every entry with its algorithm and bus bandwidth,
// PP entries with their links per boundary (io/report_json.h puts it under "communication").

#include "estimate/estimate.h"

#include <nlohmann/json.hpp>

namespace parascope {

nlohmann::json communicationToJson(const Estimate& est, bool explain);

} // namespace parascope
