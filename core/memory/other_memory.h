#pragma once
// "Other" memory per GPU: everything that is not a model state or a stored activation, each item
// configurable (scenario key "overheads").

#include "estimate/term.h"

#include <vector>

namespace parascope {

struct OverheadConfig {
    double cuda_context_bytes = 0.5 * (1ull << 30); // CUDA context, kernels, cuBLAS/cuDNN handles
    double workspace_bytes = 0.25 * (1ull << 30);   // cuBLAS(Lt)/Transformer Engine workspaces
    double nccl_bytes_per_group = 128.0 * (1 << 20); // NCCL buffers per communicator
    double fragmentation = 0.05;                    // allocator reserve, fraction of activations
};

struct OtherMemoryInputs {
    int communicators = 0;         // process groups of size > 1 this GPU belongs to
    double activations = 0;        // bytes, for the fragmentation reserve
    double logits_bytes = 0;       // last stage: fp32 logits for the loss (0 elsewhere)
    double zero3_gather_bytes = 0; // ZeRO-3: unsharded parameters of the layers being gathered
};

struct OtherMemory {
    double total = 0;
    std::vector<Term> terms;
};

OtherMemory otherMemory(const OverheadConfig& c, const OtherMemoryInputs& in, Explain explain = Explain::Full);

} // namespace parascope
