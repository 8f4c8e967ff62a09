#pragma once
// Sweep: one knob across a range of values; for each value the numbers that matter in class
// (peak memory per stage vs capacity, step time, bubble, exposed communication, MFU, tokens/s)
// and the diagnostics that appear — invalid points stay on the axis with their reason — and the
// breaking points, named ("from PP = 32: …").

#include "estimate/estimate.h"
#include "types/scenario.h"

#include <string>
#include <vector>

namespace parascope {

struct SweepPoint {
    long long value = 0;
    bool valid = true;              // no error-severity diagnostic
    double peak_bytes = 0, capacity_bytes = 0;
    int peak_stage = 0;
    std::vector<double> stage_bytes; // total per stage
    double step_s = 0, bubble_fraction = 0, exposed_comm_s = 0, mfu = 0, tokens_per_s = 0;
    std::vector<Diagnostic> diagnostics;
};

struct BreakingPoint {
    long long value = 0;   // the first value where it appears
    std::string code;      // diagnostic code
    Localized message;     // "from PP = 32: …" in both languages
};

struct SweepResult {
    std::string param;
    std::vector<SweepPoint> points;
    std::vector<BreakingPoint> breaks;
};

// Sweeps one knob of types/knobs.h (any of knobs(): the same rule as the app's slider and
// `--set`; a value the knob refuses stays on the axis as an invalid point with the reason).
SweepResult sweep(const Scenario& base, const std::string& param, const std::vector<long long>& values);

} // namespace parascope
