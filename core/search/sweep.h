#pragma once
// Sweep: one knob across a range of values; for each value the numbers that matter in class
// (peak memory per stage vs capacity, step time, bubble, exposed communication, MFU, tokens/s)
// and the diagnostics that appear — invalid points stay on the axis with their reason — and the
// breaking points, named ("from PP = 32: …").

#include "estimate/estimate.h"
#include "estimate/scenario.h"

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

// Knobs that can be swept (scenario paths): parallel.tp/pp/vpp/dp/cp/ep/zero,
// training.seq_len/micro_batch/global_batch, training.recompute (0 none, 1 selective, 2 full),
// parallel.schedule (0 … 5 in the order of the scenario file), gpus (DP follows).
const std::vector<std::string>& sweepableParams();
// Applies one value; false (with the reason) when the param is unknown or the value is out of range.
bool applySweepValue(Scenario& sc, const std::string& param, long long value, std::string& why);

SweepResult sweep(const Scenario& base, const std::string& param, const std::vector<long long>& values);

} // namespace parascope
