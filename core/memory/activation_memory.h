#pragma once
// ActivationMemory: bytes one GPU keeps for the backward pass, per transformer layer and
// microbatch, after Korthikanti et al. 2022 (Table 2), generalised to GQA, SwiGLU, MoE, flash
// attention and context parallelism.

#include "types/term.h"
#include "types/model_spec.h"
#include "types/parallel_config.h"

namespace parascope {

struct LayerActivation {
    double stored = 0; // bytes kept per microbatch between forward and backward
    double working_set = 0; // bytes alive while the layer's backward runs (full recompute)
    double recomputed = 0; // bytes selective recompute modules rebuild instead of keeping
    double fp8_saved = 0; // bytes the FP8 copies of linear inputs save (training.fp8_activations)
    Term term;
};

// One transformer layer, one microbatch. `moe` selects the MoE block instead of the dense MLP.
// With Explain::NumbersOnly the term carries only its name and value.
LayerActivation layerActivation(const ModelSpec& m, const TrainingConfig& t, const ParallelConfig& p, bool moe,
                                Explain explain = Explain::Full);

// Embedding-stage extras per microbatch: input ids (int64) and the embedding dropout mask.
Term embeddingActivation(const ModelSpec& m, const TrainingConfig& t, const ParallelConfig& p,
                         Explain explain = Explain::Full);

} // namespace parascope
