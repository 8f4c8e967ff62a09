#pragma once
// FP8 quantization traffic of one GEMM under each scaling recipe (time/fp8_casts.cpp): what the
// op costs (time/op_costs.cpp) charge every FP8 GEMM besides its FLOPs.

#include "types/parallel_config.h"

#include <string>

namespace parascope {

// Bytes moved per element of an input or output gradient, and per weight element once per step.
struct Fp8Casts {
    double bytes_per_element = 4;
    double weight_bytes = 4;
    std::string source;
};
Fp8Casts fp8Casts(Fp8Recipe recipe);

} // namespace parascope
