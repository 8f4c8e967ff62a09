// The stability wall (稳定性墙, estimate/walls.h): interruptions at scale, what checkpointing
// costs, and the fault what-ifs — hangs that end in the NCCL timeout, loss spikes rolled back,
// a straggler's slowdown (types/scenario.h FaultConfig).
#include "estimate/walls.h"

#include "estimate/display_names.h"
#include "estimate/estimate.h"
#include "types/scenario.h"

#include <algorithm>
#include <cmath>

namespace parascope {

namespace {

std::string pct(double f) { return formatPercent(f); }
std::string oneDecimal(double v) { return num(std::round(v * 10) / 10); }

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

// The events that cost work — interruptions, hangs, loss spikes — and the checkpoint interval
// and goodput they leave, with a straggler's slowdown (walls.h).
void stabilityEvents(const Scenario& sc, const Estimate& est, StabilityReport& r)
{
    const FaultConfig& f = sc.faults;
    r.hangs_per_day = f.hangs_per_week / 7.0;
    r.loss_spikes_per_day = f.loss_spikes_per_week / 7.0;
    r.nccl_timeout_s = f.nccl_timeout_min * 60.0;
    const double per_day = r.interruptions_per_day + r.hangs_per_day + r.loss_spikes_per_day;
    if (per_day > 0) {
        const double lambda = per_day / 86400, hangs = r.hangs_per_day / 86400;
        r.checkpoint_interval_s = std::sqrt(2 * r.checkpoint_write_s / lambda);
        const double waste = (r.checkpoint_interval_s > 0 ? r.checkpoint_write_s / r.checkpoint_interval_s : 0)
            + lambda * (r.checkpoint_interval_s / 2 + r.restart_s) + hangs * r.nccl_timeout_s;
        r.time_goodput = std::max(0.0, 1 - waste);
    }
    const TimeReport& t = est.time;
    r.straggler_slowdown = t.healthy_step_s > 0 ? t.step_s / t.healthy_step_s : 1;
    r.goodput = r.time_goodput / r.straggler_slowdown;
}

// The fault what-ifs in force, as a clause of the wall's explanation ("" when none).
Localized faultClause(const StabilityReport& r)
{
    Localized c;
    if (r.hangs_per_day > 0)
        c.en += "; " + oneDecimal(r.hangs_per_day * 7) + " hangs a week, each found only after the "
            + num(r.nccl_timeout_s / 60) + "-min NCCL timeout",
            c.zh += "；每周 " + oneDecimal(r.hangs_per_day * 7) + " 次挂起，每次要等 " + num(r.nccl_timeout_s / 60)
            + " 分钟的 NCCL 超时才被发现";
    if (r.loss_spikes_per_day > 0)
        c.en += "; " + oneDecimal(r.loss_spikes_per_day * 7) + " loss spikes a week rolled back to the last checkpoint",
            c.zh += "；每周 " + oneDecimal(r.loss_spikes_per_day * 7) + " 次损失尖峰，回滚到上一个检查点";
    if (r.straggler_slowdown > 1)
        c.en += "; a straggler makes every step " + pct(r.straggler_slowdown - 1) + " longer",
            c.zh += "；慢节点使每步变长 " + pct(r.straggler_slowdown - 1);
    return c;
}

void explainStability(Wall& w, const Estimate& est, const StabilityReport& r)
{
    const double gpus = double(std::max<std::int64_t>(1, est.gpus));
    const std::string hours = num(std::round(r.mtbf_s / 360) / 10);
    const std::string minutes = num(std::round(r.checkpoint_interval_s / 6) / 10);
    const double write_bw = r.checkpoint_write_bytes_per_s;
    const Localized faults = faultClause(r);
    w.explanation
        = {oneDecimal(r.interruptions_per_day) + " interruptions a day on " + num(gpus) + " GPUs (one every " + hours
               + " h)" + faults.en + "; checkpoint " + formatBytes(r.checkpoint_bytes) + " written in "
               + oneDecimal(r.checkpoint_write_s) + " s at " + num(std::round(write_bw / 1e8) / 10) + " GB/s"
               + (r.storage_bound ? " (the file system's limit)" : "") + ", best every " + minutes + " min; goodput "
               + pct(r.goodput),
           num(gpus) + " 块 GPU 每天约中断 " + oneDecimal(r.interruptions_per_day) + " 次（平均 " + hours
               + " 小时一次）" + faults.zh + "；检查点 " + formatBytes(r.checkpoint_bytes) + "，写入 "
               + oneDecimal(r.checkpoint_write_s) + " 秒（" + num(std::round(write_bw / 1e8) / 10) + " GB/s"
               + (r.storage_bound ? "，受文件系统总带宽限制" : "") + "），最佳间隔 " + minutes
               + " 分钟；有效训练时间占比 " + pct(r.goodput)};
}

// Goodput, and what each fault what-if in force takes of it.
void goodputTerms(Wall& w, const StabilityReport& r, double per_day)
{
    const double tau = r.checkpoint_interval_s;
    if (r.hangs_per_day > 0)
        w.terms.push_back(
            {"walls.hang_loss", r.hangs_per_day / 86400 * (r.nccl_timeout_s + tau / 2 + r.restart_s), "fraction",
             "hangs per second · (T + τ/2 + R)",
             num(r.hangs_per_day) + "/86400 · (" + num(r.nccl_timeout_s) + " + " + num(tau) + "/2 + " + num(r.restart_s)
                 + ")",
             "a failed link or GPU leaves a collective waiting; the NCCL watchdog ends the job after "
             "the timeout T (PyTorch's ProcessGroupNCCL default 10 min since pytorch/pytorch#110947), "
             "then it restarts from the last checkpoint (faults.hangs_per_week, faults.nccl_timeout_min)"});
    if (r.loss_spikes_per_day > 0)
        w.terms.push_back({"walls.loss_spike_loss", r.loss_spikes_per_day / 86400 * (tau / 2 + r.restart_s), "fraction",
                           "loss spikes per second · (τ/2 + R)",
                           num(r.loss_spikes_per_day) + "/86400 · (" + num(tau) + "/2 + " + num(r.restart_s) + ")",
                           "each spike rolled back to the last checkpoint (PaLM 540B, Chowdhery et al. 2022 §5.1: "
                           "about 20 spikes, each restarted about 100 steps before it, 200–500 batches skipped; the "
                           "skipped data's effect on the model is outside this model) (faults.loss_spikes_per_week)"});
    w.terms.push_back({"walls.goodput", r.goodput, "fraction",
                       "(1 − C/τ − λ·(τ/2 + R) − λ_hang·T) · healthy step / step",
                       "(1 − " + num(r.checkpoint_write_s) + "/" + num(tau) + " − " + num(per_day) + "/86400 · ("
                           + num(tau) + "/2 + " + num(r.restart_s) + ") − " + num(r.hangs_per_day) + "/86400 · "
                           + num(r.nccl_timeout_s) + ") / " + num(r.straggler_slowdown),
                       "Daly 2006 (first order): checkpoint writes, half an interval lost per event, the restart R "
                       "(stability.restart_min); a hang also the NCCL timeout; a straggler's slowdown divides it"});
}

void stabilityTerms(Wall& w, const Scenario& sc, const Estimate& est, const StabilityReport& r, double nodes)
{
    const StabilityConfig& c = sc.stability;
    const double gpus = double(std::max<std::int64_t>(1, est.gpus));
    const double storage = sc.cluster.storage.write_bytes_per_s;
    w.terms.push_back({"walls.interruptions_per_day", r.interruptions_per_day, "count", "GPUs · failures per GPU-day",
                       num(gpus) + " · " + num(c.failures_per_gpu_day),
                       "Llama 3 (Dubey et al. 2024, §3.3.4): 419 unexpected interruptions in 54 days on 16,384 H100 "
                       "(stability.failures_per_gpu_day)"});
    w.terms.push_back({"walls.mtbf", r.mtbf_s, "s", "86,400 s / interruptions per day",
                       "86400 / " + num(r.interruptions_per_day), "mean time between failures of the whole job"});
    w.terms.push_back({"walls.checkpoint_bytes", r.checkpoint_bytes, "bytes",
                       "parameters · (weight bytes + optimizer state bytes)",
                       num(double(est.params.total)) + " · " + num(checkpointBytesPerParam(sc.training)),
                       "the weights as trained and the optimizer's fp32 state (Adam: master, m, v)"});
    w.terms.push_back(
        {"walls.checkpoint_write", r.checkpoint_write_s, "s",
         "checkpoint / min(nodes · write bandwidth per node, the storage's aggregate write bandwidth)",
         num(r.checkpoint_bytes) + " / min(" + num(nodes) + " · " + num(c.checkpoint_write_bytes_per_s_per_node) + ", "
             + (storage > 0 ? num(storage) : std::string("unknown")) + ")",
         "every node writes its shard at once (stability.checkpoint_write_gbps_per_node); the file system: "
             + (sc.cluster.storage.source.empty() ? std::string("no aggregate figure for this cluster")
                                                  : sc.cluster.storage.source)});
    const double per_day = r.interruptions_per_day + r.hangs_per_day + r.loss_spikes_per_day;
    w.terms.push_back({"walls.checkpoint_interval", r.checkpoint_interval_s, "s",
                       "√(2 · C / λ), λ = (interruptions + hangs + loss spikes) per second",
                       "√(2 · " + num(r.checkpoint_write_s) + " · 86400 / " + num(per_day) + ")",
                       "Young 1974, \"A first order approximation to the optimum checkpoint interval\"; every event "
                       "loses the work since the last checkpoint"});
    goodputTerms(w, r, per_day);
}

} // namespace

Wall stabilityWall(const Scenario& sc, const Estimate& est, StabilityReport& r, Explain explain)
{
    const StabilityConfig& c = sc.stability;
    const double gpus = double(std::max<std::int64_t>(1, est.gpus));
    const double nodes = std::ceil(gpus / std::max(1, sc.cluster.gpus_per_node));
    r.interruptions_per_day = gpus * c.failures_per_gpu_day;
    r.mtbf_s = r.interruptions_per_day > 0 ? 86400 / r.interruptions_per_day : 0;
    r.checkpoint_bytes = double(est.params.total) * checkpointBytesPerParam(sc.training);
    // Every node writes its shard at once, as fast as the file system takes it all.
    const double from_nodes = nodes * c.checkpoint_write_bytes_per_s_per_node;
    const double storage = sc.cluster.storage.write_bytes_per_s;
    r.storage_bound = storage > 0 && storage < from_nodes;
    r.checkpoint_write_bytes_per_s = r.storage_bound ? storage : from_nodes;
    const double write_bw = r.checkpoint_write_bytes_per_s;
    r.checkpoint_write_s = write_bw > 0 ? r.checkpoint_bytes / write_bw : 0;
    r.restart_s = c.restart_s;
    stabilityEvents(sc, est, r);
    Wall w = judgedWall(1 - r.goodput, kStabilityWall);
    if (explain == Explain::NumbersOnly)
        return w;
    explainStability(w, est, r);
    stabilityTerms(w, sc, est, r, nodes);
    return w;
}

} // namespace parascope
