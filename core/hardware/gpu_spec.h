#pragma once
// GpuSpec and ClusterSpec: datasheet values (dense, no sparsity) plus the achievable fractions
// the engine uses by default for each GPU type. A hardware profile from parascope-probe
// replaces them with measured numbers.

#include "estimate/term.h"

#include <string>
#include <vector>

namespace parascope {

struct GpuSpec {
    std::string id;
    std::string name;
    double memory_bytes = 0;
    double hbm_bytes_per_s = 0;
    double peak_bf16_flops = 0;  // dense tensor-core FLOP/s
    double peak_fp8_flops = 0;   // 0 = not supported
    double peak_fp32_flops = 0;  // without TF32
    double gemm_efficiency = 0.8; // achievable fraction of peak for large GEMMs (mamf-finder)
    double hbm_efficiency = 0.85; // achievable fraction of HBM bandwidth (BabelStream copy)
    std::string source;
};

struct LinkSpec {
    double bytes_per_s = 0; // per GPU, one direction (datasheet)
    double latency_s = 0;   // per message hop
    double efficiency = 1;  // achievable bus bandwidth / datasheet (nccl-tests busbw)
    double busBytesPerS() const { return bytes_per_s * efficiency; }
};

struct ClusterSpec {
    std::string id;
    std::string name;
    GpuSpec gpu;
    int gpus_per_node = 8;
    int nodes = 0;          // 0 = as many as the parallel layout needs
    LinkSpec intra_node;    // NVLink (or PCIe)
    LinkSpec inter_node;    // InfiniBand / RoCE, per GPU (rail-optimised)
    bool intra_is_pcie = false;
    std::string source;
    std::vector<Term> calibration; // what a hardware profile changed (empty: datasheet defaults)
};

} // namespace parascope
