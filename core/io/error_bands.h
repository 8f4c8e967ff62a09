#pragma once
// How sure a prediction is: the validated error of its class, measured by `parascope-cli validate`
// on the reference set's check part (runs no engine constant was fitted on) and stored as data
// (resources/presets/validation/error-bands.json, schema parascope.bands/1, written by
// `parascope-cli validate --out FILE`; never typed). A step time of 10.8 s in a class whose check
// runs were off by 11 % on average reads "10.8 s (±11 %: MoE, 7 reference runs)"; tokens/s and
// MFU, which are the step time inverted, carry the same relative band.
//
//   {"schema": "parascope.bands/1", "measured_by": "…",
//    "all": {"mape": 0.104, "max_abs_error": 0.314, "runs": 46},
//    "classes": {"dense": {"mape": …, "max_abs_error": …, "runs": 9}, …}}

#include "types/diagnostic.h"
#include "types/scenario.h"
#include "util/json_reader.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace parascope {

inline constexpr const char* kBandsSchema = "parascope.bands/1";

struct ErrorBand {
    std::string run_class; // "dense", "fp8", "fsdp", "long_context", "moe"; "" for all check runs
    double mape = 0; // mean |predicted / measured step − 1| over the class's check runs
    double max_abs_error = 0;
    int runs = 0;
};

struct ErrorBands {
    ErrorBand all;
    std::vector<ErrorBand> classes;
};

// The class a scenario's prediction belongs to, the reference set's own (each run's "class" is
// this of its scenario; tst_fidelity3 checks): long context (CP > 1, or 16k tokens and more),
// then MoE (routed experts), FP8, FSDP / ZeRO-3 (with or without TP), dense.
std::string predictionClass(const Scenario& sc);

// The class as files spell it: its id, "all" for the whole check part's band.
inline std::string bandClassId(const ErrorBand& b) { return b.run_class.empty() ? "all" : b.run_class; }

// The class's name as the validation report and the app say it ("all classes" for "").
Localized bandClassName(const std::string& run_class);

// The band as a reader sees it: "±10.1 % (MoE: the mean error of 8 reference runs no constant was
// fitted on; worst 31.4 %)"; `short_form`: "±10.1 %" alone.
Localized bandText(const ErrorBand& b, bool short_form = false);
// A step with its band in short form, the same in both languages: "8.92 s ±10.7 %".
std::string secondsWithBand(double s, const ErrorBand& b);

// Fewer check runs than this in a class: its band is the whole check part's.
inline constexpr int kMinRunsPerBand = 4;

// The band a prediction carries: its class's, or the whole check part's when the class has too
// few check runs.
ErrorBand bandFor(const ErrorBands& bands, const Scenario& sc);

// The built-in bands (error-bands.json), read once.
const ErrorBands& builtInBands();

// The report JSON's "uncertainty": the scenario's band, its class, runs, text and source.
nlohmann::json uncertaintyJson(const Scenario& sc, const std::string& lang);
// The same for a band already chosen (a sweep point's).
nlohmann::json bandJson(const ErrorBand& band, const std::string& lang);

// The bands file read (validation/runs_file.h's bandsToJson writes it).
ErrorBands readBands(const nlohmann::json& j, std::vector<InputError>& errors);

} // namespace parascope
