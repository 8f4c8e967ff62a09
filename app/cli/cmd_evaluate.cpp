// parascope-cli evaluate, timeline and sweep.

#include "cli.h"

#include "estimate/diagnostics.h"
#include "estimate/evaluate.h"
#include "io/report_json.h"
#include "io/timeline_json.h"
#include "search/advice.h"
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
        return badUsage(a, "--format needs json or text", "--format 只能是 json 或 text");
    const auto scenario = loadScenario(a, "evaluate");
    if (!scenario)
        return kExitBadInput;
    parascope::EvaluateOptions options;
    options.record_timeline = false;
    const parascope::Estimate est = parascope::evaluate(*scenario, options);
    // What would fix each problem, each change evaluated (search/advice.h); none when nothing is wrong.
    if (format == "json")
        return emit(a, parascope::reportWithAdviceJson(*scenario, est, a.lang, a.explain).dump(2) + "\n");
    const parascope::AdviceList advice = parascope::advise(*scenario, est);
    return emit(a, parascope::textReport(*scenario, est, a.lang) + parascope::adviceText(est, advice.items, a.lang));
}

int timelineCommand(const Args& a)
{
    const std::string format = a.format.empty() ? "json" : a.format;
    if (format != "json" && format != "chrome-trace")
        return badUsage(a, "--format needs json or chrome-trace", "--format 只能是 json 或 chrome-trace");
    const auto scenario = loadScenario(a, "timeline");
    if (!scenario)
        return kExitBadInput;
    const parascope::Estimate est = parascope::evaluate(*scenario);
    if (!est.timeline.simulated)
        std::cerr << "parascope-cli: "
                  << say(a, "note: no simulated timeline (" + est.time.note + ")",
                         "注意：没有模拟时间线（改用解析估计）")
                  << "\n";
    const nlohmann::json j = format == "json" ? parascope::timelineToJson(*scenario, est)
                                              : parascope::timelineToChromeTrace(*scenario, est, {a.comm_lanes});
    return emit(a, j.dump() + "\n");
}

