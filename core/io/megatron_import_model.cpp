// The model and MoE sections of a Megatron-LM import (megatron/training/arguments.py defaults
// where a flag is absent).

#include "io/megatron_reader.h"

#include <algorithm>
#include <string_view>

namespace parascope::megatron {

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

void readPositions(FlagReader& f, nlohmann::json& model, long long seq)
{
    const std::string position = f.value("position-embedding-type")
                                     .value_or(f.has("use-rotary-position-embeddings") ? "rope" : "learned_absolute");
    if (position == "rope" || position == "yarn" || position == "mrope") {
        model["position"] = "rope";
    } else if (position == "none") {
        model["position"] = "none";
    } else if (position == "learned_absolute") {
        model["position"] = "learned";
        model["max_positions"] = f.integerOr("max-position-embeddings", seq);
    } else {
        f.error("position-embedding-type",
                "must be learned_absolute, rope, yarn, mrope or none, got " + quoteInput(position));
    }
}

// The vocabulary: --vocab-size where the tokenizer takes its size from it (NullTokenizer, or no
// tokenizer named), else the one given to the import; padded to make-vocab-size-divisible-by × TP
// as Megatron does.
void readVocab(FlagReader& f, nlohmann::json& model, const MegatronImportOptions& options)
{
    const std::string tok = f.value("tokenizer-type").value_or("");
    const bool size_from_flag = tok.empty() || tok == "NullTokenizer";
    long long vocab = options.vocab;
    if (vocab <= 0 && f.given("vocab-size")) {
        vocab = f.integer("vocab-size").value_or(1);
        if (!size_from_flag)
            f.note("vocab " + std::to_string(vocab) + " from --vocab-size; " + tok
                   + " takes its size from its files, which ParaScope cannot read: give --vocab N if they differ");
    }
    if (vocab <= 0) {
        f.error(f.given("tokenizer-type") ? "tokenizer-type" : "vocab-size",
                "the vocabulary size comes from the tokenizer" + (tok.empty() ? std::string() : " (" + tok + ")")
                    + ", which ParaScope cannot read: give it with --vocab N");
        return;
    }
    const long long tp = f.integerOr("tensor-model-parallel-size", 1, 1, 1 << 20);
    const long long divisible = f.integerOr("make-vocab-size-divisible-by", 128);
    const long long multiple = divisible * tp;
    const long long padded = (vocab + multiple - 1) / multiple * multiple;
    if (padded != vocab)
        f.note("vocab " + std::to_string(vocab) + " padded to " + std::to_string(padded) + " (a multiple of "
               + std::to_string(divisible) + " × TP " + std::to_string(tp) + ", as Megatron does)");
    model["vocab"] = padded;
}

void readMla(FlagReader& f, nlohmann::json& model, long long heads)
{
    if (!f.has("multi-latent-attention"))
        return;
    model.erase("head_dim");
    model["kv_heads"] = heads;
    model["mla"] = {{"q_lora_rank", f.integerOr("q-lora-rank", 0, 0)},
                    {"kv_lora_rank", f.integerOr("kv-lora-rank", 32)},
                    {"qk_nope_head_dim", f.integerOr("qk-head-dim", 128)},
                    {"qk_rope_head_dim", f.integerOr("qk-pos-emb-head-dim", 64, 0)},
                    {"v_head_dim", f.integerOr("v-head-dim", 128)}};
    if (model.contains("qk_norm")) {
        // Megatron's MLA with --qk-layernorm normalises the query and key/value latents (DeepSeek's
        // q_a and kv_a layernorms), which ParaScope's MLA already counts.
        model.erase("qk_norm");
        f.note("--qk-layernorm with --multi-latent-attention: the latents' norms, part of ParaScope's MLA");
    }
}

} // namespace

nlohmann::json readModel(FlagReader& f, const std::string& name, const MegatronImportOptions& options)
{
    nlohmann::json model;
    const long long layers = f.required("num-layers"), hidden = f.required("hidden-size");
    const long long heads = f.required("num-attention-heads");
    const bool swiglu = f.has("swiglu");
    long long ffn = 0;
    if (f.given("ffn-hidden-size")) {
        ffn = f.integer("ffn-hidden-size").value_or(1);
    } else {
        // arguments.py: 4h, or with SwiGLU int(4h·2/3 / 64)·64.
        ffn = swiglu ? (4 * hidden * 2 / 3) / 64 * 64 : 4 * hidden;
        f.note("ffn_hidden " + std::to_string(ffn) + ": Megatron's default for --hidden-size " + std::to_string(hidden)
               + (swiglu ? " with --swiglu" : ""));
    }
    const long long seq = f.required("seq-length");
    model["name"] = name;
    model["layers"] = layers;
    model["hidden"] = hidden;
    model["heads"] = heads;
    const bool gqa = f.has("group-query-attention");
    model["kv_heads"] = gqa ? f.integerOr("num-query-groups", heads) : heads;
    if (gqa && !f.given("num-query-groups"))
        f.error("group-query-attention", "needs --num-query-groups");
    if (f.given("kv-channels"))
        model["head_dim"] = f.integer("kv-channels").value_or(1);
    model["ffn_hidden"] = ffn;
    model["mlp"] = swiglu ? "swiglu" : "gelu";
    const std::string norm = f.value("normalization").value_or("LayerNorm");
    if (norm != "LayerNorm" && norm != "RMSNorm")
        f.error("normalization", "must be LayerNorm or RMSNorm, got " + quoteInput(norm));
    model["norm"] = norm == "RMSNorm" ? "rmsnorm" : "layernorm";
    const bool bias = !f.has("disable-bias-linear");
    model["bias"] = bias;
    if (f.has("add-qkv-bias") && !bias)
        model["qkv_bias"] = true;
    model["tied_embeddings"] = !f.has("untie-embeddings-and-output-weights");
    readPositions(f, model, seq);
    if (f.has("qk-layernorm"))
        model["qk_norm"] = true;
    readVocab(f, model, options);
    readMla(f, model, heads);
    if (f.given("mtp-num-layers"))
        model["mtp_modules"] = f.integer("mtp-num-layers", 0).value_or(0);
    return model;
}

