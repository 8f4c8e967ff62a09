// parascope-cli validate: predicted vs published step times, MAPE per part.

#include "cli.h"

#include "estimate/diagnostics.h"
#include "io/scenario_json.h"
#include "io/atomic_file.h"
#include "io/error_bands.h"
#include "validation/runs_file.h"
#include "util/json_reader.h"

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

// The classes of the reference set in the asked language; a user's own class names as written.
std::string classLabel(const Args& a, const std::string& cls)
{
    const parascope::Localized name = parascope::bandClassName(cls);
    return say(a, name.en.c_str(), name.zh.c_str());
}

// One run's row of the JSON answer; the measured numbers only when it was evaluated.
nlohmann::json validationRowJson(const Args& a, const parascope::ValidationRow& r)
{
    nlohmann::json row = {{"id", r.id}, {"evaluated", r.evaluated}};
    if (!r.run_class.empty())
        row["class"] = r.run_class;
    row["prediction_class"] = r.derived_class; // the band a scenario like this one shows
    if (r.part)
        row["part"] = parascope::toString(*r.part);
    if (r.evaluated) {
        row.update({{"published_step_s", r.published_step_s},
                    {"predicted_step_s", r.predicted_step_s},
                    {"published_tflops_per_gpu", r.published_tflops_per_gpu},
                    {"predicted_tflops_per_gpu", r.predicted_tflops_per_gpu},
                    {"error", r.error},
                    {"convention", r.convention},
                    {"predicted_mfu", r.predicted_mfu},
                    {"bubble_fraction", r.bubble_fraction},
                    {"predicted_peak_gib", r.predicted_peak_gib},
                    {"predicted_oom", r.predicted_oom}});
        if (r.measured_peak_gib)
            row.update({{"measured_peak_gib", *r.measured_peak_gib},
                        {"memory_error", r.memory_error},
                        {"measured_peak_kind", r.measured_peak_reserved ? "reserved" : "allocated"}});
    } else {
        row["skipped_because"] = say(a, r.skipped_because, r.skipped_because_zh);
    }
    return row;
}

// One part's errors as JSON: "check" (no constant was fitted on it) is the accuracy to quote.
nlohmann::json errorSummaryJson(const parascope::ErrorSummary& e)
{
    return nlohmann::json{{"runs", e.runs},
                          {"evaluated", e.evaluated},
                          {"mape", e.mape},
                          {"max_abs_error", e.max_abs_error},
                          {"worst", e.worst}};
}

// The whole summary as JSON, every row and every part.
int emitValidationJson(const Args& a, const parascope::ValidationSummary& v)
{
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : v.rows)
        rows.push_back(validationRowJson(a, r));
    // Each part's errors apart, and the check part by class of run.
    nlohmann::json classes = nlohmann::json::object();
    for (const auto& [cls, e] : v.check_classes)
        classes[cls] = errorSummaryJson(e);
    return emit(a,
                nlohmann::json{{"runs", rows},
                               {"evaluated", v.evaluated},
                               {"mape", v.mape},
                               {"max_abs_error", v.max_abs_error},
                               {"worst", v.worst},
                               {"parts", {{"fit", errorSummaryJson(v.fit)}, {"check", errorSummaryJson(v.check)}}},
                               {"check_classes", classes},
                               {"false_oom", v.false_oom},
                               {"memory", errorSummaryJson(v.memory)},
                               {"memory_reserved", errorSummaryJson(v.memory_reserved)},
                               {"above_reserved", v.above_reserved}}
                        .dump(2)
                    + "\n");
}

// The two parts: "check" runs no constant was fitted on (the accuracy to quote), "fit" runs
// the constants were chosen on.
std::string partName(const Args& a, const parascope::ValidationRow& r)
{
    if (!r.part)
        return "-";
    return zh(a) ? (*r.part == parascope::RunPart::Fit ? "拟合" : "检验") : parascope::toString(*r.part);
}

// The table: one line per run, predicted beside published; skipped runs say why.
void writeRunTable(std::ostream& o, const Args& a, const parascope::ValidationSummary& v)
{
    char line[256];
    const struct {
        const char* en;
        const char* zh;
        std::size_t width;
        bool right;
    } columns[] = {{"run", "运行", 37, false},
                   {"part", "部分", 6, false},
                   {"pub step", "发表单步", 10, true},
                   {"pred step", "预测单步", 11, true},
                   {"pub TF/s", "发表 TFLOP/s", 13, true},
                   {"pred TF/s", "预测 TFLOP/s", 13, true},
                   {"error", "误差", 9, true}};
    for (const auto& c : columns)
        o << padColumns(say(a, c.en, c.zh), c.width, c.right);
    o << "\n";
    for (const auto& r : v.rows) {
        if (!r.evaluated) {
            o << "  " << r.id
              << say(a, " (" + partName(a, r) + "): skipped (" + r.skipped_because + ")",
                     "（" + partName(a, r) + "）：已跳过（" + r.skipped_because_zh + "）")
              << "\n";
            continue;
        }
        o << padColumns(r.id, 37, false) << padColumns(partName(a, r), 6, false);
        std::snprintf(line, sizeof line, "%9.2fs %10.2fs %13.1f %13.1f %+8.1f%%\n", r.published_step_s,
                      r.predicted_step_s, r.published_tflops_per_gpu, r.predicted_tflops_per_gpu, r.error * 100);
        o << line;
    }
}

