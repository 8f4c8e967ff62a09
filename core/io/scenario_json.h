#pragma once
// `parascope.scenario/1` ⇄ Scenario, and the preset catalogue (models, GPUs, clusters).
// Presets and custom objects go through the same readers, so a custom model is a JSON object
// with exactly the fields of a preset file.

#include "types/scenario.h"
#include "util/json_reader.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace parascope {

inline constexpr const char* kScenarioSchema = "parascope.scenario/1";

struct PresetInfo {
    std::string kind, id, name, source;
    nlohmann::json json;
};

// Every preset of a kind ("models", "gpus", "clusters"), sorted by id.
std::vector<PresetInfo> listPresets(const std::string& kind);
const PresetInfo* findPreset(const std::string& kind, const std::string& id);

std::optional<ModelSpec> readModel(const nlohmann::json& j, const std::string& path, std::vector<InputError>& errors);
std::optional<GpuSpec> readGpu(const nlohmann::json& j, const std::string& path, std::vector<InputError>& errors);
std::optional<ClusterSpec> readCluster(const nlohmann::json& j, const std::string& path,
                                       std::vector<InputError>& errors);

// Whole scenario; returns nullopt when there is any error (all of them in `errors`).
std::optional<Scenario> readScenario(const nlohmann::json& j, std::vector<InputError>& errors);
std::optional<Scenario> readScenarioFile(const std::string& file, std::vector<InputError>& errors);

nlohmann::json scenarioToJson(const Scenario& sc);

} // namespace parascope
