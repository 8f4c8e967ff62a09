// The kernel-level costs of a layer derived by hand (core/time/op_costs.cpp,
// core/time/attention_rate.cpp): causal flash attention at the kernel's measured efficiency for
// its sequence, head dim and kernel (cuDNN / FlashAttention-2), and on a context-parallel ring
// (mostly unmasked blocks), torchtitan's op-level selective recompute (every_other_mm), TP
// communication overlap that hides each collective behind its own GEMM only, and a MoE layer
// waiting for the host that issues it, or replayed as CUDA graphs. The preset
// numbers each derivation uses are asserted first, so the comments stay true.

#include "estimate/display_names.h"
#include "io/scenario_json.h"
#include "memory/activation_memory.h"
#include "by_hand.h"

#include <algorithm>
#include <cmath>

using namespace parascope;
using namespace parascope::test;

namespace {

double termValue(const Scenario& sc, const char* name)
{
    const Estimate e = evaluate(sc);
    const Term* t = findTerm(e.time.terms, name);
    return t ? t->value : -1;
}

// One call's time of (group, collective) in the plan.
double callTime(const Estimate& e, Group group, Collective collective)
{
    const CommEntry* c = findComm(e, group, collective);
    return c && c->calls_per_step > 0 ? c->time_s / c->calls_per_step : 0;
}

} // namespace

class TstKernelsByHand : public QObject {
    Q_OBJECT

private slots:
    void causalFlashAttentionByHand()
    {
        Scenario sc = llama7bOnH100(1, Recompute::Selective);
        const GpuSpec& g = sc.cluster.gpu;
        QCOMPARE(g.peak_bf16_flops, 989e12);
        // cuDNN 9's and FlashAttention-2's causal forward + backward sweeps (the preset's source:
        // NVIDIA/cudnn-frontend benchmark_results.csv) as η·s/(s + s½).
        QCOMPARE(g.attention_efficiency, 0.534);
        QCOMPARE(g.attention_efficiency_fa2, 0.337);
        QCOMPARE(g.attention_half_seq, 540.0);
        QCOMPARE(g.attention_half_seq_fa2, 1100.0);
        QCOMPARE(g.attention_half_head_dim, 35.0);
        QCOMPARE(g.sustained_clock, 0.78);
        // Forward attention of one layer and microbatch: the causal half of T·4·s·q,
        // T·2·s·q = 4096·2·4096·4096 = 137.44 GFLOP, at 989e12 · η · s/(s + s½) · 0.78 (head dim
        // 128: factor 1):
        //   cuDNN (η 0.534, 4096/4636 = 0.883520): 3.63956e14 FLOP/s → 0.377625 ms;
        //   FlashAttention-2 (η 0.337, 4096/5196 = 0.788299): 2.04933e14 FLOP/s → 0.670654 ms.
        const double F = 4096.0 * 2 * 4096 * 4096;
        const double cudnn = F / (989e12 * 0.534 * (4096.0 / 4636) * 0.78);
        const double fa2 = F / (989e12 * 0.337 * (4096.0 / 5196) * 0.78);
        QVERIFY(near(cudnn, 0.377625e-3, 1e-5));
        QVERIFY(near(fa2, 0.670654e-3, 1e-5));
        const double engine_cudnn = termValue(sc, "time.layer_forward_attention");
        QVERIFY2(near(engine_cudnn, cudnn), qPrintable(versus("cuDNN attention", engine_cudnn, cudnn)));
        sc.training.attention_kernel = AttentionKernel::Fa2;
        const double engine_fa2 = termValue(sc, "time.layer_forward_attention");
        QVERIFY2(near(engine_fa2, fa2), qPrintable(versus("FA2 attention", engine_fa2, fa2)));
        // Head dim 64 (64 heads of 64): (64/(64 + 35))/(128/(128 + 35)) = 0.646465/0.785276
        // = 0.823232 of the rate, the same FLOPs (q = 64·64 = 4096).
        sc.training.attention_kernel = AttentionKernel::Cudnn;
        sc.model.heads = 64;
        sc.model.kv_heads = 64;
        sc.model.head_dim = 64;
        const double dim = (64.0 / 99) / (128.0 / 163);
        const double engine_d64 = termValue(sc, "time.layer_forward_attention");
        QVERIFY2(near(engine_d64, cudnn / dim), qPrintable(versus("head dim 64", engine_d64, cudnn / dim)));
        // The backward: 2.5× the forward (FlashAttention-2 §4.1). With no recompute, the
        // input-gradient pass minus the forward is, per layer, dX GEMMs − GEMMs (0) + 1.5·att +
        // elementwise once more; between the two kernels only the attention differs:
        // Δ(backward_input) = 2.5·L·(fa2 − cudnn) and Δ(forward) = L·(fa2 − cudnn).
        Scenario a = llama7bOnH100(1, Recompute::Selective), b = a;
        a.training.recompute = b.training.recompute = Recompute::None;
        b.training.attention_kernel = AttentionKernel::Fa2;
        const StageCost ca = firstStageCost(a), cb = firstStageCost(b);
        QVERIFY(near(cb.forward_s - ca.forward_s, 32 * (fa2 - cudnn), 1e-6));
        QVERIFY(near(cb.backward_input_s - ca.backward_input_s, 2.5 * 32 * (fa2 - cudnn), 1e-6));
        // Without flash (Megatron 2021): two batched GEMMs over the whole s×s, 137.44 GFLOP each,
        // at the GEMM rate 989e12·0.803·0.78 = 6.1945e14 with the size curve (F + 10e9)/rate:
        // 2·(137.44e9 + 10e9)/6.1945e14 = 0.476035 ms.
        Scenario c = llama7bOnH100(1, Recompute::Selective);
        c.training.flash_attention = false;
        const double batched = 2 * (F + 10e9) / (989e12 * 0.803 * 0.78);
        const double engine_batched = termValue(c, "time.layer_forward_attention");
        QVERIFY2(near(engine_batched, batched), qPrintable(versus("batched GEMM attention", engine_batched, batched)));
    }

