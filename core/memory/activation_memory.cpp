#include "memory/activation_memory.h"

namespace parascope {

namespace {
constexpr const char* kSource
    = "Korthikanti et al. 2022, Table 2 (34·sbh + 5·a·s²·b), generalised: GQA, SwiGLU, MoE, flash attention";
}

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
    const double s = double(t.seq_len) / p.cp, b = double(t.micro_batch);
    const double h = double(m.hidden), q = double(m.queryWidth()), kv = double(m.kvWidth());
    const double v = double(m.valueWidth()), o = double(m.attentionOutWidth());
    const double a = m.heads, tp = p.tp;
    const bool sp = p.sequence_parallel && p.tp > 1;
    const double mlp_factor = m.mlp == MlpKind::SwiGlu ? 6 : 4;

    double replicated = (m.parallel_block ? 6 : 10) * h; // split only by SP
    if (m.post_norms)
        replicated += 4 * h; // the inputs of the norms after attention and after the MLP
    double split = 2 * q + 2 * kv + 2 * v + 2 * o; // Q, K, V, attention output
    if (m.qk_norm)
        split += 2 * q + 2 * kv;
    const double attention = split;
    double latents = 0;
    if (m.mla) {
        const MlaSpec& l = *m.mla;
        latents
            = 4 * double(l.q_lora_rank) + 2 * double(l.kv_lora_rank + l.qk_rope_head_dim) + 2 * double(l.kv_lora_rank);
        replicated += latents;
    }
    double expert = 0; // split by etp (and by tp with SP)
    const bool moe_block = moe && m.moe;
    if (moe_block) {
        const MoeSpec& e = *m.moe;
        const double shared_f = double(e.shared_ffn_hidden > 0 ? e.shared_ffn_hidden : e.ffn_hidden);
        split += e.shared_experts * mlp_factor * shared_f;
        replicated += 4.0 * e.experts; // router probabilities (fp32)
        expert = e.top_k * (4 * h + mlp_factor * double(e.ffn_hidden) / p.expertTp()) * t.moeLoad(); // busiest rank
        if (!m.parallel_block)
            replicated -= 2 * h; // the MoE block has no separate fc1 input copy
    } else {
        split += mlp_factor * double(m.ffn_hidden);
    }

    double scores = 0;
    const bool keeps_scores = !t.recomputes(RecomputeModule::CoreAttn);
    if (keeps_scores)
        scores = t.flash_attention ? 4 * a : 5 * a * s;

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
    double drop_replicated = 0, drop_split = 0, drop_expert = 0;
    if (t.recomputes(RecomputeModule::Layernorm) || sac)
        drop_replicated += (m.parallel_block || moe_block) ? 2 * h : 4 * h;
    if (sac && !m.parallel_block)
        drop_replicated += 2 * h;
    if (sac || mla_up)
        drop_split += 2 * kv;
    if (mla_up)
        drop_split += 2 * q + 2 * v;
    if (!moe_block && t.recomputes(RecomputeModule::Mlp))
        drop_split += mlp_factor * double(m.ffn_hidden);
    else if (!moe_block && sac)
        drop_split += (m.mlp == MlpKind::SwiGlu ? 4 : 2) * double(m.ffn_hidden);
    if (moe_block && (t.recomputes(RecomputeModule::SharedExperts) || t.recomputes(RecomputeModule::Moe)))
        drop_split += m.moe->shared_experts * mlp_factor
            * double(m.moe->shared_ffn_hidden > 0 ? m.moe->shared_ffn_hidden : m.moe->ffn_hidden);
    if (moe_block && t.recomputes(RecomputeModule::Moe)) {
        drop_replicated += 4.0 * m.moe->experts;
        drop_expert = expert;
    } else if (moe_block && t.recomputes(RecomputeModule::MoeAct)) {
        drop_expert = m.moe->top_k * 2 * double(m.moe->ffn_hidden) / p.expertTp() * t.moeLoad();
    }

    const double token_div = sp ? tp : 1; // SP splits the sequence among TP ranks
    const double per_token_full = replicated / token_div + split / tp + scores / tp + expert / token_div;
    const double per_token_dropped = drop_replicated / token_div + drop_split / tp + drop_expert / token_div;
    LayerActivation out;
    out.working_set = s * b * per_token_full;
    if (t.recompute == Recompute::Full) {
        out.stored = s * b * 2 * h / token_div; // only the layer input survives
    } else {
        out.recomputed = s * b * per_token_dropped;
        out.stored = out.working_set - out.recomputed;
    }
    if (explain == Explain::NumbersOnly) {
        out.term.name = "activations.per_layer";
        out.term.value = out.stored;
        return out;
    }

    const char* f = m.mlp == MlpKind::SwiGlu ? "6" : "4";
    const std::string attn_text = attention == 4 * q + 4 * kv
        ? "2q + 4kv + 2q"
        : "2q + 2k + 2v + 2o" + std::string(m.qk_norm ? " + 2q + 2k" : "");
    const std::string repl_text = (m.parallel_block   ? "6h"
                                       : m.post_norms ? "14h"
                                                      : "10h")
        + std::string(m.mla ? " + latents" : "");
    const std::string mlp_text
        = moe_block ? std::string("shared·") + f + "·f + k·(4h + " + f + "·f_e/etp)" : std::string(f) + "·f";
    const std::string score_text = !keeps_scores ? ""
        : t.flash_attention                      ? " + 4·a (flash: fp32 log-sum-exp)"
                                                 : " + 5·a·s";
    const std::string S = num(s), B = num(b), H = num(h), Q = num(q), KV = num(kv), T = num(tp);
    const std::string div = sp ? "/t" : "";
    if (t.recompute == Recompute::Full) {
        out.term = {"activations.per_layer",
                    out.stored,
                    "bytes",
                    "2·s·b·h" + div + " (full recompute: layer input only)",
                    "2·" + S + "·" + B + "·" + H + (sp ? "/" + T : ""),
                    "Korthikanti et al. 2022, Table 2 (full recompute 2sbh)"};
    } else {
        std::string formula = "s·b·(" + repl_text + div + " + (" + attn_text + " + " + mlp_text + ")/t"
            + (score_text.empty() ? "" : score_text + "/t") + ")";
        const std::string repl_subst = (m.parallel_block   ? "6·"
                                            : m.post_norms ? "14·"
                                                           : "10·")
            + H + (m.mla ? " + " + num(latents) : "");
        const std::string attn_subst
            = attention == 4 * q + 4 * kv ? "2·" + Q + " + 4·" + KV + " + 2·" + Q : num(attention);
        std::string subst = S + "·" + B + "·(" + (m.mla && sp ? "(" + repl_subst + ")" : repl_subst)
            + (sp ? "/" + T : "") + " + (" + attn_subst + " + "
            + (moe_block ? num(split - attention) : num(mlp_factor * double(m.ffn_hidden))) + ")/" + T
            + (scores > 0 ? " + " + num(scores) + "/" + T : "") + (expert > 0 ? " + " + num(expert) + div : "") + ")";
        if (out.recomputed > 0) {
            formula += " − recomputed modules";
            subst += " − " + num(out.recomputed);
        }
        out.term = {"activations.per_layer", out.stored, "bytes", formula, subst, kSource};
    }
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
