#include "estimate/step_time.h"

#include "memory/stage_memory.h"
#include "model/flops.h"
#include "schedule/pipeline_closed_form.h"

#include <algorithm>

namespace parascope {

double peakFlops(const GpuSpec& gpu, Precision p)
{
    switch (p) {
    case Precision::Fp8: return gpu.peak_fp8_flops > 0 ? gpu.peak_fp8_flops : gpu.peak_bf16_flops;
    case Precision::Fp32: return gpu.peak_fp32_flops > 0 ? gpu.peak_fp32_flops : gpu.peak_bf16_flops;
    default: return gpu.peak_bf16_flops;
    }
}

double achievableFlops(const GpuSpec& gpu, Precision p)
{
    return peakFlops(gpu, p) * gpu.gemm_efficiency;
}

double rankMicrobatchFlops(const Scenario& sc, const StageLayers& layers)
{
    const TrainingConfig& t = sc.training;
    const ModelSpec& m = sc.model;
    const double tokens = double(t.seq_len) * double(t.micro_batch);
    const auto layer = [&](bool moe) {
        const LayerForwardFlops f = layerForwardFlops(m, t.seq_len, moe);
        double hw = 3 * f.total();
        if (t.recompute == Recompute::Full)
            hw += f.total();
        else if (t.recompute == Recompute::Selective)
            hw += 3 * f.attention_scores;
        return hw;
    };
    double flops = tokens * ((layers.layers - layers.moe_layers) * layer(false) + layers.moe_layers * layer(true));
    if (layers.has_output)
        flops += tokens * 3 * 2.0 * double(m.hidden) * double(m.vocab);
    // TP and CP split every matmul of the rank; EP keeps each expert's tokens on one GPU, so the
    // expert FLOPs per GPU stay the same on average.
    return flops / (double(sc.parallel.tp) * sc.parallel.cp);
}

void estimateStepTime(const Scenario& sc, const std::vector<StageLayers>& layout, Estimate& est)
{
    const ParallelConfig& p = sc.parallel;
    const TrainingConfig& t = sc.training;
    const GpuSpec& gpu = sc.cluster.gpu;
    const double m = double(std::max(1LL, est.microbatches));
    const double rate = achievableFlops(gpu, t.precision);
    TimeReport& tr = est.time;
    tr.method = "closed-form";

    double mb_flops = 0;
    for (const StageLayers& s : layout)
        mb_flops = std::max(mb_flops, rankMicrobatchFlops(sc, s));
    const double t_mb = rate > 0 ? mb_flops / rate : 0; // one microbatch forward + backward on the busiest rank
    tr.compute_s = m * t_mb;
    tr.terms.push_back({"time.compute", tr.compute_s, "s", "m · FLOPs_mb(busiest rank) / (peak · gemm_efficiency)",
                        num(m) + "·" + num(mb_flops) + "/(" + num(peakFlops(gpu, t.precision)) + "·" + num(gpu.gemm_efficiency) + ")",
                        "FLOPs per matmul (Megatron 2024); GEMM efficiency per GPU type from mamf-finder"});

    const double bf = p.pp > 1 ? bubbleFraction(p.schedule, p.pp, p.vpp, est.microbatches) : 0.0;
    tr.bubble_s = bf < 1 ? tr.compute_s * bf / (1 - bf) : 0;
    Term bt = bubbleTerm(p.schedule, p.pp, p.vpp, est.microbatches);
    bt.value = bf;
    tr.terms.push_back(bt);

    // Exposure: what a collective's rounds cannot hide behind the compute of that round.
    const double t_fwd = t_mb / 3, t_bwd = 2 * t_mb / 3;
    const LayerForwardFlops lf = layerForwardFlops(sc.model, t.seq_len, false);
    const double attention_share = lf.total() > 0 ? lf.attention_scores / lf.total() : 0;
    double exposed = 0;
    for (CommEntry& c : est.communication) {
        const double per_round = c.time_s / std::max(1.0, c.rounds);
        double window = 0;
        switch (c.overlap) {
        case Overlap::None: window = 0; break;
        case Overlap::LinearLayers: window = t_mb * (1 - attention_share); break;
        case Overlap::Attention: window = t_mb * attention_share; break;
        case Overlap::Backward: window = t_bwd; break;
        case Overlap::Forward: window = t_fwd; break;
        case Overlap::PipelineFill: window = 0; break;
        }
        if (c.overlap == Overlap::PipelineFill) {
            // Only the transfers of the fill and the drain sit on the critical path: p−1 each way.
            const double per_call = c.calls_per_step > 0 ? c.time_s / c.calls_per_step : 0;
            c.exposed_s = std::min(c.time_s, per_call * (p.pp - 1));
        } else {
            c.exposed_s = std::max(0.0, per_round - window) * std::max(1.0, c.rounds);
        }
        c.terms.push_back({"comm.exposed", c.exposed_s, "s",
                           c.overlap == Overlap::PipelineFill ? "t_call · (p − 1)" : "rounds · max(0, t_round − overlap window)",
                           num(std::max(1.0, c.rounds)) + "·max(0, " + num(per_round) + " − " + num(window) + ")",
                           std::string("overlap with ") + toString(c.overlap) + "; Megatron overlap_grad_reduce / overlap_param_gather"});
        exposed += c.exposed_s;
    }
    tr.exposed_comm_s = exposed;

    // Optimizer: a memory-bound sweep over the GPU's shard of the states. AdamW reads master, m,
    // v, gradient and writes master, m, v, weights; SGD reads master, momentum, gradient.
    double shard_params = 0;
    for (const StageMemory& st : est.memory.stages) {
        const Term* pt = findTerm(st.terms, "params.on_gpu");
        if (pt)
            shard_params = std::max(shard_params, pt->value);
    }
    const double opt_shard = p.zero >= 1 ? shard_params / zeroDegree(p) : shard_params;
    const bool adam = t.optimizer == Optimizer::AdamW;
    const double bytes_per_param = (adam ? 24.0 : 16.0) + (t.grad_dtype == GradDtype::Fp32 ? 4 : 2) + 2;
    const double hbm = gpu.hbm_bytes_per_s * gpu.hbm_efficiency;
    tr.optimizer_s = hbm > 0 ? opt_shard * bytes_per_param / hbm : 0;
    tr.terms.push_back({"time.optimizer", tr.optimizer_s, "s", "Ψ_shard · bytes touched / (HBM · efficiency)",
                        num(opt_shard) + "·" + num(bytes_per_param) + "/" + num(hbm),
                        "memory-bound fused Adam: read master, m, v, grad; write master, m, v, weights"});

    tr.step_s = tr.compute_s + tr.bubble_s + tr.exposed_comm_s + tr.optimizer_s;
    tr.bubble_fraction = tr.step_s > 0 ? tr.bubble_s / tr.step_s : 0;
    tr.terms.push_back({"time.step", tr.step_s, "s", "compute + bubble + exposed comm + optimizer",
                        num(tr.compute_s) + " + " + num(tr.bubble_s) + " + " + num(tr.exposed_comm_s) + " + " + num(tr.optimizer_s),
                        "closed form (the timeline simulation refines it)"});

    ThroughputReport& th = est.throughput;
    const double gpus = double(std::max<std::int64_t>(1, est.gpus));
    const double peak = peakFlops(gpu, t.precision);
    if (tr.step_s > 0) {
        th.tokens_per_s = double(sc.tokensPerStep()) / tr.step_s;
        th.model_tflops_per_gpu = est.flops.model_flops_per_step / tr.step_s / gpus / 1e12;
        th.hardware_tflops_per_gpu = est.flops.hardware_flops_per_step / tr.step_s / gpus / 1e12;
        th.mfu = peak > 0 ? th.model_tflops_per_gpu * 1e12 / peak : 0;
        th.hfu = peak > 0 ? th.hardware_tflops_per_gpu * 1e12 / peak : 0;
    }
    th.terms.push_back({"throughput.mfu", th.mfu, "fraction", "model FLOPs / (step · GPUs · peak)",
                        num(est.flops.model_flops_per_step) + "/(" + num(tr.step_s) + "·" + num(gpus) + "·" + num(peak) + ")",
                        "Chowdhery et al. 2022 (PaLM) App. B; FLOPs convention: " + est.flops.convention});
    th.terms.push_back({"throughput.hfu", th.hfu, "fraction", "hardware FLOPs (with recompute) / (step · GPUs · peak)",
                        num(est.flops.hardware_flops_per_step) + "/(" + num(tr.step_s) + "·" + num(gpus) + "·" + num(peak) + ")",
                        "Korthikanti et al. 2022 §6"});
}

} // namespace parascope
