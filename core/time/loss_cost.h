#pragma once
// The loss: softmax cross-entropy over the output layer's logits, a memory-bound pass on the
// last pipeline stage beside the logits GEMM (time/op_costs.cpp adds it to the head). Internal
// to time/.

#include "time/layer_ops.h"
#include "types/term.h"

namespace parascope {

struct LossCost {
    double elements = 0; // logits on this GPU per microbatch: tokens · vocab / TP
    double forward_bytes = 0, backward_bytes = 0;
    double forward_s = 0, backward_s = 0;
};

// Per microbatch on the GPU that holds the output layer.
LossCost lossCost(const Scenario& sc, const LayerOpRates& r);

Term lossTerm(const LossCost& loss);

} // namespace parascope
