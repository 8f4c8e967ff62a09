// parascope-cli: the engine from a terminal.
//   parascope-cli evaluate FILE [--format json|text] [--lang en|zh] [--no-explain]
//   parascope-cli presets [models|gpus|clusters] [--format json|text]
// Exit codes: 0 evaluated (even if it does not fit), 2 bad input (message on stderr, with the
// JSON path), 1 internal error.

#include "estimate/evaluate.h"
#include "types/knobs.h"
#include "hardware/hardware_profile.h"
#include "hardware/nccl_tests_import.h"
#include "io/report_json.h"
#include "io/scenario_json.h"
#include "io/atomic_file.h"
#include "io/timeline_json.h"
#include "parascope/version.h"
#include "search/search.h"
#include "search/sweep.h"
#include "validation/published_runs.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <optional>
#include <sstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

constexpr int kExitOk = 0, kExitInternal = 1, kExitBadInput = 2;

const char* kUsage =
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
    "sweep     evaluates one knob across values (PARAM: parallel.tp, parallel.pp, parallel.vpp,\n"
    "          parallel.dp, parallel.cp, parallel.ep, parallel.zero, training.seq_len,\n"
    "          training.micro_batch, training.global_batch, training.recompute (0-2),\n"
    "          parallel.schedule (0-5), gpus) and names the breaking points.\n"
    "--set     moves one of those knobs before evaluating, as the app's slider does (DP keeps\n"
    "          the microbatch count: the global batch follows); repeat it for several.\n"
    "search    evaluates every valid strategy (tp, pp, vpp, dp, cp, ep, SP, ZeRO, micro batch,\n"
    "          recompute, schedule) for the scenario's model, cluster, sequence and batch, ranks\n"
    "          them by tokens/s and prints the Pareto front of peak memory vs step time.\n"
    "validate  predicts every published run (default: the built-in reference set) and prints\n"
    "          predicted vs published step time, the error and the MAPE.\n"
    "exit codes: 0 evaluated (even when it does not fit), 2 bad input, 1 internal error.\n";

