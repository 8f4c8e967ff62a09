#include "schedule/schedule_table.h"

#include "schedule/generators.h"

#include <algorithm>
#include <array>

namespace parascope {

namespace {

// Closed forms per schedule: peak in-flight microbatches per rank (in units of "one microbatch
// through all the layers the rank holds") and the bubble in unit costs (docs/reference/
// schedules-and-comm.md §1.11: F = 1, B = 2, Bi = W = 1, F&B = 3). bubbleTerm reduces each to the
// fraction a lecture writes; the diagnostics, the reports and the timeline's title quote it.

constexpr const char* kMegatronSrc = "Megatron-LM schedules.py warm-up counts; Korthikanti et al. 2022 §4.2.3";
constexpr const char* kBubbleSrc = "Narayanan et al. 2021 §2.2; docs/reference/schedules-and-comm.md §1.11";
constexpr const char* kDualPipeSrc = "DeepSeek DualPipe README: activation PP+1 per device";

double mOf(const PipelineShape& s) { return double(std::max(1LL, s.m)); }
std::string P(const PipelineShape& s) { return std::to_string(s.pp); }
std::string V(const PipelineShape& s) { return std::to_string(s.vpp); }
std::string M(const PipelineShape& s) { return std::to_string(s.m); }

Term inflight(std::string formula, std::string substituted, const char* source = kMegatronSrc)
{
    return {"activations.inflight_microbatches", 0, "count", std::move(formula), std::move(substituted), source};
}

Term bubbleFractionTerm(std::string formula, std::string substituted, const char* source = kBubbleSrc)
{
    return {"time.bubble_fraction", 0, "fraction", std::move(formula), std::move(substituted), source};
}

// (p−1)/(k·m + p−1) with k = 3 (F + B over the one-unit bubble per rank of ZB-H1, DualPipeV) or
// k = 6 (ZB-V's half-unit ramp).
Term perRampBubble(const PipelineShape& s, int k, const char* source)
{
    return bubbleFractionTerm("(p−1)/(" + std::to_string(k) + "m+p−1)",
                              "(" + P(s) + "−1)/(" + std::to_string(k) + "·" + M(s) + "+" + P(s) + "−1)", source);
}

// GPipe (Huang et al. 2019): all m forwards before any backward; the bubble of 1F1B.
double gpipeInflight(const PipelineShape& s, int) { return mOf(s); }
Term gpipeInflightTerm(const PipelineShape& s, int)
{
    return inflight("m", num(double(s.m)), "Huang et al. 2019 (GPipe): all m forwards precede the backwards");
}
double loopBubble(const PipelineShape& s) { return (s.pp - 1) * 3.0; } // (p − 1)(F + B)
Term loopBubbleTerm(const PipelineShape& s)
{
    return bubbleFractionTerm("(p−1)/(m+p−1)", "(" + P(s) + "−1)/(" + M(s) + "+" + P(s) + "−1)");
}

// 1F1B: warm-up p−i−1 forwards + the steady one.
double oneFOneBInflight(const PipelineShape& s, int i) { return std::min(double(s.pp - i), mOf(s)); }
Term oneFOneBInflightTerm(const PipelineShape& s, int i)
{
    return inflight("min(p − i, m)", "min(" + num(s.pp) + " − " + num(i) + ", " + num(double(s.m)) + ")");
}

// Megatron's interleaved 1F1B: warm-up (p−i−1)·2 + (v−1)·p chunk-microbatches (all m·v when
// m = p) plus the one in the steady state; a chunk is 1/v of the rank's layers.
double interleavedInflight(const PipelineShape& s, int i)
{
    const double chunks = double(s.m) == double(s.pp)
        ? mOf(s) * s.vpp
        : std::min(double((s.pp - i - 1) * 2 + (s.vpp - 1) * s.pp + 1), mOf(s) * s.vpp);
    return chunks / s.vpp;
}
Term interleavedInflightTerm(const PipelineShape& s, int i)
{
    return inflight("min(2·(p − i − 1) + (v − 1)·p + 1, m·v) / v",
                    "min(2·(" + num(s.pp) + " − " + num(i) + " − 1) + (" + num(s.vpp) + " − 1)·" + num(s.pp) + " + 1, "
                        + num(double(s.m)) + "·" + num(s.vpp) + ") / " + num(s.vpp));
}
double interleavedBubble(const PipelineShape& s) { return (s.pp - 1) * 3.0 / s.vpp; }
Term interleavedBubbleTerm(const PipelineShape& s)
{
    return bubbleFractionTerm("(p−1)/(v·m+p−1)", "(" + P(s) + "−1)/(" + V(s) + "·" + M(s) + "+" + P(s) + "−1)");
}

// ZB-H1: rank i delays its W's by i iterations and the activations stay until W (the ZB code
// frees only 2 of 34 sbh at I): every rank peaks at p, the 1F1B maximum.
double pInflight(const PipelineShape& s, int) { return std::min(double(s.pp), mOf(s)); }
Term zbH1InflightTerm(const PipelineShape& s, int)
{
    return inflight("min(p, m): W delayed by i iterations keeps the activations until W",
                    "min(" + num(s.pp) + ", " + num(double(s.m)) + ")",
                    "Qi et al. 2024 (Zero Bubble) zb_schedules.py memory accounting (W frees 32 of 34·sbh)");
}
double zbH1Bubble(const PipelineShape& s) { return (s.pp - 1) * 1.0; } // (p − 1)(F + Bi − W)
Term zbH1BubbleTerm(const PipelineShape& s) { return perRampBubble(s, 3, "Qi et al. 2024 (Zero Bubble), ZB-H1"); }

// ZB-V: 1F1B-level memory on every rank; the bubble is only the ramp, one chunk-forward per rank.
Term zbVInflightTerm(const PipelineShape& s, int)
{
    return inflight("min(p, m)", "min(" + num(s.pp) + ", " + num(double(s.m)) + ")",
                    "Qi et al. 2024 (Zero Bubble) README: ZB-V activation memory 1× of 1F1B");
}
double zbVBubble(const PipelineShape& s) { return (s.pp - 1) / 2.0; }
Term zbVBubbleTerm(const PipelineShape& s)
{
    return perRampBubble(s, 6, "Qi et al. 2024 (Zero Bubble), ZB-V; reproduced by the event simulator with F = Bi = W");
}

// DualPipe README: PP+1 stage-units of activations per device and a bubble of
// (PP/2 − 1)(F&B + B − 3W) with PP the stages. DualPipeV has 2·pp stages of half a rank each
// (F = ½, …): (2p + 1)/2 rank-units and (p − 1)·½·(3 + 2 − 3) = p − 1.
double dualPipeVInflight(const PipelineShape& s, int) { return std::min((2.0 * s.pp + 1.0) / 2.0, mOf(s)); }
Term dualPipeVInflightTerm(const PipelineShape& s, int)
{
    return inflight("min((2·p + 1)/2, m)", "min((2·" + num(s.pp) + " + 1)/2, " + num(double(s.m)) + ")", kDualPipeSrc);
}
double dualPipeVBubble(const PipelineShape& s) { return (s.pp - 1) * (3.0 + 2.0 - 3.0) / 2; }
Term dualPipeVBubbleTerm(const PipelineShape& s)
{
    return perRampBubble(s, 3, "DeepSeek DualPipe README, bubble table (2p stages of half a rank each)");
}

// Bidirectional DualPipe: p stages of a rank's size, two per rank (one of each direction), so
// (p + 1)/2 rank-units; each microbatch passes a rank once (m/2).
double dualPipeInflight(const PipelineShape& s, int) { return std::min((s.pp + 1.0) / 2.0, mOf(s) / 2.0); }
Term dualPipeInflightTerm(const PipelineShape& s, int)
{
    return inflight("min((p + 1)/2, m/2): p + 1 stages' activations, two stages per rank",
                    "min((" + num(s.pp) + " + 1)/2, " + num(double(s.m)) + "/2)", kDualPipeSrc);
}
double dualPipeBubble(const PipelineShape& s) { return (s.pp / 2.0 - 1) * (3.0 + 2.0 - 3.0); }
Term dualPipeBubbleTerm(const PipelineShape& s)
{
    return bubbleFractionTerm("(p−2)/(3m+p−2)", "(" + P(s) + "−2)/(3·" + M(s) + "+" + P(s) + "−2)",
                              "DeepSeek DualPipe README, bubble table");
}

// What each generator requires (the same rules as the diagnostics).
std::string anyRequest(const ScheduleRequest&) { return ""; }
std::string interleavedRequest(const ScheduleRequest& r)
{
    if (r.vpp < 2)
        return "interleaved 1F1B needs vpp ≥ 2";
    if (r.microbatches % r.ranks != 0)
        return "interleaved 1F1B needs the microbatch count to be a multiple of pp";
    return "";
}
std::string dualPipeVRequest(const ScheduleRequest& r)
{
    return r.microbatches < 2 * r.ranks ? "DualPipeV needs at least 2·pp microbatches" : "";
}
std::string dualPipeRequest(const ScheduleRequest& r)
{
    if (r.ranks % 2 != 0)
        return "DualPipe needs an even pp";
    if (r.microbatches % 2 != 0 || r.microbatches < 2 * r.ranks)
        return "DualPipe needs an even number of microbatches, at least 2·pp";
    return "";
}

} // namespace

using enum StagePlacement;
using enum SearchUse;

// kind, label en/zh, placement, split backward, chunks from vpp, F&B overlap, search; generator,
// requirement; in-flight and its Term; bubble and its Term.
// A table, one schedule per row (not reflowed):
// clang-format off
const std::array<ScheduleRow, kScheduleKinds> kSchedules = {{
    {ScheduleKind::GPipe, {"GPipe", "GPipe"}, Loop, false, false, false, Never,
     [](const ScheduleRequest& r) { return gpipeSchedule(r.ranks, r.microbatches); }, anyRequest, gpipeInflight,
     gpipeInflightTerm, loopBubble, loopBubbleTerm},
    {ScheduleKind::OneFOneB, {"1F1B", "1F1B"}, Loop, false, false, false, Always,
     [](const ScheduleRequest& r) { return oneFOneBSchedule(r.ranks, r.microbatches); }, anyRequest, oneFOneBInflight,
     oneFOneBInflightTerm, loopBubble, loopBubbleTerm},
    {ScheduleKind::Interleaved, {"interleaved 1F1B", "交错式 1F1B"}, Loop, false, true, false, WithPipeline,
     [](const ScheduleRequest& r) { return interleavedSchedule(r.ranks, r.vpp, r.microbatches); }, interleavedRequest,
     interleavedInflight, interleavedInflightTerm, interleavedBubble, interleavedBubbleTerm},
    {ScheduleKind::ZbH1, {"ZB-H1", "ZB-H1"}, Loop, true, false, false, WithPipeline,
     [](const ScheduleRequest& r) { return zbH1Schedule(r.ranks, r.microbatches); }, anyRequest, pInflight,
     zbH1InflightTerm, zbH1Bubble, zbH1BubbleTerm},
    {ScheduleKind::ZbV, {"ZB-V", "ZB-V"}, VShape, true, false, false, Never,
     [](const ScheduleRequest& r) { return zbVSchedule(r.ranks, r.microbatches); }, anyRequest, pInflight,
     zbVInflightTerm, zbVBubble, zbVBubbleTerm},
    {ScheduleKind::DualPipeV, {"DualPipeV", "DualPipeV"}, VShape, true, false, true, Never,
     [](const ScheduleRequest& r) { return dualPipeVSchedule(r.ranks, r.microbatches); }, dualPipeVRequest,
     dualPipeVInflight, dualPipeVInflightTerm, dualPipeVBubble, dualPipeVBubbleTerm},
    {ScheduleKind::DualPipe, {"DualPipe (bidirectional)", "DualPipe（双向）"}, Bidirectional, true, false, true, Never,
     [](const ScheduleRequest& r) { return dualPipeSchedule(r.ranks, r.microbatches); }, dualPipeRequest,
     dualPipeInflight, dualPipeInflightTerm, dualPipeBubble, dualPipeBubbleTerm},
}};
// clang-format on

std::span<const ScheduleRow> scheduleTable() { return kSchedules; }

} // namespace parascope
