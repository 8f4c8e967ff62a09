#include "search/sweep.h"

#include "estimate/evaluate.h"
#include "types/knobs.h"

#include <algorithm>

namespace parascope {

SweepResult sweep(const Scenario& base, const std::string& param, const std::vector<long long>& values)
{
    SweepResult r;
    r.param = param;
    EvaluateOptions opt;
    opt.record_timeline = false;
    for (long long v : values) {
        SweepPoint pt;
        pt.value = v;
        Scenario sc = base;
        std::string why;
        if (!applyKnob(sc, param, v, why)) {
            pt.valid = false;
            pt.diagnostics.push_back({Severity::Error, "sweep_value_invalid", -1, param, {why, why}, {"", ""}});
            r.points.push_back(std::move(pt));
            continue;
        }
        const Estimate e = evaluate(sc, opt);
        pt.valid = !e.hasErrors();
        pt.peak_bytes = e.memory.peak_bytes;
        pt.capacity_bytes = e.memory.capacity_bytes;
        pt.peak_stage = e.memory.peak_stage;
        for (const StageMemory& s : e.memory.stages)
            pt.stage_bytes.push_back(s.total());
        pt.step_s = e.time.step_s;
        pt.bubble_fraction = e.time.bubble_fraction;
        pt.exposed_comm_s = e.time.exposed_comm_s;
        pt.mfu = e.throughput.mfu;
        pt.tokens_per_s = e.throughput.tokens_per_s;
        pt.diagnostics = e.diagnostics;
        r.points.push_back(std::move(pt));
    }
    // Breaking points: a code (error or warning) present at a value but not at the one before;
    // named with the first message it carries there.
    const Knob* knob = findKnob(param);
    const std::string name = knob ? knob->short_name : param;
    for (std::size_t i = 0; i < r.points.size(); ++i) {
        for (const Diagnostic& d : r.points[i].diagnostics) {
            if (d.severity == Severity::Info)
                continue;
            const bool before = i > 0 && std::any_of(r.points[i - 1].diagnostics.begin(), r.points[i - 1].diagnostics.end(),
                                                     [&](const Diagnostic& x) { return x.code == d.code; });
            const bool already = std::any_of(r.breaks.begin(), r.breaks.end(),
                                             [&](const BreakingPoint& b) { return b.code == d.code && b.value == r.points[i].value; });
            if (before || already)
                continue;
            const std::string at = i == 0 ? "at " + name + " = " : "from " + name + " = ";
            const std::string at_zh = i == 0 ? name + " = " : "自 " + name + " = ";
            r.breaks.push_back({r.points[i].value, d.code,
                                {at + std::to_string(r.points[i].value) + ": " + d.message.en,
                                 at_zh + std::to_string(r.points[i].value) + (i == 0 ? " 时：" : " 起：") + d.message.zh}});
        }
    }
    return r;
}

} // namespace parascope
