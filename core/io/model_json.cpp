#include "io/model_json.h"

#include <algorithm>
#include <cstdint>
#include <climits>
#include <string>
#include <utility>

namespace parascope {

namespace {

// "sliding_window": the window in tokens and how often a layer attends to all keys.
SlidingWindow readSlidingWindow(const nlohmann::json& sw, const std::string& path, std::vector<InputError>& errors)
{
    ObjectReader w(sw, path, errors);
    SlidingWindow win;
    win.size = w.integer("size", 1, 1LL << 30, true).value_or(1);
    win.global_every = int(w.integer("global_every", 0, 100000).value_or(0));
    w.finish();
    return win;
}

// "mla": the latent ranks and per-head widths of multi-head latent attention.
MlaSpec readMla(const nlohmann::json& mla, const std::string& path, std::vector<InputError>& errors)
{
    ObjectReader a(mla, path, errors);
    MlaSpec l;
    l.q_lora_rank = a.integer("q_lora_rank", 0, 1 << 20).value_or(0);
    l.kv_lora_rank = a.integer("kv_lora_rank", 1, 1 << 20, true).value_or(1);
    l.qk_nope_head_dim = a.integer("qk_nope_head_dim", 1, 1 << 16, true).value_or(1);
    l.qk_rope_head_dim = a.integer("qk_rope_head_dim", 0, 1 << 16, true).value_or(0);
    l.v_head_dim = a.integer("v_head_dim", 1, 1 << 16, true).value_or(1);
    a.finish();
    return l;
}

// "moe": experts, routing and the dense leading layers, checked against the model's layers.
MoeSpec readMoe(const nlohmann::json& moe, const std::string& path, int layers, std::vector<InputError>& errors)
{
    ObjectReader e(moe, path, errors);
    MoeSpec s;
    const std::optional<std::int64_t> experts = e.integer("experts", 1, 1 << 16, true);
    const std::optional<std::int64_t> top_k = e.integer("top_k", 1, 1 << 16, true);
    s.experts = int(experts.value_or(1));
    s.top_k = int(top_k.value_or(1));
    if (experts && top_k && s.top_k > s.experts)
        e.error("top_k", "must be ≤ experts (" + std::to_string(s.experts) + "), got " + std::to_string(s.top_k));
    s.ffn_hidden = e.integer("ffn_hidden", 1, 1 << 22, true).value_or(1);
    s.shared_experts = int(e.integer("shared_experts", 0, 1 << 10).value_or(0));
    s.shared_ffn_hidden = e.integer("shared_ffn_hidden", 0, 1 << 22).value_or(0);
    s.layer_freq = int(e.integer("layer_freq", 1, 100000).value_or(1));
    s.first_dense_layers = int(e.integer("first_dense_layers", 0, 100000).value_or(0));
    s.expert_bias = e.boolean("expert_bias").value_or(false);
    s.shared_expert_gate = e.boolean("shared_expert_gate").value_or(false);
    if (s.shared_expert_gate && s.shared_experts == 0)
        e.error("shared_expert_gate", "needs shared_experts ≥ 1 (it gates their output)");
    if (s.first_dense_layers > layers)
        e.error("first_dense_layers", "must be ≤ layers (" + std::to_string(layers) + ")");
    e.finish();
    return s;
}

} // namespace

void readModelFields(ObjectReader& r, ModelSpec& m, std::vector<InputError>& errors)
{
    m.name = r.string("name").value_or(m.id);
    r.string("source");
    r.integer("published_params", 0, INT64_MAX);
    m.layers = int(r.integer("layers", 1, 100000, true).value_or(1));
    const std::optional<std::int64_t> hidden = r.integer("hidden", 1, 1 << 20, true);
    m.hidden = hidden.value_or(1);
    const std::optional<std::int64_t> heads = r.integer("heads", 1, 1 << 16, true);
    const std::optional<std::int64_t> kv_heads = r.integer("kv_heads", 1, 1 << 16);
    m.heads = int(heads.value_or(1));
    m.kv_heads = int(kv_heads.value_or(m.heads));
    // Checks that combine fields run only when every field they use was read.
    if (heads && kv_heads && (m.kv_heads > m.heads || m.heads % m.kv_heads != 0)) {
        r.error("kv_heads", "must divide heads (" + std::to_string(m.heads) + "), got " + std::to_string(m.kv_heads));
    }
    const std::optional<std::int64_t> head_dim = r.integer("head_dim", 1, 1 << 16);
    const nlohmann::json* mla = r.child("mla");
    const bool has_mla = mla && !mla->is_null();
    if (has_mla && head_dim)
        r.error("head_dim",
                "is not used with mla (its per-head widths are mla.qk_nope_head_dim, "
                "mla.qk_rope_head_dim and mla.v_head_dim); remove it");
    if (has_mla && heads && kv_heads && m.kv_heads != m.heads)
        r.error("kv_heads",
                "must equal heads (" + std::to_string(m.heads) + ") with mla: every head has its own key and value");
    if (!head_dim && !has_mla && hidden && heads && m.hidden % m.heads != 0)
        r.error("head_dim",
                "is required when hidden (" + std::to_string(m.hidden) + ") is not divisible by heads ("
                    + std::to_string(m.heads) + ")");
    m.head_dim = head_dim.value_or(std::max<std::int64_t>(1, m.hidden / m.heads));
    m.ffn_hidden = r.integer("ffn_hidden", 1, 1 << 22, true).value_or(1);
    m.vocab = r.integer("vocab", 1, 1 << 24, true).value_or(1);
    m.mlp = r.choice<MlpKind>("mlp").value_or(MlpKind::SwiGlu);
    m.norm = r.choice<NormKind>("norm").value_or(NormKind::RmsNorm);
    m.bias = r.boolean("bias").value_or(false);
    m.tied_embeddings = r.boolean("tied_embeddings").value_or(false);
    m.position = r.choice<PositionKind>("position").value_or(PositionKind::Rope);
    m.max_positions = r.integer("max_positions", 1, 1LL << 30).value_or(0);
    if (m.position == PositionKind::Learned && m.max_positions == 0)
        r.error("max_positions", "is required with learned positions");
    m.qkv_bias = r.boolean("qkv_bias").value_or(false);
    m.qk_norm = r.boolean("qk_norm").value_or(false);
    if (m.qk_norm && has_mla)
        r.error("qk_norm", "is not defined with mla (MLA normalises its latents, not each head's query and key)");
    m.attention_sinks = r.boolean("attention_sinks").value_or(false);
    m.parallel_block = r.boolean("parallel_block").value_or(false);
    m.output_bias = r.boolean("output_bias").value_or(false);
    m.post_norms = r.boolean("post_norms").value_or(false);
    if (m.post_norms && m.parallel_block)
        r.error("post_norms", "is not defined with parallel_block (one norm feeds attention and MLP side by side)");
    m.mtp_modules = int(r.integer("mtp_modules", 0, 64).value_or(0));
    if (const nlohmann::json* sw = r.child("sliding_window"); sw && !sw->is_null())
        m.sliding_window = readSlidingWindow(*sw, r.childPath("sliding_window"), errors);
    if (has_mla)
        m.mla = readMla(*mla, r.childPath("mla"), errors);
    if (const nlohmann::json* moe = r.child("moe"); moe && !moe->is_null())
        m.moe = readMoe(*moe, r.childPath("moe"), m.layers, errors);
}

nlohmann::json modelToJson(const ModelSpec& m)
{
    nlohmann::json j = {{"name", m.name},
                        {"layers", m.layers},
                        {"hidden", m.hidden},
                        {"heads", m.heads},
                        {"kv_heads", m.kv_heads},
                        {"head_dim", m.head_dim},
                        {"ffn_hidden", m.ffn_hidden},
                        {"vocab", m.vocab},
                        {"mlp", toString(m.mlp)},
                        {"norm", toString(m.norm)},
                        {"bias", m.bias},
                        {"tied_embeddings", m.tied_embeddings},
                        {"position", toString(m.position)}};
    if (m.position == PositionKind::Learned)
        j["max_positions"] = m.max_positions;
    // Variants only when set, so that files of models without them stay as they were.
    for (const auto& [key, on] :
         {std::pair{"qkv_bias", m.qkv_bias}, std::pair{"qk_norm", m.qk_norm},
          std::pair{"attention_sinks", m.attention_sinks}, std::pair{"parallel_block", m.parallel_block},
          std::pair{"post_norms", m.post_norms}, std::pair{"output_bias", m.output_bias}})
        if (on)
            j[key] = true;
    if (m.mtp_modules > 0)
        j["mtp_modules"] = m.mtp_modules;
    if (m.sliding_window)
        j["sliding_window"] = {{"size", m.sliding_window->size}, {"global_every", m.sliding_window->global_every}};
    if (m.mla) {
        j.erase("head_dim");
        j["mla"] = {{"q_lora_rank", m.mla->q_lora_rank},
                    {"kv_lora_rank", m.mla->kv_lora_rank},
                    {"qk_nope_head_dim", m.mla->qk_nope_head_dim},
                    {"qk_rope_head_dim", m.mla->qk_rope_head_dim},
                    {"v_head_dim", m.mla->v_head_dim}};
    }
    if (m.moe) {
        const MoeSpec& e = *m.moe;
        j["moe"] = {{"experts", e.experts},
                    {"top_k", e.top_k},
                    {"ffn_hidden", e.ffn_hidden},
                    {"shared_experts", e.shared_experts},
                    {"shared_ffn_hidden", e.shared_ffn_hidden},
                    {"layer_freq", e.layer_freq},
                    {"first_dense_layers", e.first_dense_layers}};
        if (e.expert_bias)
            j["moe"]["expert_bias"] = true;
        if (e.shared_expert_gate)
            j["moe"]["shared_expert_gate"] = true;
    } else {
        j["moe"] = nullptr;
    }
    return j;
}

} // namespace parascope
