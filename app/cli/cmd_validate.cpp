// parascope-cli validate: predicted vs published step times, MAPE per part.

#include "cli.h"

#include "io/scenario_json.h"
#include "validation/published_runs.h"
#include "util/json_reader.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace parascope::cli {

using namespace parascope;

int validateCommand(const Args& a)
{
    const std::string format = a.format.empty() ? "text" : a.format;
    if (format != "json" && format != "text")
        return badUsage("--format needs json or text");
    if (a.positional.size() > 1)
        return badUsage("validate takes at most one RUNS file");
    std::vector<parascope::InputError> errors;
    nlohmann::json runs;
    std::string name = "built-in reference set";
    if (a.positional.empty()) {
        runs = parascope::findPreset("validation", "published-runs")->json;
    } else {
        name = a.positional[0];
        auto j = parascope::readJsonFile(a.positional[0], errors);
        if (!j) {
            for (const auto& e : errors)
                std::cerr << "parascope-cli: " << e.text() << "\n";
            return kExitBadInput;
        }
        runs = std::move(*j);
    }
    const parascope::ValidationSummary v = parascope::validateRuns(runs, errors);
    if (!errors.empty()) {
        for (const auto& e : errors)
            std::cerr << "parascope-cli: " << name << ": " << e.text() << "\n";
        return kExitBadInput;
    }
    if (format == "json") {
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& r : v.rows) {
            nlohmann::json row = {{"id", r.id}, {"family", r.source_family}, {"evaluated", r.evaluated}};
            if (r.part)
                row["part"] = parascope::toString(*r.part);
            if (r.evaluated) {
                row.update({{"published_step_s", r.published_step_s}, {"predicted_step_s", r.predicted_step_s},
                            {"published_tflops_per_gpu", r.published_tflops_per_gpu},
                            {"predicted_tflops_per_gpu", r.predicted_tflops_per_gpu}, {"error", r.error},
                            {"convention", r.convention}, {"predicted_mfu", r.predicted_mfu},
                            {"bubble_fraction", r.bubble_fraction}, {"defaults_used", r.defaults_used}});
            } else {
                row["skipped_because"] = r.skipped_because;
            }
            rows.push_back(std::move(row));
        }
        // Each part's errors apart: "check" (no constant was fitted on it) is the accuracy to quote.
        const auto part = [](const parascope::ErrorSummary& e) {
            return nlohmann::json{{"runs", e.runs}, {"evaluated", e.evaluated}, {"mape", e.mape},
                                  {"max_abs_error", e.max_abs_error}, {"worst", e.worst}};
        };
        return emit(a, nlohmann::json{{"runs", rows}, {"evaluated", v.evaluated}, {"mape", v.mape},
                                      {"max_abs_error", v.max_abs_error}, {"worst", v.worst},
                                      {"parts", {{"fit", part(v.fit)}, {"check", part(v.check)}}}}.dump(2) + "\n");
    }
    std::ostringstream o;
    o << "Validation against published runs (" << name << ")\n";
    char line[256];
    std::snprintf(line, sizeof line, "%-36s %-5s %10s %10s %9s %9s %8s\n", "run", "part", "pub step", "pred step", "pub TF/s",
                  "pred TF/s", "error");
    o << line;
    for (const auto& r : v.rows) {
        const char* part = r.part ? parascope::toString(*r.part) : "-";
        if (!r.evaluated) {
            o << "  " << r.id << " (" << part << "): skipped (" << r.skipped_because << ")\n";
            continue;
        }
        std::snprintf(line, sizeof line, "%-36s %-5s %9.2fs %9.2fs %9.1f %9.1f %+7.1f%%\n", r.id.c_str(), part,
                      r.published_step_s, r.predicted_step_s, r.published_tflops_per_gpu, r.predicted_tflops_per_gpu,
                      r.error * 100);
        o << line;
    }
    std::snprintf(line, sizeof line, "MAPE %.1f %% over %d runs; worst %s (%.1f %%)\n", v.mape * 100, v.evaluated,
                  v.worst.c_str(), v.max_abs_error * 100);
    o << line;
    // The parts apart: "check" runs no constant was fitted on (the accuracy to quote), "fit" runs
    // the constants were chosen on.
    const auto partLine = [&](const char* label, const parascope::ErrorSummary& e) {
        if (e.runs == 0)
            return;
        std::snprintf(line, sizeof line, "  %s: MAPE %.1f %% over %d of %d runs; worst %s (%.1f %%)\n", label, e.mape * 100,
                      e.evaluated, e.runs, e.worst.empty() ? "-" : e.worst.c_str(), e.max_abs_error * 100);
        o << line;
    };
    partLine("check (no constant fitted on these)", v.check);
    partLine("fit (constants chosen on these)", v.fit);
    return emit(a, o.str());
}

} // namespace parascope::cli
