#include "io/hf_config_import.h"

#include "io/hf_vision_towers.h"
#include "io/model_json.h"
#include "io/scenario_json.h"

#include <algorithm>
#include <climits>
#include <filesystem>
#include <utility>

namespace parascope {

namespace {

enum class Family {
    Llama,
    Mistral,
    Mixtral,
    Qwen2,
    Qwen3,
    Qwen2Moe,
    Qwen3Moe,
    DeepSeek,
    Gpt2,
    GptOss,
    Gemma,
    Gemma2,
    Gemma3,
    Phi3,
    Phi,
    DeepSeekMoe, // DeepseekForCausalLM (deepseek-moe-16b): DeepSeek's experts, standard attention
    Qwen25Vl, // Qwen2_5_VLForConditionalGeneration: a Qwen2 language model and a vision tower
};

struct Architecture {
    const char* name; // "architectures"[0]
    const char* model_type; // "model_type", when "architectures" is missing
    Family family;
    bool tied_by_default; // the config class's tie_word_embeddings default
};

// The transformers classes (modeling_*.py) whose weights the mapping below counts.
constexpr Architecture kArchitectures[] = {
    {"LlamaForCausalLM", "llama", Family::Llama, false},
    {"MistralForCausalLM", "mistral", Family::Mistral, false},
    {"MixtralForCausalLM", "mixtral", Family::Mixtral, false},
    {"Qwen2ForCausalLM", "qwen2", Family::Qwen2, false},
    {"Qwen3ForCausalLM", "qwen3", Family::Qwen3, false},
    {"Qwen2MoeForCausalLM", "qwen2_moe", Family::Qwen2Moe, false},
    {"Qwen3MoeForCausalLM", "qwen3_moe", Family::Qwen3Moe, false},
    {"DeepseekV2ForCausalLM", "deepseek_v2", Family::DeepSeek, false},
    {"DeepseekV3ForCausalLM", "deepseek_v3", Family::DeepSeek, false},
    {"GPT2LMHeadModel", "gpt2", Family::Gpt2, true},
    {"GptOssForCausalLM", "gpt_oss", Family::GptOss, false},
    {"GemmaForCausalLM", "gemma", Family::Gemma, true},
    {"Gemma2ForCausalLM", "gemma2", Family::Gemma2, true},
    {"Gemma3ForCausalLM", "gemma3_text", Family::Gemma3, true},
    {"Gemma3ForConditionalGeneration", "gemma3", Family::Gemma3, true},
    {"Phi3ForCausalLM", "phi3", Family::Phi3, false},
    {"PhiForCausalLM", "phi", Family::Phi, false},
    {"DeepseekForCausalLM", "deepseek", Family::DeepSeekMoe, false},
    {"Qwen2_5_VLForConditionalGeneration", "qwen2_5_vl", Family::Qwen25Vl, false},
};

// Architectures refused with the reason, rather than as unknown.
constexpr std::pair<const char*, const char*> kRefused[] = {
    {"MiniMaxText01ForCausalLM",
     "MiniMax-Text-01 mixes lightning (linear) attention layers with softmax attention "
     "(attn_type_list): a linear-attention layer keeps no key/value cache and costs O(s) "
     "per token, which ParaScope's layers (softmax attention only) cannot express"},
    {"MiniMaxM1ForCausalLM",
     "MiniMax-M1 mixes lightning (linear) attention layers with softmax attention "
     "(attn_type_list): a linear-attention layer keeps no key/value cache and costs O(s) per "
     "token, which ParaScope's layers (softmax attention only) cannot express"},
    {"MiniMaxForCausalLM",
     "MiniMax's hybrid models mix lightning (linear) attention with softmax attention "
     "(attn_type_list / layer_types): ParaScope's layers (softmax attention only) cannot "
     "express the linear-attention layers"},
};

// One config object's fields, with errors named by their config.json path. A field that is
// absent or null counts as not given (transformers writes null for "not used").
class Fields {
public:
    // `defaults`: the config class's defaults, for a nested config that transformers writes as a
    // diff against them (text_config of a multimodal model).
    Fields(const nlohmann::json& j, std::string prefix, std::vector<InputError>& errors,
           const nlohmann::json& defaults = nlohmann::json::object())
        : j_(j)
        , defaults_(defaults)
        , prefix_(std::move(prefix))
        , errors_(errors)
    { }

