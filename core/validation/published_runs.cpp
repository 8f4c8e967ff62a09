#include "validation/published_runs.h"

#include "validation/runs_file.h"

#include "estimate/evaluate.h"
#include "util/json_reader.h"
#include "io/scenario_json.h"

#include <cmath>

namespace parascope {

namespace {

bool has(const nlohmann::json& j, const char* key) { return j.contains(key) && !j[key].is_null(); }

template <typename T>
T get(const nlohmann::json& j, const char* key, T fallback)
{
    return has(j, key) && j[key].is_number() ? j[key].get<T>() : fallback;
}

// The source families of the reference set and what each leaves unstated. Defaults come from
// the sources' own text (cited), applied to every run of the family alike.
struct Family {
    const char* id;
    const char* source_contains;
    Recompute recompute;    // "the paper used activation recomputation" / Megatron-Core defaults
    bool sequence_parallel; // SP exists from Korthikanti 2022 on
    int zero;               // Megatron DDP (0) or the distributed optimizer (1)
    bool flash_attention;
    bool tp_comm_overlap;
    bool overlap_grad_reduce; // Megatron-Core --overlap-grad-reduce (2023+); 2021 Megatron reduced after the backward
    const char* grad_dtype;   // what the data-parallel gradient reduction moves
    const char* sharded_grad_dtype; // the same under ZeRO-2/3 / FSDP
    const char* convention;   // how the published TFLOP/s were counted
};

constexpr Family kFamilies[] = {
    // Narayanan et al. 2021 §5.1: activation recomputation on; no SP, no distributed optimizer,
    // no flash attention (2021); TFLOP/s counted with eq. 3, 96·B·s·L·h²(1 + s/6h + V/16Lh),
    // which includes the recomputed forward.
    {"narayanan2021", "Narayanan et al. 2021", Recompute::Full, false, 0, false, false, false, "fp32", "bf16", "narayanan96"},
    // Smith et al. 2022 (MT-NLG): Megatron-DeepSpeed 3D parallelism with activation
    // checkpointing; step time published.
    {"mtnlg2022", "MT-NLG", Recompute::Full, false, 0, false, false, false, "fp32", "bf16", "step_time"},
    // Megatron-LM README (Megatron-Core r0.8.0, 2024): --overlap-grad-reduce
    // --overlap-param-gather (distributed optimizer), --tp-comm-overlap; SP with TP and
    // selective recompute are Megatron-Core's recommended defaults; TE flash attention;
    // DistributedDataParallelConfig.grad_reduce_in_fp32 defaults to False (bf16 reduction).
    {"megatron-core-2024", "Megatron-LM README", Recompute::Selective, true, 1, true, true, true, "bf16", "bf16", "megatron2024"},
    // Dao-AILab/flash-attention training/README.md "Training speed" (GPT-3 125M-2.7B on one node of
    // 8 A100 80GB SXM4): PyTorch Lightning DDP (ZeRO-1 for the 760M and larger configs, stated per
    // run), bf16 autocast (fp32 master weights, so fp32 gradients are reduced; DDP overlaps the
    // bucketed all-reduce with the backward), FlashAttention, "we don't need any activation
    // checkpointing"; no TP, PP or SP. Throughput (tokens/s) published.
    {"flashattn2023", "Dao-AILab/flash-attention", Recompute::None, false, 0, true, false, true, "fp32", "fp32", "step_time"},
    // pytorch/torchtitan docs/performance.md (April 2024): FSDP2 (fully sharded, i.e. ZeRO-3) on
    // 64 A100 80GB, no TP/PP/SP; MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32)
    // (parallelize_llama.py); FSDP2 prefetches the next all-gather and overlaps the
    // reduce-scatter with the backward; scaled_dot_product_attention (flash kernel on A100).
    // Activation checkpointing stated per run. Tokens/s per GPU (WPS) published.
    {"torchtitan2024", "pytorch/torchtitan", Recompute::None, false, 3, true, false, true, "fp32", "fp32", "step_time"},
};

const Family* familyOf(const std::string& source)
{
    for (const Family& f : kFamilies)
        if (source.find(f.source_contains) != std::string::npos)
            return &f;
    return nullptr;
}

std::string clusterFor(const std::string& gpu)
{
    if (gpu.find("H200") != std::string::npos)
        return "hgx-h200";
    if (gpu.find("H100") != std::string::npos || gpu.find("H800") != std::string::npos)
        return "dgx-h100";
    if (gpu.find("B200") != std::string::npos)
        return "hgx-b200";
    if (gpu.find("A100") != std::string::npos)
        return gpu.find("40GB") != std::string::npos ? "dgx-a100-40g" : "dgx-a100-80g";
    return "";
}


// Every field of a published run, typed, with its path: a wrongly typed field is an input error
// (runs[0].gpu: must be a string), never an exception deep in the evaluation. Null means "not
// published" for every field but the id and the source.
void checkRun(const nlohmann::json& run, const std::string& path, std::vector<InputError>& errors)
{
    ObjectReader r(run, path, errors);
    if (!r.valid())
        return;
    const auto present = [&](const char* key) {
        const nlohmann::json* v = r.child(key);
        return v && !v->is_null();
    };
    r.string("id", true);
    r.string("source", true);
    if (present("part"))
        r.choice<RunPart>("part");
    for (const char* key : {"model", "gpu", "zero_or_fsdp", "recompute", "precision", "notes"})
        if (present(key))
            r.string(key);
    // Architecture, for runs that are not GPT-3-shaped (absent: GELU, LayerNorm, biases, tied
    // embeddings, learned positions).
    if (present("mlp"))
        r.choice<MlpKind>("mlp");
    if (present("norm"))
        r.choice<NormKind>("norm");
    if (present("position"))
        r.choice<PositionKind>("position");
    for (const char* key : {"bias", "tied_embeddings"})
        if (present(key))
            r.boolean(key);
    for (const char* key : {"source_url"})
        if (present(key))
            r.string(key);
    for (const char* key : {"layers", "heads", "kv_heads", "tp", "pp", "vp", "dp", "cp", "ep", "micro_batch"})
        if (present(key))
            r.integer(key, 1, 1 << 24);
    for (const char* key : {"hidden", "ffn_hidden", "vocab", "seq_len", "num_gpus", "global_batch_seqs", "global_batch_tokens"})
        if (present(key))
            r.integer(key, 1, 1LL << 40);
    if (present("params_b"))
        r.number("params_b", 0, 1e9);
    if (present("sp"))
        r.boolean("sp");
    r.child("moe");
    if (const nlohmann::json* inferred = r.child("inferred"); inferred && !inferred->is_null() && !inferred->is_array())
        r.error("inferred", "must be an array, got " + describeJson(*inferred));
    if (const nlohmann::json* m = r.child("measured"); m && !m->is_null()) {
        ObjectReader measured(*m, r.childPath("measured"), errors);
        if (measured.valid()) {
            for (const char* key : {"step_time_s", "tflops_per_gpu", "tokens_per_s", "tokens_per_s_per_gpu"}) {
                const nlohmann::json* v = measured.child(key);
                if (v && !v->is_null())
                    measured.number(key, 1e-9, 1e9);
            }
            for (const char* key : {"mfu_pct", "pct_of_peak", "aggregate_pflops", "peak_assumed_tflops",
                                    "training_days_for_300B_tokens"}) {
                const nlohmann::json* v = measured.child(key);
                if (v && !v->is_null())
                    measured.number(key, 0, 1e12);
            }
            measured.finish();
        }
    }
    r.finish();
}

// A published-runs file: a "runs" array whose every run checks out; false after an input error.
bool checkFile(const nlohmann::json& file, std::vector<InputError>& errors)
{
    if (!file.is_object() || !file.contains("runs") || !file["runs"].is_array()) {
        errors.push_back({"runs", "a published-runs file needs a \"runs\" array"});
        return false;
    }
    const std::size_t before = errors.size();
    for (std::size_t i = 0; i < file["runs"].size(); ++i)
        checkRun(file["runs"][i], "runs[" + std::to_string(i) + "]", errors);
    return errors.size() == before;
}

} // namespace

double narayananFlops(double B, double s, double L, double h, double V)
{
    return 96 * B * s * L * h * h * (1 + s / (6 * h) + V / (16 * L * h));
}

std::optional<Scenario> scenarioForRun(const nlohmann::json& run, ValidationRow& row)
{
    const std::optional<nlohmann::json> sj = scenarioJsonForRun(run, row);
    if (!sj)
        return std::nullopt;
    std::vector<InputError> errors;
    auto sc = readScenario(*sj, errors);
    if (!sc) {
        row.skipped_because = "incomplete run: " + (errors.empty() ? std::string("?") : errors.front().text());
        return std::nullopt;
    }
    return sc;
}

std::optional<nlohmann::json> scenarioJsonForRun(const nlohmann::json& run, ValidationRow& row)
{
    row.id = run.value("id", std::string("?"));
    if (has(run, "part") && run["part"].is_string())
        row.part = enumFromName<RunPart>(run["part"].get<std::string>());
    const std::string source = run.value("source", std::string());
    const Family* fam = familyOf(source);
    if (!fam) {
        row.skipped_because = "unknown source family (no documented defaults)";
        return std::nullopt;
    }
    row.source_family = fam->id;
    if (!has(run, "tp") || !has(run, "pp")) {
        row.skipped_because = "the parallel layout (tp, pp) is not published";
        return std::nullopt;
    }
    const std::string cluster = clusterFor(run.value("gpu", std::string()));
    if (cluster.empty()) {
        row.skipped_because = "no cluster preset for GPU " + run.value("gpu", std::string("?"));
        return std::nullopt;
    }
    const auto dflt = [&](const std::string& what) { row.defaults_used.push_back(what); };

    const std::int64_t h = get<std::int64_t>(run, "hidden", 0);
    const std::int64_t seq = get<std::int64_t>(run, "seq_len", 2048);
    nlohmann::json model = {{"name", run.value("model", row.id)},
                            {"layers", get<int>(run, "layers", 0)},
                            {"hidden", h},
                            {"heads", get<int>(run, "heads", 0)},
                            {"vocab", get<std::int64_t>(run, "vocab", 0)},
                            {"mlp", "gelu"}, {"norm", "layernorm"}, {"bias", true}, {"tied_embeddings", true},
                            {"position", "learned"}, {"max_positions", seq}};
    for (const char* key : {"mlp", "norm", "position", "bias", "tied_embeddings"})
        if (has(run, key))
            model[key] = run[key];
    if (has(run, "kv_heads"))
        model["kv_heads"] = run["kv_heads"];
    if (has(run, "ffn_hidden"))
        model["ffn_hidden"] = run["ffn_hidden"];
    else {
        model["ffn_hidden"] = 4 * h;
        dflt("ffn_hidden = 4h (GPT)");
    }
    const int tp = get<int>(run, "tp", 1), pp = get<int>(run, "pp", 1);
    const int cp = get<int>(run, "cp", 1), ep = get<int>(run, "ep", 1);
    const int gpus = get<int>(run, "num_gpus", tp * pp);
    const int dp = has(run, "dp") ? get<int>(run, "dp", 1) : std::max(1, gpus / (tp * pp * cp));
    const int vp = get<int>(run, "vp", 1);
    int zero = fam->zero;
    if (has(run, "zero_or_fsdp")) {
        const std::string z = run["zero_or_fsdp"].is_string() ? run["zero_or_fsdp"].get<std::string>() : "";
        zero = z.find('3') != std::string::npos ? 3 : z.find('2') != std::string::npos ? 2 : z.find('1') != std::string::npos ? 1 : 0;
    } else {
        dflt("zero = " + std::to_string(fam->zero) + " (" + fam->id + ")");
    }
    const bool sp = has(run, "sp") ? run["sp"].get<bool>() : (fam->sequence_parallel && tp > 1);
    if (!has(run, "sp"))
        dflt(std::string("sequence_parallel = ") + (sp ? "true" : "false") + " (" + fam->id + ")");
    nlohmann::json parallel = {{"tp", tp}, {"pp", pp}, {"dp", dp}, {"cp", cp}, {"ep", ep},
                               {"sequence_parallel", sp}, {"zero", zero},
                               {"schedule", vp > 1 ? "interleaved" : "1f1b"}, {"vpp", vp},
                               {"tp_comm_overlap", fam->tp_comm_overlap}, {"overlap_grad_reduce", fam->overlap_grad_reduce}};
    const int mb = get<int>(run, "micro_batch", 1);
    if (!has(run, "micro_batch"))
        dflt("micro_batch = 1 (Megatron default)");
    Recompute rc = fam->recompute;
    if (has(run, "recompute") && run["recompute"].is_string()) {
        const std::string r = run["recompute"];
        rc = r.find("full") != std::string::npos ? Recompute::Full
           : r.find("selective") != std::string::npos ? Recompute::Selective : Recompute::None;
    } else {
        dflt(std::string("recompute = ") + toString(rc) + " (" + fam->id + ")");
    }
    // Megatron keeps and reduces fp32 main gradients; DeepSpeed ZeRO-2/3 reduces them in the
    // model's 16-bit dtype (communication_data_type default); torchtitan's FSDP2 in fp32.
    const char* grad_dtype = zero >= 2 ? fam->sharded_grad_dtype : fam->grad_dtype;
    nlohmann::json training = {{"seq_len", seq}, {"micro_batch", mb},
                               {"global_batch", get<std::int64_t>(run, "global_batch_seqs", 1)},
                               {"precision", "bf16"}, {"grad_dtype", grad_dtype}, {"optimizer", "adamw"},
                               {"recompute", toString(rc)}, {"flash_attention", fam->flash_attention}};
    if (!has(run, "precision"))
        dflt("precision = bf16 (fp16 has the same peak)");
    return nlohmann::json{{"schema", kScenarioSchema}, {"name", row.id}, {"model", model}, {"cluster", cluster},
                          {"parallel", parallel}, {"training", training}};
}

nlohmann::json toRunsFile(const nlohmann::json& file, std::vector<InputError>& errors, std::vector<std::string>& dropped)
{
    nlohmann::json runs = nlohmann::json::array();
    if (!checkFile(file, errors))
        return runs;
    for (const nlohmann::json& run : file["runs"]) {
        ValidationRow row;
        const std::optional<nlohmann::json> sj = scenarioJsonForRun(run, row);
        if (!sj) {
            dropped.push_back(row.id + ": " + row.skipped_because);
            continue;
        }
        const Family* fam = familyOf(run.value("source", std::string()));
        const nlohmann::json& m = run["measured"];
        const nlohmann::json& par = (*sj)["parallel"];
        const double gpus = par["tp"].get<double>() * par["pp"].get<double>() * par["dp"].get<double>() * par["cp"].get<double>();
        nlohmann::json measured;
        if (has(m, "step_time_s"))
            measured["step_s"] = m["step_time_s"];
        else if (has(m, "tokens_per_s_per_gpu"))
            measured["tokens_per_s_per_gpu"] = m["tokens_per_s_per_gpu"];
        else if (has(m, "tokens_per_s"))
            measured["tokens_per_s_per_gpu"] = m["tokens_per_s"].get<double>() / gpus;
        else if (has(m, "tflops_per_gpu"))
            measured = {{"model_tflops_per_gpu", m["tflops_per_gpu"]},
                        {"flops_convention", std::string(fam->convention) == "narayanan96" ? "narayanan96" : "megatron"}};
        else {
            dropped.push_back(row.id + ": no published step time or TFLOP/s per GPU");
            continue;
        }
        nlohmann::json out = {{"id", row.id}, {"source", run["source"]}};
        if (row.part)
            out["part"] = toString(*row.part);
        out["class"] = (*sj)["parallel"]["zero"].get<int>() >= 3 ? "fsdp" : "dense";
        std::string notes = "converted from a published-runs record; filled from the " + std::string(fam->id) + " defaults: ";
        for (std::size_t k = 0; k < row.defaults_used.size(); ++k)
            notes += (k ? "; " : "") + row.defaults_used[k];
        if (has(run, "notes") && run["notes"].is_string())
            notes += ". " + run["notes"].get<std::string>();
        out["notes"] = notes;
        out["scenario"] = *sj;
        out["measured"] = measured;
        runs.push_back(std::move(out));
    }
    return nlohmann::json{{"schema", kRunsSchema}, {"runs", runs}};
}

ValidationSummary validateRuns(const nlohmann::json& file, std::vector<InputError>& errors)
{
    if (file.is_object() && file.contains("schema") && file["schema"] == kRunsSchema)
        return validateRunsFile(file, errors);
    ValidationSummary out;
    if (!checkFile(file, errors))
        return out;
    for (const nlohmann::json& run : file["runs"]) {
        ValidationRow row;
        const auto sc = run.is_object() ? scenarioForRun(run, row) : std::nullopt;
        if (!run.is_object())
            row.skipped_because = "not an object";
        if (sc) {
            const nlohmann::json& measured = run.contains("measured") ? run["measured"] : nlohmann::json::object();
            EvaluateOptions opt;
            opt.record_timeline = false;
            const Estimate est = evaluate(*sc, opt);
            const double gpus = double(est.gpus);
            const double B = double(sc->training.global_batch), s = double(sc->training.seq_len);
            const double L = sc->model.layers, h = double(sc->model.hidden), V = double(sc->model.vocab);
            const Family* fam = familyOf(run.value("source", std::string()));
            double flops = 0;
            if (std::string(fam->convention) == "narayanan96") {
                flops = narayananFlops(B, s, L, h, V);
                row.convention = "96·B·s·L·h²(1 + s/6h + V/16Lh) (Narayanan 2021 eq. 3, with recompute)";
            } else {
                flops = est.flops.model_flops_per_step;
                row.convention = "model FLOPs, Megatron generalised (2024)";
            }
            if (has(measured, "step_time_s")) {
                row.published_step_s = measured["step_time_s"].get<double>();
                row.convention = "published step time";
            } else if (has(measured, "tokens_per_s_per_gpu")) {
                row.published_step_s = B * s / (measured["tokens_per_s_per_gpu"].get<double>() * gpus);
                row.convention = "published tokens/s per GPU";
            } else if (has(measured, "tokens_per_s")) {
                row.published_step_s = B * s / measured["tokens_per_s"].get<double>();
                row.convention = "published tokens/s";
            } else if (has(measured, "tflops_per_gpu")) {
                row.published_step_s = flops / (measured["tflops_per_gpu"].get<double>() * 1e12 * gpus);
            }
            if (row.published_step_s > 0) {
                row.evaluated = true;
                row.predicted_step_s = est.time.step_s;
                row.published_tflops_per_gpu = flops / row.published_step_s / gpus / 1e12;
                row.predicted_tflops_per_gpu = flops / row.predicted_step_s / gpus / 1e12;
                row.error = row.predicted_step_s / row.published_step_s - 1;
                row.predicted_mfu = est.throughput.mfu;
                row.bubble_fraction = est.time.bubble_fraction;
            } else {
                row.skipped_because = "no published step time or TFLOP/s per GPU";
            }
        }
        out.rows.push_back(std::move(row));
    }
    const auto summarise = [&](std::optional<RunPart> part) {
        return summariseRows(out.rows, [&](const ValidationRow& row) { return !part || row.part == part; });
    };
    const ErrorSummary all = summarise(std::nullopt);
    out.evaluated = all.evaluated;
    out.mape = all.mape;
    out.max_abs_error = all.max_abs_error;
    out.worst = all.worst;
    out.fit = summarise(RunPart::Fit);
    out.check = summarise(RunPart::Check);
    return out;
}

} // namespace parascope
