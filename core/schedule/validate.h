#pragma once
// Validation of a pipeline schedule: every microbatch is forwarded and back-propagated exactly
// once on every stage, on the rank that holds the stage, F before its backward and I before its
// W, and the dependencies can be satisfied (a unit-time dry run finishes without deadlock).

#include "schedule/action.h"

#include <string>
#include <vector>

namespace parascope {

std::vector<std::string> validateSchedule(const PipelineSchedule& s);

} // namespace parascope
