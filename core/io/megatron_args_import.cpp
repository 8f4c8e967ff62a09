#include "io/megatron_args_import.h"

#include "io/scenario_json.h"
#include "io/megatron_flags.h"
#include "io/shell_words.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstdint>
#include <map>
#include <set>

namespace parascope {

namespace {

// "12": a whole number of at most six digits.
std::optional<long long> smallWhole(std::string_view s)
{
    if (s.empty() || s.size() > 6 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    return std::stoll(std::string(s));
}

// "([0]*K+[1]*M)" or "[0]*K+[1]*M" (Megatron's --moe-layer-freq pattern): K and M.
std::optional<std::pair<long long, long long>> denseFirstPattern(std::string_view f)
{
    if (f.size() >= 2 && f.front() == '(' && f.back() == ')')
        f = f.substr(1, f.size() - 2);
    constexpr std::string_view dense = "[0]*", moe = "+[1]*";
    if (f.substr(0, dense.size()) != dense)
        return std::nullopt;
    f.remove_prefix(dense.size());
    const std::size_t plus = f.find(moe);
    if (plus == std::string_view::npos)
        return std::nullopt;
    const auto k = smallWhole(f.substr(0, plus)), m = smallWhole(f.substr(plus + moe.size()));
    if (!k || !m)
        return std::nullopt;
    return std::pair{*k, *m};
}

} // namespace

std::optional<MegatronImport> importMegatronArgs(const std::string& text, const std::string& name,
                                                 const MegatronImportOptions& options, std::vector<InputError>& errors)
{
    const std::size_t errors_before = errors.size();
    shell::Shell shell;
    const std::optional<std::map<std::string, megatron::Flag>> read = megatron::readFlags(text, shell, errors);
    if (!read)
        return std::nullopt;
    const std::map<std::string, megatron::Flag>& flags = *read;

    const auto where = [&](const std::string& key) {
        const auto it = flags.find(key);
        return "line " + std::to_string(it != flags.end() ? it->second.line : 0) + ": --" + key;
    };
    const auto has = [&](const std::string& key) { return flags.count(key) > 0; };
    const auto value = [&](const std::string& key) -> std::optional<std::string> {
        const auto it = flags.find(key);
        if (it == flags.end())
            return std::nullopt;
        if (it->second.values.empty()) {
            errors.push_back({where(key), "needs a value"});
            return std::nullopt;
        }
        std::string why;
        const auto v = shell.expand(it->second.values.front(), why);
        if (!v)
            errors.push_back({where(key), "cannot be read: " + why});
        return v;
    };
    // Sizes up to 2^30; parallel degrees and node counts up to 2^20 (their products stay in range).
    const auto integer
        = [&](const std::string& key, long long min = 1, long long max = 1LL << 30) -> std::optional<long long> {
        const auto v = value(key);
        if (!v)
            return std::nullopt;
        char* end = nullptr;
        const long long n = std::strtoll(v->c_str(), &end, 10);
        if (v->empty() || *end != '\0' || n < min || n > max) {
            errors.push_back({where(key),
                              "must be a whole number in " + std::to_string(min) + "…" + std::to_string(max) + ", got "
                                  + quoteInput(*v)});
            return std::nullopt;
        }
        return n;
    };
    const auto requiredInt = [&](const std::string& key) -> long long {
        if (!has(key)) {
            errors.push_back({"--" + key, "is required and not in the arguments"});
            return 1;
        }
        return integer(key).value_or(1);
    };

    MegatronImport out;
    nlohmann::json model, parallel, training;

    // The model (megatron/training/arguments.py defaults where a flag is absent).
    const long long layers = requiredInt("num-layers"), hidden = requiredInt("hidden-size");
    const long long heads = requiredInt("num-attention-heads");
    const bool swiglu = has("swiglu");
    long long ffn = 0;
    if (has("ffn-hidden-size")) {
        ffn = integer("ffn-hidden-size").value_or(1);
    } else {
        // arguments.py: 4h, or with SwiGLU int(4h·2/3 / 64)·64.
        ffn = swiglu ? (4 * hidden * 2 / 3) / 64 * 64 : 4 * hidden;
        out.notes.push_back("ffn_hidden " + std::to_string(ffn) + ": Megatron's default for --hidden-size "
                            + std::to_string(hidden) + (swiglu ? " with --swiglu" : ""));
    }
    const long long seq = requiredInt("seq-length");
    model["name"] = name;
    model["layers"] = layers;
    model["hidden"] = hidden;
    model["heads"] = heads;
    model["kv_heads"] = has("group-query-attention") ? integer("num-query-groups").value_or(heads) : heads;
    if (has("group-query-attention") && !has("num-query-groups"))
        errors.push_back({where("group-query-attention"), "needs --num-query-groups"});
    if (has("kv-channels"))
        model["head_dim"] = integer("kv-channels").value_or(1);
    model["ffn_hidden"] = ffn;
    model["mlp"] = swiglu ? "swiglu" : "gelu";
    const std::string norm = value("normalization").value_or("LayerNorm");
    if (norm != "LayerNorm" && norm != "RMSNorm")
        errors.push_back({where("normalization"), "must be LayerNorm or RMSNorm, got " + quoteInput(norm)});
    model["norm"] = norm == "RMSNorm" ? "rmsnorm" : "layernorm";
    const bool bias = !has("disable-bias-linear");
    model["bias"] = bias;
    if (has("add-qkv-bias") && !bias)
        model["qkv_bias"] = true;
    model["tied_embeddings"] = !has("untie-embeddings-and-output-weights");
    std::string position = value("position-embedding-type")
                               .value_or(has("use-rotary-position-embeddings") ? "rope" : "learned_absolute");
    if (position == "rope" || position == "yarn" || position == "mrope") {
        model["position"] = "rope";
    } else if (position == "none") {
        model["position"] = "none";
    } else if (position == "learned_absolute") {
        model["position"] = "learned";
        model["max_positions"]
            = has("max-position-embeddings") ? integer("max-position-embeddings").value_or(seq) : seq;
    } else {
        errors.push_back({where("position-embedding-type"),
                          "must be learned_absolute, rope, yarn, mrope or none, got " + quoteInput(position)});
    }
    if (has("qk-layernorm"))
        model["qk_norm"] = true;

    // Megatron pads the vocabulary to a multiple of make-vocab-size-divisible-by × TP.
    const long long tp
        = has("tensor-model-parallel-size") ? integer("tensor-model-parallel-size", 1, 1 << 20).value_or(1) : 1;
    long long vocab = has("vocab-size") ? integer("vocab-size").value_or(1) : options.vocab;
    if (vocab <= 0) {
        const std::string tok = value("tokenizer-type").value_or("");
        errors.push_back({has("tokenizer-type") ? where("tokenizer-type") : std::string("--vocab-size"),
                          "the vocabulary size comes from the tokenizer"
                              + (tok.empty() ? std::string() : " (" + tok + ")")
                              + ", which ParaScope cannot read: give it with --vocab N"});
        vocab = 1;
    }
    const long long divisible
        = has("make-vocab-size-divisible-by") ? integer("make-vocab-size-divisible-by").value_or(128) : 128;
    const long long multiple = divisible * tp;
    const long long padded = (vocab + multiple - 1) / multiple * multiple;
    if (padded != vocab)
        out.notes.push_back("vocab " + std::to_string(vocab) + " padded to " + std::to_string(padded)
                            + " (a multiple of " + std::to_string(divisible) + " × TP " + std::to_string(tp)
                            + ", as Megatron does)");
    model["vocab"] = padded;

    if (has("multi-latent-attention")) {
        model.erase("head_dim");
        model["kv_heads"] = heads;
        model["mla"]
            = {{"q_lora_rank", has("q-lora-rank") ? integer("q-lora-rank").value_or(0) : 0},
               {"kv_lora_rank", has("kv-lora-rank") ? integer("kv-lora-rank").value_or(32) : 32},
               {"qk_nope_head_dim", has("qk-head-dim") ? integer("qk-head-dim").value_or(128) : 128},
               {"qk_rope_head_dim", has("qk-pos-emb-head-dim") ? integer("qk-pos-emb-head-dim", 0).value_or(64) : 64},
               {"v_head_dim", has("v-head-dim") ? integer("v-head-dim").value_or(128) : 128}};
    }
    if (has("mtp-num-layers"))
        model["mtp_modules"] = integer("mtp-num-layers", 0).value_or(0);

    const long long experts = has("num-experts") ? integer("num-experts").value_or(0) : 0;
    if (experts > 0) {
        nlohmann::json moe
            = {{"experts", experts},
               {"top_k", has("moe-router-topk") ? integer("moe-router-topk").value_or(2) : 2},
               {"ffn_hidden", has("moe-ffn-hidden-size") ? integer("moe-ffn-hidden-size").value_or(ffn) : ffn},
               {"layer_freq", 1},
               {"first_dense_layers", 0}};
        if (has("moe-shared-expert-intermediate-size")) {
            moe["shared_experts"] = 1;
            moe["shared_ffn_hidden"] = integer("moe-shared-expert-intermediate-size").value_or(1);
        }
        if (has("moe-router-enable-expert-bias"))
            moe["expert_bias"] = true;
        if (const auto freq = value("moe-layer-freq")) {
            // An integer N (every N-th layer), or the pattern "([0]*K+[1]*M)" (K dense layers first).
            std::string f = *freq;
            f.erase(std::remove(f.begin(), f.end(), ' '), f.end());
            if (const auto every = smallWhole(f)) {
                moe["layer_freq"] = *every;
            } else if (const auto dense = denseFirstPattern(f); dense && dense->first + dense->second == layers) {
                moe["first_dense_layers"] = dense->first;
            } else {
                errors.push_back({where("moe-layer-freq"),
                                  "must be an integer or \"([0]*K+[1]*M)\" with K + M = --num-layers ("
                                      + std::to_string(layers) + "), got " + quoteInput(*freq)});
            }
        }
        model["moe"] = moe;
        const std::string dispatcher = value("moe-token-dispatcher-type").value_or("allgather");
        const std::string backend = value("moe-flex-dispatcher-backend").value_or("deepep");
        if (has("moe-enable-deepep") || (dispatcher == "flex" && backend == "deepep"))
            parallel["moe_dispatcher"] = "deepep";
        else if (dispatcher == "alltoall")
            parallel["moe_dispatcher"] = "alltoall";
        else
            errors.push_back({has("moe-token-dispatcher-type") ? where("moe-token-dispatcher-type")
                                                               : std::string("--moe-token-dispatcher-type"),
                              "\"" + dispatcher + (dispatcher == "flex" ? " / " + backend : std::string())
                                  + "\" has no ParaScope dispatcher (alltoall, or flex with DeepEP)"});
        if (has("moe-expert-capacity-factor"))
            if (const auto v = value("moe-expert-capacity-factor"))
                training["moe_capacity_factor"] = std::atof(v->c_str());
    } else {
        model["moe"] = nullptr;
    }

    // The layout.
    const long long pp
        = has("pipeline-model-parallel-size") ? integer("pipeline-model-parallel-size", 1, 1 << 20).value_or(1) : 1;
    const long long cp = has("context-parallel-size") ? integer("context-parallel-size", 1, 1 << 20).value_or(1) : 1;
    long long world = options.gpus;
    if (world <= 0 && has("nproc-per-node") && has("nnodes")) {
        const auto per = integer("nproc-per-node", 1, 1 << 20), nodes = integer("nnodes", 1, 1 << 20);
        if (per && nodes)
            world = *per * *nodes;
    }
    if (world <= 0) {
        errors.push_back(
            {"--gpus",
             "the number of GPUs is not in the arguments (torchrun --nnodes and --nproc-per-node): give --gpus N"});
        world = tp * pp * cp;
    }
    if (world % (tp * pp * cp) != 0)
        errors.push_back(
            {"--gpus",
             std::to_string(world) + " GPUs are not a multiple of TP·PP·CP = " + std::to_string(tp * pp * cp)});
    const long long dp = std::max(1LL, world / (tp * pp * cp));
    parallel["tp"] = tp;
    parallel["pp"] = pp;
    parallel["cp"] = cp;
    parallel["dp"] = dp;
    parallel["ep"]
        = has("expert-model-parallel-size") ? integer("expert-model-parallel-size", 1, 1 << 20).value_or(1) : 1;
    if (has("expert-tensor-parallel-size"))
        parallel["etp"] = integer("expert-tensor-parallel-size", 1, 1 << 20).value_or(1);
    parallel["sequence_parallel"] = has("sequence-parallel") && tp > 1;
    const bool fsdp = has("use-torch-fsdp2") || has("use-megatron-fsdp") || has("use-custom-fsdp");
    parallel["zero"] = fsdp ? 3 : has("use-distributed-optimizer") ? 1 : 0;
    parallel["overlap_grad_reduce"] = has("overlap-grad-reduce");
    parallel["tp_comm_overlap"] = has("tp-comm-overlap");
    parallel["account_for_embedding_in_pipeline_split"] = has("account-for-embedding-in-pipeline-split");
    parallel["account_for_loss_in_pipeline_split"] = has("account-for-loss-in-pipeline-split");
    long long vpp = 1;
    if (has("num-virtual-stages-per-pipeline-rank")) {
        vpp = integer("num-virtual-stages-per-pipeline-rank", 1, 1 << 20).value_or(1);
    } else if (has("num-layers-per-virtual-pipeline-stage")) {
        const long long per = integer("num-layers-per-virtual-pipeline-stage").value_or(1);
        const long long slots
            = layers + has("account-for-embedding-in-pipeline-split") + has("account-for-loss-in-pipeline-split");
        if (slots % (pp * per) != 0)
            errors.push_back({where("num-layers-per-virtual-pipeline-stage"),
                              std::to_string(slots) + " layers do not split into PP " + std::to_string(pp)
                                  + " × chunks of " + std::to_string(per)});
        else
            vpp = slots / (pp * per);
    }
    parallel["vpp"] = vpp;
    parallel["schedule"] = pp > 1 && vpp > 1 ? "interleaved" : "1f1b";
    if (has("decoder-first-pipeline-num-layers") || has("decoder-last-pipeline-num-layers")) {
        const long long first = has("decoder-first-pipeline-num-layers")
            ? integer("decoder-first-pipeline-num-layers", 0).value_or(0)
            : -1;
        const long long last
            = has("decoder-last-pipeline-num-layers") ? integer("decoder-last-pipeline-num-layers", 0).value_or(0) : -1;
        const long long inner = pp - (first >= 0) - (last >= 0);
        const long long rest = layers - std::max(0LL, first) - std::max(0LL, last);
        if (pp < 2 || inner <= 0 || rest < 0 || rest % inner != 0) {
            errors.push_back({where(has("decoder-first-pipeline-num-layers") ? "decoder-first-pipeline-num-layers"
                                                                             : "decoder-last-pipeline-num-layers"),
                              "the other stages' " + std::to_string(rest) + " layers do not split evenly over "
                                  + std::to_string(inner) + " stages"});
        } else {
            std::vector<long long> stages(std::size_t(pp), rest / inner);
            if (first >= 0)
                stages.front() = first;
            if (last >= 0)
                stages.back() = last;
            parallel["stage_layers"] = stages;
        }
    }
    if (const auto cp_comm = value("cp-comm-type")) {
        if (*cp_comm == "p2p" || *cp_comm == "a2a" || *cp_comm == "allgather")
            parallel["cp_comm"] = *cp_comm;
        else
            errors.push_back(
                {where("cp-comm-type"), "\"" + *cp_comm + "\" has no ParaScope model (p2p, a2a or allgather)"});
    }

    // Training.
    const long long micro = has("micro-batch-size") ? integer("micro-batch-size", 1, 1 << 20).value_or(1) : 1;
    training["seq_len"] = seq;
    training["micro_batch"] = micro;
    training["global_batch"]
        = has("global-batch-size") ? integer("global-batch-size").value_or(micro * dp) : micro * dp;
    std::string precision = has("bf16") ? "bf16" : has("fp16") ? "fp16" : "fp32";
    if (has("fp8-format")) {
        precision = "fp8";
        const std::string recipe = value("fp8-recipe").value_or("delayed");
        if (recipe == "delayed" || recipe == "tensorwise" || recipe == "blockwise" || recipe == "mxfp8")
            training["fp8_recipe"] = recipe;
        else
            errors.push_back(
                {where("fp8-recipe"), "must be delayed, tensorwise, blockwise or mxfp8, got " + quoteInput(recipe)});
    }
    training["precision"] = precision;
    // Megatron accumulates and reduces gradients in fp32 unless told otherwise.
    training["grad_dtype"] = has("grad-reduce-in-bf16") ? "bf16" : "fp32";
    training["optimizer"] = "adamw";
    training["flash_attention"] = true;
    if (value("attention-backend").value_or("auto") == "flash")
        training["attention_kernel"] = "fa2";
    const std::string granularity
        = value("recompute-granularity").value_or(has("recompute-activations") ? "selective" : "");
    if (granularity == "full") {
        training["recompute"] = "full";
        const std::string method = value("recompute-method").value_or("uniform");
        const long long n = has("recompute-num-layers") ? integer("recompute-num-layers").value_or(1) : 1;
        const long long per_stage = (layers + pp - 1) / pp / std::max(1LL, vpp);
        if ((method == "uniform" && n != 1 && n < per_stage) || (method == "block" && n < per_stage))
            errors.push_back({where("recompute-num-layers"),
                              "recomputes " + std::to_string(n) + " of " + std::to_string(per_stage)
                                  + " layers per chunk (" + method
                                  + "); ParaScope's full recompute covers every layer"});
    } else if (granularity == "selective") {
        training["recompute"] = "selective";
        nlohmann::json mods = nlohmann::json::array();
        if (const auto it = flags.find("recompute-modules"); it != flags.end()) {
            for (const std::string& raw : it->second.values) {
                std::string why;
                if (const auto v = shell.expand(raw, why))
                    mods.push_back(*v);
                else
                    errors.push_back({where("recompute-modules"), "cannot be read: " + why});
            }
        }
        if (mods.empty())
            mods.push_back("core_attn"); // Megatron's default module
        training["recompute_modules"] = mods;
    } else if (!granularity.empty()) {
        errors.push_back({where("recompute-granularity"), "must be full or selective, got " + quoteInput(granularity)});
        training["recompute"] = "none";
    } else {
        training["recompute"] = "none";
    }

    if (errors.size() > errors_before)
        return std::nullopt;
    out.scenario = {{"schema", "parascope.scenario/1"}, {"name", name},         {"model", model},
                    {"cluster", options.cluster},       {"parallel", parallel}, {"training", training}};
    // The scenario reader's checks (divisibility, EP within the expert grid, …) on the result.
    if (!readScenario(out.scenario, errors))
        return std::nullopt;
    return out;
}

} // namespace parascope
