#pragma once
// The vision tower of a multimodal Hugging Face config, counted from its vision_config so that it
// can be reported beside the language model (which is what ParaScope models, with --text-only).
// Internal to io/hf_config_import.

#include "util/json_reader.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parascope {

struct VisionTowerCount {
    std::int64_t params = 0;
    std::string formula; // how the count was made, with the config's numbers
};

// nullopt when the architecture's tower has no count here (no error), or when a field is
// missing or wrong (errors name it, under "vision_config.").
std::optional<VisionTowerCount> visionTowerParams(const std::string& architecture, const nlohmann::json& vision_config,
                                                  std::vector<InputError>& errors);

} // namespace parascope
