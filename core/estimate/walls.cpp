#include "estimate/walls.h"

#include "estimate/display_names.h"
#include "estimate/estimate.h"
#include "types/scenario.h"

#include <algorithm>
#include <cmath>

namespace parascope {

namespace {

// A wall's value and its verdict against the thresholds; the explanation comes after.
Wall judged(double value, WallThresholds t)
{
    Wall w;
    w.value = value;
    w.verdict = value >= t.hit ? WallVerdict::Hit : value >= t.near ? WallVerdict::Near : WallVerdict::Ok;
    return w;
}

std::string pct(double f) { return formatPercent(f); }
std::string gib(double b) { return formatBytes(b); }

// Bytes per parameter a checkpoint keeps: the weights as trained, and the optimizer's fp32 state
// (Adam: master copy, m and v; SGD: master copy and momentum; in fp32 training the weights are
// the master copy).
double checkpointBytesPerParam(const TrainingConfig& t)
{
    const bool fp32 = t.precision == Precision::Fp32;
    const double weights = fp32 ? 4 : 2;
    const double state = t.optimizer == Optimizer::AdamW ? (fp32 ? 8 : 12) : (fp32 ? 4 : 8);
    return weights + state;
}

Wall memoryWall(const Estimate& est, Explain explain)
{
    const MemoryReport& m = est.memory;
    Wall w = judged(m.capacity_bytes > 0 ? m.peak_bytes / m.capacity_bytes : 0, kMemoryWall);
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
    Wall w = judged(t.step_s > 0 ? t.exposed_comm_s / t.step_s : 0, kCommunicationWall);
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
        en += "; most of it " + g.en + " " + c.en + " (" + num(worst->exposed_s * 1e3) + " ms)";
        zh += "；最多的是 " + g.zh + " " + c.zh + "（" + num(worst->exposed_s * 1e3) + " ms）";
    }
    w.explanation = {en, zh};
    w.terms.push_back({"walls.communication", w.value, "fraction", "exposed communication / step time",
                       num(t.exposed_comm_s) + " / " + num(t.step_s),
                       "the communication table's exposed column, summed"});
    return w;
}

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
    return l;
}

Wall efficiencyWall(const Estimate& est, EfficiencyLosses& losses, Explain explain)
{
    losses = efficiencyLosses(est);
    const EfficiencyLosses& l = losses;
    Wall w = judged(l.parallel(), kEfficiencyWall);
    if (explain == Explain::NumbersOnly)
        return w;
    const double mfu = est.throughput.mfu;
    w.explanation
        = {"the step loses " + pct(w.value) + " to parallelism: bubble " + pct(l.bubble) + ", uneven stages "
               + pct(l.uneven_stages) + ", exposed communication " + pct(l.exposed_communication) + ", recompute "
               + pct(l.recompute) + ", optimizer " + pct(l.optimizer) + "; kernels below peak " + pct(l.below_peak)
               + "; together 1 − MFU = " + pct(l.lost()) + " (MFU " + pct(mfu) + ")",
           "并行带来的单步损失 " + pct(w.value) + "：气泡 " + pct(l.bubble) + "，阶段负载不均 " + pct(l.uneven_stages)
               + "，未重叠通信 " + pct(l.exposed_communication) + "，重计算 " + pct(l.recompute) + "，优化器 "
               + pct(l.optimizer) + "；算子未达峰值 " + pct(l.below_peak) + "；合计 1 − MFU = " + pct(l.lost())
               + "（MFU " + pct(mfu) + "）"};
    w.terms.push_back({"walls.efficiency", w.value, "fraction",
                       "(bubble + uneven stages + exposed communication + recompute + optimizer) / step",
                       num(l.bubble) + " + " + num(l.uneven_stages) + " + " + num(l.exposed_communication) + " + "
                           + num(l.recompute) + " + " + num(l.optimizer),
                       "disjoint parts of the step, on average over the pipeline ranks (time.step)"});
    w.terms.push_back({"walls.efficiency.below_peak", l.below_peak, "fraction", "1 − MFU − parallel losses",
                       "1 − " + num(mfu) + " − " + num(w.value),
                       "the useful compute's time beyond model FLOPs at peak: kernel efficiency, operations MFU "
                       "does not count, the GPU waiting for the host"});
    return w;
}

