// parascope-cli compare-trace: a measured step (a PyTorch profiler trace) beside the simulated
// step of the same scenario (io/kineto_trace.h, io/trace_comparison.h).

#include "cli.h"

#include "estimate/evaluate.h"
#include "io/trace_comparison.h"
#include "types/term.h"

#include <cstdio>
#include <iostream>
#include <string>

namespace parascope::cli {

using namespace parascope;

namespace {

std::string fixed(double v, const char* format = "%.2f")
{
    char b[48];
    std::snprintf(b, sizeof b, format, v);
    return b;
}

std::string comparisonText(const Args& a, const MeasuredTrace& trace, const TraceComparison& c)
{
    std::string where = trace.gpu_name.empty() ? "GPU " + num(double(trace.device)) : trace.gpu_name;
    if (trace.rank >= 0)
        where += " · rank " + num(double(trace.rank))
            + (trace.world_size > 0 ? "/" + num(double(trace.world_size)) : std::string());
    const std::string steps = num(double(trace.steps.size()));
    std::string out = say(a, "measured trace: " + where + ", " + steps + (trace.steps.size() == 1 ? " step" : " steps"),
                          "实测跟踪：" + where + "，" + steps + " 步")
        + "\n\n" + padColumns("", 50, false) + padColumns(say(a, "simulated ms", "模拟 ms"), 14)
        + padColumns(say(a, "measured ms", "实测 ms"), 14) + padColumns(say(a, "ratio", "比值"), 8) + "\n";
    for (const TraceRow& r : c.rows)
        out += padColumns(r.label.in(a.lang), 50, false) + padColumns(fixed(r.simulated_s * 1e3), 14)
            + padColumns(fixed(r.measured_s * 1e3), 14)
            + padColumns(r.measured_s > 0 ? fixed(r.simulated_s / r.measured_s) : "—", 8) + "\n";
    if (c.sameJob()) {
        out += "\n" + say(a, "step time error: ", "单步耗时误差：") + fixed(c.step_error * 100, "%+.1f") + " %\n";
    } else {
        out += "\n"
            + say(a, "different job: no step time error is given, the trace is not of this scenario's job:\n",
                  "不同的作业：不给出单步耗时误差，该跟踪并非此场景的作业：\n");
        for (const Localized& d : c.different_job)
            out += "  " + d.in(a.lang) + "\n";
    }
    for (const Localized& n : c.notes)
        out += "· " + n.in(a.lang) + "\n";
    for (const Localized& w : trace.warnings)
        out += say(a, "warning: ", "注意：") + w.in(a.lang) + "\n";
    return out;
}

} // namespace

int compareTraceCommand(const Args& a)
{
    const std::string format = a.format.empty() ? "text" : a.format;
    if (format != "json" && format != "text")
        return badUsage(a, "--format needs json or text", "--format 只能是 json 或 text");
    if (a.positional.size() != 2)
        return badUsage(a,
                        "compare-trace needs a scenario FILE and a TRACE.json (PyTorch profiler, Chrome trace format)",
                        "compare-trace 需要一个场景文件和一个 TRACE.json（PyTorch Profiler 的 Chrome 跟踪格式）");
    Args scenario_args = a;
    scenario_args.positional = {a.positional[0]};
    const auto scenario = loadScenario(scenario_args, "compare-trace");
    if (!scenario)
        return kExitBadInput;
    const std::string& file = a.positional[1];
    std::vector<InputError> errors;
    KinetoOptions options;
    options.device = a.device;
    const auto trace = readKinetoTraceFile(file, options, errors);
    if (!trace)
        return printFileErrors(file, errors);
    EvaluateOptions eval;
    eval.record_timeline = false;
    const Estimate est = evaluate(*scenario, eval);
    const TraceComparison c = compareWithTrace(*scenario, est, *trace);
    if (format == "json")
        return emit(a, traceComparisonToJson(*scenario, *trace, c).dump(2) + "\n");
    return emit(a, comparisonText(a, *trace, c));
}

} // namespace parascope::cli
