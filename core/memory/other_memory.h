#pragma once
// "Other" memory per GPU: everything that is not a model state or a stored activation, each item
// configurable (scenario key "overheads").

#include "types/scenario.h"
#include "types/term.h"

#include <vector>

namespace parascope {

struct OtherMemoryInputs {
    int communicators = 0; // process groups of size > 1 this GPU belongs to
    double activations = 0; // bytes, for the fragmentation reserve
    double logits_bytes = 0; // last stage: the loss's logits buffers (0 elsewhere)
    double logits_bytes_per_element = 4; // 4 fused (one fp32 copy), 12 eager (training.cross_entropy)
    double zero3_gather_bytes = 0; // ZeRO-3: unsharded parameters of the layers being gathered
    double zero3_gather_layers = 2; // how many layers those are (2: current + one prefetched)
    int zero3_prefetch = 1; // layers gathered ahead (parallel.zero3_prefetch)
    bool zero3_whole_stage = false; // reshard_after_forward = false: the stage's layers stay gathered
    bool zero3_max_live = false; // capped by zero3_max_live_params (DeepSpeed) instead
};

struct OtherMemory {
    double total = 0;
    std::vector<Term> terms;
};

// What the allocator keeps beyond the bytes in use at the peak (the term other.fragmentation):
// the caching allocator, `fragmentation` of the activations (freed blocks of one segment that
// a larger request cannot use); expandable segments, at most one 2 MiB mapping page per stream
// (kAllocatorStreams: the compute stream and the communication stream's buffers).
inline constexpr double kExpandablePageBytes = 2.0 * (1 << 20);
inline constexpr int kAllocatorStreams = 2;
double fragmentationReserve(const OverheadConfig& c, double activations);

OtherMemory otherMemory(const OverheadConfig& c, const OtherMemoryInputs& in, Explain explain = Explain::Full);

} // namespace parascope
