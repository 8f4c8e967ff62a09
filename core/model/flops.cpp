#include "model/flops.h"

namespace parascope {

LayerForwardFlops layerForwardFlops(const ModelSpec& m, std::int64_t seq_len, bool moe)
{
    const double h = double(m.hidden), q = double(m.queryWidth()), kv = double(m.kvWidth());
    const double s = double(seq_len);
    const double mats = m.mlp == MlpKind::SwiGlu ? 3 : 2;
    LayerForwardFlops f;
    f.attention_linear = 2 * h * (q + 2 * kv) + 2 * q * h;
    f.attention_scores = 4 * s * q;
    if (moe && m.moe) {
        const MoeSpec& e = *m.moe;
        const double shared_f = double(e.shared_ffn_hidden > 0 ? e.shared_ffn_hidden : e.ffn_hidden);
        f.mlp = 2 * h * e.experts + e.top_k * 2 * mats * h * double(e.ffn_hidden)
              + e.shared_experts * 2 * mats * h * shared_f;
    } else {
        f.mlp = 2 * mats * h * double(m.ffn_hidden);
    }
    return f;
}

FlopsReport trainingFlops(const ModelSpec& m, const TrainingConfig& t, Explain explain)
{
    FlopsReport r;
    const double tokens = double(t.global_batch) * double(t.seq_len);
    const LayerForwardFlops dense = layerForwardFlops(m, t.seq_len, false);
    const LayerForwardFlops moe = layerForwardFlops(m, t.seq_len, true);
    const int moe_layers = m.moe ? m.moeLayerCount() : 0;
    const int dense_layers = m.layers - moe_layers;
    const double logits = 2.0 * double(m.hidden) * double(m.vocab);

    const double fwd_layers = dense_layers * dense.total() + moe_layers * moe.total();
    const double fwd_scores = dense_layers * dense.attention_scores + moe_layers * moe.attention_scores;
    const double fwd_per_token = fwd_layers + logits;
    r.model_flops_per_step = 3 * tokens * fwd_per_token;
    r.forward_flops_per_token_layer = dense.total();

    // Recompute (Korthikanti et al. 2022, App. A): full recompute repeats every layer's forward
    // (96·BsLh²(1 + s/(6h) + V/(16hL)) for GPT); selective is counted as
    // 72·BsLh²(1 + s/(3h) + V/(12hL)), i.e. the attention-score FLOPs once more.
    double extra = 0;
    if (t.recompute == Recompute::Full)
        extra = tokens * fwd_layers;
    else if (t.recompute == Recompute::Selective)
        extra = 3 * tokens * fwd_scores;
    r.hardware_flops_per_step = r.model_flops_per_step + extra;
    r.convention = "Megatron generalised (2024): matmul FLOPs, full non-causal attention, backward = 2×forward; "
                   "= Narayanan 2021 eq. 3 for GPT";
    if (explain == Explain::NumbersOnly)
        return r;

    const std::string B = num(double(t.global_batch)), S = num(double(t.seq_len));
    r.terms.push_back({"flops.forward_per_token_layer", dense.total(), "FLOP",
                       "2h(q + 2kv) + 2qh + 4·s·q + 2·" + std::string(m.mlp == MlpKind::SwiGlu ? "3" : "2") + "·h·f",
                       num(dense.attention_linear) + " + " + num(dense.attention_scores) + " + " + num(dense.mlp),
                       "Megatron-LM num_floating_point_operations (2024)"});
    r.terms.push_back({"flops.model_per_step", r.model_flops_per_step, "FLOP",
                       "3 · B·s · (Σ_layers forward + 2·h·V)",
                       "3·" + B + "·" + S + "·(" + num(fwd_layers) + " + " + num(logits) + ")",
                       "Narayanan et al. 2021 eq. 3, generalised to GQA/SwiGLU/MoE (Megatron 2024)"});
    r.terms.push_back({"flops.hardware_per_step", r.hardware_flops_per_step, "FLOP",
                       t.recompute == Recompute::Full ? "model + B·s·Σ_layers forward (full recompute)"
                       : t.recompute == Recompute::Selective ? "model + 3·B·s·Σ_layers 4·s·q (selective recompute)"
                                                             : "model (no recompute)",
                       num(r.model_flops_per_step) + " + " + num(extra),
                       "Korthikanti et al. 2022, Appendix A"});
    return r;
}

} // namespace parascope
