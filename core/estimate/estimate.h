#pragma once
// Estimate: the single result of core::evaluate(). Every view, exporter and the CLI reads it; none
// computes physics of its own. `parascope.report/1` in JSON.

#include "comm/comm_volume.h"
#include "estimate/walls.h"
#include "memory/stage_memory.h"
#include "model/flops.h"
#include "model/parameter_count.h"
#include "parallel/placement.h"
#include "time/step_time.h"
#include "types/diagnostic.h"
#include "types/term.h"

#include <string>
#include <vector>

namespace parascope {

struct Estimate {
    ParamCounts params;
    std::int64_t gpus = 0;
    long long microbatches = 0;
    Placement placement;
    MemoryReport memory;
    FlopsReport flops;
    std::vector<CommEntry> communication;
    TimeReport time;
    TimelineReport timeline;
    ThroughputReport throughput;
    std::vector<Diagnostic> diagnostics;
    Walls walls; // the course's four walls (estimate/walls.h)

    bool hasErrors() const;
    // The first error other than out of memory: the layout cannot run (an out-of-memory layout
    // runs, its numbers stand). nullptr when it can.
    const Diagnostic* layoutError() const;
    bool has(const std::string& code) const;
};

} // namespace parascope