    void ringContextParallelAttentionByHand()
    {
        // Llama-2 7B on H100 at 32,768 tokens with CP 4 on a load-balanced ring: a GPU holds
        // 8,192 tokens, T = 8192, and does the causal half of their attention, T·2·s·q =
        // 8192·2·32768·4096 = 2.19902e12 FLOP per layer forward. 1/4 of it is the causal call on
        // its own chunks (s' = 8192) at 989e12·0.534·(8192/8732)·0.78 = 3.86463e14 FLOP/s. The other
        // 3/4 are unmasked blocks, half with 4,096 keys, half with 8,192, at the causal rate for
        // that length over r(x) = 0.92·x/(x + 248) (FlashAttention-3 Fig. 5's causal/unmasked
        // forward ratio): r(4096) = 0.867477, r(8192) = 0.892967, so
        //   4096 keys: 989e12·0.534·(4096/4636)·0.78 / 0.867477 = 4.19557e14 FLOP/s,
        //   8192 keys: 3.86463e14 / 0.892967 = 4.32786e14 FLOP/s;
        //   time = 2.19902e12·(0.25/3.86463e14 + 0.375/4.19557e14 + 0.375/4.32786e14) = 5.29343 ms,
        // 0.93028 of the 5.69012 ms that one causal call at s' = 8192 would take.
        Scenario sc = llama7bOnH100(1, Recompute::Full);
        sc.training.seq_len = 32768;
        sc.model.max_positions = 32768;
        sc.parallel.cp = 4;
        QCOMPARE(GpuSpec::causalThroughputRatio(4096), 0.92 * 4096 / 4344);
        const double F = 8192.0 * 2 * 32768 * 4096;
        const double causal = 989e12 * 0.534 * (8192.0 / 8732) * 0.78;
        const double keys_4k = 989e12 * 0.534 * (4096.0 / 4636) * 0.78 / (0.92 * 4096 / 4344);
        const double keys_8k = causal / (0.92 * 8192 / 8440);
        const double ring = F * (0.25 / causal + 0.375 / keys_4k + 0.375 / keys_8k);
        QVERIFY(near(ring, 5.29343e-3, 1e-5));
        const double engine_ring = termValue(sc, "time.layer_forward_attention");
        QVERIFY2(near(engine_ring, ring), qPrintable(versus("ring CP attention", engine_ring, ring)));
        // The ring's blocks are not the masked call's: 7 % faster than one causal call at s'.
        QVERIFY(near(ring / (F / causal), 0.93028, 1e-4));
        // Ulysses (a2a) CP: each GPU runs whole sequences of 32 / 4 heads, one causal call at
        // s = 32,768: 989e12·0.534·(32768/33308)·0.78 = 4.05260e14 FLOP/s on the same FLOPs, 5.42621 ms.
        sc.parallel.cp_comm = CpComm::A2a;
        const double ulysses = F / (989e12 * 0.534 * (32768.0 / 33308) * 0.78);
        const double engine_ulysses = termValue(sc, "time.layer_forward_attention");
        QVERIFY2(near(engine_ulysses, ulysses), qPrintable(versus("Ulysses attention", engine_ulysses, ulysses)));
    }

