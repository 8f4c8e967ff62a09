#pragma once
// Helpers of the by-hand derivation tests (tst_step_by_hand, tst_kernels_by_hand): a relative
// comparison that prints both numbers, and the op costs of the first pipeline stage as the
// simulator gets them.

#include "schedule/pipeline_geometry.h"
#include "scenario_fixture.h"
#include "time/op_costs.h"

#include <QString>

#include <cmath>
#include <string_view>
#include <vector>

namespace parascope::test {

// |engine − hand| ≤ rel·|hand|.
inline bool near(double engine, double hand, double rel = 1e-9)
{
    return std::fabs(engine - hand) <= rel * std::fabs(hand);
}

inline QString versus(const char* what, double engine, double hand)
{
    return QStringLiteral("%1: engine %2, by hand %3")
        .arg(QLatin1String(what))
        .arg(engine, 0, 'g', 15)
        .arg(hand, 0, 'g', 15);
}

// Llama-2 7B (L 32, h = q = kv = 4096, a 32 heads of 128, f 11008 SwiGLU) on the DGX H100 preset
// with TP = tp, PP = DP = 1, seq 4096, micro batch 1 (T = 4096 tokens), global batch 8 (m = 8).
inline Scenario llama7bOnH100(int tp, Recompute recompute)
{
    Scenario sc = presetScenario("llama2-7b", "dgx-h100", tp, 1, 1);
    sc.training.seq_len = 4096;
    sc.training.micro_batch = 1;
    sc.training.global_batch = 8;
    sc.training.recompute = recompute;
    return sc;
}

// One Llama-2 7B layer (h = q = kv = 4096, a = 32, f = 11008 SwiGLU, V = 32000) on the DGX A100
// 80GB preset, TP = 1, s = 4096, micro batch 1 (T = 4096 tokens), bf16, flash attention, no
// recompute: the per-layer times tst_step_by_hand derives number by number (1F1B) and
// tst_parallel_by_hand reuses (interleaved), written once.
struct Llama7bA100Layer {
    static constexpr double h = 4096, q = 4096, kv = 4096, a = 32, f = 11008, V = 32000, T = 4096, s = 4096;
    // GEMM 312e12·0.869·0.78 FLOP/s; flash attention (causal) 312e12·0.624·0.78 · s/(s + 495);
    // HBM 2039e9·0.9 B/s.
    double gemm_rate = 312e12 * 0.869 * 0.78, attn_rate = 312e12 * 0.624 * (s / (s + 495)) * 0.78, hbm = 2039e9 * 0.9;
    // A GEMM of F = 2MNK FLOPs at the size curve's rate: F/(r·F/(F + 2e9)).
    double gemm(double M, double N, double K) const
    {
        const double flops = 2 * M * N * K;
        return flops / (gemm_rate * flops / (flops + 2e9));
    }
    // The layer's four GEMMs (QKV, out, gate+up, down), forward.
    double lin() const { return gemm(T, q + 2 * kv, h) + gemm(T, h, q) + gemm(T, 2 * f, h) + gemm(T, h, f); }
    // Causal flash attention: half of T·4·s·q FLOPs.
    double att() const { return T * 2 * s * q / attn_rate; }
    // One pass over the layer's stored activations (Korthikanti, flash) plus the kernel overhead.
    double elem() const { return s * (10 * h + 2 * q + 4 * kv + 2 * q + 6 * f + 4 * a) / hbm + 150e-6; }
    // The output layer, 2·T·h·V FLOPs.
    double head() const { return gemm(T, V, h); }
    // The loss's one read of the T·V bf16 logits (forward; the backward reads them and writes
    // their gradient: twice that).
    double loss() const { return T * V * 2 / hbm; }
    // One activation (s·b·h·2 bytes) over NVLink: α + S/(bw·eff).
    double send() const { return 3.4e-6 + s * h * 2 / (300e9 * 0.77); }
};

// The plan's entry of (group, collective); null when there is none.
inline const CommEntry* findComm(const Estimate& e, Group group, Collective collective)
{
    for (const CommEntry& c : e.communication)
        if (c.group == group && c.collective == collective)
            return &c;
    return nullptr;
}

// The first pipeline stage's costs per microbatch as the step time builds them.
inline StageOpCost firstStageOpCost(const Scenario& sc)
{
    const Estimate e = evaluate(sc);
    return opCosts(sc, e.params, pipelineGeometry(sc.model, sc.parallel), e.communication).stages.front();
}

inline StageCost firstStageCost(const Scenario& sc) { return firstStageOpCost(sc).cost; }

// The op of a layer's list by name; null when the list has none.
inline const LayerOp* findOp(const std::vector<LayerOp>& ops, std::string_view name)
{
    for (const LayerOp& op : ops)
        if (op.name == name)
            return &op;
    return nullptr;
}

// Mixtral 8x7B (L = 32 MoE layers, h = q = 4096, kv = 8·128 = 1024, a = 32, E = 8 experts of
// f_e = 14336 SwiGLU, top_k = 2, V = 32000) on one DGX H100 node: TP = PP = 1, DP = EP = 8 (one
// whole expert per GPU), seq 4096, micro batch 1, global batch 16 → m = 2 microbatches,
// selective recompute, flash attention, bf16, AdamW with bf16 gradients, overlapped grad reduce.
inline Scenario mixtralEp8OnH100()
{
    Scenario sc = presetScenario("mixtral-8x7b", "dgx-h100", 1, 1, 8);
    sc.parallel.ep = 8;
    sc.parallel.overlap_grad_reduce = true;
    sc.training.seq_len = 4096;
    sc.training.micro_batch = 1;
    sc.training.global_batch = 16;
    sc.training.recompute = Recompute::Selective;
    sc.training.flash_attention = true;
    sc.training.precision = Precision::Bf16;
    sc.training.grad_dtype = GradDtype::Bf16;
    sc.training.optimizer = Optimizer::AdamW;
    return sc;
}

} // namespace parascope::test