struct Args {
    std::vector<std::string> positional;
    std::string format; // per command default
    std::string lang = "en";
    std::string profile;
    std::string out;
    std::string into;
    std::string param;
    std::string values;
    std::vector<std::string> sets; // --set PATH=VALUE, in order
    long long gpus = 0, top = 10, threads = 0;
    bool closed_form = false, fewest_gpus = false;
    parascope::NcclTestsOverrides nccl;
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
    // --set moves a knob exactly as the app's slider and a sweep do (estimate/knobs.h).
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

int evaluateCommand(const Args& a)
{
    const std::string format = a.format.empty() ? "text" : a.format;
    if (format != "json" && format != "text")
        return badUsage("--format needs json or text");
    const auto scenario = loadScenario(a, "evaluate");
    if (!scenario)
        return kExitBadInput;
    parascope::EvaluateOptions options;
    options.record_timeline = false;
    const parascope::Estimate est = parascope::evaluate(*scenario, options);
    if (format == "json")
        return emit(a, parascope::reportToJson(*scenario, est, a.lang, a.explain).dump(2) + "\n");
    return emit(a, parascope::textReport(*scenario, est, a.lang));
}

int timelineCommand(const Args& a)
{
    const std::string format = a.format.empty() ? "json" : a.format;
    if (format != "json" && format != "chrome-trace")
        return badUsage("--format needs json or chrome-trace");
    const auto scenario = loadScenario(a, "timeline");
    if (!scenario)
        return kExitBadInput;
    const parascope::Estimate est = parascope::evaluate(*scenario);
    if (!est.timeline.simulated)
        std::cerr << "parascope-cli: note: no simulated timeline (" << est.time.note << ")\n";
    const nlohmann::json j = format == "json" ? parascope::timelineToJson(*scenario, est)
                                              : parascope::timelineToChromeTrace(*scenario, est);
    return emit(a, j.dump() + "\n");
}

int sweepCommand(const Args& a)
{
    const std::string format = a.format.empty() ? "text" : a.format;
    if (format != "json" && format != "text" && format != "csv")
        return badUsage("--format needs text, json or csv");
    if (!parascope::findKnob(a.param)) {
        std::string list;
        for (const parascope::Knob& k : parascope::knobs())
            list += (list.empty() ? "" : ", ") + k.path;
        return badUsage("--param must be one of " + list);
    }
    std::vector<long long> values;
    std::stringstream ss(a.values);
    for (std::string item; std::getline(ss, item, ',');) {
        char* end = nullptr;
        const long long v = std::strtoll(item.c_str(), &end, 10);
        if (item.empty() || !end || *end != '\0')
            return badUsage("--values needs whole numbers separated by commas, got \"" + item + "\"");
        values.push_back(v);
    }
    if (values.empty() || values.size() > 10000)
        return badUsage("--values needs 1 to 10000 values");
    const auto scenario = loadScenario(a, "sweep");
    if (!scenario)
        return kExitBadInput;
    const parascope::SweepResult r = parascope::sweep(*scenario, a.param, values);
    const double gib = double(1ull << 30);
    const auto codes = [](const parascope::SweepPoint& p, const char* sep) {
        std::string c;
        for (const auto& d : p.diagnostics)
            c += (c.empty() ? "" : sep) + d.code;
        return c;
    };
    if (format == "json") {
        nlohmann::json points = nlohmann::json::array();
        for (const auto& p : r.points) {
            nlohmann::json diags = nlohmann::json::array();
            for (const auto& d : p.diagnostics)
                diags.push_back({{"severity", parascope::toString(d.severity)}, {"code", d.code}, {"message", d.message.in(a.lang)}});
            points.push_back({{"value", p.value}, {"valid", p.valid}, {"peak_bytes", p.peak_bytes}, {"capacity_bytes", p.capacity_bytes},
                              {"peak_stage", p.peak_stage}, {"stage_bytes", p.stage_bytes}, {"step_s", p.step_s},
                              {"bubble_fraction", p.bubble_fraction}, {"exposed_comm_s", p.exposed_comm_s}, {"mfu", p.mfu},
                              {"tokens_per_s", p.tokens_per_s}, {"diagnostics", diags}});
        }
        nlohmann::json breaks = nlohmann::json::array();
        for (const auto& b : r.breaks)
            breaks.push_back({{"value", b.value}, {"code", b.code}, {"message", b.message.in(a.lang)}});
        return emit(a, nlohmann::json{{"schema", "parascope.sweep/1"}, {"param", r.param}, {"points", points}, {"breaking_points", breaks}}.dump(2) + "\n");
    }
    std::ostringstream o;
    char line[512];
    if (format == "csv") {
        o << "value,valid,peak_gib,capacity_gib,peak_stage,step_s,bubble_fraction,exposed_comm_s,mfu,tokens_per_s,diagnostics\n";
        for (const auto& p : r.points) {
            std::snprintf(line, sizeof line, "%lld,%d,%.4f,%.4f,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%s\n", p.value, p.valid ? 1 : 0,
                          p.peak_bytes / gib, p.capacity_bytes / gib, p.peak_stage, p.step_s, p.bubble_fraction, p.exposed_comm_s,
                          p.mfu, p.tokens_per_s, codes(p, ";").c_str());
            o << line;
        }
        return emit(a, o.str());
    }
    o << "Sweep of " << r.param << "\n";
    std::snprintf(line, sizeof line, "%10s %6s %10s %9s %8s %8s %9s %6s %12s  %s\n", "value", "valid", "peak GiB", "capacity", "step s",
                  "bubble", "exposed s", "MFU", "tokens/s", "diagnostics");
    o << line;
    for (const auto& p : r.points) {
        std::snprintf(line, sizeof line, "%10lld %6s %10.2f %9.1f %8.3f %7.1f%% %9.3f %5.1f%% %12.0f  %s\n", p.value, p.valid ? "yes" : "no",
                      p.peak_bytes / gib, p.capacity_bytes / gib, p.step_s, p.bubble_fraction * 100, p.exposed_comm_s, p.mfu * 100,
                      p.tokens_per_s, codes(p, ", ").c_str());
        o << line;
    }
    o << (a.lang == "zh" ? "\n临界点：\n" : "\nBreaking points:\n");
    if (r.breaks.empty())
        o << (a.lang == "zh" ? "  无\n" : "  none\n");
    for (const auto& b : r.breaks)
        o << "  " << b.message.in(a.lang) << "\n";
    return emit(a, o.str());
}

int searchCommand(const Args& a)
{
    const std::string format = a.format.empty() ? "text" : a.format;
    if (format != "json" && format != "text" && format != "csv")
        return badUsage("--format needs text, json or csv");
    const auto scenario = loadScenario(a, "search");
    if (!scenario)
        return kExitBadInput;
    parascope::SearchOptions o;
    o.gpus = a.gpus;
    o.top = std::size_t(a.top);
    o.threads = int(a.threads);
    o.simulate = !a.closed_form;
    const parascope::SearchResult r = parascope::searchStrategies(*scenario, o);
    const double gib = double(1ull << 30);
    const auto describe = [](const parascope::SearchRow& row) {
        const auto& p = row.parallel;
        char buf[160];
        std::snprintf(buf, sizeof buf, "TP%d PP%d%s DP%d CP%d EP%d%s ZeRO-%d mb%lld %s %s", p.tp, p.pp,
                      p.schedule == parascope::ScheduleKind::Interleaved ? (" VPP" + std::to_string(p.vpp)).c_str() : "",
                      p.dp, p.cp, p.ep, p.sequence_parallel ? " SP" : "", p.zero, (long long)row.training.micro_batch,
                      parascope::toString(row.training.recompute), parascope::toString(p.schedule));
        return std::string(buf);
    };
    const auto rowJson = [&](const parascope::SearchRow& row) {
        nlohmann::json j = parascope::scenarioToJson(parascope::applyRow(*scenario, row));
        return nlohmann::json{{"rank_index", row.index}, {"parallel", j["parallel"]}, {"training", j["training"]},
                              {"step_s", row.step_s}, {"tokens_per_s", row.tokens_per_s}, {"mfu", row.mfu},
                              {"peak_bytes", row.peak_bytes}, {"bubble_fraction", row.bubble_fraction}};
    };
    std::optional<parascope::FewestGpusResult> fewest;
    if (a.fewest_gpus)
        fewest = parascope::fewestGpus(*scenario);
    std::optional<parascope::EmptySearchReason> empty;
    if (r.top.empty())
        empty = parascope::explainEmptySearch(*scenario, o, r);
    const long long largest_mb = parascope::largestFittingMicroBatch(*scenario);
    if (format == "json") {
        nlohmann::json top = nlohmann::json::array(), pareto = nlohmann::json::array();
        for (const auto& row : r.top)
            top.push_back(rowJson(row));
        for (const auto& row : r.pareto)
            pareto.push_back(rowJson(row));
        nlohmann::json out = {{"schema", "parascope.search/1"}, {"gpus", r.top.empty() ? a.gpus : (long long)r.top.front().parallel.gpus()},
                              {"enumerated", r.enumerated}, {"valid", r.valid}, {"fitting", r.fitting}, {"seconds", r.seconds},
                              {"top", top}, {"pareto", pareto}};
        if (fewest) {
            out["fewest_gpus"] = fewest->gpus; // 0: none up to fewest_gpus_searched_up_to
            out["fewest_gpus_searched_up_to"] = fewest->searched_up_to;
            if (fewest->gpus == 0)
                out["fewest_gpus_reason"] = fewest->reason.in(a.lang);
        }
        if (empty)
            out["no_result"] = {{"reason", empty->text.in(a.lang)}, {"nearest_gpus", empty->nearest}};
        out["largest_micro_batch"] = largest_mb;
        return emit(a, out.dump(2) + "\n");
    }
    std::ostringstream o2;
    char line[320];
    if (format == "csv") {
        o2 << "rank,tp,pp,vpp,dp,cp,ep,sp,zero,micro_batch,recompute,schedule,step_s,tokens_per_s,mfu,peak_gib\n";
        int k = 0;
        for (const auto& row : r.top) {
            const auto& p = row.parallel;
            std::snprintf(line, sizeof line, "%d,%d,%d,%d,%d,%d,%d,%d,%d,%lld,%s,%s,%.6g,%.6g,%.6g,%.4f\n", ++k, p.tp, p.pp, p.vpp, p.dp,
                          p.cp, p.ep, p.sequence_parallel ? 1 : 0, p.zero, (long long)row.training.micro_batch,
                          parascope::toString(row.training.recompute), parascope::toString(p.schedule), row.step_s, row.tokens_per_s,
                          row.mfu, row.peak_bytes / gib);
            o2 << line;
        }
        return emit(a, o2.str());
    }
    std::snprintf(line, sizeof line, "Search: %zu strategies enumerated, %zu valid, %zu fit; %.2f s (%s)\n", r.enumerated, r.valid,
                  r.fitting, r.seconds, a.closed_form ? "closed-form step" : "simulated step");
    o2 << line;
    int k = 0;
    for (const auto& row : r.top) {
        std::snprintf(line, sizeof line, "%3d. %-62s step %8.3f s  %10.0f tokens/s  MFU %5.1f%%  peak %6.1f GiB\n", ++k,
                      describe(row).c_str(), row.step_s, row.tokens_per_s, row.mfu * 100, row.peak_bytes / gib);
        o2 << line;
    }
    if (empty) {
        o2 << "  " << empty->text.in(a.lang) << "\n";
        if (!empty->nearest.empty()) {
            o2 << "  Nearest GPU counts with a valid layout:";
            for (std::size_t i = 0; i < empty->nearest.size(); ++i)
                o2 << (i ? ", " : " ") << empty->nearest[i];
            o2 << "\n";
        }
    }
    o2 << "\nPareto front (peak memory vs step time):\n";
    for (const auto& row : r.pareto) {
        std::snprintf(line, sizeof line, "  %6.1f GiB  %8.3f s  %s\n", row.peak_bytes / gib, row.step_s, describe(row).c_str());
        o2 << line;
    }
    o2 << "\nLargest micro batch that fits the scenario's own strategy: "
       << (largest_mb > 0 ? std::to_string(largest_mb) : std::string("none (it does not fit)")) << "\n";
    if (fewest && fewest->gpus > 0)
        o2 << "Fewest GPUs on which it trains: " << fewest->gpus << "\n";
    else if (fewest && fewest->searched_up_to > 0)
        o2 << "Fewest GPUs on which it trains: none up to " << fewest->searched_up_to << " (" << fewest->reason.in(a.lang) << ")\n";
    else if (fewest)
        o2 << "Fewest GPUs on which it trains: none, whatever the count: " << fewest->reason.in(a.lang) << "\n";
    return emit(a, o2.str());
}

int validateCommand(const Args& a)
{
    const std::string format = a.format.empty() ? "text" : a.format;
    if (format != "json" && format != "text")
        return badUsage("--format needs json or text");
    if (a.positional.size() > 1)
        return badUsage("validate takes at most one RUNS file");
    std::vector<parascope::InputError> errors;
    nlohmann::json runs;
    std::string name = "built-in reference set";
    if (a.positional.empty()) {
        runs = parascope::findPreset("validation", "published-runs")->json;
    } else {
        name = a.positional[0];
        auto j = parascope::readJsonFile(a.positional[0], errors);
        if (!j) {
            for (const auto& e : errors)
                std::cerr << "parascope-cli: " << e.text() << "\n";
            return kExitBadInput;
        }
        runs = std::move(*j);
    }
    const parascope::ValidationSummary v = parascope::validateRuns(runs, errors);
    if (!errors.empty()) {
        for (const auto& e : errors)
            std::cerr << "parascope-cli: " << name << ": " << e.text() << "\n";
        return kExitBadInput;
    }
    if (format == "json") {
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& r : v.rows) {
            nlohmann::json row = {{"id", r.id}, {"family", r.source_family}, {"evaluated", r.evaluated}};
            if (r.part)
                row["part"] = parascope::toString(*r.part);
            if (r.evaluated) {
                row.update({{"published_step_s", r.published_step_s}, {"predicted_step_s", r.predicted_step_s},
                            {"published_tflops_per_gpu", r.published_tflops_per_gpu},
                            {"predicted_tflops_per_gpu", r.predicted_tflops_per_gpu}, {"error", r.error},
                            {"convention", r.convention}, {"predicted_mfu", r.predicted_mfu},
                            {"bubble_fraction", r.bubble_fraction}, {"defaults_used", r.defaults_used}});
            } else {
                row["skipped_because"] = r.skipped_because;
            }
            rows.push_back(std::move(row));
        }
        // Each part's errors apart: "check" (no constant was fitted on it) is the accuracy to quote.
        const auto part = [](const parascope::ErrorSummary& e) {
            return nlohmann::json{{"runs", e.runs}, {"evaluated", e.evaluated}, {"mape", e.mape},
                                  {"max_abs_error", e.max_abs_error}, {"worst", e.worst}};
        };
        return emit(a, nlohmann::json{{"runs", rows}, {"evaluated", v.evaluated}, {"mape", v.mape},
                                      {"max_abs_error", v.max_abs_error}, {"worst", v.worst},
                                      {"parts", {{"fit", part(v.fit)}, {"check", part(v.check)}}}}.dump(2) + "\n");
    }
    std::ostringstream o;
    o << "Validation against published runs (" << name << ")\n";
    char line[256];
    std::snprintf(line, sizeof line, "%-36s %-5s %10s %10s %9s %9s %8s\n", "run", "part", "pub step", "pred step", "pub TF/s",
                  "pred TF/s", "error");
    o << line;
    for (const auto& r : v.rows) {
        const char* part = r.part ? parascope::toString(*r.part) : "-";
        if (!r.evaluated) {
            o << "  " << r.id << " (" << part << "): skipped (" << r.skipped_because << ")\n";
            continue;
        }
        std::snprintf(line, sizeof line, "%-36s %-5s %9.2fs %9.2fs %9.1f %9.1f %+7.1f%%\n", r.id.c_str(), part,
                      r.published_step_s, r.predicted_step_s, r.published_tflops_per_gpu, r.predicted_tflops_per_gpu,
                      r.error * 100);
        o << line;
    }
    std::snprintf(line, sizeof line, "MAPE %.1f %% over %d runs; worst %s (%.1f %%)\n", v.mape * 100, v.evaluated,
                  v.worst.c_str(), v.max_abs_error * 100);
    o << line;
    // The parts apart: "check" runs no constant was fitted on (the accuracy to quote), "fit" runs
    // the constants were chosen on.
    const auto partLine = [&](const char* label, const parascope::ErrorSummary& e) {
        if (e.runs == 0)
            return;
        std::snprintf(line, sizeof line, "  %s: MAPE %.1f %% over %d of %d runs; worst %s (%.1f %%)\n", label, e.mape * 100,
                      e.evaluated, e.runs, e.worst.empty() ? "-" : e.worst.c_str(), e.max_abs_error * 100);
        o << line;
    };
    partLine("check (no constant fitted on these)", v.check);
    partLine("fit (constants chosen on these)", v.fit);
    return emit(a, o.str());
}

