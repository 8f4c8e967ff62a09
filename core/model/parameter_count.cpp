#include "model/parameter_count.h"

namespace parascope {

namespace {
// A norm over `width` features: RMSNorm has a weight, LayerNorm a weight and a bias.
std::int64_t normOver(const ModelSpec& m, std::int64_t width)
{
    return m.norm == NormKind::RmsNorm ? width : 2 * width;
}

// MLA's norms of the query latent and of the key/value latent (q_a_layernorm, kv_a_layernorm).
std::int64_t latentNormParams(const ModelSpec& m)
{
    if (!m.mla)
        return 0;
    return (m.mla->q_lora_rank > 0 ? normOver(m, m.mla->q_lora_rank) : 0) + normOver(m, m.mla->kv_lora_rank);
}
} // namespace

// MHA/GQA/MQA: Q h×(a·d), K and V h×(g·d) each, O (a·d)×h; biases on all four with `bias`, on
// Q, K and V with `qkv_bias`. MLA (DeepSeek-V2 eq. 9–18; the Hugging Face names in brackets):
// query down h×q_lora [q_a_proj] and up q_lora×a·(d_nope + d_rope) [q_b_proj] (or one h×a·(d_nope +
// d_rope) [q_proj] without a query latent), key/value down h×(kv_lora + d_rope)
// [kv_a_proj_with_mqa], key/value up kv_lora×a·(d_nope + d_v) [kv_b_proj], O a·d_v×h [o_proj].
// Megatron's MLA keeps the down projections whole on every TP rank and splits the rest by heads.
std::vector<Projection> attentionProjections(const ModelSpec& m)
{
    const std::int64_t h = m.hidden;
    const bool qkv_bias = m.bias || m.qkv_bias;
    std::vector<Projection> out;
    if (m.mla) {
        const MlaSpec& a = *m.mla;
        if (a.q_lora_rank > 0) {
            out.push_back({"q_down", h, a.q_lora_rank, false, m.bias});
            out.push_back({"q_up", a.q_lora_rank, m.queryWidth(), true, m.bias});
        } else {
            out.push_back({"q", h, m.queryWidth(), true, qkv_bias});
        }
        out.push_back({"kv_down", h, a.kv_lora_rank + a.qk_rope_head_dim, false, m.bias});
        out.push_back({"kv_up", a.kv_lora_rank, m.heads * (a.qk_nope_head_dim + a.v_head_dim), true, m.bias});
    } else {
        out.push_back({"q", h, m.queryWidth(), true, qkv_bias});
        out.push_back({"k", h, m.kvWidth(), true, qkv_bias});
        out.push_back({"v", h, m.valueWidth(), true, qkv_bias});
    }
    out.push_back({"o", m.attentionOutWidth(), h, true, m.bias});
    return out;
}

// Projections split by TP, plus one sink logit per head (GPT-OSS).
std::int64_t attentionParams(const ModelSpec& m)
{
    std::int64_t n = 0;
    for (const Projection& p : attentionProjections(m))
        n += p.tp_split ? p.params() : 0;
    if (m.attention_sinks)
        n += m.heads;
    return n;
}

// Projections held whole, MLA's latent norms (q_a_layernorm, kv_a_layernorm), and the per-head
// query and key norms of qk-norm (Qwen3 q_norm/k_norm: d_head each, shared by the heads).
std::int64_t attentionReplicatedParams(const ModelSpec& m)
{
    std::int64_t n = 0;
    for (const Projection& p : attentionProjections(m))
        n += p.tp_split ? 0 : p.params();
    n += latentNormParams(m);
    if (m.qk_norm)
        n += 2 * normOver(m, m.head_dim);
    return n;
}

// SwiGLU: gate and up h×f, down f×h; GELU: up h×f, down f×h; biases f (per up/gate) and h.
std::int64_t mlpParams(const ModelSpec& m, std::int64_t f)
{
    const std::int64_t h = m.hidden;
    const int up_matrices = m.mlp == MlpKind::SwiGlu ? 2 : 1;
    std::int64_t n = (up_matrices + 1) * h * f;
    if (m.bias)
        n += up_matrices * f + h;
    return n;
}

std::int64_t normParams(const ModelSpec& m) { return normOver(m, m.hidden); }

namespace {
// The attention Term: the projections by name, then sinks and the replicated norms.
Term attentionTerm(const ModelSpec& m, const LayerParams& layer, const char* src)
{
    std::string formula, subst;
    for (const Projection& p : attentionProjections(m)) {
        const std::string sep = formula.empty() ? "" : " + ";
        formula += sep + p.name + (p.bias ? " (in·out + out)" : " (in·out)");
        subst += sep + num(p.in) + "·" + num(p.out) + (p.bias ? " + " + num(p.out) : "");
    }
    if (m.attention_sinks) {
        formula += " + a (sinks)";
        subst += " + " + num(m.heads);
    }
    if (m.mla) {
        formula += " + latent norms";
        subst += " + " + num(latentNormParams(m));
    }
    if (m.qk_norm) {
        formula += " + 2·d_head (q/k norms)";
        subst += " + 2·" + num(m.head_dim);
    }
    return {"params.attention_per_layer",
            double(layer.attention + layer.attention_replicated),
            "params",
            formula,
            subst,
            m.mla ? "DeepSeek-V2 §2.1 eq. 9–18 (MLA); Megatron-LM multi_latent_attention.py" : src};
}

// An MoE layer: the dense layer's attention and norms, shared experts, routed experts, router.
LayerParams moeLayerParams(const ModelSpec& m, const LayerParams& dense_layer)
{
    const std::int64_t h = m.hidden;
    const MoeSpec& e = *m.moe;
    const std::int64_t shared_f = e.shared_ffn_hidden > 0 ? e.shared_ffn_hidden : e.ffn_hidden;
    LayerParams moe_layer;
    moe_layer.attention = dense_layer.attention;
    moe_layer.attention_replicated = dense_layer.attention_replicated;
    moe_layer.norms = dense_layer.norms;
    moe_layer.dense_mlp = e.shared_experts * mlpParams(m, shared_f);
    moe_layer.routed_experts = e.experts * mlpParams(m, e.ffn_hidden);
    moe_layer.active_experts = e.top_k * mlpParams(m, e.ffn_hidden);
    // The router h×E, with a bias where every linear layer has one (GPT-OSS), the per-expert
    // routing bias (DeepSeek-V3) and the shared experts' gate h×1 (Qwen2-MoE).
    moe_layer.router
        = h * e.experts + (m.bias ? e.experts : 0) + (e.expert_bias ? e.experts : 0) + (e.shared_expert_gate ? h : 0);
    return moe_layer;
}

// Fills the MTP module counts of `c`; returns the parameters one token touches in one module.
std::int64_t countMtpModule(ParamCounts& c, const ModelSpec& m)
{
    const std::int64_t h = m.hidden;
    // Multi-token prediction (DeepSeek-V3 §2.2.1): each module has its own norms of the hidden
    // state and of the next token's embedding (hnorm, enorm), a projection M of their
    // concatenation 2h → h (eh_proj), one transformer layer like the model's last one, and a final
    // norm; it shares the embedding and the output layer.
    c.mtp_modules = m.mtp_modules;
    const LayerParams& mtp_layer = c.moe_layers > 0 ? c.moe_layer : c.dense_layer;
    if (m.mtp_modules > 0) {
        c.mtp_projection = 2 * h * h;
        c.mtp_norms = 3 * normParams(m);
        c.mtp_module = c.mtp_norms + c.mtp_projection + mtp_layer.total();
    }
    return m.mtp_modules > 0 ? c.mtp_norms + c.mtp_projection + mtp_layer.activePerToken() : 0;
}

// The terms behind the counts; `outside_layers` are the embeddings, output layer and final norm.
void addParamTerms(ParamCounts& c, const ModelSpec& m, std::int64_t outside_layers)
{
    const std::int64_t h = m.hidden;
    const LayerParams& mtp_layer = c.moe_layers > 0 ? c.moe_layer : c.dense_layer;
    const char* src = "Megatron-LM theoretical_memory_usage.py (parameter count); Llama/Mixtral configs";
    const std::string mlp_formula = m.mlp == MlpKind::SwiGlu ? "3·h·f" : "2·h·f";
    c.terms.push_back(attentionTerm(m, c.dense_layer, src));
    c.terms.push_back({"params.mlp_per_layer", double(c.dense_layer.dense_mlp), "params", mlp_formula,
                       (m.mlp == MlpKind::SwiGlu ? "3·" : "2·") + num(h) + "·" + num(m.ffn_hidden), src});
    if (c.moe_layers > 0) {
        c.terms.push_back({"params.routed_experts_per_layer", double(c.moe_layer.routed_experts), "params",
                           "E·" + mlp_formula + "_e", num(m.moe->experts) + "·" + num(mlpParams(m, m.moe->ffn_hidden)),
                           src});
    }
    c.terms.push_back({"params.embedding", double(c.word_embedding + c.position_embedding), "params",
                       m.position == PositionKind::Learned ? "V·h + s_max·h" : "V·h", num(m.vocab) + "·" + num(h),
                       src});
    if (m.mtp_modules > 0) {
        c.terms.push_back({"params.mtp_module", double(c.mtp_module), "params",
                           "2·norm(h) + 2h·h + layer + norm(h) (embedding and output layer shared)",
                           num(2 * normParams(m)) + " + 2·" + num(h) + "·" + num(h) + " + " + num(mtp_layer.total())
                               + " + " + num(normParams(m)),
                           "DeepSeek-V3 technical report §2.2.1 (MTP modules)"});
    }
    c.terms.push_back({"params.total", double(c.total), "params",
                       m.mtp_modules > 0
                           ? "L_dense·layer + L_moe·moe_layer + embedding + output + final norm + D·mtp_module"
                           : "L_dense·layer + L_moe·moe_layer + embedding + output + final norm",
                       num(c.dense_layers) + "·" + num(c.dense_layer.total()) + " + " + num(c.moe_layers) + "·"
                           + num(c.moe_layer.total()) + " + " + num(outside_layers)
                           + (m.mtp_modules > 0 ? " + " + num(m.mtp_modules) + "·" + num(c.mtp_module) : std::string()),
                       src});
    c.terms.push_back({"params.active", double(c.active), "params",
                       "as total, with top_k of E routed experts per MoE layer", num(c.active), src});
}
} // namespace

ParamCounts countParameters(const ModelSpec& m, Explain explain)
{
    ParamCounts c;
    const std::int64_t h = m.hidden;
    c.dense_layer.attention = attentionParams(m);
    c.dense_layer.attention_replicated = attentionReplicatedParams(m);
    c.dense_layer.dense_mlp = mlpParams(m, m.ffn_hidden);
    // Two norms per layer (before attention, before the MLP); a parallel block has one; post
    // norms (Gemma 2/3) add one after attention and one after the MLP.
    c.dense_layer.norms = ((m.parallel_block ? 1 : 2) + (m.post_norms ? 2 : 0)) * normParams(m);

    c.moe_layers = m.moe ? m.moeLayerCount() : 0;
    c.dense_layers = m.layers - c.moe_layers;
    if (m.moe && c.moe_layers > 0)
        c.moe_layer = moeLayerParams(m, c.dense_layer);

    c.word_embedding = m.vocab * h;
    c.position_embedding = m.position == PositionKind::Learned ? m.max_positions * h : 0;
    c.output_layer = (m.tied_embeddings ? 0 : m.vocab * h) + (m.output_bias ? m.vocab : 0);
    c.final_norm = normParams(m);

    const std::int64_t mtp_active = countMtpModule(c, m);

    const std::int64_t outside_layers = c.word_embedding + c.position_embedding + c.output_layer + c.final_norm;
    c.total = c.dense_layers * c.dense_layer.total() + c.moe_layers * c.moe_layer.total() + outside_layers
        + m.mtp_modules * c.mtp_module;
    c.active = c.dense_layers * c.dense_layer.activePerToken() + c.moe_layers * c.moe_layer.activePerToken()
        + outside_layers + m.mtp_modules * mtp_active;
    if (explain == Explain::NumbersOnly)
        return c;
    addParamTerms(c, m, outside_layers);
    return c;
}

} // namespace parascope
