#pragma once
// Validation against published training runs: each run of a published-runs file (the format of
// resources/presets/validation/published-runs.json) becomes a Scenario — fields its source left
// unstated filled from documented per-source defaults, never per-run — and the engine's step
// time is compared with the published one.
//
// A run may say which part of the reference set it belongs to ("part": "fit" or "check"): "fit"
// runs are those some engine constant was chosen on (docs/VALIDATION.md says which constant on
// which runs), "check" runs are those no constant saw. The summary keeps the error of each part
// apart, so that the accuracy claimed is the one on runs the constants were not fitted to.

#include "types/scenario.h"
#include "util/json_reader.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace parascope {

enum class RunPart { Fit, Check };
inline constexpr EnumName<RunPart> kRunPartNames[] = {{RunPart::Fit, "fit"}, {RunPart::Check, "check"}};
constexpr std::span<const EnumName<RunPart>> enumNames(RunPart) { return kRunPartNames; }
inline const char* toString(RunPart p) { return nameOf(p); }

struct ValidationRow {
    std::string id;
    std::optional<RunPart> part;   // the run's "part"; none when the file does not say
    std::string source_family;     // narayanan2021, mtnlg2022, megatron-core-2024, flashattn2023, torchtitan2024
    bool evaluated = false;
    std::string skipped_because;   // when not evaluated
    std::vector<std::string> defaults_used; // "micro_batch = 1 (not published)", …
    double published_step_s = 0;
    double predicted_step_s = 0;
    double published_tflops_per_gpu = 0; // in the source's FLOPs convention
    double predicted_tflops_per_gpu = 0; // the same convention, from the predicted step
    double error = 0;              // predicted / published step time − 1 (positive: slower)
    std::string convention;        // how the published throughput was turned into a step time
    double predicted_mfu = 0;
    double bubble_fraction = 0;
};

// Errors over a set of rows: all of them, or one part.
struct ErrorSummary {
    int runs = 0;           // rows in the set, evaluated or not
    int evaluated = 0;
    double mape = 0;        // mean |error| over evaluated rows
    double max_abs_error = 0;
    std::string worst;
};

struct ValidationSummary {
    std::vector<ValidationRow> rows;
    int evaluated = 0;      // over every row, whatever its part
    double mape = 0;        // mean |error| over evaluated rows
    double max_abs_error = 0;
    std::string worst;
    ErrorSummary fit;       // rows with "part": "fit"
    ErrorSummary check;     // rows with "part": "check": the held-out accuracy
};

// Builds the scenario for one run; nullopt (with the reason) when it cannot be evaluated.
std::optional<Scenario> scenarioForRun(const nlohmann::json& run, ValidationRow& row);

ValidationSummary validateRuns(const nlohmann::json& runs_file, std::vector<InputError>& errors);

} // namespace parascope