namespace {

void readExpertLayout(FlagReader& f, nlohmann::json& moe, long long layers)
{
    const auto freq = f.value("moe-layer-freq");
    if (!freq)
        return;
    // An integer N (every N-th layer), or the pattern "([0]*K+[1]*M)" (K dense layers first).
    std::string s = *freq;
    s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
    if (const auto every = smallWhole(s))
        moe["layer_freq"] = *every;
    else if (const auto dense = denseFirstPattern(s); dense && dense->first + dense->second == layers)
        moe["first_dense_layers"] = dense->first;
    else
        f.error("moe-layer-freq",
                "must be an integer or \"([0]*K+[1]*M)\" with K + M = --num-layers (" + std::to_string(layers)
                    + "), got " + quoteInput(*freq));
}

// The token dispatcher: alltoall, or flex with DeepEP or HybridEP (NVIDIA's fused dispatcher of
// the same shape: one kernel dispatches and combines over NVLink and RDMA), both costed as DeepEP.
void readDispatcher(FlagReader& f, nlohmann::json& parallel)
{
    const std::string dispatcher = f.value("moe-token-dispatcher-type").value_or("allgather");
    const std::string backend = f.value("moe-flex-dispatcher-backend").value_or("deepep");
    const bool flex = dispatcher == "flex" && (backend == "deepep" || backend == "hybridep");
    if (f.has("moe-enable-deepep") || flex) {
        parallel["moe_dispatcher"] = "deepep";
        // The SMs its kernels hold (what combined 1F1B's compute beside them loses).
        const char* sms = backend == "hybridep" && flex ? "moe-hybridep-num-sms" : "moe-deepep-num-sms";
        if (const auto k = f.integer(sms, 1, 1 << 16))
            parallel["deepep_sms"] = *k;
        if (backend == "hybridep" && flex)
            f.note("--moe-flex-dispatcher-backend hybridep costed as DeepEP (both fuse dispatch and combine into "
                   "one kernel over NVLink and RDMA)");
    } else if (dispatcher == "alltoall") {
        parallel["moe_dispatcher"] = "alltoall";
    } else {
        f.error(f.given("moe-token-dispatcher-type") ? "moe-token-dispatcher-type" : "num-experts",
                "\"" + dispatcher + (dispatcher == "flex" ? " / " + backend : std::string())
                    + "\" has no ParaScope dispatcher (alltoall, or flex with DeepEP or HybridEP)");
    }
}

} // namespace

void readMoe(FlagReader& f, nlohmann::json& model, nlohmann::json& parallel, nlohmann::json& training)
{
    const long long experts = f.integerOr("num-experts", 0, 0);
    if (experts <= 0) {
        model["moe"] = nullptr;
        return;
    }
    const long long ffn = model.value("ffn_hidden", 1LL);
    nlohmann::json moe = {{"experts", experts},
                          {"top_k", f.integerOr("moe-router-topk", 2)},
                          {"ffn_hidden", f.integerOr("moe-ffn-hidden-size", ffn)},
                          {"layer_freq", 1},
                          {"first_dense_layers", 0}};
    if (f.given("moe-shared-expert-intermediate-size")) {
        moe["shared_experts"] = 1;
        moe["shared_ffn_hidden"] = f.integer("moe-shared-expert-intermediate-size").value_or(1);
    }
    if (f.has("moe-router-enable-expert-bias"))
        moe["expert_bias"] = true;
    readExpertLayout(f, moe, model.value("layers", 1LL));
    model["moe"] = moe;
    readDispatcher(f, parallel);
    if (f.given("moe-expert-capacity-factor")) {
        training["moe_capacity_factor"] = f.number("moe-expert-capacity-factor", 0, 64).value_or(0);
        if (!f.has("moe-pad-expert-input-to-capacity"))
            f.note("--moe-expert-capacity-factor without --moe-pad-expert-input-to-capacity: experts are costed "
                   "padded to capacity (an upper bound on their work)");
    }
    if (f.has("moe-router-force-load-balancing"))
        training["moe_load_imbalance"] = 1; // every expert gets the mean
    if (f.has("overlap-moe-expert-parallel-comm"))
        parallel["ep_comm_overlap"] = true;
    f.has("moe-grouped-gemm"); // ParaScope costs experts as grouped GEMMs
}

} // namespace parascope::megatron
