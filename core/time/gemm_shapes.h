#pragma once
// The GEMMs one GPU runs for a scenario's layers, as M×N×K (M rows of tokens, TP splitting N for
// column-parallel and K for row-parallel projections): what parascope-probe --scenario measures
// so that calibration sees the shapes this training runs, not only square 4096³ ones.

#include "types/scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace parascope {

struct GemmShape {
    std::string name; // "qkv", "attention out", "mlp up", "mlp down", "expert up", "expert down"
    std::int64_t m = 0, n = 0, k = 0;
};

// The forward GEMMs of one layer of each kind (dense, MoE) on one GPU, duplicates (same M, N, K)
// dropped. A routed expert sees its expected tokens: EP · M · top_k / experts.
std::vector<GemmShape> scenarioGemmShapes(const Scenario& sc);

} // namespace parascope
