#include "estimate/walls.h"

#include "estimate/display_names.h"
#include "estimate/estimate.h"
#include "types/scenario.h"

#include <algorithm>
#include <cmath>

namespace parascope {

Wall judgedWall(double value, WallThresholds t)
{
    Wall w;
    w.value = value;
    w.verdict = value >= t.hit ? WallVerdict::Hit : value >= t.near ? WallVerdict::Near : WallVerdict::Ok;
    return w;
}

namespace {

std::string pct(double f) { return formatPercent(f); }
std::string gib(double b) { return formatBytes(b); }

Wall memoryWall(const Estimate& est, Explain explain)
{
    const MemoryReport& m = est.memory;
    Wall w = judgedWall(m.capacity_bytes > 0 ? m.peak_bytes / m.capacity_bytes : 0, kMemoryWall);
    if (explain == Explain::NumbersOnly)
        return w;
    w.explanation = {"peak " + gib(m.peak_bytes) + " of " + gib(m.capacity_bytes) + " per GPU, on pipeline stage "
                         + num(double(m.peak_stage)) + " (" + pct(w.value) + ")",
                     "峰值显存 " + gib(m.peak_bytes) + " / " + gib(m.capacity_bytes) + "（每块 GPU，流水线阶段 "
                         + num(double(m.peak_stage)) + "，" + pct(w.value) + "）"};
    w.terms.push_back({"walls.memory", w.value, "fraction", "peak memory / GPU capacity",
                       num(m.peak_bytes) + " / " + num(m.capacity_bytes), "the memory table's largest stage"});
    return w;
}

Wall communicationWall(const Estimate& est, Explain explain)
{
    const TimeReport& t = est.time;
    Wall w = judgedWall(t.step_s > 0 ? t.exposed_comm_s / t.step_s : 0, kCommunicationWall);
    if (explain == Explain::NumbersOnly)
        return w;
    const CommEntry* worst = nullptr;
    for (const CommEntry& c : est.communication)
        if (!worst || c.exposed_s > worst->exposed_s)
            worst = &c;
    std::string en = "communication compute does not hide: " + pct(w.value) + " of the step",
                zh = "未重叠通信占单步耗时的 " + pct(w.value);
    if (worst && worst->exposed_s > 0) {
        const Localized g = displayName(worst->group), c = displayName(worst->collective);
        en += "; most of it " + g.en + " " + c.en + " (" + formatSeconds(worst->exposed_s) + ")";
        zh += "；最多的是 " + g.zh + " " + c.zh + "（" + formatSeconds(worst->exposed_s) + "）";
    }
    w.explanation = {en, zh};
    w.terms.push_back({"walls.communication", w.value, "fraction", "exposed communication / step time",
                       num(t.exposed_comm_s) + " / " + num(t.step_s),
                       "the communication table's exposed column, summed"});
    return w;
}

} // namespace

EfficiencyLosses efficiencyLosses(const Estimate& est)
{
    const TimeReport& t = est.time;
    EfficiencyLosses l;
    if (t.step_s <= 0)
        return l;
    const double step = t.step_s;
    l.bubble = t.bubble_s / step;
    l.uneven_stages = t.uneven_s / step;
    l.exposed_communication = t.exposed_comm_s / step;
    l.optimizer = t.optimizer_s / step;
    // Recompute: the forward the backward runs once more (time/op_costs.cpp), on the mean rank.
    const double mean_share = t.compute_s > 0 ? t.mean_compute_s / t.compute_s : 1;
    l.recompute = t.compute_kinds.recompute_s * mean_share / step;
    l.below_peak = (t.mean_compute_s - t.compute_kinds.recompute_s * mean_share) / step - est.throughput.mfu;
    // A straggler's time shows as uneven stages, bubble, slow kernels and waiting at collectives:
    // its part is taken from those, so that the parts still add up to 1 − MFU.
    l.straggler = t.straggler_s / step;
    double rest = l.straggler;
    for (double* part : {&l.uneven_stages, &l.bubble, &l.below_peak, &l.exposed_communication}) {
        const double take = std::min(std::max(0.0, *part), rest);
        *part -= take;
        rest -= take;
    }
    l.host_wait = std::clamp(t.compute_kinds.host_wait_s * mean_share / step, 0.0, std::max(0.0, l.below_peak));
    return l;
}

namespace {

Wall efficiencyWall(const Estimate& est, EfficiencyLosses& losses, Explain explain)
{
    losses = efficiencyLosses(est);
    const EfficiencyLosses& l = losses;
    Wall w = judgedWall(l.parallel(), kEfficiencyWall);
    if (explain == Explain::NumbersOnly)
        return w;
    const double mfu = est.throughput.mfu;
    w.explanation = {
        "the step loses " + pct(w.value) + " to parallelism: bubble " + pct(l.bubble) + ", uneven stages "
            + pct(l.uneven_stages) + ", exposed communication " + pct(l.exposed_communication) + ", recompute "
            + pct(l.recompute) + ", optimizer " + pct(l.optimizer)
            + (l.straggler > 0 ? ", the straggler " + pct(l.straggler) : std::string()) + "; kernels below peak "
            + pct(l.below_peak) + (l.host_wait > 0 ? " (the GPU waiting for the host " + pct(l.host_wait) + ")" : "")
            + "; together 1 − MFU = " + pct(l.lost()) + " (MFU " + pct(mfu) + ")",
        "并行带来的单步损失 " + pct(w.value) + "：气泡 " + pct(l.bubble) + "，阶段负载不均 " + pct(l.uneven_stages)
            + "，未重叠通信 " + pct(l.exposed_communication) + "，重计算 " + pct(l.recompute) + "，优化器 "
            + pct(l.optimizer) + (l.straggler > 0 ? "，慢节点 " + pct(l.straggler) : std::string()) + "；算子未达峰值 "
            + pct(l.below_peak) + (l.host_wait > 0 ? "（其中 GPU 等待主机下发 " + pct(l.host_wait) + "）" : "")
            + "；合计 1 − MFU = " + pct(l.lost()) + "（MFU " + pct(mfu) + "）"};
    w.terms.push_back({"walls.efficiency", w.value, "fraction",
                       "(bubble + uneven stages + exposed communication + recompute + optimizer + straggler) / step",
                       num(l.bubble) + " + " + num(l.uneven_stages) + " + " + num(l.exposed_communication) + " + "
                           + num(l.recompute) + " + " + num(l.optimizer) + " + " + num(l.straggler),
                       "disjoint parts of the step, on average over the pipeline ranks (time.step)"});
    w.terms.push_back({"walls.efficiency.below_peak", l.below_peak, "fraction", "1 − MFU − parallel losses",
                       "1 − " + num(mfu) + " − " + num(w.value),
                       "the useful compute's time beyond model FLOPs at peak: kernel efficiency, operations MFU "
                       "does not count, the GPU waiting for the host"});
    return w;
}

} // namespace

Walls computeWalls(const Scenario& sc, const Estimate& est, Explain explain)
{
    Walls w;
    w.memory = memoryWall(est, explain);
    w.communication = communicationWall(est, explain);
    w.efficiency = efficiencyWall(est, w.losses, explain);
    w.stability = stabilityWall(sc, est, w.stability_report, explain);
    return w;
}

} // namespace parascope
