#include "io/megatron_args_import.h"

#include "io/megatron_reader.h"
#include "io/scenario_json.h"

#include <cstdlib>

namespace parascope {

namespace megatron {

bool FlagReader::has(const std::string& key)
{
    if (!given(key))
        return false;
    used_.insert(key);
    return true;
}

std::string FlagReader::where(const std::string& key) const
{
    const auto it = launch_.flags.find(key);
    return it != launch_.flags.end() ? "line " + std::to_string(it->second.line) + ": --" + key : "--" + key;
}

std::optional<std::string> FlagReader::value(const std::string& key)
{
    if (!has(key))
        return std::nullopt;
    const Flag& f = launch_.flags.at(key);
    if (f.values.empty() || !f.values.front().why.empty()) {
        if (reported_.insert(key).second)
            errors_.push_back(
                {where(key),
                 f.values.empty() ? std::string("needs a value") : "cannot be read: " + f.values.front().why});
        return std::nullopt;
    }
    return f.values.front().text;
}

std::vector<std::string> FlagReader::values(const std::string& key)
{
    std::vector<std::string> out;
    if (!has(key))
        return out;
    for (const shell::Field& v : launch_.flags.at(key).values) {
        if (!v.why.empty())
            errors_.push_back({where(key), "cannot be read: " + v.why});
        else
            out.push_back(v.text);
    }
    return out;
}

std::optional<long long> FlagReader::integer(const std::string& key, long long min, long long max)
{
    const auto v = value(key);
    if (!v)
        return std::nullopt;
    const auto n = shell::wholeNumber(*v);
    if (!n || *n < min || *n > max) {
        errors_.push_back({where(key),
                           "must be a whole number in " + std::to_string(min) + "…" + std::to_string(max) + ", got "
                               + quoteInput(*v)});
        return std::nullopt;
    }
    return n;
}

long long FlagReader::integerOr(const std::string& key, long long fallback, long long min, long long max)
{
    return given(key) ? integer(key, min, max).value_or(fallback) : fallback;
}

long long FlagReader::required(const std::string& key)
{
    if (!given(key)) {
        errors_.push_back({"--" + key, "is required and not in the arguments"});
        return 1;
    }
    return integer(key).value_or(1);
}

std::optional<double> FlagReader::number(const std::string& key, double min, double max)
{
    const auto v = value(key);
    if (!v)
        return std::nullopt;
    char* end = nullptr;
    const double x = std::strtod(v->c_str(), &end);
    if (v->empty() || *end != '\0' || !(x >= min && x <= max)) {
        errors_.push_back({where(key), "must be a number in " + num(min) + "…" + num(max) + ", got " + quoteInput(*v)});
        return std::nullopt;
    }
    return x;
}

} // namespace megatron

namespace {

// Megatron-LM's training entry points other than GPT-style decoders: refused with what they train.
std::optional<std::string> unsupportedScript(const std::string& script)
{
    if (script.empty() || script == "pretrain_gpt.py")
        return std::nullopt;
    if (script == "pretrain_mamba.py" || script == "pretrain_hybrid.py")
        return script
            + " trains a Mamba / hybrid state-space model, which ParaScope does not model "
              "(GPT-style decoders: pretrain_gpt.py)";
    return script + " is not pretrain_gpt.py: ParaScope models GPT-style decoder training (dense and MoE)";
}

} // namespace

std::optional<MegatronImport> importMegatronArgs(const std::string& text, const std::string& name,
                                                 const MegatronImportOptions& options, std::vector<InputError>& errors)
{
    const std::size_t errors_before = errors.size();
    shell::Shell shell;
    const std::optional<megatron::Launch> launch = megatron::readLaunch(text, shell, errors);
    if (!launch)
        return std::nullopt;
    if (const auto refused = unsupportedScript(launch->script)) {
        errors.push_back({launch->launcher, *refused});
        return std::nullopt;
    }
    megatron::FlagReader f(*launch, errors);
    for (const std::string& n : launch->notes)
        f.note(n);
    nlohmann::json model = megatron::readModel(f, name, options);
    nlohmann::json parallel = megatron::readParallel(f, options, model.value("layers", 1LL));
    nlohmann::json training = megatron::readTraining(f, model.value("layers", 1LL), parallel);
    megatron::readMoe(f, model, parallel, training);
    if (errors.size() > errors_before) {
        for (const std::string& n : launch->notes) // what was not followed may be why
            errors.push_back({"", "(while reading) " + n});
        return std::nullopt;
    }
    MegatronImport out;
    out.notes = std::move(f.notes());
    out.summary = megatron::importSummary(f);
    out.scenario = {{"schema", "parascope.scenario/1"}, {"name", name},         {"model", model},
                    {"cluster", options.cluster},       {"parallel", parallel}, {"training", training}};
    // The scenario reader's checks (divisibility, EP within the expert grid, …) on the result.
    if (!readScenario(out.scenario, errors))
        return std::nullopt;
    return out;
}

std::string importSummaryText(const nlohmann::json& s, const std::string& lang)
{
    const bool zh = lang.rfind("zh", 0) == 0;
    const auto say = [zh](const std::string& en, const std::string& cn) { return zh ? cn : en; };
    std::string out;
    out += s["launcher"].is_null()
        ? say("arguments: the file's words (no launcher line)\n", "参数：文件中的各词（无启动行）\n")
        : say("arguments of ", "参数来自 ") + s["launcher"].get<std::string>() + "\n";
    std::string used;
    for (const auto& u : s["used"])
        used += (used.empty() ? "" : " ") + u.get<std::string>();
    out += say("used (", "已采用（") + std::to_string(s["used"].size()) + "): " + used + "\n";
    out += say("read and ignored (", "已读取但未采用（") + std::to_string(s["ignored"].size()) + "):\n";
    // Flags with their own reason one per line; the rest (learning rate, data, logging, …) on one.
    std::string plain, plain_why;
    for (const auto& i : s["ignored"]) {
        if (i.value("generic", false)) {
            plain += (plain.empty() ? "" : " ") + i["flag"].get<std::string>();
            plain_why = i["why"].get<std::string>();
            continue;
        }
        out += "  line " + std::to_string(i["line"].get<int>()) + ": " + i["flag"].get<std::string>() + ": "
            + i["why"].get<std::string>() + "\n";
    }
    if (!plain.empty())
        out += "  " + plain_why + ": " + plain + "\n";
    out += say("not understood (", "未能理解（") + std::to_string(s["not_understood"].size()) + ")"
        + (s["not_understood"].empty() ? "\n" : ":\n");
    for (const auto& n : s["not_understood"])
        out += "  line " + std::to_string(n["line"].get<int>()) + ": \"" + n["word"].get<std::string>()
            + "\": " + n["why"].get<std::string>() + "\n";
    return out;
}

} // namespace parascope
