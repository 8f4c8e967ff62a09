#pragma once
// Validation against measured training runs, from a file a user can write for their own cluster
// (schema parascope.runs/1; the built-in reference set, resources/presets/validation/
// reference-runs.json, is one): each run is a full scenario and what was measured, and the
// engine's step time is compared with the measured one.
//
//   {"schema": "parascope.runs/1",
//    "runs": [{"id": "…", "source": "…", "notes": "…" (optional), "part": "fit" | "check" (optional),
//              "class": "dense" | "moe" | "fp8" | "fsdp" | "long_context" | … (optional),
//              "scenario": {…a complete parascope.scenario/1…},
//              "measured": {exactly one of
//                             "step_s"
//                             "tokens_per_s_per_gpu"
//                             "model_tflops_per_gpu" with "flops_convention": "megatron" |
//                               "megatron_causal" (Megatron-LM 2025: attention's causal half) |
//                               "6nd" | "narayanan96" (Narayanan et al. 2021 eq. 3, GPT-shaped)
//                             "mfu" (Megatron model FLOPs over the GPU's dense bf16 peak),
//                           and optionally "peak_memory_gib" with "peak_memory_kind":
//                             "allocated" (default: torch.cuda.max_memory_allocated, what the
//                             engine predicts) | "reserved" (the caching allocator's
//                             max_memory_reserved, which also holds freed blocks: an upper
//                             bound on what was allocated)}}]}
//
// "part" says which part of a reference set a run belongs to: "fit" runs are those some engine
// constant was chosen on (docs/VALIDATION.md says which constant on which runs), "check" runs
// are those no constant saw. The summary keeps the error of each part apart, so that the
// accuracy claimed is the one on runs the constants were not fitted to. A run that was measured
// trained: the engine calling it out of memory is counted as a false OOM.

#include "util/json_reader.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace parascope {

inline constexpr const char* kRunsSchema = "parascope.runs/1";

enum class RunPart { Fit, Check };
inline constexpr EnumName<RunPart> kRunPartNames[] = {{RunPart::Fit, "fit"}, {RunPart::Check, "check"}};
constexpr std::span<const EnumName<RunPart>> enumNames(RunPart) { return kRunPartNames; }
inline const char* toString(RunPart p) { return nameOf(p); }

struct ValidationRow {
    std::string id;
    std::optional<RunPart> part; // the run's "part"; none when the file does not say
    bool evaluated = false;
    std::string skipped_because; // when not evaluated
    std::string skipped_because_zh;
    double published_step_s = 0;
    double predicted_step_s = 0;
    double published_tflops_per_gpu = 0; // in the source's FLOPs convention
    double predicted_tflops_per_gpu = 0; // the same convention, from the predicted step
    double error = 0; // predicted / published step time − 1 (positive: slower)
    std::string convention; // how the published throughput was turned into a step time
    double predicted_mfu = 0;
    double bubble_fraction = 0;
    std::string run_class; // "dense", "moe", "fp8", "fsdp", "long_context", … (free text)
    std::string derived_class; // predictionClass() of the run's scenario (error_bands.h)
    std::optional<double> measured_peak_gib; // peak memory the run reported
    bool measured_peak_reserved = false; // …as the allocator's max reserved (an upper bound)
    double predicted_peak_gib = 0;
    double memory_error = 0; // predicted / measured peak − 1 (with measured_peak_gib)
    bool predicted_oom = false; // the engine says out of memory for a run that trained
};

// Errors over a set of rows: all of them, or one part.
struct ErrorSummary {
    int runs = 0; // rows in the set, evaluated or not
    int evaluated = 0;
    double mape = 0; // mean |error| over evaluated rows
    double max_abs_error = 0;
    std::string worst;
};

struct ValidationSummary {
    std::vector<ValidationRow> rows;
    int evaluated = 0; // over every row, whatever its part
    double mape = 0; // mean |error| over evaluated rows
    double max_abs_error = 0;
    std::string worst;
    ErrorSummary fit; // rows with "part": "fit"
    ErrorSummary check; // rows with "part": "check": the held-out accuracy
    // The check part per class (in order of first appearance), and how many
    // runs that trained the engine calls out of memory.
    std::vector<std::pair<std::string, ErrorSummary>> check_classes;
    int false_oom = 0;
    ErrorSummary memory; // |memory_error| over the runs with a measured allocated peak
    ErrorSummary memory_reserved; // …and over those with a reserved one (a bound, not a target)
    int above_reserved = 0; // runs predicted above their reserved peak: more than was ever held
};

// MAPE, worst run and counts over the rows `keep` selects.
template <class Keep> ErrorSummary summariseRows(const std::vector<ValidationRow>& rows, Keep keep);

// Training FLOPs per step as Narayanan et al. 2021 eq. 3 counts them (a GPT with its recomputed
// forward): 96·B·s·L·h²(1 + s/6h + V/16Lh).
double narayananFlops(double B, double s, double L, double h, double V);

// Every run of a parascope.runs/1 file evaluated; input errors (with their paths) instead when
// any run is malformed.
ValidationSummary validateRuns(const nlohmann::json& file, std::vector<InputError>& errors);

// The check part's error per class as the bands file stores it (io/error_bands.h: what the app
// shows as each prediction's uncertainty).
nlohmann::json bandsToJson(const ValidationSummary& v);

template <class Keep> ErrorSummary summariseRows(const std::vector<ValidationRow>& rows, Keep keep)
{
    ErrorSummary e;
    double sum = 0;
    for (const ValidationRow& row : rows) {
        if (!keep(row))
            continue;
        ++e.runs;
        if (!row.evaluated)
            continue;
        ++e.evaluated;
        const double err = row.error < 0 ? -row.error : row.error;
        sum += err;
        if (err > e.max_abs_error) {
            e.max_abs_error = err;
            e.worst = row.id;
        }
    }
    e.mape = e.evaluated ? sum / e.evaluated : 0;
    return e;
}

} // namespace parascope