// One part's MAPE line; nothing when the part has no runs.
void writePartLine(std::ostream& o, const Args& a, const char* label_en, const char* label_zh,
                   const parascope::ErrorSummary& e)
{
    if (e.runs == 0)
        return;
    char line[256];
    if (zh(a))
        std::snprintf(line, sizeof line, "  %s：MAPE %.1f %%（%d 个运行中评估了 %d 个）；最差 %s（%.1f %%）\n",
                      label_zh, e.mape * 100, e.runs, e.evaluated, e.worst.empty() ? "-" : e.worst.c_str(),
                      e.max_abs_error * 100);
    else
        std::snprintf(line, sizeof line, "  %s: MAPE %.1f %% over %d of %s; worst %s (%.1f %%)\n", label_en,
                      e.mape * 100, e.evaluated, parascope::countOf(e.runs, "run", "runs").c_str(),
                      e.worst.empty() ? "-" : e.worst.c_str(), e.max_abs_error * 100);
    o << line;
}

// The overall MAPE, then each part, class and the memory comparisons.
void writeSummaryLines(std::ostream& o, const Args& a, const parascope::ValidationSummary& v)
{
    char line[256];
    if (zh(a))
        std::snprintf(line, sizeof line, "MAPE %.1f %%（%d 个运行）；最差 %s（%.1f %%）\n", v.mape * 100, v.evaluated,
                      v.worst.c_str(), v.max_abs_error * 100);
    else
        std::snprintf(line, sizeof line, "MAPE %.1f %% over %s; worst %s (%.1f %%)\n", v.mape * 100,
                      parascope::countOf(v.evaluated, "run", "runs").c_str(), v.worst.c_str(), v.max_abs_error * 100);
    o << line;
    writePartLine(o, a, "check (no constant fitted on these)", "检验（常数未在这些运行上拟合）", v.check);
    for (const auto& [cls, e] : v.check_classes) {
        const std::string en = "  check, " + classLabel(a, cls), zh_label = "  检验，" + classLabel(a, cls);
        writePartLine(o, a, en.c_str(), zh_label.c_str(), e);
    }
    writePartLine(o, a, "fit (constants chosen on these)", "拟合（常数据这些运行选定）", v.fit);
    if (v.memory.evaluated > 0)
        writePartLine(o, a, "peak memory allocated (runs that report it)", "峰值已分配显存（报告了该值的运行）",
                      v.memory);
    if (v.memory_reserved.evaluated > 0) {
        writePartLine(o, a, "peak memory vs the allocator's max reserved (an upper bound)",
                      "峰值显存对比分配器最大预留量（上界）", v.memory_reserved);
        o << say(a,
                 "    predicted above what was reserved (more than the run ever held): "
                     + std::to_string(v.above_reserved) + "\n",
                 "    预测值高于预留量（超过运行实际占用过的显存）：" + std::to_string(v.above_reserved) + " 个\n");
    }
}

// The runs that trained but are predicted out of memory, by id; nothing when there are none.
void writeFalseOom(std::ostream& o, const Args& a, const parascope::ValidationSummary& v)
{
    if (v.false_oom == 0)
        return;
    std::string ids;
    for (const auto& r : v.rows)
        if (r.evaluated && r.predicted_oom)
            ids += (ids.empty() ? "" : ", ") + r.id;
    o << say(a,
             "  runs that trained but are predicted out of memory: " + std::to_string(v.false_oom) + " (" + ids + ")\n",
             "  实际训练过却被预测为显存溢出的运行：" + std::to_string(v.false_oom) + " 个（" + ids + "）\n");
}

// The text answer: title, run table, then the summary lines.
std::string validationText(const Args& a, const parascope::ValidationSummary& v, const std::string& name)
{
    std::ostringstream o;
    o << say(a, "Validation against published runs (" + name + ")\n", "与已发表训练结果的对比（" + name + "）\n");
    writeRunTable(o, a, v);
    writeSummaryLines(o, a, v);
    writeFalseOom(o, a, v);
    return o.str();
}

} // namespace

int validateCommand(const Args& a)
{
    const std::string format = a.format.empty() ? "text" : a.format;
    if (format != "json" && format != "text")
        return badUsage(a, "--format needs json or text", "--format 只能是 json 或 text");
    if (a.positional.size() > 1)
        return badUsage(a, "validate takes at most one RUNS file", "validate 最多接受一个 RUNS 文件");
    std::vector<parascope::InputError> errors;
    nlohmann::json runs;
    std::string name = say(a, "built-in reference set", "内置参考集");
    if (a.positional.empty()) {
        runs = parascope::findPreset("validation", "reference-runs")->json; // full scenarios (parascope.runs/1)
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
    // --out: the check part's error per class, the uncertainty the app shows (error_bands.h).
    if (!a.out.empty()) {
        if (!a.positional.empty())
            return badUsage(a, "--out writes the built-in reference set's bands: give no RUNS file",
                            "--out 只写出内置参考集的误差带：不要给 RUNS 文件");
        const std::string text = parascope::bandsToJson(v).dump(2) + "\n";
        if (const std::string e = parascope::writeFileAtomically(a.out, text); !e.empty()) {
            std::cerr << "parascope-cli: " << e << "\n";
            return kExitBadInput;
        }
    }
    // The report itself goes to standard output (--out named the bands).
    Args shown = a;
    shown.out.clear();
    if (format == "json")
        return emitValidationJson(shown, v);
    return emit(shown, validationText(shown, v, name));
}

} // namespace parascope::cli
