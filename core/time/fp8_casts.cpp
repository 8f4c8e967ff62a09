#include "time/fp8_casts.h"

namespace parascope {

// Bytes an FP8 GEMM's quantization moves per element of its input: read bf16 (2), write the fp8
// copy (1) and the transposed fp8 copy the other GEMM of the backward needs (1) — Transformer
// Engine's fused cast-transpose (delayed scaling: the scale comes from the amax history, the new
// amax is taken in the same pass). Tensorwise ("current") scaling reads the tensor once more for
// its amax first (+2). Block scales add one scale per block and copy: 1 byte per 32 (mxfp8,
// E8M0) or 4 per 128 (blockwise, fp32): +2/32. Weights: read bf16, write both fp8 copies (4),
// once per step (TE's is_first_microbatch cache; torchao precomputed scales).
Fp8Casts fp8Casts(Fp8Recipe recipe)
{
    Fp8Casts c;
    c.weight_bytes = 4;
    switch (recipe) {
    case Fp8Recipe::Delayed: c.bytes_per_element = 4; break;
    case Fp8Recipe::Tensorwise: c.bytes_per_element = 6; break;
    case Fp8Recipe::Blockwise:
    case Fp8Recipe::Mxfp8: c.bytes_per_element = 4 + 2.0 / 32; break;
    }
    c.source = "Transformer Engine cast_transpose and recipes (delayed, current, MXFP8, blockwise); "
               "Micikevicius et al. 2022 (FP8 formats); DeepSeek-V3 §3.3.2 (fine-grained quantization)";
    return c;
}

} // namespace parascope
