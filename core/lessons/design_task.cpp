#include "lessons/design_task.h"

#include "estimate/display_names.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace parascope {

namespace {

constexpr double kSecondsPerDay = 86400;
// A wall passes within a quarter of the better reference (or one point of the step above it), is
// close within twice it (or two points); the goal is close when missed by no more than a tenth
// beyond what the better reference needs, and that one misses it too.
constexpr double kPassRatio = 1.25, kPassPoints = 0.01;
constexpr double kCloseRatio = 2.0, kClosePoints = 0.02;
constexpr double kGoalSlack = 1.10;

double daysOf(const DesignTask& task, const LayoutMarks& m)
{
    return trainingDays(task.tokens, m.tokens_per_s, m.time_goodput);
}

// The references a wall is compared with: those that fit (a layout out of memory answers
// nothing), or the procedure's when none does.
std::vector<const LayoutMarks*> references(const ReportCard& c)
{
    std::vector<const LayoutMarks*> out;
    for (const LayoutMarks* m : {&c.procedure, c.search ? &*c.search : nullptr})
        if (m && m->fits)
            out.push_back(m);
    if (out.empty())
        out.push_back(&c.procedure);
    return out;
}

DesignCheck gpuCheck(std::int64_t gpus, std::int64_t task_gpus)
{
    const std::string n = std::to_string(gpus), t = std::to_string(task_gpus);
    if (gpus == task_gpus)
        return {
            "gpus", {"GPUs", "GPU 数"}, DesignMark::Pass, {n + " GPUs, as the task gives", n + " 块 GPU，与题目一致"}};
    return {"gpus",
            {"GPUs", "GPU 数"},
            DesignMark::Fail,
            {"your layout uses " + n + " GPUs; the task gives " + t + ": TP × PP × CP × DP must be " + t,
             "你的布局用了 " + n + " 块 GPU，题目给的是 " + t + " 块：TP × PP × CP × DP 必须等于 " + t}};
}

DesignCheck memoryCheck(const LayoutMarks& y)
{
    const Localized name{"Memory", "显存墙"};
    if (y.fits)
        return {"memory",
                name,
                DesignMark::Pass,
                {"the peak fits: " + formatPercent(y.memory_headroom) + " of the GPU free",
                 "峰值显存放得下：GPU 显存还剩 " + formatPercent(y.memory_headroom)}};
    return {"memory",
            name,
            DesignMark::Fail,
            {"out of memory: the peak is " + formatPercent(-y.memory_headroom) + " over the GPU's capacity",
             "显存溢出：峰值超出 GPU 容量 " + formatPercent(-y.memory_headroom)}};
}

// A wall where lower is better, against the best reference value.
DesignCheck wallCheck(const char* id, Localized name, double yours, const std::vector<const LayoutMarks*>& refs,
                      double LayoutMarks::*wall)
{
    double best = std::numeric_limits<double>::infinity();
    for (const LayoutMarks* m : refs)
        best = std::min(best, m->*wall);
    return {id,
            std::move(name),
            designMark(yours, best),
            {formatPercent(yours) + " of the step; the better reference " + formatPercent(best),
             "占单步耗时 " + formatPercent(yours) + "；较好的参考答案为 " + formatPercent(best)}};
}

DesignCheck goalCheck(const DesignTask& task, const DesignGrade& g)
{
    const Localized name{"Goal", "训练目标"};
    const std::string goal = formatDays(task.days);
    const double best_ref = std::isfinite(g.search_days) ? std::min(g.procedure_days, g.search_days) : g.procedure_days;
    const std::string refs_en = "the procedure " + formatDays(g.procedure_days) + " days"
        + (std::isfinite(g.search_days) ? ", the search " + formatDays(g.search_days) + " days" : "");
    const std::string refs_zh = "决策流程 " + formatDays(g.procedure_days) + " 天"
        + (std::isfinite(g.search_days) ? "，策略搜索 " + formatDays(g.search_days) + " 天" : "");
    if (g.days <= task.days)
        return {"goal",
                name,
                DesignMark::Pass,
                {formatDays(g.days) + " days: within the " + goal + " days",
                 formatDays(g.days) + " 天：在 " + goal + " 天之内"}};
    const std::string need = std::to_string(std::int64_t(std::ceil(g.gpus_for_goal)));
    Localized note{formatDays(g.days) + " days: over the " + goal
                       + " days; at this layout's tokens/s per GPU the goal needs at least " + need + " GPUs",
                   formatDays(g.days) + " 天：超过 " + goal + " 天；按这个布局每块 GPU 的吞吐，达成目标至少需要 " + need
                       + " 块 GPU"};
    const bool reachable = best_ref <= task.days;
    note.en += reachable ? " (the references meet it: " + refs_en + ")"
                         : "; no reference meets it either (" + refs_en + "): out of reach on these GPUs";
    note.zh += reachable ? "（参考答案能达成：" + refs_zh + "）"
                         : "；参考答案也达不到（" + refs_zh + "）：这些 GPU 上做不到";
    const bool close = !reachable && g.days <= best_ref * kGoalSlack;
    return {"goal", name, close ? DesignMark::Close : DesignMark::Fail, note};
}

Localized verdictOf(const DesignGrade& g)
{
    const auto failed = std::find_if(g.checks.begin(), g.checks.end(),
                                     [](const DesignCheck& c) { return c.mark == DesignMark::Fail; });
    if (failed != g.checks.end())
        return {"Not yet: " + failed->name.en + " — " + failed->note.en,
                "还不行：" + failed->name.zh + "——" + failed->note.zh};
    if (g.passed)
        return {"Every wall holds and the goal is met: a layout you can defend.",
                "每面墙都守住了，训练目标也达成了：这是一个站得住的布局。"};
    return {"Close: no wall fails, but not every mark is as good as the references' — see the marks with ~.",
            "接近了：没有哪面墙失守，但并非每项都达到参考答案的水平——看标 ~ 的几项。"};
}

} // namespace

