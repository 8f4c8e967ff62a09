#pragma once
// A transformer layer as a list of ops, each a small value with its FLOPs or bytes, kernel
// count, precision, rate class and times per pass on one GPU for one microbatch, as Calculon's
// Layer objects are. time/op_costs.cpp adds a layer's ops up (and the communication they can
// hide); the JSON report lists them (time.layer_ops); tst_layer_ops derives each kind by hand.
//
// Passes: forward; input gradients (dX: a GEMM's same-size GEMM, the attention backward, the
// elementwise kernels twice); weight gradients (dW: a GEMM's same-size GEMM). What selective
// recompute repeats of an op in the backward is its recompute_s.

#include "time/attention_rate.h"
#include "time/fp8_casts.h"
#include "types/scenario.h"

#include <string>
#include <vector>

namespace parascope {

// How an op's time is computed: a GEMM at the GEMM efficiency its size reaches (in the training
// precision, or bf16 where FP8 recipes keep it), fused attention at the attention rate, or a
// memory-bound pass over its bytes at the achievable HBM bandwidth.
// Host: not a kernel but the GPU idling while the host issues the layer (a MoE layer's
// dispatcher reads its token counts back every forward; time/layer_cost.cpp hostWaits).
enum class OpRate { Gemm, Bf16Gemm, Attention, Memory, Host };
inline constexpr EnumName<OpRate> kOpRateNames[] = {{OpRate::Gemm, "gemm"},
                                                    {OpRate::Bf16Gemm, "bf16_gemm"},
                                                    {OpRate::Attention, "attention"},
                                                    {OpRate::Memory, "memory"},
                                                    {OpRate::Host, "host"}};
constexpr std::span<const EnumName<OpRate>> enumNames(OpRate) { return kOpRateNames; }
inline const char* toString(OpRate v) { return nameOf(v); }

// The TP collective a GEMM runs next to (and hides behind with tp_comm_overlap): the attention's
// input projections after its all-gather, its output projection before its reduce-scatter, the
// same for the MLP (experts, shared experts, router).
enum class TpSlot { None, AttentionIn, AttentionOut, MlpIn, MlpOut };

struct LayerOp {
    std::string name; // "qkv", "attention", "out", "mlp_up", "experts_up", "router", "q_down", …
    OpRate rate = OpRate::Gemm;
    Precision precision = Precision::Bf16;
    TpSlot slot = TpSlot::None;
    double flops = 0; // forward FLOPs on this GPU
    double input_grad_flops = 0, weight_grad_flops = 0; // the backward's: dX, dW
    double bytes = 0; // memory-bound ops: bytes one forward pass moves
    int gemms = 0; // GEMMs it issues per pass (torchtitan's separate wq, wk, wv: 3)
    int forward_kernels = 0; // kernel launches per microbatch: what a host/launch-time model needs
    int backward_kernels = 0;
    double forward_s = 0, input_grad_s = 0, weight_grad_s = 0;
    double cast_forward_s = 0, cast_backward_s = 0; // FP8: quantizing its inputs / output gradients
    double recompute_s = 0; // selective recompute modules, in the backward
    // Of forward_s and of input_grad_s each: what running the GEMM in chunks beside its overlapped
    // TP collective adds (overlapSplitCosts in layer_ops.cpp; 0 without overlap).
    double overlap_split_s = 0;
    // The Term (TimeReport::terms) that explains this op's time with its formula and source:
    // time.layer_forward_gemm, time.moe_layer_forward_gemm, time.layer_forward_attention,
    // time.layer_elementwise, time.moe_routing or time.moe_host_wait (its FP8 casts:
    // time.layer_fp8_casts).
    const char* term = "";
};

// What the GEMM term says where training.fused_projections is off.
inline constexpr const char* kSeparateProjectionsNote
    = "; one GEMM per weight (wq, wk, wv; SwiGLU's w1, w3: torchtitan's Llama, training.fused_projections "
      "off): each further GEMM + g_half/rate per pass, and per chunk under async TP; dX adds its partial "
      "products";

// What an op's time depends on besides its shape.
struct LayerOpRates {
    double bf16_peak = 0; // the attention's and bf16 GEMMs' peak FLOP/s
    double gemm_rate = 0, bf16_gemm_rate = 0; // FLOP/s at full size
    double hbm = 0; // achievable bytes/s
    AttentionRate attention;
    Fp8Casts casts;
    bool fp8 = false;
    double microbatches = 1; // FP8 weight casts happen once per step
    double tokens = 0; // on this GPU per microbatch: seq/CP · micro batch
    double split = 1; // TP
};

LayerOpRates layerOpRates(const Scenario& sc);

// One GEMM of `flops` at `rate` (FLOP/s at full size), slowed by the GPU's size curve:
// flops / (rate · flops/(flops + g_half)).
double gemmSeconds(const GpuSpec& gpu, const LayerOpRates& r, double flops, double rate);

// A dense (moe = false) or MoE layer's ops in the order they run. Numbers only; the terms that
// explain them are op_costs.cpp's.
std::vector<LayerOp> layerOps(const Scenario& sc, const LayerOpRates& r, bool moe);

} // namespace parascope