int profileCommand(const Args& a)
{
    if (a.positional.empty() || a.positional[0] != "import-nccl-tests")
        return badUsage("profile needs a subcommand: import-nccl-tests");
    if (a.positional.size() < 2)
        return badUsage("import-nccl-tests needs at least one LOG");
    if (a.out.empty())
        return badUsage("import-nccl-tests needs --out PROFILE");
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
        std::cerr << "parascope-cli: " << name << ": " << parascope::toString(imported->op.value_or(parascope::Collective::AllReduce)) << " on " << imported->ranks << " ranks, "
                  << imported->nodes << " node(s), " << imported->rows.size() << " sizes\n";
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
        return badUsage("presets takes at most one kind");
    if (a.positional.size() == 1) {
        const std::string k = a.positional[0];
        if (k != "models" && k != "gpus" && k != "clusters")
            return badUsage("unknown preset kind \"" + k + "\" (models, gpus, clusters)");
        kinds = {k};
    }
    if (!a.format.empty() && a.format != "json" && a.format != "text")
        return badUsage("--format needs json or text");
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
            std::cout << "parascope-cli " << parascope::versionText() << "\n";
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
        if (cmd == "timeline")
            return timelineCommand(a);
        if (cmd == "validate")
            return validateCommand(a);
        if (cmd == "sweep")
            return sweepCommand(a);
        if (cmd == "search")
            return searchCommand(a);
        if (cmd == "profile")
            return profileCommand(a);
        if (cmd == "presets")
            return presetsCommand(a);
        return badUsage("unknown command \"" + cmd + "\"");
    } catch (const std::exception& e) {
        std::cerr << "parascope-cli: internal error: " << e.what() << "\n";
        return kExitInternal;
    }
}
