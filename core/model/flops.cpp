#include "model/flops.h"

#include "model/parameter_count.h"

#include <algorithm>
#include <string_view>

namespace parascope {

// In the convention's full (non-causal) count every query meets all s keys, twice the s/2 a
// causal mask leaves. A sliding window of w keys leaves a causal average of
// (1/s)·Σ_i min(i + 1, w) = w − w(w − 1)/(2s); doubled the same way: 2w − w(w − 1)/s (= s + 1 at
// w = s, so capped at s). Averaged over the layers, global and sliding.
double attendedKeys(const ModelSpec& m, std::int64_t seq_len)
{
    const double s = double(seq_len);
    const int sliding = m.slidingLayerCount();
    if (sliding == 0 || m.layers <= 0)
        return s;
    const double w = double(m.sliding_window->size);
    const double window_keys = w >= s ? s : std::min(s, 2 * w - w * (w - 1) / s);
    return ((m.layers - sliding) * s + sliding * window_keys) / m.layers;
}

LayerForwardFlops layerForwardFlops(const ModelSpec& m, std::int64_t seq_len, bool moe)
{
    const double h = double(m.hidden);
    const double mats = m.mlp == MlpKind::SwiGlu ? 3 : 2;
    LayerForwardFlops f;
    for (const Projection& p : attentionProjections(m))
        f.attention_linear += 2.0 * double(p.in) * double(p.out);
    // QKᵀ multiplies each query (a·d_qk) with every attended key, scores·V each value (a·d_v):
    // 2·keys·(a·d_qk + a·d_v), = 4·s·q for MHA/GQA without a window.
    f.attention_scores = 2 * attendedKeys(m, seq_len) * double(m.queryWidth() + m.attentionOutWidth());
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

namespace {

// Forward FLOPs per token of the whole model, with the parts recompute and the terms reuse.
struct ModelForwardFlops {
    double tokens; // per step: B·s
    LayerForwardFlops dense, moe;
    int moe_layers, dense_layers;
    double logits; // the output layer, 2·h·V
    LayerForwardFlops mtp_layer; // the layer an MTP module runs
    double mtp; // all MTP modules
    double fwd_layers; // Σ_layers forward
    double fwd_scores; // Σ_layers attention scores, MTP layers included
};

// The forward FLOPs per token of every layer, the output layer and the MTP modules.
ModelForwardFlops modelForwardFlops(const ModelSpec& m, const TrainingConfig& t)
{
    const double tokens = double(t.global_batch) * double(t.seq_len);
    const LayerForwardFlops dense = layerForwardFlops(m, t.seq_len, false);
    const LayerForwardFlops moe = layerForwardFlops(m, t.seq_len, true);
    const int moe_layers = m.moe ? m.moeLayerCount() : 0;
    const int dense_layers = m.layers - moe_layers;
    const double logits = 2.0 * double(m.hidden) * double(m.vocab);

    // An MTP module (DeepSeek-V3 §2.2.1) runs one more layer, its 2h → h projection and the
    // output layer on every token.
    const LayerForwardFlops& mtp_layer = moe_layers > 0 ? moe : dense;
    const double mtp = m.mtp_modules * (mtp_layer.total() + 2.0 * 2 * double(m.hidden) * double(m.hidden) + logits);
    const double fwd_layers = dense_layers * dense.total() + moe_layers * moe.total();
    const double fwd_scores = dense_layers * dense.attention_scores + moe_layers * moe.attention_scores
        + m.mtp_modules * mtp_layer.attention_scores;
    return {tokens, dense, moe, moe_layers, dense_layers, logits, mtp_layer, mtp, fwd_layers, fwd_scores};
}

// FLOPs selective recompute adds per step: the scores with core_attn, the GEMMs of the other modules.
double selectiveRecomputeFlops(const ModelSpec& m, const TrainingConfig& t, const ModelForwardFlops& f)
{
    const double tokens = f.tokens;
    const int moe_layers = f.moe_layers, dense_layers = f.dense_layers;
    double extra = 0;
    if (t.recomputes(RecomputeModule::CoreAttn))
        extra = 3 * tokens * f.fwd_scores;
    // Modules whose GEMMs the backward repeats (Megatron --recompute-modules).
    const double mats = m.mlp == MlpKind::SwiGlu ? 3 : 2;
    if (t.recomputes(RecomputeModule::Mlp))
        extra += tokens * dense_layers * f.dense.mlp;
    if (m.moe && t.recomputes(RecomputeModule::Moe)) // the whole block: router, routed and shared experts
        extra += tokens * moe_layers * f.moe.mlp;
    else if (m.moe && t.recomputes(RecomputeModule::SharedExperts)) {
        const MoeSpec& e = *m.moe;
        extra += tokens * moe_layers * e.shared_experts * 2 * mats * double(m.hidden)
            * double(e.shared_ffn_hidden > 0 ? e.shared_ffn_hidden : e.ffn_hidden);
    }
    // torchtitan's op SAC: k and o on every layer, the MLP's up projection (GELU: fc2).
    if (t.recomputes(RecomputeModule::EveryOtherMm) && !m.mla)
        extra += tokens
            * (m.layers * 2.0 * double(m.hidden) * double(m.kvWidth() + m.queryWidth())
               + dense_layers * 2.0 * double(m.hidden) * double(m.ffn_hidden));
    if (m.mla && t.recomputes(RecomputeModule::MlaUpProj))
        for (const Projection& p : attentionProjections(m))
            if (p.tp_split && std::string_view(p.name) != "o")
                extra += tokens * m.layers * 2.0 * double(p.in) * double(p.out);
    return extra;
}

// FLOPs recompute adds per step.
double recomputeFlops(const ModelSpec& m, const TrainingConfig& t, const ModelForwardFlops& f)
{
    // Recompute (Korthikanti et al. 2022, App. A): full recompute repeats every layer's forward
    // (96·BsLh²(1 + s/(6h) + V/(16hL)) for GPT); selective is counted as
    // 72·BsLh²(1 + s/(3h) + V/(12hL)), i.e. the attention-score FLOPs once more.
    double extra = 0;
    if (t.recompute == Recompute::Full)
        extra = f.tokens * (f.fwd_layers + m.mtp_modules * f.mtp_layer.total());
    else if (t.recompute == Recompute::Selective)
        extra = selectiveRecomputeFlops(m, t, f);
    return extra;
}

// Score FLOPs a flash kernel skips per step (the masked half), forward, backward and recompute.
double skippedScoreFlops(const TrainingConfig& t, const ModelForwardFlops& f)
{
    const double tokens = f.tokens, fwd_scores = f.fwd_scores;
    // Hardware FLOPs count what the kernels execute: a flash kernel skips the masked half of the
    // causal scores, forward, backward and recompute alike (the model FLOPs keep the
    // convention's full count, so at long sequences MFU can exceed HFU).
    const double scores_run = t.flash_attention ? 0.5 : 1.0;
    double skipped = (1 - scores_run) * 3 * tokens * fwd_scores;
    if (t.recompute == Recompute::Full)
        skipped += (1 - scores_run) * tokens * fwd_scores;
    else if (t.recomputes(RecomputeModule::CoreAttn))
        skipped += (1 - scores_run) * 3 * tokens * fwd_scores;
    return skipped;
}

// The terms behind the report's numbers.
void addFlopsTerms(FlopsReport& r, const ModelSpec& m, const TrainingConfig& t, const ModelForwardFlops& f,
                   double extra, double skipped)
{
    const LayerForwardFlops& dense = f.dense;
    const std::string B = num(double(t.global_batch)), S = num(double(t.seq_len));
    const bool plain = !m.mla && m.slidingLayerCount() == 0;
    r.terms.push_back({"flops.forward_per_token_layer", dense.total(), "FLOP",
                       (plain ? "2h(q + 2kv) + 2qh + 4·s·q + 2·" : "2·Σ projections + 2·keys·(q + o) + 2·")
                           + std::string(m.mlp == MlpKind::SwiGlu ? "3" : "2") + "·h·f",
                       num(dense.attention_linear) + " + " + num(dense.attention_scores) + " + " + num(dense.mlp),
                       "Megatron-LM num_floating_point_operations (2024)"});
    if (m.slidingLayerCount() > 0) {
        const double w = double(m.sliding_window->size);
        r.terms.push_back(
            {"flops.attended_keys", attendedKeys(m, t.seq_len), "keys", "((L − L_w)·s + L_w·min(s, 2w − w(w − 1)/s))/L",
             "((" + num(m.layers) + " − " + num(m.slidingLayerCount()) + ")·" + S + " + " + num(m.slidingLayerCount())
                 + "·min(" + S + ", 2·" + num(w) + " − " + num(w) + "·" + num(w - 1) + "/" + S + "))/" + num(m.layers),
             "Beltagy et al. 2020 (Longformer) §3.1; Jiang et al. 2023 (Mistral 7B) §2"});
    }
    r.terms.push_back({"flops.model_per_step", r.model_flops_per_step, "FLOP",
                       m.mtp_modules > 0 ? "3 · B·s · (Σ_layers forward + 2·h·V + D·(layer + 4h² + 2·h·V))"
                                         : "3 · B·s · (Σ_layers forward + 2·h·V)",
                       "3·" + B + "·" + S + "·(" + num(f.fwd_layers) + " + " + num(f.logits)
                           + (m.mtp_modules > 0 ? " + " + num(f.mtp) : std::string()) + ")",
                       "Narayanan et al. 2021 eq. 3, generalised to GQA/SwiGLU/MoE (Megatron 2024)"});
    r.terms.push_back({"flops.hardware_per_step", r.hardware_flops_per_step, "FLOP",
                       std::string(t.flash_attention ? "(flash: causal scores counted half) " : "")
                           + (t.recompute == Recompute::Full ? "model + B·s·Σ_layers forward (full recompute)"
                                  : t.recompute == Recompute::Selective
                                  ? (t.recompute_modules == unsigned(RecomputeModule::CoreAttn)
                                         ? "model + 3·B·s·Σ_layers 4·s·q (selective recompute)"
                                         : "model + 3·B·s·Σ_layers 4·s·q if core_attn + B·s·(forward GEMMs of mlp, "
                                           "shared_experts, mla_up_proj)")
                                  : "model (no recompute)"),
                       num(r.model_flops_per_step) + " + " + num(extra) + (skipped > 0 ? " − " + num(skipped) : ""),
                       "Korthikanti et al. 2022, Appendix A"});
}

} // namespace

FlopsReport trainingFlops(const ModelSpec& m, const TrainingConfig& t, Explain explain)
{
    FlopsReport r;
    const ModelForwardFlops f = modelForwardFlops(m, t);
    const double fwd_per_token = f.fwd_layers + f.logits + f.mtp;
    r.model_flops_per_step = 3 * f.tokens * fwd_per_token;
    r.attention_score_flops_per_step = 3 * f.tokens * f.fwd_scores;
    r.forward_flops_per_token_layer = f.dense.total();

    const double extra = recomputeFlops(m, t, f);
    const double skipped = skippedScoreFlops(t, f);
    r.hardware_flops_per_step = r.model_flops_per_step + extra - skipped;
    r.convention = "Megatron generalised (2024): matmul FLOPs, full non-causal attention, backward = 2×forward; "
                   "= Narayanan 2021 eq. 3 for GPT";
    if (explain == Explain::NumbersOnly)
        return r;
    addFlopsTerms(r, m, t, f, extra, skipped);
    return r;
}

} // namespace parascope
