#pragma once
// Validation against published training runs: each run of a published-runs file (the format of
// resources/presets/validation/published-runs.json) becomes a Scenario — fields its source left
// unstated filled from documented per-source defaults, never per-run — and the engine's step
// time is compared with the published one.

#include "types/scenario.h"
#include "util/json_reader.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace parascope {

struct ValidationRow {
    std::string id;
    std::string source_family;     // narayanan2021, mtnlg2022, megatron-core-2024
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

struct ValidationSummary {
    std::vector<ValidationRow> rows;
    int evaluated = 0;
    double mape = 0;        // mean |error| over evaluated rows
    double max_abs_error = 0;
    std::string worst;
};

// Builds the scenario for one run; nullopt (with the reason) when it cannot be evaluated.
std::optional<Scenario> scenarioForRun(const nlohmann::json& run, ValidationRow& row);

ValidationSummary validateRuns(const nlohmann::json& runs_file, std::vector<InputError>& errors);

} // namespace parascope
