#pragma once
// A model object's fields, read and written (io/scenario_json.cpp resolves presets and calls
// these): the shape, the MoE block and the variants (MLA, sliding window, MTP, …).

#include "types/model_spec.h"
#include "util/json_reader.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace parascope {

// Reads every field of a model object into `m` (whose id is set); errors name their paths.
void readModelFields(ObjectReader& r, ModelSpec& m, std::vector<InputError>& errors);
// The model object as a file writes it: variants only when set.
nlohmann::json modelToJson(const ModelSpec& m);

} // namespace parascope
