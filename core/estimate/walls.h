#pragma once
// The course's four walls (chapter 1): memory (显存墙), communication (通信墙), efficiency (效率墙:
// bubbles, uneven stages, communication compute does not hide, recompute) and stability
// (稳定性墙: interruptions at scale and what checkpointing costs). Each is a number, a verdict
// against the thresholds below, and an explanation with its terms; the engine's numbers for the
// first three, new physics for the fourth:
//   interruptions/day = GPUs · failures per GPU-day (StabilityConfig, Llama 3's rate by default),
//   MTBF = 1 day / interruptions;
//   checkpoint = parameters · (weight bytes + optimizer state bytes), written by every node at once;
//   interval τ = √(2·C·MTBF) (Young 1974), C the write time;
//   goodput = 1 − C/τ − (τ/2 + R)/MTBF (Daly 2006, first order; R the restart), ≥ 0.
// With the fault what-ifs (FaultConfig): hangs and loss spikes are events as well, each losing the
// work since the checkpoint and the restart, a hang also the NCCL timeout T before anyone knows;
// with λ the events per second of all three kinds, τ = √(2·C/λ) and
//   goodput = (1 − C/τ − λ·(τ/2 + R) − λ_hang·T) · healthy step / step,
// the last factor a straggler's slowdown (estimate/faults.h).

#include "types/diagnostic.h"
#include "types/term.h"

#include <vector>

namespace parascope {

struct Scenario;
struct Estimate;

enum class WallVerdict { Ok, Near, Hit };
inline constexpr EnumName<WallVerdict> kWallVerdictNames[]
    = {{WallVerdict::Ok, "ok"}, {WallVerdict::Near, "near"}, {WallVerdict::Hit, "hit"}};
constexpr std::span<const EnumName<WallVerdict>> enumNames(WallVerdict) { return kWallVerdictNames; }
inline const char* toString(WallVerdict v) { return nameOf(v); }

// When a wall is near and when it is hit: teaching thresholds, not physics.
struct WallThresholds {
    double near, hit;
};
inline constexpr WallThresholds kMemoryWall{0.9, 1.0}; // peak / capacity
inline constexpr WallThresholds kCommunicationWall{0.1, 0.3}; // exposed communication / step
inline constexpr WallThresholds kEfficiencyWall{0.25, 0.5}; // the step's losses / step
inline constexpr WallThresholds kStabilityWall{0.05, 0.2}; // 1 − goodput

struct Wall {
    double value = 0;
    WallVerdict verdict = WallVerdict::Ok;
    Localized explanation;
    std::vector<Term> terms;
};

// The efficiency wall's parts: disjoint fractions of the step, on average over the GPUs
// (time/step_time.h splits the step). The five parallel losses are the wall's value; with the
// kernels below peak they add up to what MFU says is lost:
//   bubble + uneven_stages + exposed_communication + recompute + optimizer + below_peak = 1 − MFU.
// below_peak is the useful compute's time beyond model FLOPs at peak (kernel efficiency, the
// operations MFU does not count, the GPU waiting for the host); host_wait is that last part of it,
// said apart (MoE layers the host issues more slowly than the GPU runs them).
// straggler: the step's growth over a healthy job's (faults.straggler_slowdown_pct), which the
// other parts would show as uneven stages, bubble, kernels below peak and exposed communication:
// it is taken from them in that order, so the parts stay disjoint and still add up.
struct EfficiencyLosses {
    double bubble = 0, uneven_stages = 0, exposed_communication = 0, recompute = 0, optimizer = 0;
    double straggler = 0;
    double below_peak = 0;
    double host_wait = 0; // of below_peak: the GPU waiting for the host that issues MoE layers
    double parallel() const
    {
        return bubble + uneven_stages + exposed_communication + recompute + optimizer + straggler;
    }
    double lost() const { return parallel() + below_peak; } // = 1 − MFU
};

struct StabilityReport {
    double interruptions_per_day = 0, mtbf_s = 0;
    double checkpoint_bytes = 0, checkpoint_write_s = 0, checkpoint_interval_s = 0, restart_s = 0;
    // What the checkpoint is written at: min(nodes · per node, the storage's aggregate).
    double checkpoint_write_bytes_per_s = 0;
    bool storage_bound = false; // the file system's aggregate, not the nodes, sets the pace
    // The fault what-ifs: hangs and loss spikes per day, the NCCL timeout, and the straggler's
    // step slowdown (step / healthy step; 1 without one).
    double hangs_per_day = 0, loss_spikes_per_day = 0, nccl_timeout_s = 0, straggler_slowdown = 1;
    double time_goodput = 1; // 1 − what checkpoints, restarts and lost work take, before the straggler
    double goodput = 1; // time_goodput / straggler_slowdown
};

struct Walls {
    Wall memory, communication, efficiency, stability;
    EfficiencyLosses losses;
    StabilityReport stability_report;
};

Walls computeWalls(const Scenario& sc, const Estimate& est, Explain explain = Explain::Full);
// The step's losses as the efficiency wall splits them (also what moe_host_bound says).
EfficiencyLosses efficiencyLosses(const Estimate& est);

// A wall's value and its verdict against the thresholds; the explanation comes after.
Wall judgedWall(double value, WallThresholds t);
// The stability wall and its figures (estimate/stability_wall.cpp).
Wall stabilityWall(const Scenario& sc, const Estimate& est, StabilityReport& r, Explain explain);

} // namespace parascope