    bool has(const char* key) const { return get(key) != nullptr; }
    const nlohmann::json* get(const char* key) const
    {
        if (j_.contains(key))
            return j_.at(key).is_null() ? nullptr : &j_.at(key);
        return defaults_.contains(key) ? &defaults_.at(key) : nullptr;
    }
    std::string path(const char* key) const { return prefix_ + key; }
    void error(const char* key, const std::string& message) { errors_.push_back({path(key), message}); }

    std::optional<std::int64_t> integer(const char* key, std::int64_t min = 0, std::int64_t max = INT64_MAX / 4)
    {
        const nlohmann::json* v = get(key);
        if (!v)
            return std::nullopt;
        if (!v->is_number_integer() || v->get<std::int64_t>() < min || v->get<std::int64_t>() > max) {
            error(key,
                  "must be an integer in " + std::to_string(min) + "…" + std::to_string(max) + ", got "
                      + describeJson(*v));
            return std::nullopt;
        }
        return v->get<std::int64_t>();
    }
    std::int64_t required(const char* key, std::int64_t min = 1, std::int64_t max = std::int64_t(1) << 40)
    {
        if (!has(key)) {
            error(key, "is required for this architecture and missing");
            return min;
        }
        return integer(key, min, max).value_or(min);
    }
    bool flag(const char* key, bool fallback)
    {
        const nlohmann::json* v = get(key);
        if (!v)
            return fallback;
        if (!v->is_boolean()) {
            error(key, "must be true or false, got " + describeJson(*v));
            return fallback;
        }
        return v->get<bool>();
    }
    std::string text(const char* key)
    {
        const nlohmann::json* v = get(key);
        return v && v->is_string() ? v->get<std::string>() : std::string();
    }
    // A field that changes the parameter count in a way the schema cannot express.
    void unmapped(const char* key, const std::string& why) { error(key, why + " (no ParaScope field expresses it)"); }

private:
    const nlohmann::json& j_;
    const nlohmann::json& defaults_;
    std::string prefix_;
    std::vector<InputError>& errors_;
};

// layer_types (["sliding_attention", "full_attention", …]) → every N-th layer full, the rest
// sliding (layers N−1, 2N−1, … as SlidingWindow::global_every). nullopt: no layer slides.
std::optional<int> globalEveryFromLayerTypes(Fields& f, int layers)
{
    const nlohmann::json* types = f.get("layer_types");
    if (!types->is_array() || int(types->size()) != layers) {
        f.error("layer_types",
                "must list one type per layer (" + std::to_string(layers) + "), got " + describeJson(*types));
        return std::nullopt;
    }
    std::vector<bool> full;
    for (const nlohmann::json& t : *types) {
        const std::string s = t.is_string() ? t.get<std::string>() : std::string();
        if (s != "sliding_attention" && s != "full_attention") {
            f.error("layer_types",
                    "each entry must be \"sliding_attention\" or \"full_attention\", got " + describeJson(t));
            return std::nullopt;
        }
        full.push_back(s == "full_attention");
    }
    const auto first_full = std::find(full.begin(), full.end(), true);
    if (first_full == full.begin() && std::all_of(full.begin(), full.end(), [](bool b) { return b; }))
        return std::nullopt; // every layer attends to all keys
    const int every = first_full == full.end() ? 0 : int(first_full - full.begin()) + 1;
    for (int i = 0; i < layers; ++i)
        if (full[std::size_t(i)] != (every > 0 && (i + 1) % every == 0)) {
            f.unmapped("layer_types", "full-attention layers other than every N-th layer (layers N−1, 2N−1, …)");
            return std::nullopt;
        }
    return every;
}

const Architecture* findArchitecture(const nlohmann::json& config, std::vector<InputError>& errors, std::string& name)
{
    if (config.contains("architectures") && config["architectures"].is_array() && !config["architectures"].empty()
        && config["architectures"][0].is_string()) {
        name = config["architectures"][0].get<std::string>();
        for (const Architecture& a : kArchitectures)
            if (name == a.name)
                return &a;
    } else if (config.contains("model_type") && config["model_type"].is_string()) {
        name = config["model_type"].get<std::string>();
        for (const Architecture& a : kArchitectures)
            if (name == a.model_type)
                return &a;
    } else {
        errors.push_back(
            {"architectures", "is missing (and so is model_type): this does not look like a Hugging Face config.json"});
        return nullptr;
    }
    for (const auto& [refused, why] : kRefused)
        if (name == refused) {
            errors.push_back({"architectures", "\"" + name + "\" cannot be imported: " + why});
            return nullptr;
        }
    std::string known;
    for (const Architecture& a : kArchitectures)
        known += (known.empty() ? "" : ", ") + std::string(a.name);
    errors.push_back({config.contains("architectures") ? "architectures" : "model_type",
                      "\"" + name + "\" is not an architecture ParaScope can import; it reads " + known});
    return nullptr;
}

// The size fields: GPT-2 names its own; the others follow Llama's names.
void readShape(Fields& f, Family fam, ModelSpec& m)
{
    if (fam == Family::Gpt2) {
        // GPT-2 (modeling_gpt2.py): c_attn h×3h and c_proj h×h with biases, MLP c_fc h×n_inner and
        // c_proj back, two LayerNorms per layer, learned positions, tied output.
        m.hidden = f.required("n_embd");
        m.layers = int(f.required("n_layer", 1, 1 << 24));
        m.heads = int(f.required("n_head", 1, 1 << 24));
        m.kv_heads = m.heads;
        m.ffn_hidden = f.has("n_inner") ? f.required("n_inner") : 4 * m.hidden;
        m.max_positions = f.has("n_positions") ? f.required("n_positions") : f.required("n_ctx");
        m.mlp = MlpKind::Gelu;
        m.norm = NormKind::LayerNorm;
        m.bias = true;
        m.position = PositionKind::Learned;
        if (f.flag("add_cross_attention", false))
            f.unmapped("add_cross_attention", "cross-attention adds a second attention block per layer");
    } else {
        m.hidden = f.required("hidden_size");
        m.layers = int(f.required("num_hidden_layers", 1, 1 << 24));
        m.heads = int(f.required("num_attention_heads", 1, 1 << 24));
        m.kv_heads = int(f.integer("num_key_value_heads", 1, 1 << 24).value_or(m.heads));
        if (f.has("head_dim"))
            m.head_dim = f.required("head_dim");
        else if (m.heads > 0 && m.hidden % m.heads != 0 && fam != Family::DeepSeek)
            f.error("head_dim", "is missing and hidden_size is not divisible by num_attention_heads");
        m.mlp = MlpKind::SwiGlu; // gated: gate, up, down (SiLU or GELU-tanh inside)
        m.norm = NormKind::RmsNorm;
        m.position = PositionKind::Rope;
        if (fam != Family::GptOss && fam != Family::Mixtral)
            m.ffn_hidden = f.required("intermediate_size");
    }
    if (fam == Family::Phi) {
        // PhiDecoderLayer (modeling_phi.py): one LayerNorm whose output feeds attention and the MLP
        // side by side; fc1 h×f and fc2 f×h (GELU); every linear layer, lm_head included, has a bias.
        m.mlp = MlpKind::Gelu;
        m.norm = NormKind::LayerNorm;
        m.parallel_block = true;
        m.output_bias = true;
        if (f.flag("qk_layernorm", false))
            f.unmapped("qk_layernorm", "LayerNorms (weight and bias) over each head's query and key");
    }
    if (m.head_dim == 0)
        m.head_dim = m.heads > 0 ? std::max<std::int64_t>(1, m.hidden / m.heads) : 1;
}

// Biases, per-head norms, post-norms and attention sinks.
void readBiasesAndNorms(Fields& f, Family fam, ModelSpec& m)
{
    // Biases. Llama's attention_bias puts one on q, k, v and o, mlp_bias on the MLP: both together
    // are ParaScope's `bias`; one without the other has no field.
    const bool attention_bias = f.flag("attention_bias", fam == Family::GptOss);
    const bool mlp_bias = f.flag("mlp_bias", false);
    if (fam == Family::Phi) {
        m.bias = true; // q, k, v, dense, fc1, fc2
    } else if (fam == Family::GptOss) {
        if (!attention_bias)
            f.unmapped("attention_bias", "GPT-OSS without attention biases (its experts and router keep theirs)");
        m.bias = true; // q, k, v, o, every expert's projections and the router carry biases
    } else if (fam != Family::Gpt2) {
        if (attention_bias && mlp_bias)
            m.bias = true;
        else if (attention_bias)
            f.unmapped("attention_bias", "biases on q, k, v and o without MLP biases");
        else if (mlp_bias)
            f.unmapped("mlp_bias", "MLP biases without attention biases");
    }
    if (fam == Family::Qwen2 || fam == Family::Qwen2Moe || fam == Family::Qwen25Vl)
        m.qkv_bias = !m.bias; // Qwen2Attention: q, k and v with bias, o without
    if (fam == Family::Qwen3 || fam == Family::Qwen3Moe || fam == Family::Gemma3)
        m.qk_norm = true; // q_norm and k_norm over each head
    if (fam == Family::Gemma2 || fam == Family::Gemma3)
        m.post_norms = true; // post_attention_layernorm and post_feedforward_layernorm besides the pre-norms
    if (fam == Family::GptOss)
        m.attention_sinks = true;
}

// Sliding windows, per family.
void readSlidingWindow(Fields& f, Family fam, ModelSpec& m)
{
    const std::optional<std::int64_t> window = f.integer("sliding_window", 1);
    if (fam == Family::Qwen2 || fam == Family::Qwen3 || fam == Family::Qwen2Moe || fam == Family::Qwen3Moe
        || fam == Family::Qwen25Vl) {
        if (f.flag("use_sliding_window", false))
            f.unmapped("use_sliding_window", "sliding windows on the layers from max_window_layers on");
    } else if (fam == Family::Mistral || fam == Family::Mixtral || fam == Family::Phi3) {
        if (window)
            m.sliding_window = SlidingWindow{*window, 0}; // every layer
    } else if (fam == Family::GptOss || fam == Family::Gemma2 || fam == Family::Gemma3) {
        std::optional<int> every;
        if (f.has("layer_types"))
            every = globalEveryFromLayerTypes(f, m.layers);
        else if (fam == Family::Gemma2)
            every = 2; // Gemma2DecoderLayer: even layers slide, odd ones are global
        else if (fam == Family::Gemma3)
            every = int(f.integer("sliding_window_pattern", 1, 1 << 20).value_or(6)); // every 6th global
        else
            f.error("layer_types", "is required for GPT-OSS (which layers slide)");
        if (window && every)
            m.sliding_window = SlidingWindow{*window, *every};
        else if (every && !window)
            f.error("sliding_window", "is required: layer_types names sliding layers");
    }
}

// DeepSeek's multi-head latent attention and its multi-token-prediction modules.
void readMla(Fields& f, ModelSpec& m)
{
    MlaSpec a;
    a.q_lora_rank = f.integer("q_lora_rank", 1).value_or(0); // null: queries projected directly (V2-Lite)
    a.kv_lora_rank = f.required("kv_lora_rank");
    a.qk_nope_head_dim = f.required("qk_nope_head_dim");
    a.qk_rope_head_dim = f.required("qk_rope_head_dim");
    a.v_head_dim = f.required("v_head_dim");
    m.mla = a;
    m.kv_heads = m.heads;
    m.head_dim = a.qk_nope_head_dim + a.qk_rope_head_dim;
    m.mtp_modules = int(f.integer("num_nextn_predict_layers", 0, 64).value_or(0));
}

// Mixture of experts, per family; none for dense models.
void readMoe(Fields& f, Family fam, ModelSpec& m)
{
    if (fam == Family::Mixtral || fam == Family::GptOss) {
        MoeSpec e;
        e.experts = int(f.required("num_local_experts", 1, 1 << 24));
        e.top_k = int(f.has("num_experts_per_tok") ? f.required("num_experts_per_tok", 1, 1 << 24)
                                                   : f.required("experts_per_token", 1, 1 << 24));
        e.ffn_hidden = f.required("intermediate_size");
        m.ffn_hidden = e.ffn_hidden; // no dense MLP: every layer is MoE
        m.moe = e;
    } else if (fam == Family::Qwen2Moe || fam == Family::Qwen3Moe) {
        MoeSpec e;
        e.experts = int(f.required("num_experts", 1, 1 << 24));
        e.top_k = int(f.required("num_experts_per_tok", 1, 1 << 24));
        e.ffn_hidden = f.required("moe_intermediate_size");
        const std::int64_t shared = f.integer("shared_expert_intermediate_size", 0).value_or(0);
        if (shared > 0) {
            e.shared_experts = 1;
            e.shared_ffn_hidden = shared;
            e.shared_expert_gate = fam == Family::Qwen2Moe; // Qwen2MoeSparseMoeBlock.shared_expert_gate
        }
        // Layer i is MoE when (i + 1) % decoder_sparse_step == 0: layers step−1, 2·step−1, …
        const int step = int(f.integer("decoder_sparse_step", 1, 1 << 20).value_or(1));
        e.layer_freq = step;
        e.first_dense_layers = step - 1;
        if (const nlohmann::json* only = f.get("mlp_only_layers"); only && !(only->is_array() && only->empty()))
            f.unmapped("mlp_only_layers", "dense layers at chosen positions");
        m.moe = e;
    } else if ((fam == Family::DeepSeek || fam == Family::DeepSeekMoe) && f.has("n_routed_experts")) {
        MoeSpec e;
        e.experts = int(f.required("n_routed_experts", 1, 1 << 24));
        e.top_k = int(f.required("num_experts_per_tok", 1, 1 << 24));
        e.ffn_hidden = f.required("moe_intermediate_size");
        e.shared_experts = int(f.integer("n_shared_experts", 0, 1 << 10).value_or(0));
        e.shared_ffn_hidden = e.ffn_hidden; // one MLP of n_shared·moe_intermediate_size: the same count
        e.first_dense_layers = int(f.integer("first_k_dense_replace", 0, 1 << 20).value_or(0));
        e.layer_freq = int(f.integer("moe_layer_freq", 1, 1 << 20).value_or(1));
        // DeepseekV2DecoderLayer: MoE when i ≥ first_k_dense_replace and i % moe_layer_freq == 0.
        if (e.first_dense_layers % e.layer_freq != 0)
            f.unmapped("moe_layer_freq",
                       "MoE layers at i % moe_layer_freq == 0 when first_k_dense_replace is not a multiple of it");
        e.expert_bias = f.text("topk_method") == "noaux_tc"; // gate.e_score_correction_bias
        m.moe = e;
    }
}

// A vision or audio tower has no ParaScope field: an error unless only the text model is asked for.
void checkEncoders(const nlohmann::json& config, const HfImportOptions& options, std::vector<InputError>& errors)
{
    for (const char* tower : {"vision_config", "audio_config"})
        if (config.contains(tower) && !config[tower].is_null() && !options.text_only)
            errors.push_back({tower,
                              "the model has a vision or audio encoder, which a ParaScope model cannot express; "
                              "import the language model alone (parascope-cli model import-hf --text-only)"});
}

} // namespace

const std::vector<std::string>& hfArchitectures()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const Architecture& a : kArchitectures)
            v.push_back(a.name);
        return v;
    }();
    return names;
}

