#include "model/parameter_count.h"

namespace parascope {

// Q: h×(a·d), K and V: h×(g·d) each, O: (a·d)×h; biases on Q, K, V and O when the model has them.
std::int64_t attentionParams(const ModelSpec& m)
{
    const std::int64_t q = m.queryWidth(), kv = m.kvWidth(), h = m.hidden;
    std::int64_t n = h * q + 2 * h * kv + q * h;
    if (m.bias)
        n += q + 2 * kv + h;
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

std::int64_t normParams(const ModelSpec& m)
{
    return m.norm == NormKind::RmsNorm ? m.hidden : 2 * m.hidden;
}

ParamCounts countParameters(const ModelSpec& m, Explain explain)
{
    ParamCounts c;
    const std::int64_t h = m.hidden;
    c.dense_layer.attention = attentionParams(m);
    c.dense_layer.dense_mlp = mlpParams(m, m.ffn_hidden);
    c.dense_layer.norms = 2 * normParams(m);

    c.moe_layers = m.moe ? m.moeLayerCount() : 0;
    c.dense_layers = m.layers - c.moe_layers;
    if (m.moe && c.moe_layers > 0) {
        const MoeSpec& e = *m.moe;
        const std::int64_t shared_f = e.shared_ffn_hidden > 0 ? e.shared_ffn_hidden : e.ffn_hidden;
        c.moe_layer.attention = c.dense_layer.attention;
        c.moe_layer.norms = c.dense_layer.norms;
        c.moe_layer.dense_mlp = e.shared_experts * mlpParams(m, shared_f);
        c.moe_layer.routed_experts = e.experts * mlpParams(m, e.ffn_hidden);
        c.moe_layer.active_experts = e.top_k * mlpParams(m, e.ffn_hidden);
        c.moe_layer.router = h * e.experts;
    }

    c.word_embedding = m.vocab * h;
    c.position_embedding = m.position == PositionKind::Learned ? m.max_positions * h : 0;
    c.output_layer = m.tied_embeddings ? 0 : m.vocab * h;
    c.final_norm = normParams(m);

    const std::int64_t outside_layers =
        c.word_embedding + c.position_embedding + c.output_layer + c.final_norm;
    c.total = c.dense_layers * c.dense_layer.total() + c.moe_layers * c.moe_layer.total() + outside_layers;
    c.active = c.dense_layers * c.dense_layer.activePerToken()
             + c.moe_layers * c.moe_layer.activePerToken() + outside_layers;
    if (explain == Explain::NumbersOnly)
        return c;

    const char* src = "Megatron-LM theoretical_memory_usage.py (parameter count); Llama/Mixtral configs";
    const std::string mlp_formula = m.mlp == MlpKind::SwiGlu ? "3·h·f" : "2·h·f";
    c.terms.push_back({"params.attention_per_layer", double(c.dense_layer.attention), "params",
                       m.bias ? "2·h·(a·d) + 2·h·(g·d) + (a·d + 2·g·d + h)" : "2·h·(a·d) + 2·h·(g·d)",
                       "2·" + num(h) + "·" + num(m.queryWidth()) + " + 2·" + num(h) + "·" + num(m.kvWidth()),
                       src});
    c.terms.push_back({"params.mlp_per_layer", double(c.dense_layer.dense_mlp), "params", mlp_formula,
                       (m.mlp == MlpKind::SwiGlu ? "3·" : "2·") + num(h) + "·" + num(m.ffn_hidden), src});
    if (c.moe_layers > 0) {
        c.terms.push_back({"params.routed_experts_per_layer", double(c.moe_layer.routed_experts), "params",
                           "E·" + mlp_formula + "_e",
                           num(m.moe->experts) + "·" + num(mlpParams(m, m.moe->ffn_hidden)), src});
    }
    c.terms.push_back({"params.embedding", double(c.word_embedding + c.position_embedding), "params",
                       m.position == PositionKind::Learned ? "V·h + s_max·h" : "V·h",
                       num(m.vocab) + "·" + num(h), src});
    c.terms.push_back({"params.total", double(c.total), "params",
                       "L_dense·layer + L_moe·moe_layer + embedding + output + final norm",
                       num(c.dense_layers) + "·" + num(c.dense_layer.total()) + " + " + num(c.moe_layers) + "·"
                           + num(c.moe_layer.total()) + " + " + num(outside_layers),
                       src});
    c.terms.push_back({"params.active", double(c.active), "params",
                       "as total, with top_k of E routed experts per MoE layer", num(c.active), src});
    return c;
}

} // namespace parascope