    void everyOtherMatmulByHand()
    {
        // torchtitan's op SAC (recompute_modules every_other_mm) against Megatron's core_attn, on
        // one H100 (TP 1, no SP): per token it drops 6h (norm outputs, masks) + 2kv (K) + 4f
        // (SwiGLU up output and product) bytes instead of the 4a bytes of the flash log-sum-exp:
        //   stored difference per layer = s·(6·4096 + 2·4096 + 4·11008 − 4·32) = 4096·101,248 B.
        Scenario core = llama7bOnH100(1, Recompute::Selective);
        core.training.recompute = Recompute::Selective;
        Scenario op = core;
        op.training.recompute_modules = unsigned(RecomputeModule::EveryOtherMm);
        const double h = 4096, kv = 4096, f = 11008, a = 32, s = 4096;
        const double stored_core = layerActivation(core.model, core.training, core.parallel, false).stored;
        const double stored_op = layerActivation(op.model, op.training, op.parallel, false).stored;
        QCOMPARE(stored_core - stored_op, s * (6 * h + 2 * kv + 4 * f - 4 * a));
        // The backward redoes k (2·T·kv·h), o (2·T·h·q) and the MLP's up projection (2·T·f·h) at
        // the GEMM rate 6.1945e14 on the size curve (F + 10e9)/rate, and the elementwise ops
        // write what they dropped again (2·s·(6h + 2kv + 4f) B at 3350e9·0.9 B/s); it no longer
        // redoes the attention forward (cuDNN: 0.377625 ms per layer, as above).
        const double r = 989e12 * 0.803 * 0.78, hbm = 3350e9 * 0.9, T = 4096;
        const auto gemm = [&](double flops) { return (flops + 10e9) / r; };
        const double again = gemm(2 * T * kv * h) + gemm(2 * T * h * 4096) + gemm(2 * T * f * h);
        const double elementwise = 2 * s * (6 * h + 2 * kv + 4 * f) / hbm;
        const double attention = T * 2 * s * 4096 / (989e12 * 0.534 * (s / (s + 540)) * 0.78);
        const StageCost c_core = firstStageCost(core), c_op = firstStageCost(op);
        const double hand = 32 * (again + elementwise - attention);
        QVERIFY2(near(c_op.backward_input_s - c_core.backward_input_s, hand, 1e-6),
                 qPrintable(versus("op SAC backward", c_op.backward_input_s - c_core.backward_input_s, hand)));
        QVERIFY(near(c_op.forward_s, c_core.forward_s));
        QVERIFY(near(c_op.backward_weight_s, c_core.backward_weight_s));
    }