std::optional<HfImport> importHfConfig(const nlohmann::json& config, const std::string& file,
                                       const HfImportOptions& options, std::vector<InputError>& errors)
{
    const std::size_t errors_before = errors.size();
    if (!config.is_object()) {
        errors.push_back({"", "must be a JSON object (a Hugging Face config.json), got " + describeJson(config)});
        return std::nullopt;
    }
    std::string arch_name;
    const Architecture* arch = findArchitecture(config, errors, arch_name);
    if (!arch)
        return std::nullopt;

    // Multimodal configs keep the language model under text_config.
    const nlohmann::json* cfg = &config;
    std::string prefix;
    // transformers writes a composite config's text_config as a diff against its class: the
    // fields left out hold Gemma3TextConfig's defaults (configuration_gemma3.py).
    static const nlohmann::json kNoDefaults = nlohmann::json::object();
    static const nlohmann::json kGemma3TextDefaults
        = {{"vocab_size", 262208},    {"hidden_size", 2304},      {"intermediate_size", 9216},
           {"num_hidden_layers", 26}, {"num_attention_heads", 8}, {"num_key_value_heads", 4},
           {"head_dim", 256},         {"sliding_window", 4096},   {"sliding_window_pattern", 6}};
    checkEncoders(config, options, errors);
    if (config.contains("text_config") && config["text_config"].is_object()) {
        cfg = &config["text_config"];
        prefix = "text_config.";
    }
    Fields f(*cfg, prefix, errors,
             cfg != &config && arch->family == Family::Gemma3 ? kGemma3TextDefaults : kNoDefaults);
    const Family fam = arch->family;

    ModelSpec m;
    m.id = "custom";
    const std::string name_or_path = Fields(config, "", errors).text("_name_or_path");
    m.name = !name_or_path.empty() ? std::filesystem::path(name_or_path).filename().string() : modelNameFromPath(file);
    if (m.name.empty())
        m.name = modelNameFromPath(file);

    readShape(f, fam, m);
    m.vocab = f.required("vocab_size");
    m.tied_embeddings
        = f.flag("tie_word_embeddings", Fields(config, "", errors).flag("tie_word_embeddings", arch->tied_by_default));

    readBiasesAndNorms(f, fam, m);

    // Sliding windows (they change FLOPs, not the count; still never guessed).
    readSlidingWindow(f, fam, m);

    if (fam == Family::DeepSeek)
        readMla(f, m);

    // Mixture of experts.
    readMoe(f, fam, m);
    if (errors.size() > errors_before)
        return std::nullopt;
    // The schema's own checks (kv_heads divides heads, top_k ≤ experts, …) on the result.
    const std::optional<ModelSpec> checked = readModel(modelToJson(m), "", errors);
    if (!checked)
        return std::nullopt;
    HfImport out;
    out.model = *checked;
    out.model.id = "custom";
    out.architecture = arch_name;
    if (options.text_only && config.contains("vision_config"))
        if (const auto v = visionTowerParams(arch_name, config["vision_config"], errors)) {
            out.vision_params = v->params;
            out.vision_formula = v->formula;
        }
    if (errors.size() > errors_before)
        return std::nullopt;
    return out;
}

} // namespace parascope
