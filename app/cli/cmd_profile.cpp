// parascope-cli profile import-nccl-tests and presets.

#include "cli.h"

#include "estimate/diagnostics.h"
#include "hardware/hardware_profile.h"
#include "hardware/nccl_tests_import.h"
#include "io/atomic_file.h"
#include "io/scenario_json.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace parascope::cli {

using namespace parascope;

int profileCommand(const Args& a)
{
    if (a.positional.empty() || a.positional[0] != "import-nccl-tests")
        return badUsage(a, "profile needs a subcommand: import-nccl-tests", "profile 需要子命令：import-nccl-tests");
    if (a.positional.size() < 2)
        return badUsage(a, "import-nccl-tests needs at least one LOG", "import-nccl-tests 至少需要一个日志文件");
    if (a.out.empty())
        return badUsage(a, "import-nccl-tests needs --out PROFILE", "import-nccl-tests 需要 --out PROFILE");
    std::vector<parascope::InputError> errors;
    std::optional<nlohmann::json> base;
    if (!a.into.empty()) {
        base = parascope::readJsonFile(a.into, errors);
        if (base && !parascope::readHardwareProfile(*base, errors))
            base.reset();
        if (!base) {
            for (const auto& e : errors)
                std::cerr << "parascope-cli: " << a.into << ": " << e.text() << "\n";
            return kExitBadInput;
        }
    }
    std::vector<parascope::NcclTestsImport> imports;
    std::vector<std::string> sources;
    for (std::size_t i = 1; i < a.positional.size(); ++i) {
        const std::string& file = a.positional[i];
        const std::optional<std::string> text = parascope::readTextFile(file, errors);
        if (!text)
            continue;
        const std::string name = std::filesystem::path(file).filename().string();
        auto imported = parascope::parseNcclTests(*text, name, a.nccl, errors);
        if (!imported)
            continue;
        const parascope::Collective op = imported->op.value_or(parascope::Collective::AllReduce);
        const long long sizes = (long long)imported->rows.size();
        std::cerr << "parascope-cli: " << name << ": "
                  << say(a,
                         std::string(parascope::toString(op)) + " on "
                             + parascope::countOf(imported->ranks, "rank", "ranks") + ", "
                             + parascope::countOf(imported->nodes, "node", "nodes") + ", "
                             + parascope::countOf(sizes, "size", "sizes"),
                         parascope::displayName(op).zh + "：" + std::to_string(imported->ranks) + " 个进程，"
                             + std::to_string(imported->nodes) + " 个节点，" + std::to_string(sizes) + " 种消息大小")
                  << "\n";
        for (const parascope::Localized& w : imported->warnings)
            std::cerr << "parascope-cli: " << name << ": " << say(a, "warning: " + w.en, "警告：" + w.zh) << "\n";
        if (imported->avg_busbw_gbps > 0) // the log's own average beside ours, as a check
            std::cerr << "parascope-cli: " << name << ": "
                      << say(a,
                             "average busbw: the log says " + parascope::num(imported->avg_busbw_gbps)
                                 + " GB/s, the imported sizes " + parascope::num(imported->meanBusbwGbps()) + " GB/s",
                             "平均总线带宽：日志为 " + parascope::num(imported->avg_busbw_gbps)
                                 + " GB/s，导入的各消息大小为 " + parascope::num(imported->meanBusbwGbps()) + " GB/s")
                      << "\n";
        imports.push_back(std::move(*imported));
        sources.push_back(name);
    }
    if (!errors.empty()) {
        for (const auto& e : errors)
            std::cerr << "parascope-cli: " << e.text() << "\n";
        return kExitBadInput;
    }
    const nlohmann::json merged = parascope::mergeIntoProfile(base ? &*base : nullptr, imports, sources);
    return emit(a, merged.dump(2) + "\n");
}

int presetsCommand(const Args& a)
{
    std::vector<std::string> kinds = {"models", "gpus", "clusters"};
    if (a.positional.size() > 1)
        return badUsage(a, "presets takes at most one kind", "presets 最多接受一个类别");
    if (a.positional.size() == 1) {
        const std::string k = a.positional[0];
        if (k != "models" && k != "gpus" && k != "clusters")
            return badUsage(a, "unknown preset kind \"" + k + "\" (models, gpus, clusters)",
                            "未知的预设类别“" + k + "”（可选 models、gpus、clusters）");
        kinds = {k};
    }
    if (!a.format.empty() && a.format != "json" && a.format != "text")
        return badUsage(a, "--format needs json or text", "--format 只能是 json 或 text");
    if (a.format == "json") {
        nlohmann::json out = nlohmann::json::object();
        for (const std::string& k : kinds) {
            nlohmann::json list = nlohmann::json::object();
            for (const parascope::PresetInfo& p : parascope::listPresets(k))
                list[p.id] = p.json;
            out[k] = list;
        }
        std::cout << out.dump(2) << "\n";
        return kExitOk;
    }
    for (const std::string& k : kinds) {
        std::cout << (zh(a) ? (k == "models" ? "模型：" : k == "gpus" ? "GPU：" : "集群：") : k + ":") << "\n";
        for (const parascope::PresetInfo& p : parascope::listPresets(k)) {
            std::string id = p.id;
            id.resize(std::max<std::size_t>(id.size(), 22), ' ');
            std::cout << "  " << id << "  " << p.name << "\n";
        }
    }
    return kExitOk;
}

} // namespace parascope::cli
