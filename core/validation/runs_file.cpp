#include "validation/runs_file.h"

#include "estimate/evaluate.h"
#include "io/scenario_json.h"
#include "time/step_time.h"
#include "io/error_bands.h"

#include <algorithm>
#include <cmath>

namespace parascope {

namespace {

enum class MeasuredKind { StepTime, TokensPerGpu, TflopsPerGpu, Mfu };

struct Run {
    std::string id;
    std::optional<RunPart> part;
    std::string run_class;
    std::optional<Scenario> scenario;
    MeasuredKind kind = MeasuredKind::StepTime;
    double value = 0;
    int convention = 0; // model_tflops_per_gpu counted as: 0 Megatron's model FLOPs, 1 6·N·D, 2 Narayanan eq. 3,
        // 3 Megatron's model FLOPs with the causal half of attention (Megatron-LM 2025)
    std::optional<double> peak_gib;
    bool peak_reserved = false; // peak_memory_kind "reserved"
};

// One run, every field typed and checked with its path; nullopt after an input error.
std::optional<Run> readRun(const nlohmann::json& j, const std::string& path, std::vector<InputError>& errors)
{
    const std::size_t before = errors.size();
    ObjectReader r(j, path, errors);
    if (!r.valid())
        return std::nullopt;
    Run run;
    run.id = r.string("id", true).value_or("");
    r.string("source", true);
    r.string("notes");
    if (r.child("part"))
        run.part = r.choice<RunPart>("part");
    run.run_class = r.string("class").value_or("");
    if (const nlohmann::json* sj = r.child("scenario")) {
        std::vector<InputError> inner;
        run.scenario = readScenario(*sj, inner);
        for (const InputError& e : inner)
            errors.push_back({r.childPath("scenario") + (e.path.empty() ? "" : "." + e.path), e.message});
    } else {
        r.error("scenario", "is required: a complete parascope.scenario/1 object");
    }
    if (const nlohmann::json* mj = r.child("measured")) {
        ObjectReader m(*mj, r.childPath("measured"), errors);
        if (m.valid()) {
            const auto step = m.number("step_s", 1e-9, 1e9);
            const auto tokens = m.number("tokens_per_s_per_gpu", 1e-9, 1e12);
            const auto tflops = m.number("model_tflops_per_gpu", 1e-9, 1e9);
            const auto mfu = m.number("mfu", 1e-9, 1);
            const auto convention = m.choice("flops_convention", {"megatron", "6nd", "narayanan96", "megatron_causal"});
            run.peak_gib = m.number("peak_memory_gib", 1e-6, 1e9);
            const auto kind = m.choice("peak_memory_kind", {"allocated", "reserved"});
            if (kind && !run.peak_gib)
                m.error("peak_memory_kind", "only goes with peak_memory_gib");
            run.peak_reserved = kind.value_or(0) == 1;
            const int given
                = int(step.has_value()) + int(tokens.has_value()) + int(tflops.has_value()) + int(mfu.has_value());
            if (given != 1)
                errors.push_back({r.childPath("measured"),
                                  "needs exactly one of step_s, tokens_per_s_per_gpu, "
                                  "model_tflops_per_gpu, mfu; got "
                                      + std::to_string(given)});
            if (tflops && !convention)
                m.error("flops_convention",
                        "is required with model_tflops_per_gpu: \"megatron\", \"megatron_causal\", \"6nd\" or "
                        "\"narayanan96\"");
            if (convention && !tflops)
                m.error("flops_convention", "only goes with model_tflops_per_gpu");
            if (step) {
                run.kind = MeasuredKind::StepTime;
                run.value = *step;
            } else if (tokens) {
                run.kind = MeasuredKind::TokensPerGpu;
                run.value = *tokens;
            } else if (tflops) {
                run.kind = MeasuredKind::TflopsPerGpu;
                run.value = *tflops;
                run.convention = convention.value_or(0);
            } else if (mfu) {
                run.kind = MeasuredKind::Mfu;
                run.value = *mfu;
            }
            m.finish();
        }
    } else {
        r.error("measured",
                "is required: what the run measured (step_s, tokens_per_s_per_gpu, model_tflops_per_gpu or mfu)");
    }
    r.finish();
    if (errors.size() != before)
        return std::nullopt;
    return run;
}

// The row of one run: its published step time from what it measured, the engine's prediction.
ValidationRow evaluateRun(const Run& run)
{
    ValidationRow row;
    row.id = run.id;
    row.part = run.part;
    row.run_class = run.run_class;
    const Scenario& sc = *run.scenario;
    row.derived_class = predictionClass(sc);
    EvaluateOptions opt;
    opt.record_timeline = false;
    const Estimate est = evaluate(sc, opt);
    if (const Diagnostic* d = est.layoutError()) {
        row.skipped_because = "invalid scenario: " + d->message.en;
        row.skipped_because_zh = "场景无效：" + d->message.zh;
        return row;
    }
    const double gpus = double(est.gpus);
    const double tokens = double(sc.training.global_batch) * double(sc.training.seq_len);
    const double model_flops = est.flops.model_flops_per_step;
    switch (run.kind) {
    case MeasuredKind::StepTime:
        row.published_step_s = run.value;
        row.convention = "measured step time";
        break;
    case MeasuredKind::TokensPerGpu:
        row.published_step_s = tokens / (run.value * gpus);
        row.convention = "global batch tokens / (tokens/s per GPU · GPUs)";
        break;
    case MeasuredKind::TflopsPerGpu: {
        // 6·N·D counts the parameters each token uses (the active ones of an MoE); Narayanan et
        // al. 2021 eq. 3 counts a GPT with its recomputed forward: 96·B·s·L·h²(1 + s/6h + V/16Lh).
        const double B = double(sc.training.global_batch), s = double(sc.training.seq_len);
        const double L = sc.model.layers, h = double(sc.model.hidden), V = double(sc.model.vocab);
        // Megatron-LM's num_floating_point_operations counts attention's causal half since 2025.
        const double flops = run.convention == 1 ? 6.0 * double(est.params.active) * tokens
            : run.convention == 2                ? narayananFlops(B, s, L, h, V)
            : run.convention == 3                ? model_flops - est.flops.attention_score_flops_per_step / 2
                                                 : model_flops;
        row.published_step_s = flops / (run.value * 1e12 * gpus);
        row.convention = run.convention == 1 ? "6·N_active·D / (TFLOP/s per GPU · GPUs)"
            : run.convention == 2 ? "96·B·s·L·h²(1 + s/6h + V/16Lh) (Narayanan 2021 eq. 3) / (TFLOP/s per GPU · GPUs)"
            : run.convention == 3 ? "Megatron model FLOPs, attention scores halved (causal) / (TFLOP/s per GPU · GPUs)"
                                  : "Megatron model FLOPs / (TFLOP/s per GPU · GPUs)";
        // Published TFLOP/s in the run's own convention, for the table.
        row.published_tflops_per_gpu = run.value;
        row.predicted_tflops_per_gpu = flops / est.time.step_s / gpus / 1e12;
        break;
    }
    case MeasuredKind::Mfu:
        row.published_step_s = model_flops / (run.value * gpus * peakFlops(sc.cluster.gpu, Precision::Bf16));
        row.convention = "Megatron model FLOPs / (MFU · dense bf16 peak · GPUs)";
        break;
    }
    row.evaluated = true;
    row.predicted_step_s = est.time.step_s;
    if (run.kind != MeasuredKind::TflopsPerGpu) {
        row.published_tflops_per_gpu = model_flops / row.published_step_s / gpus / 1e12;
        row.predicted_tflops_per_gpu = model_flops / row.predicted_step_s / gpus / 1e12;
    }
    row.error = row.predicted_step_s / row.published_step_s - 1;
    row.predicted_mfu = est.throughput.mfu;
    row.bubble_fraction = est.time.bubble_fraction;
    row.predicted_peak_gib = est.memory.peak_bytes / double(1ull << 30);
    row.predicted_oom = !est.memory.fits;
    if (run.peak_gib) {
        row.measured_peak_gib = run.peak_gib;
        row.measured_peak_reserved = run.peak_reserved;
        row.memory_error = row.predicted_peak_gib / *run.peak_gib - 1;
    }
    return row;
}

} // namespace

double narayananFlops(double B, double s, double L, double h, double V)
{
    return 96 * B * s * L * h * h * (1 + s / (6 * h) + V / (16 * L * h));
}

ValidationSummary validateRuns(const nlohmann::json& file, std::vector<InputError>& errors)
{
    ValidationSummary out;
    if (!file.is_object()) {
        errors.push_back({"",
                          "a runs file is a JSON object {\"schema\": \"parascope.runs/1\", \"runs\": […]}, got "
                              + describeJson(file)});
        return out;
    }
    if (!file.contains("schema") || file["schema"] != kRunsSchema)
        errors.push_back({"schema",
                          std::string("must be \"") + kRunsSchema + "\", got "
                              + (file.contains("schema") ? describeJson(file["schema"]) : std::string("nothing"))});
    if (!file.contains("runs") || !file["runs"].is_array()) {
        errors.push_back({"runs", "a parascope.runs/1 file needs a \"runs\" array"});
        return out;
    }
    for (const auto& [key, value] : file.items())
        if (key != "schema" && key != "runs" && key != "description")
            errors.push_back({key, "unknown key"});
    std::vector<Run> runs;
    for (std::size_t i = 0; i < file["runs"].size(); ++i)
        if (auto run = readRun(file["runs"][i], "runs[" + std::to_string(i) + "]", errors))
            runs.push_back(std::move(*run));
    if (!errors.empty())
        return out;
    for (const Run& run : runs)
        out.rows.push_back(evaluateRun(run));

    const ErrorSummary all = summariseRows(out.rows, [](const ValidationRow&) { return true; });
    out.evaluated = all.evaluated;
    out.mape = all.mape;
    out.max_abs_error = all.max_abs_error;
    out.worst = all.worst;
    out.fit = summariseRows(out.rows, [](const ValidationRow& r) { return r.part == RunPart::Fit; });
    out.check = summariseRows(out.rows, [](const ValidationRow& r) { return r.part == RunPart::Check; });
    for (const ValidationRow& r : out.rows) {
        if (r.part != RunPart::Check || r.run_class.empty())
            continue;
        const bool seen = std::any_of(out.check_classes.begin(), out.check_classes.end(),
                                      [&](const auto& c) { return c.first == r.run_class; });
        if (!seen)
            out.check_classes.push_back({r.run_class, summariseRows(out.rows, [&](const ValidationRow& x) {
                                             return x.part == RunPart::Check && x.run_class == r.run_class;
                                         })});
    }
    // Memory: the same summary over the relative error of the predicted peak, apart for the
    // peaks that are what was allocated and those that are what the caching allocator reserved.
    std::vector<ValidationRow> memory;
    for (const ValidationRow& r : out.rows) {
        out.false_oom += r.evaluated && r.predicted_oom ? 1 : 0;
        if (r.evaluated && r.measured_peak_gib) {
            ValidationRow m = r;
            m.error = r.memory_error;
            memory.push_back(std::move(m));
            out.above_reserved += r.measured_peak_reserved && r.memory_error > 0 ? 1 : 0;
        }
    }
    out.memory = summariseRows(memory, [](const ValidationRow& r) { return !r.measured_peak_reserved; });
    out.memory_reserved = summariseRows(memory, [](const ValidationRow& r) { return r.measured_peak_reserved; });
    return out;
}

nlohmann::json bandsToJson(const ValidationSummary& v)
{
    const auto band = [](const ErrorSummary& e) {
        return nlohmann::json{{"mape", e.mape}, {"max_abs_error", e.max_abs_error}, {"runs", e.evaluated}};
    };
    nlohmann::json classes = nlohmann::json::object();
    for (const auto& [cls, e] : v.check_classes)
        classes[cls] = band(e);
    return {{"schema", kBandsSchema},
            {"measured_by", "parascope-cli validate --out (the built-in reference set's check part)"},
            {"all", band(v.check)},
            {"classes", std::move(classes)}};
}

} // namespace parascope
