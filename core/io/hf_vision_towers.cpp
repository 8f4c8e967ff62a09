#include "io/hf_vision_towers.h"

namespace parascope {

namespace {

std::optional<std::int64_t> field(const nlohmann::json& v, const char* key, std::vector<InputError>& errors)
{
    const auto it = v.find(key);
    if (it == v.end() || !it->is_number_integer() || it->get<std::int64_t>() < 1
        || it->get<std::int64_t>() > (1 << 24)) {
        errors.push_back({std::string("vision_config.") + key,
                          it == v.end() ? std::string("is required to count the vision tower and missing")
                                        : "must be an integer in 1…16777216, got " + describeJson(*it)});
        return std::nullopt;
    }
    return it->get<std::int64_t>();
}

// Qwen2.5-VL's vision transformer (modeling_qwen2_5_vl.py, Qwen2_5_VisionTransformerPretrainedModel):
// a Conv3d patch embedding without bias, `depth` blocks of two RMSNorms, qkv (h → 3h) and proj
// (h → h) with biases and a gated MLP (gate, up h → f, down f → h, with biases), and the patch
// merger: an RMSNorm, then h·m² → h·m² and h·m² → out_hidden_size, with biases (m: the spatial
// merge size).
std::optional<VisionTowerCount> qwen25Vision(const nlohmann::json& v, std::vector<InputError>& errors)
{
    const auto depth = field(v, "depth", errors), h = field(v, "hidden_size", errors);
    const auto f = field(v, "intermediate_size", errors), out = field(v, "out_hidden_size", errors);
    const auto patch = field(v, "patch_size", errors), temporal = field(v, "temporal_patch_size", errors);
    const auto merge = field(v, "spatial_merge_size", errors);
    const std::int64_t chans = v.contains("in_chans") ? field(v, "in_chans", errors).value_or(3)
        : v.contains("in_channels")                   ? field(v, "in_channels", errors).value_or(3)
                                                      : 3;
    if (!depth || !h || !f || !out || !patch || !temporal || !merge)
        return std::nullopt;
    const std::int64_t embed = chans * *temporal * *patch * *patch * *h;
    const std::int64_t block = 2 * *h + (*h * 3 * *h + 3 * *h) + (*h * *h + *h) + 2 * (*h * *f + *f) + (*f * *h + *h);
    const std::int64_t wide = *h * *merge * *merge;
    const std::int64_t merger = *h + (wide * wide + wide) + (wide * *out + *out);
    VisionTowerCount c;
    c.params = embed + *depth * block + merger;
    c.formula = "patch embedding " + std::to_string(embed) + " + " + std::to_string(*depth) + " blocks × "
        + std::to_string(block) + " + patch merger " + std::to_string(merger);
    return c;
}

} // namespace

std::optional<VisionTowerCount> visionTowerParams(const std::string& architecture, const nlohmann::json& vision_config,
                                                  std::vector<InputError>& errors)
{
    if (!vision_config.is_object())
        return std::nullopt;
    if (architecture == "Qwen2_5_VLForConditionalGeneration")
        return qwen25Vision(vision_config, errors);
    return std::nullopt;
}

} // namespace parascope
