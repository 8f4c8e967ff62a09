#pragma once
// Hugging Face config.json → ModelSpec (parascope-cli model import-hf, the app's File → Import
// model…). Each supported architecture maps its fields to the model schema so that the
// parameter count equals the checkpoint's total; an unknown architecture, or a field that would
// change the count and has no mapping, is an error naming that field (never a silent default).

#include "types/model_spec.h"
#include "util/json_reader.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace parascope {

struct HfImportOptions {
    // Multimodal configs (Gemma 3 4B–27B: text_config + vision_config): import the language model
    // alone. Without it the vision tower, which the schema cannot express, is an error.
    bool text_only = false;
};

struct HfImport {
    ModelSpec model;
    std::string architecture; // as the config names it: "Qwen3MoeForCausalLM"
    // A multimodal config imported --text-only: its vision tower's parameters, counted apart (0
    // when the tower has no count here), and how.
    std::int64_t vision_params = 0;
    std::string vision_formula;
};

// The architectures importHfConfig() reads, as their config.json names them.
const std::vector<std::string>& hfArchitectures();

// `file` names the config (a path): the model's name comes from its "_name_or_path", else from
// the file or folder name (modelNameFromPath). Errors name the config.json field.
std::optional<HfImport> importHfConfig(const nlohmann::json& config, const std::string& file,
                                       const HfImportOptions& options, std::vector<InputError>& errors);

// "…/models--Qwen--Qwen3-8B/snapshots/<hash>/config.json" → "Qwen3-8B"; "llama-3.1-8b.json" →
// "llama-3.1-8b"; "…/Mixtral-8x7B-v0.1/config.json" → "Mixtral-8x7B-v0.1".
std::string modelNameFromPath(const std::string& file);

} // namespace parascope
