#include "search/sweep.h"

#include "estimate/diagnostics.h"
#include "estimate/evaluate.h"
#include "types/knobs.h"

#include <algorithm>

namespace parascope {

namespace {

// The knob's short name in both languages ("PP"; "micro batch" / "微批大小").
Localized shortName(const Knob* knob, const std::string& param)
{
    if (!knob)
        return {param, param};
    static const struct { const char* path; const char* zh; } kZh[] = {
        {"training.seq_len", "序列长度"},     {"training.micro_batch", "微批大小"}, {"training.global_batch", "全局批大小"},
        {"training.recompute", "重计算"},     {"parallel.schedule", "流水线调度"},  {"gpus", "GPU 数"}};
    for (const auto& z : kZh)
        if (knob->path == z.path)
            return {knob->short_name, z.zh};
    return {knob->short_name, knob->short_name};
}

// A value as people read it: enum knobs by name ("2 (full)" / "2（完全重计算）").
Localized valueText(const Knob* knob, long long v)
{
    const std::string number = std::to_string(v);
    if (!knob || !knob->value_name || v < knob->min || v > knob->max)
        return {number, number};
    Localized name{knob->value_name(v), knob->value_name(v)};
    if (knob->path == "training.recompute")
        name = displayName(enumNames(Recompute{})[std::size_t(v)].value);
    else if (knob->path == "parallel.schedule")
        name = displayName(enumNames(ScheduleKind{})[std::size_t(v)].value);
    return {number + " (" + name.en + ")", number + "（" + name.zh + "）"};
}

} // namespace

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
            // applyKnob says why in English; the cases it refuses, in Chinese.
            const Knob* k = findKnob(param);
            std::string why_zh = param + " 不能取 " + std::to_string(v);
            if (k && (v < k->min || v > k->max))
                why_zh = param + " = " + std::to_string(v) + " 超出范围 " + std::to_string(k->min) + " … " + std::to_string(k->max);
            else if (k && k->path == "gpus")
                why_zh = "GPU 数 " + std::to_string(v) + " 不是 TP·PP·CP = "
                       + std::to_string((long long)base.parallel.tp * base.parallel.pp * base.parallel.cp) + " 的整数倍";
            pt.diagnostics.push_back({Severity::Error, "sweep_value_invalid", -1, param, {why, why_zh}, {"", ""}});
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
    const Localized name = shortName(knob, param);
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
            const Localized value = valueText(knob, r.points[i].value);
            r.breaks.push_back({r.points[i].value, d.code,
                                {(i == 0 ? "at " : "from ") + name.en + " = " + value.en + ": " + d.message.en,
                                 (i == 0 ? "" : "自 ") + name.zh + " = " + value.zh + (i == 0 ? " 时：" : " 起：") + d.message.zh}});
        }
    }
    return r;
}

} // namespace parascope
