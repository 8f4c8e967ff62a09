// parascope-cli advise: the course's decision procedure on a scenario's model, cluster and batch
// (search/decision.h) — memory, topology, communication, balance — each step with its numbers,
// verdict and why, the resulting scenario, and the strategy search's best beside it.

#include "cli.h"

#include "estimate/display_names.h"
#include "estimate/evaluate.h"
#include "io/error_bands.h"
#include "util/text_columns.h"
#include "io/scenario_json.h"
#include "search/decision.h"
#include "lessons/course_json.h"
#include "search/report_card.h"

#include <string>

namespace parascope::cli {

using namespace parascope;

namespace {

std::string verdictWord(const Args& a, DecisionVerdict v)
{
    switch (v) {
    case DecisionVerdict::Ok: return say(a, "ok", "通过");
    case DecisionVerdict::Changed: return say(a, "changed", "已调整");
    case DecisionVerdict::Warn: return say(a, "warn", "注意");
    }
    return {};
}

// The procedure's layout with the switches it sets too (SP, the schedule).
std::string layoutLine(const Args& a, const Scenario& sc)
{
    return layoutText(sc.parallel) + (sc.parallel.sequence_parallel ? " · SP" : "") + " · "
        + displayName(sc.parallel.schedule).in(a.lang);
}

// The report card: a row per wall, a column per layout, then why they differ.
std::string cardText(const Args& a, const ReportCard& c)
{
    std::vector<const LayoutMarks*> cols = {&c.yours, &c.procedure};
    if (c.search)
        cols.push_back(&*c.search);
    const char* heads_en[] = {"yours", "procedure", "search"};
    const char* heads_zh[] = {"你的布局", "决策流程", "策略搜索"};
    std::string o = say(a, "Report card", "布局成绩单") + "\n" + padColumns("", 26, false);
    for (std::size_t i = 0; i < cols.size(); ++i)
        o += padColumns(say(a, heads_en[i], heads_zh[i]), 32, false);
    o += "\n" + padColumns(say(a, "layout", "布局"), 26, false);
    for (const LayoutMarks* m : cols)
        o += padColumns(m->layout, 32, false);
    const auto row = [&](const char* en, const char* zh, auto value) {
        o += "\n" + padColumns(say(a, en, zh), 26, false);
        for (const LayoutMarks* m : cols)
            o += padColumns(value(*m), 32, false);
    };
    row("memory headroom", "显存余量", [](const LayoutMarks& m) { return formatPercent(m.memory_headroom); });
    row("exposed communication", "未重叠通信", [](const LayoutMarks& m) { return formatPercent(m.exposed_comm); });
    row("bubble + uneven stages", "气泡与阶段不均",
        [](const LayoutMarks& m) { return formatPercent(m.bubble_imbalance); });
    row("stability (1 − goodput)", "稳定性（1 − 有效占比）",
        [](const LayoutMarks& m) { return formatPercent(m.stability); });
    row("step", "单步耗时",
        [&](const LayoutMarks& m) { return formatSeconds(m.step_s) + " " + bandText(m.step_band, true).in(a.lang); });
    o += "\n";
    for (const Localized& d : c.differences)
        o += "  - " + d.in(a.lang) + "\n";
    return o;
}

} // namespace

int adviseCommand(const Args& a)
{
    const std::string format = a.format.empty() ? "text" : a.format;
    if (format != "json" && format != "text")
        return badUsage(a, "--format needs json or text", "--format 只能是 json 或 text");
    const auto scenario = loadScenario(a, "advise");
    if (!scenario)
        return kExitBadInput;
    const DecisionResult r = decide(*scenario);
    if (format == "json")
        return emit(a, adviceJson(*scenario, r, a.lang).dump(2) + "\n");
    std::string text = say(a, "The course's decision procedure on ", "课程的决策流程：") + r.scenario.model.name + ", "
        + std::to_string(r.scenario.parallel.gpus()) + " × " + r.scenario.cluster.gpu.name + "\n\n";
    for (const DecisionStep& s : r.steps) {
        text += s.title.in(a.lang) + "  [" + verdictWord(a, s.verdict) + "]\n";
        text += "  " + s.finding.in(a.lang) + "\n";
        text += "  " + say(a, "why: ", "依据：") + s.why.in(a.lang) + "\n\n";
    }
    text += say(a, "Result: ", "结果：") + layoutLine(a, r.scenario) + say(a, ", step ", "，单步 ")
        + num(r.estimate.time.step_s) + " s (" + bandText(bandFor(builtInBands(), r.scenario), true).in(a.lang) + ")"
        + (r.fits ? "" : say(a, " (does not fit)", "（放不下）")) + "\n";
    if (!r.comparison.en.empty())
        text += say(a, "Search: ", "搜索：") + r.comparison.in(a.lang) + "\n";
    if (r.search_best)
        text += say(a, "Search's best: ", "搜索最优：") + layoutLine(a, *r.search_best) + "\n";
    return emit(a, text + "\n" + cardText(a, reportCard(*scenario, evaluate(*scenario), r)));
}

} // namespace parascope::cli
