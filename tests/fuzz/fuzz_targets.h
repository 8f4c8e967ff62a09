#pragma once
// The bodies of the fuzz targets, shared by the libFuzzer executables (clang, preset "fuzz") and
// by tst_fuzz_regressions, which replays the seed corpus and every input a fuzzer ever found.

#include "estimate/evaluate.h"
#include "hardware/hardware_profile.h"
#include "hardware/nccl_tests_import.h"
#include "io/hf_config_import.h"
#include "io/trace_comparison.h"
#include "io/megatron_args_import.h"
#include "io/model_json.h"
#include "io/report_json.h"
#include "io/scenario_json.h"
#include "validation/runs_file.h"

#include <string>

namespace parascope::fuzz {

// A scenario file's bytes, through the path of `parascope-cli evaluate`: parse (size and depth
// limits) → read (errors with paths) → evaluate → report JSON.
inline void scenarioFile(const std::string& bytes)
{
    std::vector<InputError> errors;
    const auto json = parseJsonText(bytes, errors);
    if (!json)
        return;
    const auto scenario = readScenario(*json, errors);
    if (!scenario)
        return;
    EvaluateOptions options;
    options.record_timeline = false;
    // A smaller simulation budget than the CLI's 400,000 ops: the same code paths (a prefix
    // simulated and extrapolated beyond it), at a speed that lets the fuzzer try many inputs.
    options.max_simulated_ops = 20000;
    const Estimate estimate = evaluate(*scenario, options);
    (void)reportToJson(*scenario, estimate).dump();
}

// The measurement imports; the first byte picks the format, the rest is the file: odd, a
// hardware profile (applied to a cluster as --profile does); 2 mod 4, a parascope.runs/1 file
// (read and evaluated as `parascope-cli validate RUNS` does); else an nccl-tests log (text or -J
// JSON, merged into a profile as `parascope-cli profile import-nccl-tests` does) when 0 mod 8;
// 4 mod 16 a Hugging Face config.json and 12 mod 16 a Megatron argument list (parascope-cli model
// import-hf / import-megatron, the result read back as a scenario and evaluated).
inline void measurementFile(const std::string& bytes)
{
    if (bytes.empty())
        return;
    const std::string text = bytes.substr(1);
    std::vector<InputError> errors;
    if ((bytes[0] & 3) == 2) {
        auto json = parseJsonText(text, errors);
        if (!json)
            return;
        // Every run is read and evaluated alike: four are enough to reach every path, and keep
        // each input fast (the reference set has 36).
        if (json->is_object() && json->contains("runs") && (*json)["runs"].is_array() && (*json)["runs"].size() > 4) {
            nlohmann::json& runs = (*json)["runs"];
            runs.erase(runs.begin() + 4, runs.end());
        }
        (void)validateRuns(*json, errors);
    } else if (bytes[0] & 1) {
        const auto json = parseJsonText(text, errors);
        if (!json)
            return;
        const auto profile = readHardwareProfile(*json, errors);
        if (!profile)
            return;
        std::vector<InputError> cluster_errors;
        if (const auto cluster = readCluster(nlohmann::json("dgx-h100"), "cluster", cluster_errors))
            (void)calibrate(*cluster, *profile);
    } else if ((bytes[0] & 15) == 4) {
        const auto json = parseJsonText(text, errors);
        if (!json)
            return;
        HfImportOptions options;
        options.text_only = true;
        if (const auto model = importHfConfig(*json, "config.json", options, errors))
            (void)modelToJson(model->model).dump();
    } else if ((bytes[0] & 15) == 12) {
        MegatronImportOptions options;
        options.gpus = 64;
        options.vocab = 32000;
        if (const auto imported = importMegatronArgs(text, "fuzz", options, errors))
            scenarioFile(imported->scenario.dump());
    } else if ((bytes[0] & 15) == 8) {
        // The trace's own SAX reader (what compare-trace and the app use), and the same text
        // through the JSON reader (its shape pass: depth, keys given twice).
        const auto doc = readTraceDocument(text, errors);
        (void)parseJsonText(text, errors, kMaxTraceBytes);
        if (!doc)
            return;
        if (const auto trace = readKinetoTrace(*doc, {}, errors)) {
            // One scenario, evaluated once: the comparison, not the engine, is under test here.
            static const Scenario sc = [] {
                std::vector<InputError> e;
                return *readScenario(
                    nlohmann::json::parse(R"({"schema":"parascope.scenario/1","model":"llama2-7b",)"
                                          R"("cluster":"dgx-h100","parallel":{"tp":2,"pp":2,"dp":2}})"),
                    e);
            }();
            static const Estimate est = evaluate(sc);
            (void)traceComparisonToJson(sc, *trace, compareWithTrace(sc, est, *trace)).dump();
        }
    } else {
        const auto imported = parseNcclTests(text, "all_reduce_perf.log", {}, errors);
        if (!imported)
            return;
        (void)mergeIntoProfile(nullptr, {*imported}, {"fuzz"}).dump();
    }
}

} // namespace parascope::fuzz
