#pragma once
// A collective step by step (comm/collective_steps.h) as `parascope.collective/1` JSON: what
// `parascope-cli collective --format json` prints and what the web edition's "collective" answers.

#include "comm/bandwidth_ladder.h"
#include "comm/collective_steps.h"
#include "types/scenario.h"

#include <nlohmann/json.hpp>

namespace parascope {

inline constexpr const char* kCollectiveSchema = "parascope.collective/1";

// The bandwidth ladder of the link that bounds a plan, from the datasheet to its busbw (the
// explainer's placement of its ranks).
BandwidthLadder ladderOf(const CollectivePlan& p, const ClusterSpec& cluster);

nlohmann::json ladderJson(const BandwidthLadder& l);
nlohmann::json planJson(const CollectivePlan& p, const ClusterSpec& cluster);

} // namespace parascope
