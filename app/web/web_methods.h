#pragma once
// The web API's methods (web_api.h), in two files: the engine's (web_api.cpp: evaluate, explore,
// move, timeline, knobs, set, presets, collective, import_hf) and the course's (web_course.cpp:
// lessons, exercises, the design task, the Advisor, a class's answers). Internal to app/web.

#include "types/scenario.h"
#include "util/json_reader.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace parascope::web {

using nlohmann::json;
using Errors = std::vector<InputError>;

// request.lang: "zh" or (anything else) "en".
std::string langOf(const json& request);
// request.scenario read as a file is; each error's path starts "scenario".
std::optional<Scenario> scenarioOf(const json& request, Errors& errors);

std::optional<json> lessonsMethod(const json& request, Errors& errors);
std::optional<json> lessonMethod(const json& request, Errors& errors);
std::optional<json> gradeExerciseMethod(const json& request, Errors& errors);
std::optional<json> gradeDesignMethod(const json& request, Errors& errors);
std::optional<json> adviseMethod(const json& request, Errors& errors);
std::optional<json> classAnswersMethod(const json& request, Errors& errors);

} // namespace parascope::web
