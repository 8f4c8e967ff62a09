#include "schedule/pipeline_closed_form.h"

#include <algorithm>

namespace parascope {

namespace {
constexpr const char* kMegatronSrc =
    "Megatron-LM schedules.py warm-up counts; Korthikanti et al. 2022 §4.2.3";
}

std::vector<double> inflightMicrobatches(ScheduleKind s, int pp, int vpp, long long m)
{
    pp = std::max(1, pp);
    vpp = std::max(1, vpp);
    const double md = double(std::max(1LL, m));
    std::vector<double> out(pp);
    for (int i = 0; i < pp; ++i) {
        switch (s) {
        case ScheduleKind::GPipe:
            out[i] = md; // all forwards before any backward
            break;
        case ScheduleKind::OneFOneB:
            out[i] = std::min(double(pp - i), md); // warm-up p−i−1 forwards + the steady one
            break;
        case ScheduleKind::ZbH1:
            // Rank i delays its W's by i iterations, and the activations stay until W (the ZB
            // code frees only 2 of 34 sbh at I): every rank peaks at p, the 1F1B maximum.
            out[i] = std::min(double(pp), md);
            break;
        case ScheduleKind::Interleaved: {
            // Megatron: warm-up = (p−i−1)·2 + (v−1)·p chunk-microbatches (all m·v when m = p),
            // plus the one in the steady state; a chunk is 1/v of the rank's layers.
            const double chunks = double(m) == double(pp)
                ? md * vpp
                : std::min(double((pp - i - 1) * 2 + (vpp - 1) * pp + 1), md * vpp);
            out[i] = chunks / vpp;
            break;
        }
        case ScheduleKind::ZbV:
            out[i] = std::min(double(pp), md); // ZB-V: 1F1B-level memory on every rank
            break;
        case ScheduleKind::DualPipeV:
            // DualPipe README: PP+1 stage-units of activations per device, with 2 stages per
            // device here (pp ranks, 2·pp stages): (2·pp + 1)/2 rank-units.
            out[i] = std::min((2.0 * pp + 1.0) / 2.0, md);
            break;
        case ScheduleKind::DualPipe:
            // DualPipe README: PP+1 stage-units per device; a rank holds two stages (one of each
            // direction), so (pp + 1)/2 rank-units; each microbatch passes a rank once (m/2).
            out[i] = std::min((pp + 1.0) / 2.0, md / 2.0);
            break;
        }
    }
    return out;
}

Term inflightTerm(ScheduleKind s, int pp, int vpp, long long m, int i, double value)
{
    Term t{"activations.inflight_microbatches", value, "count", "", "", kMegatronSrc};
    switch (s) {
    case ScheduleKind::GPipe:
        t.formula = "m";
        t.substituted = num(double(m));
        t.source = "Huang et al. 2019 (GPipe): all m forwards precede the backwards";
        break;
    case ScheduleKind::OneFOneB:
        t.formula = "min(p − i, m)";
        t.substituted = "min(" + num(pp) + " − " + num(i) + ", " + num(double(m)) + ")";
        break;
    case ScheduleKind::ZbH1:
        t.formula = "min(p, m): W delayed by i iterations keeps the activations until W";
        t.substituted = "min(" + num(pp) + ", " + num(double(m)) + ")";
        t.source = "Qi et al. 2024 (Zero Bubble) zb_schedules.py memory accounting (W frees 32 of 34·sbh)";
        break;
    case ScheduleKind::Interleaved:
        t.formula = "min(2·(p − i − 1) + (v − 1)·p + 1, m·v) / v";
        t.substituted = "min(2·(" + num(pp) + " − " + num(i) + " − 1) + (" + num(vpp) + " − 1)·" + num(pp)
                      + " + 1, " + num(double(m)) + "·" + num(vpp) + ") / " + num(vpp);
        break;
    case ScheduleKind::ZbV:
        t.formula = "min(p, m)";
        t.substituted = "min(" + num(pp) + ", " + num(double(m)) + ")";
        t.source = "Qi et al. 2024 (Zero Bubble) README: ZB-V activation memory 1× of 1F1B";
        break;
    case ScheduleKind::DualPipeV:
        t.formula = "min((2·p + 1)/2, m)";
        t.substituted = "min((2·" + num(pp) + " + 1)/2, " + num(double(m)) + ")";
        t.source = "DeepSeek DualPipe README: activation PP+1 per device";
        break;
    case ScheduleKind::DualPipe:
        t.formula = "min((p + 1)/2, m/2): p + 1 stages' activations, two stages per rank";
        t.substituted = "min((" + num(pp) + " + 1)/2, " + num(double(m)) + "/2)";
        t.source = "DeepSeek DualPipe README: activation PP+1 per device";
        break;
    }
    return t;
}

long long unpairedPasses(ScheduleKind s, int pp, int vpp, long long m, int rank)
{
    if (pp <= 1)
        return std::min(m, 1LL);
    if (s == ScheduleKind::Interleaved) // with m = p Megatron runs every forward first
        return m == pp ? vpp * m : std::min(vpp * m, 2LL * (pp - rank - 1) + (vpp - 1LL) * pp + 1);
    return std::min(m, (long long)(pp - rank));
}

// Step time in unit costs: ideal m·(F+B) plus the bubble of the schedule
// (docs/reference/schedules-and-comm.md §1.11 closed forms, F = 1, B = 2, Bi = W = 1, F&B = 3).
double bubbleFraction(ScheduleKind s, int pp, int vpp, long long m)
{
    pp = std::max(1, pp);
    vpp = std::max(1, vpp);
    const double md = double(std::max(1LL, m));
    const double F = 1, B = 2, W = 1, Bi = 1, FandB = 3;
    double bubble = 0;
    switch (s) {
    case ScheduleKind::GPipe:
    case ScheduleKind::OneFOneB: bubble = (pp - 1) * (F + B); break;
    case ScheduleKind::Interleaved: bubble = (pp - 1) * (F + B) / vpp; break;
    case ScheduleKind::ZbH1: bubble = (pp - 1) * (F + Bi - W); break;
    case ScheduleKind::ZbV: bubble = (pp - 1) * F / 2; break; // only the ramp: one chunk-forward per rank
    // DualPipe README: (PP/2 − 1)(F&B + B − 3W) with PP the stages and F, B, W a stage's. DualPipe
    // has pp stages of a rank's size; DualPipeV 2·pp stages of half that (F = ½, …): (pp − 1)·½·(…).
    case ScheduleKind::DualPipe: bubble = (pp / 2.0 - 1) * (FandB + B - 3 * W); break;
    case ScheduleKind::DualPipeV: bubble = (pp - 1) * (FandB + B - 3 * W) / 2; break;
    }
    bubble = std::max(0.0, bubble);
    const double ideal = md * (F + B);
    return bubble / (ideal + bubble);
}

Term bubbleTerm(ScheduleKind s, int pp, int vpp, long long m)
{
    // bubbleFraction's closed forms (F = 1, B = 2, Bi = W = 1, F&B = 3) reduced to the fraction
    // a lecture writes: interleaved ((p−1)/v)/(m + (p−1)/v) = (p−1)/(v·m + p−1); ZB-H1
    // (p−1)·1/(3m + (p−1)·1); ZB-V (p−1)·½/(3m + (p−1)·½) = (p−1)/(6m + p−1); DualPipe-V
    // (2p/2 − 1)·½·(3 + 2 − 3) = p − 1, so (p−1)/(3m + p−1); DualPipe (p/2−1)·2/(3m + (p/2−1)·2)
    // = (p−2)/(3m + p−2). The diagnostics, reports and the timeline's title all quote this one.
    Term t{"time.bubble_fraction", bubbleFraction(s, pp, vpp, m), "fraction", "", "",
           "Narayanan et al. 2021 §2.2; docs/reference/schedules-and-comm.md §1.11"};
    const std::string P = std::to_string(pp), V = std::to_string(vpp), M = std::to_string(m);
    switch (s) {
    case ScheduleKind::GPipe:
    case ScheduleKind::OneFOneB:
        t.formula = "(p−1)/(m+p−1)";
        t.substituted = "(" + P + "−1)/(" + M + "+" + P + "−1)";
        break;
    case ScheduleKind::Interleaved:
        t.formula = "(p−1)/(v·m+p−1)";
        t.substituted = "(" + P + "−1)/(" + V + "·" + M + "+" + P + "−1)";
        break;
    case ScheduleKind::ZbH1:
        t.formula = "(p−1)/(3m+p−1)";
        t.substituted = "(" + P + "−1)/(3·" + M + "+" + P + "−1)";
        t.source = "Qi et al. 2024 (Zero Bubble), ZB-H1";
        break;
    case ScheduleKind::ZbV:
        t.formula = "(p−1)/(6m+p−1)";
        t.substituted = "(" + P + "−1)/(6·" + M + "+" + P + "−1)";
        t.source = "Qi et al. 2024 (Zero Bubble), ZB-V; reproduced by the event simulator with F = Bi = W";
        break;
    case ScheduleKind::DualPipeV:
        t.formula = "(p−1)/(3m+p−1)";
        t.substituted = "(" + P + "−1)/(3·" + M + "+" + P + "−1)";
        t.source = "DeepSeek DualPipe README, bubble table (2p stages of half a rank each)";
        break;
    case ScheduleKind::DualPipe:
        t.formula = "(p−2)/(3m+p−2)";
        t.substituted = "(" + P + "−2)/(3·" + M + "+" + P + "−2)";
        t.source = "DeepSeek DualPipe README, bubble table";
        break;
    }
    return t;
}

} // namespace parascope