    void moeLayerWaitsForTheHost()
    {
        // The H100 preset's host time per MoE layer forward (fitted on mcore_qwen3_235b_tp4_ep8).
        QCOMPARE(presetScenario("mixtral-8x7b", "dgx-h100", 1, 2, 4).cluster.gpu.moe_layer_host_s, 3100e-6);
        // Mixtral 8x7B, PP 2 (16 MoE layers on the first stage, no output layer), EP 4. A MoE
        // layer's forward takes max(GPU work, H) and its backward max(GPU work, 2H): with H far
        // above the GPU work, the stage's forward is 16·H and its backward (both halves and the
        // communication) 16·2H exactly, whatever the kernels cost; with full recompute the
        // backward issues the forward again: 16·3H.
        Scenario sc = presetScenario("mixtral-8x7b", "dgx-h100", 1, 2, 4);
        sc.parallel.ep = 4;
        sc.training.recompute = Recompute::None;
        sc.cluster.gpu.moe_layer_host_s = 0;
        const StageCost gpu_only = firstStageCost(sc);
        const double H = 0.1;
        sc.cluster.gpu.moe_layer_host_s = H;
        const StageCost host = firstStageCost(sc);
        QVERIFY2(near(host.forward_s, 16 * H, 1e-12), qPrintable(versus("host-bound forward", host.forward_s, 16 * H)));
        const double backward = host.backward_input_s + host.backward_weight_s;
        QVERIFY2(near(backward, 16 * 2 * H, 1e-12), qPrintable(versus("host-bound backward", backward, 32 * H)));
        sc.training.recompute = Recompute::Full;
        const StageCost full = firstStageCost(sc);
        QVERIFY(near(full.backward_input_s + full.backward_weight_s, 16 * 3 * H, 1e-12));
        // A host far faster than the GPU work changes nothing.
        sc.training.recompute = Recompute::None;
        sc.cluster.gpu.moe_layer_host_s = 1e-6;
        const StageCost fast_host = firstStageCost(sc);
        QCOMPARE(fast_host.forward_s, gpu_only.forward_s);
        QCOMPARE(fast_host.backward_input_s, gpu_only.backward_input_s);
        // Dense layers have no device-to-host read: the host runs ahead of them.
        Scenario dense = llama7bOnH100(1, Recompute::None);
        const StageCost before = firstStageCost(dense);
        dense.cluster.gpu.moe_layer_host_s = H;
        QCOMPARE(firstStageCost(dense).forward_s, before.forward_s);
    }

    // training.cuda_graphs (issue 36 §2, "CUDA graphs where a recipe enables them"). With whole
    // MoE layers replayed as graphs no host issues their kernels and no token count is read back:
    // the same Mixtral stage as above with H = 0.1 s takes exactly its GPU work, as with H = 0
    // (16·H = 1.6 s of forward gone). Partial graphs (attention and the router) leave the
    // dispatcher and the experts eager and the read in place: still 16·H forward, 16·2H backward.
    // The file keeps the choice; dropless routing under whole-layer graphs is an error
    // (cuda_graphs_need_static_shapes), a capacity factor of 1 clears it.
    void cudaGraphsTakeTheHostOutOfMoeLayers()
    {
        Scenario sc = presetScenario("mixtral-8x7b", "dgx-h100", 1, 2, 4);
        sc.parallel.ep = 4;
        sc.training.recompute = Recompute::None;
        sc.training.moe_capacity_factor = 1; // static shapes; the busiest expert's load stays 1
        sc.cluster.gpu.moe_layer_host_s = 0;
        const StageCost gpu_only = firstStageCost(sc);
        const double H = 0.1;
        sc.cluster.gpu.moe_layer_host_s = H;
        for (CudaGraphs g : {CudaGraphs::Layers, CudaGraphs::FullIteration}) {
            sc.training.cuda_graphs = g;
            const StageCost graphed = firstStageCost(sc);
            QCOMPARE(graphed.forward_s, gpu_only.forward_s);
            QCOMPARE(graphed.backward_input_s, gpu_only.backward_input_s);
        }
        sc.training.cuda_graphs = CudaGraphs::Partial;
        const StageCost partial = firstStageCost(sc);
        QVERIFY(near(partial.forward_s, 16 * H, 1e-12));
        QVERIFY(near(partial.backward_input_s + partial.backward_weight_s, 16 * 2 * H, 1e-12));
        std::vector<InputError> errors;
        sc.training.cuda_graphs = CudaGraphs::Layers;
        const std::optional<Scenario> back = readScenario(scenarioToJson(sc), errors);
        QVERIFY(back && errors.empty() && back->training.cuda_graphs == CudaGraphs::Layers);
        const auto flagged = [](const Scenario& x) {
            for (const Diagnostic& d : evaluate(x).diagnostics)
                if (d.code == "cuda_graphs_need_static_shapes")
                    return true;
            return false;
        };
        QVERIFY(!flagged(sc));
        sc.training.moe_capacity_factor = 0;
        QVERIFY(flagged(sc));
        sc.training.cuda_graphs = CudaGraphs::Partial;
        QVERIFY(!flagged(sc));
    }