namespace {

const double kGiB = double(1ull << 30);

// --param names no knob: the usage error lists every knob.
int badParam(const Args& a)
{
    std::string list;
    for (const parascope::Knob& k : parascope::knobs())
        list += (list.empty() ? "" : ", ") + k.path;
    return badUsage(a, "--param must be one of " + list, "--param 只能取以下参数之一：" + list);
}

// --values as whole numbers, or an enum knob's values by name; returns an exit code on error, -1
// when parsed.
int parseValues(const Args& a, const parascope::Knob& knob, std::vector<long long>& values)
{
    std::stringstream ss(a.values);
    for (std::string item; std::getline(ss, item, ',');) {
        const std::optional<long long> v = parascope::parseKnobValue(knob, item);
        if (!v)
            return badUsage(
                a,
                std::string(knob.value_name ? "--values needs whole numbers or value names"
                                            : "--values needs whole numbers")
                    + " separated by commas, got \"" + item + "\"",
                std::string(knob.value_name ? "--values 需要以逗号分隔的整数或取值名" : "--values 需要以逗号分隔的整数")
                    + "，收到“" + item + "”");
        values.push_back(*v);
    }
    if (values.empty() || values.size() > 10000)
        return badUsage(a, "--values needs 1 to 10000 values", "--values 需要 1 到 10000 个值");
    return -1;
}

// A point's diagnostic codes joined by sep.
std::string diagnosticCodes(const parascope::SweepPoint& p, const char* sep)
{
    std::string c;
    for (const auto& d : p.diagnostics)
        c += (c.empty() ? "" : sep) + d.code;
    return c;
}

// One point of the sweep as JSON, its diagnostics in a's language.
nlohmann::json sweepPointJson(const Args& a, const parascope::SweepPoint& p)
{
    nlohmann::json diags = nlohmann::json::array();
    for (const auto& d : p.diagnostics)
        diags.push_back(
            {{"severity", parascope::toString(d.severity)}, {"code", d.code}, {"message", d.message.in(a.lang)}});
    return {{"value", p.value},
            {"valid", p.valid},
            {"peak_bytes", p.peak_bytes},
            {"capacity_bytes", p.capacity_bytes},
            {"peak_stage", p.peak_stage},
            {"stage_bytes", p.stage_bytes},
            {"step_s", p.step_s},
            {"bubble_fraction", p.bubble_fraction},
            {"exposed_comm_s", p.exposed_comm_s},
            {"mfu", p.mfu},
            {"tokens_per_s", p.tokens_per_s},
            {"goodput", p.goodput},
            {"step_band", p.gpus > 0 ? parascope::bandJson(p.band, a.lang) : nlohmann::json()},
            {"diagnostics", diags}};
}

// The parascope.sweep/1 answer.
std::string sweepJson(const Args& a, const parascope::SweepResult& r)
{
    nlohmann::json points = nlohmann::json::array();
    for (const auto& p : r.points)
        points.push_back(sweepPointJson(a, p));
    nlohmann::json breaks = nlohmann::json::array();
    for (const auto& b : r.breaks)
        breaks.push_back({{"value", b.value}, {"code", b.code}, {"message", b.message.in(a.lang)}});
    nlohmann::json out{
        {"schema", "parascope.sweep/1"}, {"param", r.param}, {"points", points}, {"breaking_points", breaks}};
    if (!r.changes_note.en.empty())
        out["changes_note"] = r.changes_note.in(a.lang); // what else moves along the axis (GPUs, DP, …)
    return out.dump(2) + "\n";
}

// The points as CSV, one line each.
std::string sweepCsv(const parascope::SweepResult& r)
{
    std::ostringstream o;
    char line[512];
    o << "value,valid,peak_gib,capacity_gib,peak_stage,step_s,step_band,band_class,bubble_fraction,exposed_comm_s,"
         "mfu,tokens_per_s,goodput,diagnostics\n";
    for (const auto& p : r.points) {
        std::snprintf(line, sizeof line, "%lld,%d,%.4f,%.4f,%d,%.6g,%.4f,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%s\n", p.value,
                      p.valid ? 1 : 0, p.peak_bytes / kGiB, p.capacity_bytes / kGiB, p.peak_stage, p.step_s,
                      p.band.mape, p.gpus == 0 ? "" : parascope::bandClassId(p.band).c_str(), p.bubble_fraction,
                      p.exposed_comm_s, p.mfu, p.tokens_per_s, p.goodput, diagnosticCodes(p, ";").c_str());
        o << line;
    }
    return o.str();
}

// The text table: a header, then one line per point.
void writeSweepTable(std::ostream& o, const Args& a, const parascope::SweepResult& r)
{
    char line[512];
    const struct {
        const char* en;
        const char* zh;
        std::size_t width;
    } columns[] = {{"value", "取值", 10},        {"valid", "有效", 9},          {"peak GiB", "峰值 GiB", 11},
                   {"capacity", "容量 GiB", 10}, {"step s", "单步 s", 9},       {"± step", "± 单步", 9},
                   {"bubble", "气泡", 9},        {"exposed s", "未重叠 s", 10}, {"MFU", "MFU", 7},
                   {"tokens/s", "tokens/s", 13}, {"goodput", "有效时间", 10}};
    for (const auto& c : columns)
        o << padColumns(say(a, c.en, c.zh), c.width);
    o << "  " << say(a, "diagnostics", "诊断") << "\n";
    for (const auto& p : r.points) {
        std::snprintf(line, sizeof line, "%10lld", p.value);
        // A valid layout that does not fit is "out of memory", not "invalid".
        const bool oom = std::any_of(p.diagnostics.begin(), p.diagnostics.end(),
                                     [](const parascope::Diagnostic& d) { return d.code == "out_of_memory"; });
        const bool only_oom = !p.valid && oom
            && std::none_of(p.diagnostics.begin(), p.diagnostics.end(), [](const parascope::Diagnostic& d) {
                   return d.severity == parascope::Severity::Error && d.code != "out_of_memory";
               });
        o << line
          << padColumns(p.valid        ? say(a, "yes", "是")
                            : only_oom ? say(a, "OOM", "显存溢出")
                                       : say(a, "no", "否"),
                        9);
        std::snprintf(line, sizeof line, "%11.2f%10.1f%9.3f", p.peak_bytes / kGiB, p.capacity_bytes / kGiB, p.step_s);
        // "±" is two bytes; a value the knob refused ran nothing and has no band.
        o << line << padColumns(p.gpus > 0 ? parascope::bandText(p.band, true).in(a.lang) : "—", 9);
        std::snprintf(line, sizeof line, "%9s%10.3f%7s%13.0f%10s  %s\n",
                      parascope::formatPercent(p.bubble_fraction).c_str(), p.exposed_comm_s,
                      parascope::formatPercent(p.mfu).c_str(), p.tokens_per_s,
                      parascope::formatPercent(p.goodput).c_str(), diagnosticCodes(p, ", ").c_str());
        o << line;
    }
}

// The text answer: the table, the breaking points and what else moves along the axis.
std::string sweepText(const Args& a, const parascope::SweepResult& r)
{
    std::ostringstream o;
    o << say(a, "Sweep of ", "参数扫描：") << r.param << "\n";
    writeSweepTable(o, a, r);
    std::vector<parascope::ErrorBand> bands;
    for (const auto& p : r.points)
        if (p.gpus > 0) // a value the knob refused ran nothing
            bands.push_back(p.band);
    o << bandNote(a, bands);
    o << say(a, "\nBreaking points:\n", "\n临界点：\n");
    if (r.breaks.empty())
        o << say(a, "  none\n", "  无\n");
    for (const auto& b : r.breaks)
        o << "  " << b.message.in(a.lang) << "\n";
    if (!r.changes_note.en.empty())
        o << "\n" << r.changes_note.in(a.lang) << "\n";
    return o.str();
}

} // namespace

std::string bandNote(const Args& a, const std::vector<parascope::ErrorBand>& bands)
{
    std::string o;
    std::vector<std::string> seen;
    for (const auto& b : bands) {
        if (std::find(seen.begin(), seen.end(), b.run_class) != seen.end())
            continue;
        seen.push_back(b.run_class);
        o += (seen.size() == 1 ? say(a, "± step (tokens/s and MFU alike): ", "± 单步（tokens/s 与 MFU 同）：")
                               : say(a, "  and ", "  以及 "))
            + parascope::bandText(b).in(a.lang) + "\n";
    }
    return o;
}

int sweepCommand(const Args& a)
{
    const std::string format = a.format.empty() ? "text" : a.format;
    if (format != "json" && format != "text" && format != "csv")
        return badUsage(a, "--format needs text, json or csv", "--format 只能是 text、json 或 csv");
    const parascope::Knob* knob = parascope::findKnob(a.param);
    if (!knob)
        return badParam(a);
    std::vector<long long> values;
    if (const int rc = parseValues(a, *knob, values); rc != -1)
        return rc;
    const auto scenario = loadScenario(a, "sweep");
    if (!scenario)
        return kExitBadInput;
    const parascope::SweepResult r = parascope::sweep(*scenario, a.param, values);
    if (format == "json")
        return emit(a, sweepJson(a, r));
    if (format == "csv")
        return emit(a, sweepCsv(r));
    return emit(a, sweepText(a, r));
}

} // namespace parascope::cli
