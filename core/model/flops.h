#pragma once
// Training FLOPs per step: model FLOPs (the basis of MFU) and hardware FLOPs (with recompute).
// Convention: Megatron's generalised count (num_floating_point_operations, 2024), matmuls only,
// full (non-causal) attention, backward = 2 × forward. For a GPT (MHA, GELU, ffn = 4h) it equals
// Narayanan et al. 2021 eq. 3: 72·B·s·L·h²·(1 + s/(6h) + V/(12hL)).

#include "types/term.h"
#include "types/model_spec.h"
#include "types/parallel_config.h"

namespace parascope {

struct FlopsReport {
    double model_flops_per_step = 0; // basis of MFU
    double hardware_flops_per_step = 0; // + recompute, basis of HFU
    double forward_flops_per_token_layer = 0; // one dense layer, one token (for the timeline)
    double attention_score_flops_per_step = 0; // the scores' share of the model FLOPs (full s×s, ×3)
    std::string convention;
    std::vector<Term> terms;
};

// Forward matmul FLOPs of one token through one layer, split by kind.
struct LayerForwardFlops {
    double attention_linear = 0; // QKV and output projections: 2h(q + 2kv) + 2qh (MLA: its own)
    double attention_scores = 0; // QKᵀ and scores·V over s keys: 4·s·q (with a window: fewer keys)
    double mlp = 0; // dense MLP, or router + top_k routed + shared experts
    double total() const { return attention_linear + attention_scores + mlp; }
};

// Keys each query meets in the convention's full count, averaged over the layers: s, less on
// sliding-window layers.
double attendedKeys(const ModelSpec& m, std::int64_t seq_len);

LayerForwardFlops layerForwardFlops(const ModelSpec& m, std::int64_t seq_len, bool moe);

FlopsReport trainingFlops(const ModelSpec& m, const TrainingConfig& t, Explain explain = Explain::Full);

} // namespace parascope
