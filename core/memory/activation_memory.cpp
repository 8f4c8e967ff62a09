#include "memory/activation_memory.h"

namespace parascope {

namespace {
constexpr const char* kSource
    = "Korthikanti et al. 2022, Table 2 (34·sbh + 5·a·s²·b), generalised: GQA, SwiGLU, MoE, flash attention";
}

namespace {

// The layer's sizes every part of the accounting reads, with the sequence split by CP.
struct LayerDims {
    double s, b, h, q, kv, v, o, a, tp;
    bool sp;
    double mlp_factor;
};

// The dimensions of one layer and microbatch on one GPU.
LayerDims layerDims(const ModelSpec& m, const TrainingConfig& t, const ParallelConfig& p)
{
    LayerDims d;
    d.s = double(t.seq_len) / p.cp, d.b = double(t.micro_batch);
    d.h = double(m.hidden), d.q = double(m.queryWidth()), d.kv = double(m.kvWidth());
    d.v = double(m.valueWidth()), d.o = double(m.attentionOutWidth());
    d.a = m.heads, d.tp = p.tp;
    d.sp = p.sequence_parallel && p.tp > 1;
    d.mlp_factor = m.mlp == MlpKind::SwiGlu ? 6 : 4;
    return d;
}

// Bytes per token the layer keeps without selective recompute, by how they are split.
struct KeptBytes {
    double replicated = 0; // split only by SP
    double split = 0; // split by TP
    double attention = 0; // Q, K, V, attention output (and qk-norm inputs), part of split
    double latents = 0; // MLA latents, part of replicated
    double expert = 0; // split by etp (and by tp with SP)
    double scores = 0; // attention scores, split by TP
    bool keeps_scores = false;
    bool moe_block = false;
};

// What one layer keeps per token, before selective recompute drops anything.
KeptBytes keptPerToken(const ModelSpec& m, const TrainingConfig& t, const ParallelConfig& p, bool moe,
                       const LayerDims& d)
{
    const double h = d.h, q = d.q, kv = d.kv, v = d.v, o = d.o, a = d.a, s = d.s;
    const double mlp_factor = d.mlp_factor;
    KeptBytes k;
    double& replicated = k.replicated;
    double& split = k.split;
    replicated = (m.parallel_block ? 6 : 10) * h; // split only by SP
    if (m.post_norms)
        replicated += 4 * h; // the inputs of the norms after attention and after the MLP
    split = 2 * q + 2 * kv + 2 * v + 2 * o; // Q, K, V, attention output
    if (m.qk_norm)
        split += 2 * q + 2 * kv;
    k.attention = split;
    if (m.mla) {
        const MlaSpec& l = *m.mla;
        k.latents
            = 4 * double(l.q_lora_rank) + 2 * double(l.kv_lora_rank + l.qk_rope_head_dim) + 2 * double(l.kv_lora_rank);
        replicated += k.latents;
    }
    k.moe_block = moe && m.moe;
    if (k.moe_block) {
        const MoeSpec& e = *m.moe;
        const double shared_f = double(e.shared_ffn_hidden > 0 ? e.shared_ffn_hidden : e.ffn_hidden);
        split += e.shared_experts * mlp_factor * shared_f;
        replicated += 4.0 * e.experts; // router probabilities (fp32)
        k.expert = e.top_k * (4 * h + mlp_factor * double(e.ffn_hidden) / p.expertTp()) * t.moeLoad(); // busiest rank
        if (!m.parallel_block)
            replicated -= 2 * h; // the MoE block has no separate fc1 input copy
    } else {
        split += mlp_factor * double(m.ffn_hidden);
    }

    k.keeps_scores = !t.recomputes(RecomputeModule::CoreAttn);
    if (k.keeps_scores)
        k.scores = t.flash_attention ? 4 * a : 5 * a * s;
    return k;
}

// Bytes per token selective recompute drops, split like KeptBytes.
struct DroppedBytes {
    double replicated = 0, split = 0, expert = 0;
};

// What the selective recompute modules drop per token from what the layer keeps.
DroppedBytes droppedPerToken(const ModelSpec& m, const TrainingConfig& t, const ParallelConfig& p, const LayerDims& d,
                             const KeptBytes& k)
{
    const double h = d.h, q = d.q, kv = d.kv, v = d.v, mlp_factor = d.mlp_factor;
    const bool moe_block = k.moe_block;
    // Selective recompute of other modules (Megatron --recompute-modules, torchtitan's op SAC)
    // drops tensors the layer would keep. Two modules may drop the same tensor (mlp and
    // every_other_mm both drop MLP activations, layernorm and every_other_mm the norm outputs),
    // so what goes is the union of what each drops, tensor by tensor, never more than is kept:
    //   norm outputs: layernorm, every_other_mm — the QKV input 2h and the MLP input 2h where
    //     the layer keeps one (not in a parallel block or an MoE block);
    //   dropout masks (2h): every_other_mm (a Llama has no dropout);
    //   K (2kv): every_other_mm, mla_up_proj; Q and V (2q + 2v): mla_up_proj;
    //   dense MLP: mlp all of it (4f or 6f), every_other_mm the up projection's output and the
    //     product (SwiGLU 4f) or the activation output (GELU 2f);
    //   shared experts' activations: shared_experts, moe; router probabilities (4E): moe;
    //   routed slots: moe all of them, moe_act their activation outputs (2·f_e/etp each).
    // every_other_mm keeps the layer input, the q and v projections' outputs, the attention
    // output with its log-sum-exp, the MLP gate's output and the down projection's output.
    const bool sac = t.recomputes(RecomputeModule::EveryOtherMm);
    const bool mla_up = m.mla && t.recomputes(RecomputeModule::MlaUpProj);
    DroppedBytes dr;
    if (t.recomputes(RecomputeModule::Layernorm) || sac)
        dr.replicated += (m.parallel_block || moe_block) ? 2 * h : 4 * h;
    if (sac && !m.parallel_block)
        dr.replicated += 2 * h;
    if (sac || mla_up)
        dr.split += 2 * kv;
    if (mla_up)
        dr.split += 2 * q + 2 * v;
    if (!moe_block && t.recomputes(RecomputeModule::Mlp))
        dr.split += mlp_factor * double(m.ffn_hidden);
    else if (!moe_block && sac)
        dr.split += (m.mlp == MlpKind::SwiGlu ? 4 : 2) * double(m.ffn_hidden);
    if (moe_block && (t.recomputes(RecomputeModule::SharedExperts) || t.recomputes(RecomputeModule::Moe)))
        dr.split += m.moe->shared_experts * mlp_factor
            * double(m.moe->shared_ffn_hidden > 0 ? m.moe->shared_ffn_hidden : m.moe->ffn_hidden);
    if (moe_block && t.recomputes(RecomputeModule::Moe)) {
        dr.replicated += 4.0 * m.moe->experts;
        dr.expert = k.expert;
    } else if (moe_block && t.recomputes(RecomputeModule::MoeAct)) {
        dr.expert = m.moe->top_k * 2 * double(m.moe->ffn_hidden) / p.expertTp() * t.moeLoad();
    }
    return dr;
}

// What keeping the linear layers' inputs as FP8 copies (training.fp8_activations) saves per
// token, 1 byte of each 2, of what selective recompute left kept:
//   the QKV input (norm output) h, and the MLP input h where the layer keeps one of its own (not
//     a parallel block or an MoE block) — unless layernorm or every_other_mm drop the norms;
//   MLA's normed latents, the up projections' inputs: q_lora + kv_lora;
//   the dense MLP's down-projection input (GELU output or SwiGLU product) f — unless mlp or
//     every_other_mm drop it;
//   each shared expert's down-projection input f_s — unless shared_experts or moe;
//   each routed slot's dispatched input h and down-projection input f_e/etp — unless moe (moe_act
//     drops the latter).
// The attention output stays 16-bit: the attention backward reads it too.
DroppedBytes fp8SavedPerToken(const ModelSpec& m, const TrainingConfig& t, const ParallelConfig& p, const LayerDims& d,
                              const KeptBytes& k)
{
    DroppedBytes sv;
    if (!t.fp8Activations() || t.recompute == Recompute::Full)
        return sv;
    const double h = d.h;
    const bool sac = t.recomputes(RecomputeModule::EveryOtherMm);
    if (!t.recomputes(RecomputeModule::Layernorm) && !sac)
        sv.replicated += (m.parallel_block || k.moe_block) ? h : 2 * h;
    if (m.mla)
        sv.replicated += double(m.mla->q_lora_rank + m.mla->kv_lora_rank);
    if (!k.moe_block) {
        if (!t.recomputes(RecomputeModule::Mlp) && !sac)
            sv.split += double(m.ffn_hidden);
        return sv;
    }
    const MoeSpec& e = *m.moe;
    const bool whole_moe = t.recomputes(RecomputeModule::Moe);
    if (!whole_moe && !t.recomputes(RecomputeModule::SharedExperts))
        sv.split += e.shared_experts * double(e.shared_ffn_hidden > 0 ? e.shared_ffn_hidden : e.ffn_hidden);
    if (!whole_moe)
        sv.expert = e.top_k * (h + (t.recomputes(RecomputeModule::MoeAct) ? 0.0 : double(e.ffn_hidden) / p.expertTp()))
            * t.moeLoad();
    return sv;
}

// The per-layer term with its formula and substitution, for the values already in `out`.
Term layerActivationTerm(const ModelSpec& m, const TrainingConfig& t, const LayerDims& d, const KeptBytes& k,
                         const LayerActivation& out)
{
    const double q = d.q, kv = d.kv;
    const bool sp = d.sp;
    const char* f = m.mlp == MlpKind::SwiGlu ? "6" : "4";
    const std::string attn_text = k.attention == 4 * q + 4 * kv
        ? "2q + 4kv + 2q"
        : "2q + 2k + 2v + 2o" + std::string(m.qk_norm ? " + 2q + 2k" : "");
    const std::string repl_text = (m.parallel_block   ? "6h"
                                       : m.post_norms ? "14h"
                                                      : "10h")
        + std::string(m.mla ? " + latents" : "");
    const std::string mlp_text
        = k.moe_block ? std::string("shared·") + f + "·f + k·(4h + " + f + "·f_e/etp)" : std::string(f) + "·f";
    const std::string score_text = !k.keeps_scores ? ""
        : t.flash_attention                        ? " + 4·a (flash: fp32 log-sum-exp)"
                                                   : " + 5·a·s";
    const std::string S = num(d.s), B = num(d.b), H = num(d.h), Q = num(q), KV = num(kv), T = num(d.tp);
    const std::string div = sp ? "/t" : "";
    if (t.recompute == Recompute::Full)
        return {"activations.per_layer",
                out.stored,
                "bytes",
                "2·s·b·h" + div + " (full recompute: layer input only)",
                "2·" + S + "·" + B + "·" + H + (sp ? "/" + T : ""),
                "Korthikanti et al. 2022, Table 2 (full recompute 2sbh)"};
    std::string formula = "s·b·(" + repl_text + div + " + (" + attn_text + " + " + mlp_text + ")/t"
        + (score_text.empty() ? "" : score_text + "/t") + ")";
    const std::string repl_subst = (m.parallel_block   ? "6·"
                                        : m.post_norms ? "14·"
                                                       : "10·")
        + H + (m.mla ? " + " + num(k.latents) : "");
    const std::string attn_subst
        = k.attention == 4 * q + 4 * kv ? "2·" + Q + " + 4·" + KV + " + 2·" + Q : num(k.attention);
    std::string subst = S + "·" + B + "·(" + (m.mla && sp ? "(" + repl_subst + ")" : repl_subst) + (sp ? "/" + T : "")
        + " + (" + attn_subst + " + "
        + (k.moe_block ? num(k.split - k.attention) : num(d.mlp_factor * double(m.ffn_hidden))) + ")/" + T
        + (k.scores > 0 ? " + " + num(k.scores) + "/" + T : "") + (k.expert > 0 ? " + " + num(k.expert) + div : "")
        + ")";
    if (out.recomputed > 0) {
        formula += " − recomputed modules";
        subst += " − " + num(out.recomputed);
    }
    if (out.fp8_saved > 0) {
        formula += " − FP8 linear inputs";
        subst += " − " + num(out.fp8_saved);
    }
    return {"activations.per_layer", out.stored, "bytes", formula, subst, kSource};
}

} // namespace

// Per token (bytes), in Korthikanti's accounting with 16-bit activations and 1-byte dropout masks:
//   kept whole under TP (split by SP): norm inputs 2h + 2h, QKV input 2h, MLP input 2h,
//     two dropout masks h + h                                               → 10h
//   split by TP: Q 2q, K 2kv, V 2kv, attention output 2q, MLP activations
//     (GELU: fc1 out 2f + GELU out 2f = 4f; SwiGLU: gate+up out 4f + product 2f = 6f) → 24h for GPT
//   attention scores: softmax 2as, dropout mask as, dropout out 2as → 5as (per token, s keys);
//     flash attention keeps only the fp32 log-sum-exp, 4a; selective recompute keeps neither.
// With q = h, kv = h, f = 4h this is Table 2's sbh(10 + 24/t + 5as/(ht)).
// MoE layer: the dense MLP part is replaced by top_k copies of each token: dispatched input 2h,
// expert activations (4f_e or 6f_e)/etp, expert output 2h; router probabilities 4E (fp32);
// shared experts like a dense MLP.
// Context parallelism splits the sequence: s becomes s/cp for every token count.
// Variants: a parallel block (GPT-J) has one norm whose output feeds both attention and MLP, so
// one norm input and the MLP's own input copy go (10h → 6h); post norms (Gemma 2/3) keep the
// inputs of the norms after attention and after the MLP (10h → 14h); qk-norm keeps the norms' inputs
// (2q + 2k); MLA keeps Q, K (a·(d_nope + d_rope) each), V and the attention output (a·d_v each),
// and, whole on every TP rank, its latents: the query latent and its normed copy (2·2·q_lora), the
// key/value latent with the rotary key (2·(kv_lora + d_rope)) and its normed copy (2·kv_lora).
LayerActivation layerActivation(const ModelSpec& m, const TrainingConfig& t, const ParallelConfig& p, bool moe,
                                Explain explain)
{
    const LayerDims d = layerDims(m, t, p);
    const double s = d.s, b = d.b, h = d.h, tp = d.tp;
    const KeptBytes k = keptPerToken(m, t, p, moe, d);
    const DroppedBytes dr = droppedPerToken(m, t, p, d, k);
    const DroppedBytes fp8 = fp8SavedPerToken(m, t, p, d, k);

    const double token_div = d.sp ? tp : 1; // SP splits the sequence among TP ranks
    const double per_token_full = k.replicated / token_div + k.split / tp + k.scores / tp + k.expert / token_div;
    const double per_token_dropped = dr.replicated / token_div + dr.split / tp + dr.expert / token_div;
    LayerActivation out;
    out.working_set = s * b * per_token_full;
    if (t.recompute == Recompute::Full) {
        out.stored = s * b * 2 * h / token_div; // only the layer input survives
    } else {
        out.recomputed = s * b * per_token_dropped;
        out.fp8_saved = s * b * (fp8.replicated / token_div + fp8.split / tp + fp8.expert / token_div);
        out.stored = out.working_set - out.recomputed - out.fp8_saved;
    }
    if (explain == Explain::NumbersOnly) {
        out.term.name = "activations.per_layer";
        out.term.value = out.stored;
        return out;
    }
    out.term = layerActivationTerm(m, t, d, k, out);
    return out;
}

// Megatron compute_activation_memory: 8·s·b (int64 input ids) + s·b·h (embedding dropout mask).
Term embeddingActivation(const ModelSpec& m, const TrainingConfig& t, const ParallelConfig& p, Explain explain)
{
    const double s = double(t.seq_len) / p.cp, b = double(t.micro_batch), h = double(m.hidden);
    const bool sp = p.sequence_parallel && p.tp > 1;
    const double v = 8 * s * b + s * b * h / (sp ? p.tp : 1);
    if (explain == Explain::NumbersOnly)
        return {"activations.embedding", v, "bytes", "", "", ""};
    return {"activations.embedding",
            v,
            "bytes",
            sp ? "8·s·b + s·b·h/t" : "8·s·b + s·b·h",
            "8·" + num(s) + "·" + num(b) + " + " + num(s) + "·" + num(b) + "·" + num(h) + (sp ? "/" + num(p.tp) : ""),
            "Megatron-LM theoretical_memory_usage.py compute_activation_memory"};
}

} // namespace parascope
