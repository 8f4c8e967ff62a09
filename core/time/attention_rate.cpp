#include "time/attention_rate.h"

#include <string>

namespace parascope {

namespace {

bool ringCp(const ParallelConfig& p) { return p.cp > 1 && p.cp_comm != CpComm::A2a; }

double headDim(const ModelSpec& m) { return double(m.queryWidth()) / m.heads; }

} // namespace

AttentionRate attentionRate(const Scenario& sc, double bf16_peak)
{
    const GpuSpec& gpu = sc.cluster.gpu;
    const ParallelConfig& p = sc.parallel;
    const bool fa2 = sc.training.attention_kernel == AttentionKernel::Fa2;
    const double d = headDim(sc.model);
    AttentionRate r;
    r.seq_per_call = ringCp(p) ? double(sc.training.seq_len) / p.cp : double(sc.training.seq_len);
    r.efficiency = gpu.attentionEfficiency(r.seq_per_call, d, fa2);
    const double causal_rate = bf16_peak * r.efficiency * gpu.sustained_clock;
    if (!ringCp(p)) {
        r.flops_per_s = causal_rate;
        return r;
    }
    const auto unmasked_rate = [&](double keys) {
        return bf16_peak * gpu.attentionEfficiency(keys, d, fa2) / GpuSpec::causalThroughputRatio(keys)
            * gpu.sustained_clock;
    };
    const double cp = double(p.cp);
    const double seconds_per_flop = (1.0 / cp) / causal_rate
        + (cp - 1.0) / cp * 0.5 * (1.0 / unmasked_rate(r.seq_per_call / 2) + 1.0 / unmasked_rate(r.seq_per_call));
    r.flops_per_s = 1.0 / seconds_per_flop;
    return r;
}

Term attentionTerm(const Scenario& sc, const AttentionRate& rate, double forward_s, double tokens, double split,
                   double bf16_peak, bool fp8)
{
    const GpuSpec& gpu = sc.cluster.gpu;
    const TrainingConfig& t = sc.training;
    const ModelSpec& m = sc.model;
    const bool fa2 = t.attention_kernel == AttentionKernel::Fa2;
    const double eta = gpu.attentionEta(fa2);
    const std::string flops
        = num(tokens) + "·2·" + num(double(t.seq_len)) + "·" + num(double(m.queryWidth())) + "/" + num(split);
    const std::string constants = ", η = " + num(eta) + " (" + toString(t.attention_kernel)
        + "), s' = " + num(rate.seq_per_call) + ", s½ = " + num(gpu.attentionHalfSeq(fa2)) + ", d = " + num(headDim(m));
    if (!t.flash_attention)
        return {"time.layer_forward_attention",
                forward_s,
                "s",
                "2 batched GEMMs of tokens·2·s·q/t each (the whole s×s, masked after); backward 2×",
                "2 × gemm_time(" + flops + ")",
                "Megatron-LM (2021) core attention: baddbmm + softmax + bmm"};
    const std::string stays = fp8 ? " (attention stays bf16 in FP8 recipes)" : "";
    const std::string sources = "causal forward + backward sweeps, see the GPU preset's source (Hopper: cuDNN 9 and "
                                "PyTorch SDPA's FlashAttention-2, NVIDIA/cudnn-frontend benchmark_results.csv; A100: "
                                "FlashAttention-2 (Dao 2023) Fig. 4); head dim: FlashAttention-3 (Shah et al. 2024) "
                                "Figs. 5–6";
    if (!ringCp(sc.parallel))
        return {"time.layer_forward_attention",
                forward_s,
                "s",
                "tokens·2·s·q/t (causal: half of 4·s·q) / (bf16 peak · η·s'/(s' + s½)·f(d) · clock); backward 2.5×"
                    + stays,
                flops + " / (" + num(bf16_peak) + "·" + num(rate.efficiency) + "·" + num(gpu.sustained_clock) + ")"
                    + constants,
                sources};
    return {
        "time.layer_forward_attention",
        forward_s,
        "s",
        "tokens·2·s·q/t / rate; ring CP: 1/CP of it causal at s' = s/CP, the rest unmasked blocks (keys s'/2 and s') "
        "at the causal rate / r, r(x) = 0.92·x/(x + 248); backward 2.5×"
            + stays,
        flops + " / " + num(rate.flops_per_s) + ", causal rate " + num(bf16_peak) + "·" + num(rate.efficiency) + "·"
            + num(gpu.sustained_clock) + constants + ", CP = " + num(double(sc.parallel.cp)),
        sources + "; causal/unmasked forward ratio: FlashAttention-3 Fig. 5 (H100, head dim 128)"};
}

} // namespace parascope
