#include "memory/model_states.h"

namespace parascope {

// Mixed-precision Adam keeps 2 (weights) + 2 (grads) + 12 (fp32 master, m, v) bytes/param:
// Rajbhandari et al. 2019 (ZeRO) §3.1, K = 12. fp32 grads give Megatron's 18 B/param.
StateBytes stateBytes(const TrainingConfig& t)
{
    StateBytes b;
    const bool fp32 = t.precision == Precision::Fp32;
    b.weights = fp32 ? 4 : (t.precision == Precision::Fp8 ? 3 : 2);
    b.gradients = (fp32 || t.grad_dtype == GradDtype::Fp32) ? 4 : 2;
    // 1-bit compression keeps an fp32 error-feedback buffer per parameter, the part of each
    // gradient the sign could not send, added back next step (Tang et al. 2021, 1-bit Adam §4):
    // counted with the gradients, and sharded as they are.
    if (t.grad_comm == GradComm::OneBit)
        b.gradients += 4;
    // PowerSGD keeps the error M − P·Qᵀ at the gradients' width (PyTorch powerSGD_hook's
    // error_dict); top-k its residual in fp32 (Deep Gradient Compression's local accumulation).
    if (t.grad_comm == GradComm::PowerSgd)
        b.gradients += b.gradients;
    if (t.grad_comm == GradComm::TopK)
        b.gradients += 4;
    const double master = fp32 ? 0 : 4;
    b.optimizer = master + (t.optimizer == Optimizer::AdamW ? 8 : 4);
    return b;
}

// Attention and dense MLP weights are split by TP; norms, the router and MLA's down projections
// are replicated; routed
// experts are split by EP·ETP (Megatron PR #4687); the vocab-parallel embedding and output layer
// by TP, on the rank that holds them.
StageParams stageParams(const ParamCounts& c, const StageLayers& s, const ParallelConfig& p)
{
    const double tp = p.tp, ep_etp = double(p.ep) * p.expertTp();
    const int dense_layers = s.layers - s.moe_layers;
    StageParams out;
    const auto whole = [](const LayerParams& l) { return double(l.norms + l.router + l.attention_replicated); };
    out.dense = dense_layers * ((c.dense_layer.attention + c.dense_layer.dense_mlp) / tp + whole(c.dense_layer))
        + s.moe_layers * ((c.moe_layer.attention + c.moe_layer.dense_mlp) / tp + whole(c.moe_layer));
    out.experts = s.moe_layers * (c.moe_layer.routed_experts / ep_etp);
    if (s.has_embedding)
        out.dense += (c.word_embedding + c.position_embedding) / tp;
    if (s.has_output) {
        out.dense += c.final_norm;
        // Tied embeddings with pp > 1: Megatron keeps a copy of the word embedding on the last
        // stage as the output layer and all-reduces its gradient with the first stage.
        const bool tied_copy = c.output_layer == 0 && !s.has_embedding;
        out.dense += (tied_copy ? c.word_embedding : c.output_layer) / tp;
        // MTP modules live on the output stage (Megatron mtp_num_layers); they embed the next
        // tokens, so an untied model's output stage also keeps a copy of the word embedding.
        if (c.mtp_modules > 0) {
            const LayerParams& l = c.moe_layers > 0 ? c.moe_layer : c.dense_layer;
            out.dense += c.mtp_modules * ((l.attention + l.dense_mlp + c.mtp_projection) / tp + whole(l) + c.mtp_norms);
            out.experts += c.mtp_modules * (l.routed_experts / ep_etp);
            if (!s.has_embedding && !tied_copy)
                out.dense += c.word_embedding / tp;
        }
    }
    return out;
}

ModelStates modelStates(const StageParams& params, const TrainingConfig& t, int zero, double N, double Ne,
                        Explain explain)
{
    const StateBytes b = stateBytes(t);
    const double P = params.dense, E = params.experts;
    const auto shard = [&](int from_stage, double bytes) {
        // Dense params shard over N = dp·cp, experts over Ne = expert-dp when ZeRO ≥ from_stage.
        return zero >= from_stage ? bytes * (P / N + E / Ne) : bytes * (P + E);
    };
    ModelStates s;
    s.weights = shard(3, b.weights);
    s.gradients = shard(2, b.gradients);
    s.optimizer = shard(1, b.optimizer);
    if (explain == Explain::NumbersOnly)
        return s;

    const char* src = "Rajbhandari et al. 2019 (ZeRO) §5: P_os 4Ψ+KΨ/N, P_os+g 2Ψ+(2+K)Ψ/N, P_os+g+p (4+K)Ψ/N";
    const std::string PE = "(" + num(P) + (E > 0 ? " + " + num(E) : std::string()) + ")";
    const std::string sharded
        = "(" + num(P) + "/" + num(N) + (E > 0 ? " + " + num(E) + "/" + num(Ne) : std::string()) + ")";
    const auto term = [&](const char* name, double value, const char* sym, double bytes, int from_stage) {
        const bool sh = zero >= from_stage;
        Term tm{name, value, "bytes", std::string(sym) + (sh ? "·Ψ/N_d" : "·Ψ"), num(bytes) + "·" + (sh ? sharded : PE),
                src};
        return tm;
    };
    s.terms.push_back(term("weights", s.weights, t.precision == Precision::Fp8 ? "(2+1)" : "w", b.weights, 3));
    s.terms.push_back(term("gradients", s.gradients, "g", b.gradients, 2));
    s.terms.push_back(term("optimizer", s.optimizer, "K", b.optimizer, 1));
    s.terms.push_back({"params.on_gpu", P + E, "params",
                       "Ψ = layers·((attn + mlp)/t + norms) + experts/(ep·etp) + embedding/t", num(P) + " + " + num(E),
                       "Megatron-LM theoretical_memory_usage.py, PR #4687"});
    return s;
}

} // namespace parascope
