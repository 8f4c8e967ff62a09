#pragma once
// Gradient compression on the data-parallel wire (training.grad_comm): what each scheme sends per
// gradient element, the collective that carries it, its compress/decompress passes over the
// gradients and the error-feedback memory it keeps. The quantizers (BF16, FP8, 1-bit) send every
// element in fewer bits and reduce like the gradients do; the two sketches do not:
//   PowerSGD rank r (Vogels et al., NeurIPS 2019, Alg. 1; PyTorch's powerSGD_hook): each n × m
//     gradient matrix M is sent as P = M·Q (n × r) and Q = Mᵀ·P (m × r), two all-reduces, so the
//     wire carries Σ r·(n + m) of Σ n·m elements; the error M − P·Qᵀ is kept and added next step.
//   top-k (Aji & Heafield 2017; Deep Gradient Compression, Lin et al., ICLR 2018): each rank keeps
//     the k largest of its gradient elements (a value and a 4-byte index each) and the rest as a
//     residual for the next step. Sparse sets of different indices do not add up in a ring: they
//     are all-gathered, so what each GPU receives grows with the data-parallel size.
// Both are DDP communication hooks: with ZeRO's sharded reduction they do not apply (diagnostic
// grad_compression_needs_ddp). What any of them does to convergence is outside this model.

#include "types/model_spec.h"
#include "types/parallel_config.h"

namespace parascope {

// Σ r·(n + m) / Σ n·m over one layer's weight matrices as a GPU holds them (TP shards): QKV and
// the output projection, the MLP's up (gate and up for gated MLPs) and down projections.
double powerSgdRatio(const ModelSpec& m, int tp, int rank);

struct GradWire {
    double bytes_per_element = 2; // what each GPU puts on the wire per gradient element it holds
    bool gathered = false; // top-k: all-gathered (every rank's k elements reach every rank)
    double calls_per_bucket = 1; // PowerSGD: P then Q
    double passes = 0; // compress + decompress passes, each over the gradients at their own width
    const char* source = "";
};

GradWire gradWire(const ModelSpec& m, const ParallelConfig& p, const TrainingConfig& t);

} // namespace parascope
