#pragma once
// The memory verdict in three states. A predicted peak near the capacity cannot be called either
// way: what the model does not resolve — the caching allocator's freed-but-kept blocks, NCCL's
// and cuBLAS's workspaces, a recompute or allocator setting the source did not state — moves a
// real run's peak by a few per cent of the capacity. Inside that band the verdict is
// "borderline"; "out of memory" is said only beyond it.
//
// The band, ±3 % of the capacity, from a published measured peak of the fit part: torchtitan's
// Llama 3.1 8B FSDP on one 8 × H100 96 GB node (reference run tt24_8b_8gpu_fsdp; torchtitan
// docs/performance.md) reports 77.0 GiB as the allocator's max reserved, where the engine
// predicts 74.7 GiB allocated: 2.3 GiB, 2.4 % of the 95 GiB capacity, rounded up. The issue's
// bound is ±5 %. The check part's peaks (1.0–5.1 % of the peak on the 8B runs) are not used.

#include "util/enum_names.h"

#include <span>

namespace parascope {

enum class MemoryVerdict { Fits, Borderline, OutOfMemory };
inline constexpr EnumName<MemoryVerdict> kMemoryVerdictNames[] = {{MemoryVerdict::Fits, "fits"},
                                                                  {MemoryVerdict::Borderline, "borderline"},
                                                                  {MemoryVerdict::OutOfMemory, "out_of_memory"}};
constexpr std::span<const EnumName<MemoryVerdict>> enumNames(MemoryVerdict) { return kMemoryVerdictNames; }
inline const char* toString(MemoryVerdict v) { return nameOf(v); }

inline constexpr double kMemoryBandFraction = 0.03; // of the capacity, each side

inline MemoryVerdict memoryVerdict(double bytes, double capacity)
{
    if (bytes > capacity * (1 + kMemoryBandFraction))
        return MemoryVerdict::OutOfMemory;
    return bytes > capacity * (1 - kMemoryBandFraction) ? MemoryVerdict::Borderline : MemoryVerdict::Fits;
}

} // namespace parascope
