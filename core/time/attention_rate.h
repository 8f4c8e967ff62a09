#pragma once
// How fast one GPU runs its share of a layer's flash attention (time/op_costs.cpp divides the
// causal FLOPs by it), and the Term that explains it.

#include "types/scenario.h"
#include "types/term.h"

namespace parascope {

struct AttentionRate {
    double seq_per_call = 0; // s': tokens of the causal call (s/CP on a ring; s with Ulysses or no CP)
    double efficiency = 0; // η·s'/(s' + s½)·f(d): the causal call's fraction of the bf16 peak
    double flops_per_s = 0; // over the GPU's causal FLOPs (on a ring: its causal and unmasked calls together)
};

// Without context parallelism, or with Ulysses (a2a: whole sequences, fewer heads), one causal
// call at the kernel's causal efficiency. On a load-balanced ring (Megatron/TE's p2p and
// all-gather CP, torchtitan's ring and all-gather rotation: GPU i holds chunks i and 2·CP−1−i
// of 2·CP) only the call on a GPU's own chunks meets the mask, 1/CP of its FLOPs; the other
// CP − 1 steps are unmasked blocks, half with keys s/(2·CP) long (both chunks' queries against
// an earlier pair's first chunk), half with s/CP (the later chunk's queries against a later
// pair), each at the causal rate over GpuSpec::causalThroughputRatio. The backward is taken to
// gain as the forward does (the sweeps that give the ratio are forward only).
AttentionRate attentionRate(const Scenario& sc, double bf16_peak);

// "time.layer_forward_attention": the forward's attention seconds per layer and microbatch (flash,
// or without flash Megatron 2021's two batched GEMMs).
Term attentionTerm(const Scenario& sc, const AttentionRate& rate, double forward_s, double tokens, double split,
                   double bf16_peak, bool fp8);

} // namespace parascope
