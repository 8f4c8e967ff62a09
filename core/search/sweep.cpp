#include "search/sweep.h"

#include "estimate/diagnostics.h"
#include "estimate/evaluate.h"
#include "types/knobs.h"

#include <algorithm>
#include <cstring>

namespace parascope {

namespace {

// The knob's short name in both languages ("PP"; "micro batch" / "微批大小").
Localized shortName(const Knob* knob, const std::string& param)
{
    if (!knob)
        return {param, param};
    static const struct {
        const char* path;
        const char* zh;
    } kZh[] = {{"training.seq_len", "序列长度"},        {"training.micro_batch", "微批大小"},
               {"training.global_batch", "全局批大小"}, {"training.recompute", "重计算"},
               {"parallel.schedule", "流水线调度"},     {"gpus", "GPU 数"}};
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

// The quantities a knob's rule can move besides the knob (in the order a sentence names them).
struct Tracked {
    const char* what;
    const char* en;
    const char* zh;
    long long (*of)(const SweepPoint&);
};
constexpr Tracked kTracked[] = {
    {"gpus", "the GPU count", "GPU 数", [](const SweepPoint& p) { return (long long)p.gpus; }},
    {"parallel.dp", "DP", "DP", [](const SweepPoint& p) { return (long long)p.dp; }},
    {"training.global_batch", "the global batch", "全局批大小", [](const SweepPoint& p) { return p.global_batch; }},
};

// What changes along the axis besides the knob, over the points the knob applied; and the
// sentence that says so, with what stays that explains it ("DP kept at 8": why the GPU count
// follows PP; "the microbatch count stays at 16": why the global batch follows DP).
void describeChanges(SweepResult& r)
{
    std::vector<const SweepPoint*> ran;
    for (const SweepPoint& p : r.points)
        if (p.gpus > 0)
            ran.push_back(&p);
    if (ran.size() < 2)
        return;
    const auto constant = [&](long long (*of)(const SweepPoint&)) {
        return std::all_of(ran.begin(), ran.end(), [&](const SweepPoint* p) { return of(*p) == of(*ran.front()); });
    };
    std::string en, zh;
    for (const Tracked& t : kTracked) {
        if (r.param == t.what || constant(t.of))
            continue;
        AxisChange c{t.what, t.of(*ran.front()), t.of(*ran.back()), t.of(*ran.front()), t.of(*ran.front())};
        bool rising = true, falling = true;
        for (std::size_t i = 1; i < ran.size(); ++i) {
            const long long a = t.of(*ran[i - 1]), b = t.of(*ran[i]);
            rising = rising && b >= a;
            falling = falling && b <= a;
            c.min = std::min(c.min, b);
            c.max = std::max(c.max, b);
        }
        const bool monotonic = rising || falling;
        const std::string from = std::to_string(monotonic ? c.first : c.min),
                          to = std::to_string(monotonic ? c.last : c.max);
        const bool first = r.changes.empty();
        en += std::string(first ? "" : ", ") + t.en + (first ? " changes " : " ") + (monotonic ? "from " : "between ")
            + from + (monotonic ? " to " : " and ") + to;
        // "GPU 数从 …", "DP 从 …": a space between Latin letters and Chinese, none after Chinese.
        const std::string name
            = std::string(t.zh) + (static_cast<unsigned char>(t.zh[std::strlen(t.zh) - 1]) < 0x80 ? " " : "");
        zh += std::string(first ? "" : "，") + name
            + (monotonic ? "从 " + from + " 变为 " + to : "在 " + from + " 与 " + to + " 之间变化");
        r.changes.push_back(c);
    }
    if (r.changes.empty())
        return;
    // ", DP from 8 to 128, the global batch from …" → "… and the global batch from …".
    if (const std::size_t last = en.rfind(", "); r.changes.size() > 1 && last != std::string::npos)
        en.replace(last, 2, " and ");
    std::vector<Localized> kept;
    const auto changed = [&](const char* what) {
        return std::any_of(r.changes.begin(), r.changes.end(), [&](const AxisChange& c) { return c.what == what; });
    };
    if (changed("gpus") && r.param != "parallel.dp" && !changed("parallel.dp")) {
        const std::string dp = std::to_string(ran.front()->dp);
        kept.push_back({"DP kept at " + dp, "DP 保持为 " + dp});
    }
    if (changed("training.global_batch") && constant([](const SweepPoint& p) { return p.microbatches; })) {
        const std::string m = std::to_string(ran.front()->microbatches);
        kept.push_back({"the microbatch count stays at " + m, "微批数保持为 " + m});
    }
    std::string kept_en, kept_zh;
    for (const Localized& k : kept) {
        kept_en += (kept_en.empty() ? " (" : "; ") + k.en;
        kept_zh += (kept_zh.empty() ? "（" : "；") + k.zh;
    }
    if (!kept.empty()) {
        kept_en += ")";
        kept_zh += "）";
    }
    r.changes_note = {"Along this axis " + en + kept_en + ".", "沿此轴，" + zh + kept_zh + "。"};
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
                why_zh = param + " = " + std::to_string(v) + " 超出范围 " + std::to_string(k->min) + " … "
                    + std::to_string(k->max);
            else if (k && isGpuCountKnob(k->path))
                why_zh = "GPU 数 " + std::to_string(v)
                    + " 不是 TP·PP·CP = " + std::to_string(base.parallel.replicaGpus()) + " 的整数倍";
            pt.diagnostics.push_back({Severity::Error, "sweep_value_invalid", -1, param, {why, why_zh}, {"", ""}});
            r.points.push_back(std::move(pt));
            continue;
        }
        pt.gpus = sc.parallel.gpus();
        pt.dp = sc.parallel.dp;
        pt.global_batch = sc.training.global_batch;
        pt.microbatches = sc.microbatches();
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
        pt.goodput = e.walls.stability_report.goodput;
        pt.band = bandFor(builtInBands(), sc);
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
            const bool before = i > 0
                && std::any_of(r.points[i - 1].diagnostics.begin(), r.points[i - 1].diagnostics.end(),
                               [&](const Diagnostic& x) { return x.code == d.code; });
            const bool already = std::any_of(r.breaks.begin(), r.breaks.end(), [&](const BreakingPoint& b) {
                return b.code == d.code && b.value == r.points[i].value;
            });
            if (before || already)
                continue;
            const Localized value = valueText(knob, r.points[i].value);
            r.breaks.push_back(
                {r.points[i].value,
                 d.code,
                 {(i == 0 ? "at " : "from ") + name.en + " = " + value.en + ": " + d.message.en,
                  (i == 0 ? "" : "自 ") + name.zh + " = " + value.zh + (i == 0 ? " 时：" : " 起：") + d.message.zh}});
        }
    }
    describeChanges(r);
    return r;
}

} // namespace parascope