    // The GPU's wait for the host is one figure: what moe_host_bound says and the efficiency
    // wall's part of "kernels below peak" (both efficiencyLosses().host_wait, on the mean rank).
    // Qwen3-30B-A3B on 16 H100 (EP 8, micro batch 1): a layer's GPU work is well under H.
    void hostWaitIsOneFigure()
    {
        Scenario sc = presetScenario("qwen3-30b-a3b", "dgx-h100", 1, 1, 16);
        sc.parallel.ep = 8;
        const Estimate est = evaluate(sc);
        const Diagnostic* d = nullptr;
        for (const Diagnostic& x : est.diagnostics)
            if (x.code == "moe_host_bound")
                d = &x;
        QVERIFY(d && est.walls.losses.host_wait >= 0.1);
        const std::string share = formatPercent(est.walls.losses.host_wait);
        QVERIFY2(d->message.en.find(share + " of the step") != std::string::npos, d->message.en.c_str());
        QVERIFY2(d->message.zh.find(share) != std::string::npos, d->message.zh.c_str());
        QVERIFY(est.walls.efficiency.explanation.en.find("waiting for the host " + share) != std::string::npos);
        QVERIFY(est.walls.efficiency.explanation.zh.find("等待主机下发 " + share) != std::string::npos);
        // Whole MoE layers as CUDA graphs (with a capacity factor): no wait, nothing said.
        sc.training.cuda_graphs = CudaGraphs::Layers;
        sc.training.moe_capacity_factor = 1;
        const Estimate graphed = evaluate(sc);
        QCOMPARE(graphed.walls.losses.host_wait, 0.0);
        QVERIFY(!graphed.has("moe_host_bound"));
    }

    void tpOverlapHidesEachCollectiveBehindItsGemm()
    {
        // TP 8 with SP on one DGX H100, no recompute. Per layer and direction: an all-gather
        // before the QKV projection and before the MLP's gate+up, a reduce-scatter after the
        // output projection and after the down projection, each of T·h·2 = 33.55 MB (the plan's
        // call times t_AG, t_RS). Per GPU the GEMMs are (F + 10e9)/6.1945e14:
        //   QKV 2·T·(q + 2kv)/8·h = 51.54 GFLOP → 0.09935 ms;  out 2·T·h·(q/8) = 17.18 GFLOP → 0.04388 ms;
        //   gate+up 2·T·(2f/8)·h = 92.34 GFLOP → 0.16521 ms;   down 2·T·h·(f/8) = 46.17 GFLOP → 0.09068 ms.
        // Without overlap all four are exposed: 2·(t_AG + t_RS); with overlap each one hides
        // behind its own GEMM: max(0, t_AG − QKV) + max(0, t_RS − out) + max(0, t_AG − gate+up)
        // + max(0, t_RS − down).
        Scenario sc = llama7bOnH100(8, Recompute::Selective);
        sc.parallel.sequence_parallel = true;
        sc.training.recompute = Recompute::None;
        const Estimate plain = evaluate(sc);
        const double t_ag = callTime(plain, Group::Tp, Collective::AllGather);
        const double t_rs = callTime(plain, Group::Tp, Collective::ReduceScatter);
        QVERIFY(t_ag > 0 && t_rs > 0);
        // t = 7·3.4 µs + 7/8·33,554,432 B/(450e9·0.82 B/s) = 103.37 µs for both.
        QVERIFY(near(t_ag, 7 * 3.4e-6 + 7.0 / 8 * 4096.0 * 4096 * 2 / (450e9 * 0.82), 1e-9));
        const double r = 989e12 * 0.803 * 0.78, T = 4096, h = 4096, f = 11008;
        const auto gemm = [&](double flops) { return (flops + 10e9) / r; };
        const double qkv = gemm(2 * T * (3 * h) / 8 * h), out = gemm(2 * T * h * (h / 8));
        const double up = gemm(2 * T * (2 * f / 8) * h), down = gemm(2 * T * h * (f / 8));
        const auto over = [](double comm, double hide) { return std::max(0.0, comm - hide); };
        const double exposed = over(t_ag, qkv) + over(t_rs, out) + over(t_ag, up) + over(t_rs, down);
        QCOMPARE(firstStageCost(sc).forward_comm_s, 32 * 2 * (t_ag + t_rs));
        sc.parallel.tp_comm_overlap = true;
        const double engine = firstStageCost(sc).forward_comm_s;
        QVERIFY2(near(engine, 32 * exposed), qPrintable(versus("overlapped TP, forward", engine, 32 * exposed)));
        // What is left: the attention's collectives (its projections are the shorter GEMMs).
        QVERIFY(exposed > 0 && exposed < 2 * (t_ag + t_rs));
        // torchtitan's op SAC does not keep the all-gathers' outputs: its backward gathers the
        // inputs of k and of the MLP's up projection again, 2·t_AG more per layer, exposed
        // without overlap.
        sc.parallel.tp_comm_overlap = false;
        sc.training.recompute = Recompute::Selective;
        const double without = firstStageCost(sc).backward_comm_s;
        sc.training.recompute_modules = unsigned(RecomputeModule::EveryOtherMm);
        const double with_op_sac = firstStageCost(sc).backward_comm_s;
        QVERIFY(near(with_op_sac - without, 32 * 2 * t_ag, 1e-9));
        // The plan counts them: per layer and microbatch 2 AG forward, 2 backward, 2 again;
        // 32 layers × 8 microbatches × 6 = 1536 calls.
        const Estimate e = evaluate(sc);
        for (const CommEntry& c : e.communication)
            if (c.group == Group::Tp && c.collective == Collective::AllGather)
                QCOMPARE(c.calls_per_step, 1536.0);
    }

