#pragma once
// A measured step (a PyTorch profiler trace, io/kineto_trace.h) set beside the simulated step of
// the same scenario: step time, and the step taken apart the same way on both sides — GEMMs,
// attention, other compute, optimizer, communication no compute hides, copies, idle — then the
// communication kernels by collective, overlapped or not. The simulated side is the critical
// pipeline rank (TimeReport::compute_kinds); the measured side the trace's one GPU, each part
// the mean over the steps measured.
//
// Measured, the compute parts share the time some compute kernel runs in proportion to their
// kernel time (streams rarely run two compute kernels at once); exposed communication is NCCL
// kernel time with no compute kernel beside it; copies are copies with neither; idle is the
// rest of the window (pipeline bubbles, waits for the host or for other ranks). Simulated, idle
// is the bubble plus the MoE host waits, and copies are none.

#include "estimate/estimate.h"
#include "io/kineto_trace.h"
#include "types/scenario.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace parascope {

inline constexpr const char* kTraceComparisonSchema = "parascope.trace-comparison/1";

struct TraceRow {
    std::string key; // "step", "gemm", …, "comm.all_reduce"
    double simulated_s = 0, measured_s = 0;
    bool part_of_step = false; // the parts that add up to the step
    Localized label;
};

struct TraceComparison {
    std::vector<TraceRow> rows;
    double step_error = 0; // (simulated − measured) / measured; meaningless for a different job
    // Why the trace is of a different job than the scenario (GPU type, job size, a model without
    // attention): then no error figure is given.
    std::vector<Localized> different_job;
    bool sameJob() const { return different_job.empty(); }
    std::vector<Localized> notes; // what differs between the two sides (the rank traced)

    const TraceRow* row(const std::string& key) const;
};

TraceComparison compareWithTrace(const Scenario& sc, const Estimate& est, const MeasuredTrace& trace);

nlohmann::json traceComparisonToJson(const Scenario& sc, const MeasuredTrace& trace, const TraceComparison& c);

} // namespace parascope