Wall stabilityWall(const Scenario& sc, const Estimate& est, StabilityReport& r, Explain explain)
{
    const StabilityConfig& c = sc.stability;
    const double gpus = double(std::max<std::int64_t>(1, est.gpus));
    const double nodes = std::ceil(gpus / std::max(1, sc.cluster.gpus_per_node));
    r.interruptions_per_day = gpus * c.failures_per_gpu_day;
    r.mtbf_s = r.interruptions_per_day > 0 ? 86400 / r.interruptions_per_day : 0;
    const double per_param = checkpointBytesPerParam(sc.training);
    r.checkpoint_bytes = double(est.params.total) * per_param;
    // Every node writes its shard at once, as fast as the file system takes it all.
    const double from_nodes = nodes * c.checkpoint_write_bytes_per_s_per_node;
    const double storage = sc.cluster.storage.write_bytes_per_s;
    r.storage_bound = storage > 0 && storage < from_nodes;
    r.checkpoint_write_bytes_per_s = r.storage_bound ? storage : from_nodes;
    const double write_bw = r.checkpoint_write_bytes_per_s;
    r.checkpoint_write_s = write_bw > 0 ? r.checkpoint_bytes / write_bw : 0;
    r.restart_s = c.restart_s;
    if (r.mtbf_s > 0) {
        r.checkpoint_interval_s = std::sqrt(2 * r.checkpoint_write_s * r.mtbf_s);
        const double waste = (r.checkpoint_interval_s > 0 ? r.checkpoint_write_s / r.checkpoint_interval_s : 0)
            + (r.checkpoint_interval_s / 2 + r.restart_s) / r.mtbf_s;
        r.goodput = std::max(0.0, 1 - waste);
    }
    Wall w = judged(1 - r.goodput, kStabilityWall);
    if (explain == Explain::NumbersOnly)
        return w;
    const std::string hours = num(std::round(r.mtbf_s / 360) / 10);
    const std::string minutes = num(std::round(r.checkpoint_interval_s / 6) / 10);
    w.explanation
        = {num(std::round(r.interruptions_per_day * 10) / 10) + " interruptions a day on " + num(gpus)
               + " GPUs (one every " + hours + " h); checkpoint " + gib(r.checkpoint_bytes) + " written in "
               + num(std::round(r.checkpoint_write_s * 10) / 10) + " s at " + num(std::round(write_bw / 1e8) / 10)
               + " GB/s" + (r.storage_bound ? " (the file system's limit)" : "") + ", best every " + minutes
               + " min; goodput " + pct(r.goodput),
           num(gpus) + " 块 GPU 每天约中断 " + num(std::round(r.interruptions_per_day * 10) / 10) + " 次（平均 " + hours
               + " 小时一次）；检查点 " + gib(r.checkpoint_bytes) + "，写入 "
               + num(std::round(r.checkpoint_write_s * 10) / 10) + " 秒（" + num(std::round(write_bw / 1e8) / 10)
               + " GB/s" + (r.storage_bound ? "，受文件系统总带宽限制" : "") + "），最佳间隔 " + minutes
               + " 分钟；有效训练时间占比 " + pct(r.goodput)};
    w.terms.push_back({"walls.interruptions_per_day", r.interruptions_per_day, "count", "GPUs · failures per GPU-day",
                       num(gpus) + " · " + num(c.failures_per_gpu_day),
                       "Llama 3 (Dubey et al. 2024, §3.3.4): 419 unexpected interruptions in 54 days on 16,384 H100 "
                       "(stability.failures_per_gpu_day)"});
    w.terms.push_back({"walls.mtbf", r.mtbf_s, "s", "86,400 s / interruptions per day",
                       "86400 / " + num(r.interruptions_per_day), "mean time between failures of the whole job"});
    w.terms.push_back({"walls.checkpoint_bytes", r.checkpoint_bytes, "bytes",
                       "parameters · (weight bytes + optimizer state bytes)",
                       num(double(est.params.total)) + " · " + num(per_param),
                       "the weights as trained and the optimizer's fp32 state (Adam: master, m, v)"});
    w.terms.push_back(
        {"walls.checkpoint_write", r.checkpoint_write_s, "s",
         "checkpoint / min(nodes · write bandwidth per node, the storage's aggregate write bandwidth)",
         num(r.checkpoint_bytes) + " / min(" + num(nodes) + " · " + num(c.checkpoint_write_bytes_per_s_per_node) + ", "
             + (storage > 0 ? num(storage) : std::string("unknown")) + ")",
         "every node writes its shard at once (stability.checkpoint_write_gbps_per_node); the file system: "
             + (sc.cluster.storage.source.empty() ? std::string("no aggregate figure for this cluster")
                                                  : sc.cluster.storage.source)});
    w.terms.push_back({"walls.checkpoint_interval", r.checkpoint_interval_s, "s", "√(2 · C · MTBF)",
                       "√(2 · " + num(r.checkpoint_write_s) + " · " + num(r.mtbf_s) + ")",
                       "Young 1974, \"A first order approximation to the optimum checkpoint interval\""});
    w.terms.push_back({"walls.goodput", r.goodput, "fraction", "1 − C/τ − (τ/2 + R)/MTBF",
                       "1 − " + num(r.checkpoint_write_s) + "/" + num(r.checkpoint_interval_s) + " − ("
                           + num(r.checkpoint_interval_s) + "/2 + " + num(r.restart_s) + ")/" + num(r.mtbf_s),
                       "Daly 2006 (first order): checkpoint writes, half an interval lost per failure, the restart R "
                       "(stability.restart_min)"});
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
