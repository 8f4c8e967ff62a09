#pragma once
// The preset JSON files of resources/presets, compiled in (generated source, see
// cmake/GeneratePresetSource.cmake).

#include <span>

namespace parascope {

struct EmbeddedPreset {
    const char* kind; // "models", "gpus", "clusters"
    const char* id; // file name without .json
    const char* json;
};

std::span<const EmbeddedPreset> embeddedPresets();

} // namespace parascope
