#pragma once
// Sweep: one knob across a range of values; for each value the numbers that matter in class
// (peak memory per stage vs capacity, step time, bubble, exposed communication, MFU, tokens/s)
// and the diagnostics that appear — invalid points stay on the axis with their reason — and the
// breaking points, named ("from PP = 32: …"); and what else changes along the axis (the GPU
// count of a PP sweep, the global batch of a DP sweep), so a sweep never moves a quantity silently.

#include "estimate/estimate.h"
#include "io/error_bands.h"
#include "types/scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace parascope {

struct SweepPoint {
    long long value = 0;
    bool valid = true; // no error-severity diagnostic
    double peak_bytes = 0, capacity_bytes = 0;
    int peak_stage = 0;
    std::vector<double> stage_bytes; // total per stage
    double step_s = 0, bubble_fraction = 0, exposed_comm_s = 0, mfu = 0, tokens_per_s = 0;
    double goodput = 1; // the stability wall (estimate/walls.h): falls as the GPU count grows
    // How sure the step time (and tokens/s, MFU) is: the validated error of the class of the
    // layout the point ran (io/error_bands.h). A PP sweep stays in one class; a CP sweep can leave
    // "dense" for "long context", so each point carries its own.
    ErrorBand band;
    std::vector<Diagnostic> diagnostics;
    // The layout the point ran, after the knob's rule (types/knobs.h): what moved with the value.
    // All 0 when the knob refused the value (no layout ran).
    std::int64_t gpus = 0; // TP·PP·DP·CP
    int dp = 0;
    long long global_batch = 0;
    long long microbatches = 0; // per pipeline per step
};

// A quantity besides the swept knob that changes along the axis: the knob's rule moved it (DP
// keeps the microbatch count, so the global batch follows), or it follows from the layout
// (GPUs = TP·PP·DP·CP: a PP sweep keeps DP, so the GPU count grows with PP).
struct AxisChange {
    std::string what; // "gpus", "parallel.dp" or "training.global_batch"
    long long first = 0, last = 0; // at the first and the last point the knob applied
    long long min = 0, max = 0;
};

struct BreakingPoint {
    long long value = 0; // the first value where it appears
    std::string code; // diagnostic code
    Localized message; // "from PP = 32: …" in both languages
};

struct SweepResult {
    std::string param;
    std::vector<SweepPoint> points;
    std::vector<BreakingPoint> breaks;
    std::vector<AxisChange> changes; // empty when only the swept knob moves
    // The changes in a sentence, in both languages ("Along this axis the GPU count changes from
    // 32 to 1024 (DP kept at 8)."); empty when there are none.
    Localized changes_note;
};

// Sweeps one knob of types/knobs.h (any of knobs(): the same rule as the app's slider and
// `--set`; a value the knob refuses stays on the axis as an invalid point with the reason).
SweepResult sweep(const Scenario& base, const std::string& param, const std::vector<long long>& values);

} // namespace parascope
