// parascope-cli model import-hf (a Hugging Face config.json → a model object) and model
// import-megatron (a pretrain_gpt.py argument list → a scenario).

#include "cli.h"

#include "io/hf_config_import.h"
#include "io/megatron_args_import.h"
#include "io/model_json.h"
#include "model/parameter_count.h"

#include <filesystem>
#include <iostream>
#include <string>

namespace parascope::cli {

using namespace parascope;

namespace {

// "8,190,735,360": a count as the model cards and the tests write it.
std::string grouped(std::int64_t n)
{
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

int importHf(const Args& a)
{
    const std::string& file = a.positional[1];
    std::vector<InputError> errors;
    const auto config = readJsonFile(file, errors);
    if (!config)
        return printFileErrors(file, errors);
    HfImportOptions options;
    options.text_only = a.text_only;
    const auto imported = importHfConfig(*config, file, options, errors);
    if (!imported)
        return printFileErrors(file, errors);
    const ModelSpec& m = imported->model;
    const ParamCounts c = countParameters(m, Explain::NumbersOnly);
    nlohmann::json j = modelToJson(m);
    j["source"]
        = "Hugging Face config.json (" + imported->architecture + "), imported by parascope-cli model import-hf";
    // The count beside the model card's, on stderr so that stdout stays the model object.
    const std::int64_t main_count = c.total - c.mtp_modules * c.mtp_module;
    std::cerr << "parascope-cli: " << m.name << " (" << imported->architecture << "): "
              << say(a,
                     grouped(main_count) + " parameters"
                         + (c.mtp_modules > 0 ? " + MTP " + grouped(c.mtp_modules * c.mtp_module) : std::string())
                         + (m.moe ? ", " + grouped(c.active) + " active per token" : std::string()),
                     grouped(main_count) + " 个参数"
                         + (c.mtp_modules > 0 ? "，另有 MTP " + grouped(c.mtp_modules * c.mtp_module) : std::string())
                         + (m.moe ? "，每个 token 激活 " + grouped(c.active) : std::string()))
              << "\n";
    if (imported->vision_params > 0) // the tower --text-only left out, for the model card's total
        std::cerr << "parascope-cli: "
                  << say(a,
                         "the vision tower, not imported: " + grouped(imported->vision_params) + " parameters ("
                             + imported->vision_formula + "); with it " + grouped(c.total + imported->vision_params),
                         "未导入的视觉编码器：" + grouped(imported->vision_params) + " 个参数（"
                             + imported->vision_formula + "）；合计 " + grouped(c.total + imported->vision_params))
                  << "\n";
    return emit(a, j.dump(2) + "\n");
}

int importMegatron(const Args& a)
{
    const std::string& file = a.positional[1];
    std::vector<InputError> errors;
    const auto text = readTextFile(file, errors);
    if (!text)
        return printFileErrors(file, errors);
    MegatronImportOptions options;
    options.gpus = a.gpus;
    options.vocab = a.vocab;
    if (!a.cluster.empty())
        options.cluster = a.cluster;
    const auto imported = importMegatronArgs(*text, std::filesystem::path(file).stem().string(), options, errors);
    if (!imported)
        return printFileErrors(file, errors);
    if (a.format == "json") {
        // The scenario to --out (when given), the whole import report on stdout.
        if (!a.out.empty())
            if (const int code = emit(a, imported->scenario.dump(2) + "\n"); code != kExitOk)
                return code;
        const nlohmann::json report = {{"schema", "parascope.megatron-import/1"},
                                       {"scenario", imported->scenario},
                                       {"notes", imported->notes},
                                       {"summary", imported->summary}};
        std::cout << report.dump(2) << "\n";
        return kExitOk;
    }
    if (!a.format.empty() && a.format != "text")
        return badUsage(a, "import-megatron writes --format text or json",
                        "import-megatron 只输出 --format text 或 json");
    for (const std::string& note : imported->notes)
        std::cerr << "parascope-cli: " << file << ": " << say(a, "assumed ", "假定 ") << note << "\n";
    std::cerr << importSummaryText(imported->summary, a.lang);
    return emit(a, imported->scenario.dump(2) + "\n");
}

} // namespace

int modelCommand(const Args& a)
{
    if (a.positional.empty() || (a.positional[0] != "import-hf" && a.positional[0] != "import-megatron"))
        return badUsage(a, "model needs a subcommand: import-hf or import-megatron",
                        "model 需要子命令：import-hf 或 import-megatron");
    if (a.positional.size() != 2)
        return badUsage(a, a.positional[0] + " needs exactly one FILE", a.positional[0] + " 需要且只需要一个文件");
    return a.positional[0] == "import-hf" ? importHf(a) : importMegatron(a);
}

} // namespace parascope::cli