    void asyncTpLeavesTheBackwardScattersExposed()
    {
        // PyTorch's async TP fuses a collective with one matmul. The backward's reduce-scatters
        // of the input gradient follow the sum of several matmuls (q, k, v; SwiGLU's gate and
        // up: pytorch/pytorch#149946) and stay exposed; its all-gathers of the output gradients
        // feed one matmul each, the output projections' dX, and hide behind it. Same TP 8 · SP
        // Llama 7B as above; async TP runs each GEMM beside a collective in 8 chunks, 7·g/r
        // longer (g = 10 GFLOP): out' = out + 7g/r, down' = down + 7g/r. Per layer backward:
        //   max(0, t_AG − out') + t_RS + max(0, t_AG − down') + t_RS.
        Scenario sc = llama7bOnH100(8, Recompute::Selective);
        sc.parallel.sequence_parallel = true;
        sc.training.recompute = Recompute::None;
        sc.parallel.tp_comm_overlap = true;
        const Estimate plain = evaluate(sc);
        const double t_ag = callTime(plain, Group::Tp, Collective::AllGather);
        const double t_rs = callTime(plain, Group::Tp, Collective::ReduceScatter);
        const double r = 989e12 * 0.803 * 0.78, T = 4096, h = 4096, f = 11008, split = 7 * 10e9 / r;
        const auto gemm = [&](double flops) { return (flops + 10e9) / r; };
        const double out = gemm(2 * T * h * (h / 8)) + split, down = gemm(2 * T * h * (f / 8)) + split;
        const auto over = [](double comm, double hide) { return std::max(0.0, comm - hide); };
        const double userbuffers = firstStageCost(sc).backward_comm_s;
        sc.parallel.tp_overlap = TpOverlap::AsyncTp;
        const double backward = over(t_ag, out) + t_rs + over(t_ag, down) + t_rs;
        const double engine = firstStageCost(sc).backward_comm_s;
        QVERIFY2(near(engine, 32 * backward), qPrintable(versus("async TP, backward", engine, 32 * backward)));
        // Both reduce-scatters are exposed, so the backward shows more than userbuffers', which
        // hides every collective behind its GEMM.
        QVERIFY(engine > userbuffers + 32 * t_rs);
    }
};

QTEST_GUILESS_MAIN(TstKernelsByHand)
#include "tst_kernels_by_hand.moc"
