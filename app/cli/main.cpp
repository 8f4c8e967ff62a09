// parascope-cli: the engine from a terminal.
//   parascope-cli evaluate FILE [--format json|text] [--lang en|zh] [--no-explain]
//   parascope-cli presets [models|gpus|clusters] [--format json|text]
// Exit codes: 0 evaluated (even if it does not fit), 2 bad input (message on stderr, with the
// JSON path), 1 internal error.

#include "estimate/evaluate.h"
#include "hardware/hardware_profile.h"
#include "io/report_json.h"
#include "io/scenario_json.h"

#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

namespace {

constexpr int kExitOk = 0, kExitInternal = 1, kExitBadInput = 2;

const char* kUsage =
    "usage:\n"
    "  parascope-cli evaluate FILE [--format text|json] [--lang en|zh] [--no-explain] [--profile PROFILE]\n"
    "  parascope-cli presets [models|gpus|clusters] [--format text|json]\n"
    "  parascope-cli --version | --help\n"
    "\n"
    "evaluate  reads a parascope.scenario/1 JSON file and prints memory per pipeline stage,\n"
    "          communication per collective, step time and what breaks. --profile applies a\n"
    "          parascope.hardware-profile/1 (from parascope-probe) to the cluster.\n"
    "exit codes: 0 evaluated (even when it does not fit), 2 bad input, 1 internal error.\n";

struct Args {
    std::vector<std::string> positional;
    std::string format = "text";
    std::string lang = "en";
    std::string profile;
    bool explain = true;
};

int badUsage(const std::string& message)
{
    std::cerr << "parascope-cli: " << message << "\n\n" << kUsage;
    return kExitBadInput;
}

// Returns an exit code on error, -1 when parsed.
int parseArgs(int argc, char** argv, int first, Args& a)
{
    for (int i = first; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
        if (arg == "--format") {
            const char* v = value();
            if (!v || (std::string(v) != "json" && std::string(v) != "text"))
                return badUsage("--format needs json or text");
            a.format = v;
        } else if (arg == "--lang") {
            const char* v = value();
            if (!v || (std::string(v) != "en" && std::string(v).rfind("zh", 0) != 0))
                return badUsage("--lang needs en or zh");
            a.lang = std::string(v).rfind("zh", 0) == 0 ? "zh" : "en";
        } else if (arg == "--profile") {
            const char* v = value();
            if (!v)
                return badUsage("--profile needs a hardware profile FILE");
            a.profile = v;
        } else if (arg == "--no-explain") {
            a.explain = false;
        } else if (arg.rfind("--", 0) == 0) {
            return badUsage("unknown option " + arg);
        } else {
            a.positional.push_back(arg);
        }
    }
    return -1;
}

int evaluateCommand(const Args& a)
{
    if (a.positional.size() != 1)
        return badUsage("evaluate needs exactly one scenario FILE");
    std::vector<parascope::InputError> errors;
    auto scenario = parascope::readScenarioFile(a.positional[0], errors);
    if (!scenario) {
        for (const parascope::InputError& e : errors)
            std::cerr << "parascope-cli: " << (e.path.empty() ? "" : a.positional[0] + ": ") << e.text() << "\n";
        return kExitBadInput;
    }
    if (!a.profile.empty()) {
        const auto profile = parascope::readHardwareProfileFile(a.profile, errors);
        if (!profile) {
            for (const parascope::InputError& e : errors)
                std::cerr << "parascope-cli: " << (e.path.empty() ? "" : a.profile + ": ") << e.text() << "\n";
            return kExitBadInput;
        }
        scenario->cluster = parascope::calibrate(scenario->cluster, *profile);
    }
    const parascope::Estimate est = parascope::evaluate(*scenario);
    if (a.format == "json")
        std::cout << parascope::reportToJson(*scenario, est, a.lang, a.explain).dump(2) << "\n";
    else
        std::cout << parascope::textReport(*scenario, est, a.lang);
    return kExitOk;
}

int presetsCommand(const Args& a)
{
    std::vector<std::string> kinds = {"models", "gpus", "clusters"};
    if (a.positional.size() > 1)
        return badUsage("presets takes at most one kind");
    if (a.positional.size() == 1) {
        const std::string k = a.positional[0];
        if (k != "models" && k != "gpus" && k != "clusters")
            return badUsage("unknown preset kind \"" + k + "\" (models, gpus, clusters)");
        kinds = {k};
    }
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
        std::cout << k << ":\n";
        for (const parascope::PresetInfo& p : parascope::listPresets(k)) {
            std::string id = p.id;
            id.resize(std::max<std::size_t>(id.size(), 22), ' ');
            std::cout << "  " << id << "  " << p.name << "\n";
        }
    }
    return kExitOk;
}

} // namespace

int main(int argc, char** argv)
{
    try {
        if (argc < 2)
            return badUsage("missing command");
        const std::string cmd = argv[1];
        if (cmd == "--version") {
            std::cout << "parascope-cli " << PARASCOPE_VERSION << "\n";
            return kExitOk;
        }
        if (cmd == "--help" || cmd == "-h" || cmd == "help") {
            std::cout << kUsage;
            return kExitOk;
        }
        Args a;
        if (int rc = parseArgs(argc, argv, 2, a); rc >= 0)
            return rc;
        if (cmd == "evaluate")
            return evaluateCommand(a);
        if (cmd == "presets")
            return presetsCommand(a);
        return badUsage("unknown command \"" + cmd + "\"");
    } catch (const std::exception& e) {
        std::cerr << "parascope-cli: internal error: " << e.what() << "\n";
        return kExitInternal;
    }
}
