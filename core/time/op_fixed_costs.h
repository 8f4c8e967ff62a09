#pragma once
// The fixed costs a layer's op list pays once it is built (time/layer_ops.cpp layerOps): FP8's
// quantization kernels and TP overlap's GEMM chunks. Internal to time/.

#include "time/layer_ops.h"

#include <vector>

namespace parascope {

// Each FP8 cast's share of the layer's per-kernel fixed cost.
void castKernelCosts(std::vector<LayerOp>& ops, const GpuSpec& gpu, const LayerOpRates& r);

// What running a GEMM in chunks beside its overlapped TP collective adds (op.overlap_split_s).
void overlapSplitCosts(std::vector<LayerOp>& ops, const Scenario& sc, const LayerOpRates& r);

} // namespace parascope
