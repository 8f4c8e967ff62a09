// A model's name from where its config.json lies (io/hf_config_import.h).

#include "io/hf_config_import.h"

#include <filesystem>

namespace parascope {

std::string modelNameFromPath(const std::string& file)
{
    namespace fs = std::filesystem;
    const fs::path p(file);
    // The Hugging Face cache: models--ORG--NAME/snapshots/HASH/config.json.
    for (fs::path dir = p.parent_path(); !dir.empty() && dir != dir.parent_path(); dir = dir.parent_path()) {
        const std::string d = dir.filename().string();
        if (d.rfind("models--", 0) == 0) {
            const std::size_t cut = d.rfind("--");
            return cut + 2 < d.size() ? d.substr(cut + 2) : d;
        }
    }
    std::string stem = p.stem().string();
    if (stem.size() > 7 && stem.substr(stem.size() - 7) == ".config")
        stem.resize(stem.size() - 7); // "Qwen3-8B.config.json"
    if (stem != "config" && !stem.empty())
        return stem;
    const std::string folder = p.parent_path().filename().string();
    return folder.empty() || folder == "." ? std::string("imported model") : folder;
}

} // namespace parascope
