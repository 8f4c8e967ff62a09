// parascope-cli evaluate, timeline and sweep.

#include "cli.h"

#include "estimate/evaluate.h"
#include "io/report_json.h"
#include "io/timeline_json.h"
#include "search/sweep.h"
#include "types/knobs.h"

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

} // namespace parascope::cli