DesignMark designMark(double yours, double best)
{
    if (yours <= std::max(best * kPassRatio, best + kPassPoints))
        return DesignMark::Pass;
    if (yours <= std::max(best * kCloseRatio, best + kClosePoints))
        return DesignMark::Close;
    return DesignMark::Fail;
}

std::string formatDays(double d) { return std::isfinite(d) ? formatFixed(d, 1, "") : std::string("∞"); }

double trainingDays(double tokens, double tokens_per_s, double goodput)
{
    const double useful = tokens_per_s * goodput;
    return useful > 0 ? tokens / useful / kSecondsPerDay : std::numeric_limits<double>::infinity();
}

DesignGrade gradeDesign(const DesignTask& task, const Scenario& task_scenario, const Scenario& yours,
                        const Estimate& yours_estimate, const CardReferences& refs)
{
    DesignGrade g;
    g.card = reportCard(yours, yours_estimate, refs);
    const LayoutMarks& y = g.card.yours;
    g.gpus = yours.parallel.gpus();
    g.task_gpus = task_scenario.parallel.gpus();
    g.days = daysOf(task, y);
    g.procedure_days = daysOf(task, g.card.procedure);
    g.search_days = g.card.search ? daysOf(task, *g.card.search) : std::numeric_limits<double>::quiet_NaN();
    g.gpus_for_goal = task.days > 0 ? double(g.gpus) * g.days / task.days : 0;
    const std::vector<const LayoutMarks*> refs_fit = references(g.card);
    g.checks.push_back(gpuCheck(g.gpus, g.task_gpus));
    g.checks.push_back(memoryCheck(y));
    g.checks.push_back(
        wallCheck("communication", {"Communication", "通信墙"}, y.exposed_comm, refs_fit, &LayoutMarks::exposed_comm));
    g.checks.push_back(wallCheck("efficiency", {"Efficiency (bubble + uneven stages)", "效率墙（气泡 + 阶段不均）"},
                                 y.bubble_imbalance, refs_fit, &LayoutMarks::bubble_imbalance));
    g.checks.push_back(wallCheck("stability", {"Stability (1 − goodput)", "稳定性墙（1 − 有效训练时间占比）"},
                                 y.stability, refs_fit, &LayoutMarks::stability));
    g.checks.push_back(goalCheck(task, g));
    g.passed = std::all_of(g.checks.begin(), g.checks.end(),
                           [](const DesignCheck& c) { return c.mark == DesignMark::Pass; });
    g.verdict = verdictOf(g);
    return g;
}

std::string designGradeText(const DesignGrade& g, const std::string& lang)
{
    const bool zh = lang.rfind("zh", 0) == 0;
    const auto say = [&](const Localized& l) { return zh ? l.zh : l.en; };
    const char* symbol[] = {"✔", "~", "✘"};
    std::string out = (zh ? "设计任务，你的布局：" : "Design task, your layout: ") + g.card.yours.layout + "\n";
    for (const DesignCheck& c : g.checks)
        out += std::string("  ") + symbol[int(c.mark)] + " " + say(c.name) + (zh ? "：" : ": ") + say(c.note) + "\n";
    out += say(g.verdict) + "\n";
    out += zh ? "揭晓——决策流程向导：" + g.card.procedure.layout + "，" + formatDays(g.procedure_days) + " 天"
              : "Revealed — the Advisor (the course's decision procedure): " + g.card.procedure.layout + ", "
            + formatDays(g.procedure_days) + " days";
    if (g.card.search)
        out += zh ? "；策略搜索：" + g.card.search->layout + "，" + formatDays(g.search_days) + " 天"
                  : "; the strategy search: " + g.card.search->layout + ", " + formatDays(g.search_days) + " days";
    out += "\n";
    for (const Localized& d : g.card.differences)
        out += "  · " + say(d) + "\n";
    return out;
}

} // namespace parascope
