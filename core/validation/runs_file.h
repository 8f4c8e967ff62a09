#pragma once
// Measured training runs in a generic file a user can write for their own cluster, schema
// parascope.runs/1: each run is a full scenario (nothing filled in from "source families") and
// what was measured.
//
//   {"schema": "parascope.runs/1",
//    "runs": [{"id": "…", "source": "…", "notes": "…" (optional), "part": "fit" | "check" (optional),
//              "class": "dense" | "moe" | "fp8" | "fsdp" | "long_context" | … (optional),
//              "scenario": {…a complete parascope.scenario/1…},
//              "measured": {exactly one of
//                             "step_s"
//                             "tokens_per_s_per_gpu"
//                             "model_tflops_per_gpu" with "flops_convention": "megatron" |
//                               "6nd" | "narayanan96" (Narayanan et al. 2021 eq. 3, GPT-shaped)
//                             "mfu" (Megatron model FLOPs over the GPU's dense bf16 peak),
//                           and optionally "peak_memory_gib"}}]}
//
// A run that was measured trained: the engine calling it out of memory is counted as a false OOM.

#include "validation/published_runs.h"

namespace parascope {

inline constexpr const char* kRunsSchema = "parascope.runs/1";

ValidationSummary validateRunsFile(const nlohmann::json& file, std::vector<InputError>& errors);

} // namespace parascope
