#include "search/sweep.h"

#include "estimate/evaluate.h"

#include <algorithm>

namespace parascope {

const std::vector<std::string>& sweepableParams()
{
    static const std::vector<std::string> params = {
        "parallel.tp", "parallel.pp", "parallel.vpp", "parallel.dp", "parallel.cp", "parallel.ep", "parallel.zero",
        "training.seq_len", "training.micro_batch", "training.global_batch", "training.recompute", "parallel.schedule", "gpus"};
    return params;
}

bool applySweepValue(Scenario& sc, const std::string& param, long long v, std::string& why)
{
    const auto range = [&](long long lo, long long hi) {
        if (v < lo || v > hi) {
            why = param + " = " + std::to_string(v) + " is outside " + std::to_string(lo) + " … " + std::to_string(hi);
            return false;
        }
        return true;
    };
    ParallelConfig& p = sc.parallel;
    TrainingConfig& t = sc.training;
    if (param == "parallel.tp") {
        if (!range(1, 1 << 24))
            return false;
        p.tp = int(v);
    } else if (param == "parallel.pp") {
        if (!range(1, 100000))
            return false;
        p.pp = int(v);
        p.stage_layers.clear();
    } else if (param == "parallel.vpp") {
        if (!range(1, 1024))
            return false;
        p.vpp = int(v);
    } else if (param == "parallel.dp") {
        if (!range(1, 1 << 24))
            return false;
        p.dp = int(v);
    } else if (param == "parallel.cp") {
        if (!range(1, 1 << 24))
            return false;
        p.cp = int(v);
    } else if (param == "parallel.ep") {
        if (!range(1, 1 << 24))
            return false;
        p.ep = int(v);
    } else if (param == "parallel.zero") {
        if (!range(0, 3))
            return false;
        p.zero = int(v);
    } else if (param == "training.seq_len") {
        if (!range(1, 1LL << 27))
            return false;
        t.seq_len = v;
    } else if (param == "training.micro_batch") {
        if (!range(1, 1 << 20))
            return false;
        t.micro_batch = v;
    } else if (param == "training.global_batch") {
        if (!range(1, 1LL << 32))
            return false;
        t.global_batch = v;
    } else if (param == "training.recompute") {
        if (!range(0, 2))
            return false;
        t.recompute = Recompute(v);
    } else if (param == "parallel.schedule") {
        if (!range(0, 5))
            return false;
        p.schedule = ScheduleKind(v);
    } else if (param == "gpus") {
        // The GPU count through DP: dp = gpus / (tp·pp·cp), keeping the microbatch count.
        const long long per_replica = (long long)p.tp * p.pp * p.cp;
        if (!range(1, 1 << 24))
            return false;
        if (v % per_replica != 0) {
            why = "gpus = " + std::to_string(v) + " is not a multiple of tp·pp·cp = " + std::to_string(per_replica);
            return false;
        }
        const long long m = std::max<long long>(1, t.global_batch / std::max<long long>(1, t.micro_batch * p.dp));
        p.dp = int(v / per_replica);
        t.global_batch = m * t.micro_batch * p.dp;
    } else {
        why = "cannot sweep \"" + param + "\"";
        return false;
    }
    return true;
}

namespace {

std::string label(const std::string& param)
{
    static const std::pair<const char*, const char*> names[] = {
        {"parallel.tp", "TP"}, {"parallel.pp", "PP"}, {"parallel.vpp", "VPP"}, {"parallel.dp", "DP"}, {"parallel.cp", "CP"},
        {"parallel.ep", "EP"}, {"parallel.zero", "ZeRO"}, {"training.seq_len", "seq"}, {"training.micro_batch", "micro batch"},
        {"training.global_batch", "global batch"}, {"training.recompute", "recompute"}, {"parallel.schedule", "schedule"},
        {"gpus", "GPUs"}};
    for (const auto& [p, l] : names)
        if (param == p)
            return l;
    return param;
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
        if (!applySweepValue(sc, param, v, why)) {
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
    const std::string name = label(param);
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
