#pragma once
// The memory-management view (显存管理): what PyTorch's CUDA caching allocator makes of the
// memory of the peak pipeline rank over the first step (estimate/memory_over_time.h gives the
// bytes in use at each moment):
//   allocated(t) = the bytes tensors hold (torch.cuda.memory_allocated): the rank's lane less
//                  the allocator's reserve;
//   reserved(t)  = the most allocated so far plus the reserve grown with it
//                  (torch.cuda.memory_reserved, what nvidia-smi shows): freed blocks stay cached
//                  and nothing goes back to CUDA within a step, so reserved never falls, and from
//                  the second step on it stays at its peak — the memory table's total.
// The reserve is fragmentationReserve() (memory/other_memory.h) of the activations allocated so
// far: a fraction of them with the default allocator, a mapping page per stream with
// expandable_segments. Beside it: the reserve under the other allocator (what switching
// changes) and CPU offload's PCIe copies (TimeReport::offload_pcie).

#include "estimate/estimate.h"
#include "estimate/memory_over_time.h"
#include "types/scenario.h"

#include <vector>

namespace parascope {

struct AllocatorView {
    int rank = 0; // the pipeline rank shown: the peak stage's (memory.stages order)
    AllocatorKind allocator = AllocatorKind::Caching;
    std::vector<MemoryPoint> allocated, reserved; // step functions, as memoryOverStep's
    double allocated_peak = 0, reserved_peak = 0; // reserved_peak = the stage's memory total
    double reserve_bytes = 0; // reserved_peak − allocated_peak: the term other.fragmentation
    double other_reserve_bytes = 0; // the same reserve under the other allocator
    PcieTraffic pcie; // CPU offload's copies per step (all 0 without offload)
};

// Empty lanes when the estimate has no memory stages (a layout error).
AllocatorView allocatorView(const Scenario& sc, const Estimate& e);

} // namespace parascope
