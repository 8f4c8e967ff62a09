// parascope-cli: the command line, loading the scenario and writing the answer.

#include "cli.h"

#include "types/knobs.h"
#include "hardware/hardware_profile.h"
#include "io/atomic_file.h"
#include "io/scenario_json.h"
#include "parascope/version.h"

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

namespace {

const char* const kUsageText =
    "usage:\n"
    "  parascope-cli evaluate FILE [--set PATH=VALUE]… [--format text|json] [--lang en|zh] [--no-explain] [--profile PROFILE]\n"
    "  parascope-cli timeline FILE [--set PATH=VALUE]… [--format json|chrome-trace] [--out FILE] [--profile PROFILE]\n"
    "  parascope-cli sweep FILE --param PARAM --values V1,V2,… [--set PATH=VALUE]… [--format text|json|csv] [--lang en|zh]\n"
    "  parascope-cli search FILE [--gpus N] [--top K] [--threads N] [--closed-form] [--fewest-gpus] [--format text|json|csv]\n"
    "  parascope-cli validate [RUNS.json] [--format text|json]\n"
    "  parascope-cli profile import-nccl-tests LOG... [--op OP] [--ranks N] [--nodes N] [--into PROFILE] --out PROFILE\n"
    "  parascope-cli presets [models|gpus|clusters] [--format text|json]\n"
    "  parascope-cli --version | --help\n"
    "\n"
    "evaluate  reads a parascope.scenario/1 JSON file and prints memory per pipeline stage,\n"
    "          communication per collective, step time and what breaks. --profile applies a\n"
    "          parascope.hardware-profile/1 (from parascope-probe) to the cluster.\n"
    "timeline  writes the simulated training step: parascope.timeline/1 JSON, or a Chrome trace\n"
    "          (Trace Event Format) that Perfetto and chrome://tracing open.\n"
    "profile   import-nccl-tests reads nccl-tests logs (text or -J JSON) into a hardware profile;\n"
    "          the collective, ranks and nodes come from the log, or from --op/--ranks/--nodes.\n"
    "sweep     evaluates one knob across values (PARAM: one of the knobs below; enum knobs by their\n"
    "          position) and names the breaking points.\n"
    "--set     moves one of those knobs before evaluating, as the app's slider does (DP keeps\n"
    "          the microbatch count: the global batch follows); repeat it for several.\n"
    "search    evaluates every valid strategy (tp, pp, vpp, dp, cp, ep, SP, ZeRO, micro batch,\n"
    "          recompute, schedule) for the scenario's model, cluster, sequence and batch, ranks\n"
    "          them by tokens/s and prints the Pareto front of peak memory vs step time.\n"
    "validate  predicts every published run (default: the built-in reference set) and prints\n"
    "          predicted vs published step time, the error and the MAPE.\n"
    "exit codes: 0 evaluated (even when it does not fit), 2 bad input, 1 internal error.\n";

} // namespace

std::string usage()
{
    std::string list;
    for (const Knob& k : knobs())
        list += "\n  " + k.path + (k.value_name ? "  (" + [&] {
            std::string names;
            for (long long v = k.min; v <= k.max; ++v)
                names += (names.empty() ? "" : ", ") + std::string(k.value_name(v));
            return names;
        }() + ")" : std::string());
    return kUsageText + std::string("knobs for --set and sweep --param:") + list + "\n";
}

int badUsage(const std::string& message)
{
    std::cerr << "parascope-cli: " << message << "\n\n" << usage();
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
            if (!v)
                return badUsage("--format needs a value");
            a.format = v;
        } else if (arg == "--gpus" || arg == "--top" || arg == "--threads") {
            const char* v = value();
            const long long n = v ? std::atoll(v) : 0;
            if (n < 1 || n > (1 << 24))
                return badUsage(arg + " needs a whole number ≥ 1");
            (arg == "--gpus" ? a.gpus : arg == "--top" ? a.top : a.threads) = n;
        } else if (arg == "--closed-form") {
            a.closed_form = true;
        } else if (arg == "--fewest-gpus") {
            a.fewest_gpus = true;
        } else if (arg == "--param" || arg == "--values") {
            const char* v = value();
            if (!v)
                return badUsage(arg + " needs a value");
            (arg == "--param" ? a.param : a.values) = v;
        } else if (arg == "--op") {
            const char* v = value();
            if (!v)
                return badUsage(arg + " needs a value");
            a.nccl.op = parascope::enumFromName<parascope::Collective>(v);
            if (!a.nccl.op)
                return badUsage("--op must be one of " + parascope::enumNameList<parascope::Collective>());
        } else if (arg == "--into") {
            const char* v = value();
            if (!v)
                return badUsage(arg + " needs a value");
            a.into = v;
        } else if (arg == "--ranks" || arg == "--nodes") {
            const char* v = value();
            const int n = v ? std::atoi(v) : 0;
            if (n < 1)
                return badUsage(arg + " needs a whole number ≥ 1");
            (arg == "--ranks" ? a.nccl.ranks : a.nccl.nodes) = n;
        } else if (arg == "--set") {
            const char* v = value();
            if (!v)
                return badUsage("--set needs PATH=VALUE (e.g. --set parallel.dp=16)");
            a.sets.push_back(v);
        } else if (arg == "--out") {
            const char* v = value();
            if (!v)
                return badUsage("--out needs a FILE");
            a.out = v;
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

// Reads the scenario (and applies --profile); prints every input error with its path.
std::optional<parascope::Scenario> loadScenario(const Args& a, const char* command)
{
    if (a.positional.size() != 1) {
        badUsage(std::string(command) + " needs exactly one scenario FILE");
        return std::nullopt;
    }
    std::vector<parascope::InputError> errors;
    auto scenario = parascope::readScenarioFile(a.positional[0], errors);
    if (!scenario) {
        for (const parascope::InputError& e : errors)
            std::cerr << "parascope-cli: " << (e.path.empty() ? "" : a.positional[0] + ": ") << e.text() << "\n";
        return std::nullopt;
    }
    if (!a.profile.empty()) {
        const auto profile = parascope::readHardwareProfileFile(a.profile, errors);
        if (!profile) {
            for (const parascope::InputError& e : errors)
                std::cerr << "parascope-cli: " << (e.path.empty() ? "" : a.profile + ": ") << e.text() << "\n";
            return std::nullopt;
        }
        scenario->cluster = parascope::calibrate(scenario->cluster, *profile);
    }
    // --set moves a knob exactly as the app's slider and a sweep do (types/knobs.h).
    for (const std::string& assignment : a.sets) {
        std::string why;
        if (!parascope::applyKnobAssignment(*scenario, assignment, why)) {
            std::cerr << "parascope-cli: --set " << assignment << ": " << why << "\n";
            return std::nullopt;
        }
    }
    return scenario;
}

// Writes text to --out (atomically: a temporary file renamed over the target) or stdout.
int emit(const Args& a, const std::string& text)
{
    if (a.out.empty()) {
        std::cout << text;
        return kExitOk;
    }
    if (const std::string error = parascope::writeFileAtomically(a.out, text); !error.empty()) {
        std::cerr << "parascope-cli: " << error << "\n";
        return kExitBadInput;
    }
    return kExitOk;
}

} // namespace parascope::cli
