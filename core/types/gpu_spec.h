#pragma once
// GpuSpec and ClusterSpec: datasheet values (dense, no sparsity) plus the achievable fractions
// the engine uses by default for each GPU type. A hardware profile from parascope-probe
// replaces them with measured numbers.

#include "types/comm_types.h"
#include "types/term.h"

#include <string>
#include <vector>

namespace parascope {

struct GpuSpec {
    std::string id;
    std::string name;
    double memory_bytes = 0;
    double hbm_bytes_per_s = 0;
    double peak_bf16_flops = 0; // dense tensor-core FLOP/s
    double peak_fp8_flops = 0; // 0 = not supported
    double peak_fp32_flops = 0; // without TF32
    double gemm_efficiency = 0.8; // achievable fraction of peak for large GEMMs (mamf-finder)
    double hbm_efficiency = 0.85; // achievable fraction of HBM bandwidth (BabelStream copy)
    // Fused (flash) causal attention, forward + backward, FLOPs counted causal (half the s² of
    // the full count): the fraction of the dense bf16 peak it reaches on long sequences at head
    // dim 128, and the sequence length and head dim at which its tile and launch fixed costs
    // halve that (FlashAttention-2/3 benchmark sweeps; attentionEfficiency below).
    double attention_efficiency = 0.5;
    double attention_efficiency_fa2 = 0; // the same for FlashAttention-2 (0: as attention_efficiency)
    double attention_half_seq = 0; // tokens per sequence (0: no length effect)
    double attention_half_seq_fa2 = 0; // the same for FlashAttention-2 (0: as attention_half_seq)
    double attention_half_head_dim = 0; // (0: no head-dim effect)
    double gemm_half_flops = 0; // a GEMM of this many FLOPs reaches half of gemm_efficiency (0: no size effect)
    double gemm_half_flops_fp8 = 0; // the same for FP8 GEMMs (0: gemm_half_flops × the FP8/bf16 peak ratio)
    double kernel_overhead_s = 0; // launch + tail per transformer layer and pass (forward, or each backward half)
    // FP8 GEMMs with a scale per block (fp8_recipe blockwise: 1×128 activations, 128×128 weights)
    // run at this fraction of the tensor-scaled FP8 rate. Hopper's tensor cores take one scale
    // per tensor, so block-scaled kernels (cuBLAS 12.9) rescale partial sums on the CUDA cores;
    // 1 where the hardware scales blocks itself (Blackwell runs the recipe as MXFP8).
    double fp8_block_gemm_ratio = 1;
    // The host's (CPU's) time to issue one MoE layer's forward in eager PyTorch (Megatron-Core
    // without CUDA graphs); its backward takes twice as long. The dispatcher reads the token
    // counts back to the host every forward (a device-to-host sync), so the host never runs more
    // than a layer ahead: a MoE layer whose GPU work is shorter waits for it. 0: no host limit
    // (CUDA graphs). Fitted, see the presets' source.
    double moe_layer_host_s = 0;
    double sustained_clock = 1; // sustained / boost clock under hours of full load (power and thermal limits)
    int sm_count = 0; // streaming multiprocessors (datasheet); 0: unknown, no SM sharing charged
    std::string source;

    // η·s/(s + s½)·(d/(d + d½))/(128/(128 + d½)): FlashAttention-2's causal A100 sweep (d 128,
    // 512…16k tokens) follows s/(s + 495) within 2 %, and its d 64 runs reach 0.91 of d 128.
    double attentionEfficiency(double seq, double head_dim, bool fa2 = false) const
    {
        const double half = attentionHalfSeq(fa2);
        const double len = half > 0 ? seq / (seq + half) : 1.0;
        const double dim = attention_half_head_dim > 0
            ? (head_dim / (head_dim + attention_half_head_dim)) / (128.0 / (128.0 + attention_half_head_dim))
            : 1.0;
        return attentionEta(fa2) * len * dim;
    }
    // The sequence length at which the kernel reaches half of η (s½).
    double attentionHalfSeq(bool fa2) const
    {
        return fa2 && attention_half_seq_fa2 > 0 ? attention_half_seq_fa2 : attention_half_seq;
    }
    // The kernel's asymptotic fraction of the bf16 peak (η).
    double attentionEta(bool fa2) const
    {
        return fa2 && attention_efficiency_fa2 > 0 ? attention_efficiency_fa2 : attention_efficiency;
    }
    // A causal call's throughput over a non-causal call's at the same length (FLOPs counted as
    // done): r(s) = 0.92·s/(s + 248). FlashAttention-3 (Shah et al. 2024) Fig. 5, forward, head
    // dim 128, H100 SXM5: FlashAttention-2 191/260/298/319/333/335 causal against
    // 309/350/362/368/370/370 TFLOP/s non-causal at 512…16k tokens (0.62…0.905), cuDNN
    // 315/410/484/518/529/539 against 497/574/617/609/600/595 (0.63…0.906); r(s) lies within
    // 0.03 of all twelve ratios. The masked diagonal blocks and the uneven rows keep a causal
    // kernel ~9 % short of the unmasked one even at long sequences. Measured on H100, assumed
    // on the other GPUs (the same kernels' tiling).
    static double causalThroughputRatio(double seq) { return 0.92 * seq / (seq + 248.0); }
};

struct LinkSpec {
    double bytes_per_s = 0; // per GPU, one direction (datasheet)
    double latency_s = 0; // per message hop
    double efficiency = 1; // achievable bus bandwidth / datasheet (nccl-tests busbw, large messages)
    double half_bytes = 0; // message size that reaches half of that bandwidth (0: no size effect)
    // Achievable bus bandwidth for a message of S bytes: the nccl-tests curve rises with size
    // and saturates, modelled as efficiency · S/(S + half).
    double busBytesPerS(double S) const
    {
        const double ramp = half_bytes > 0 ? S / (S + half_bytes) : 1.0;
        return bytes_per_s * efficiency * ramp;
    }
};

// A collective measured on this cluster (nccl-tests or parascope-probe): its bus bandwidth at a
// message size, for a group of `ranks` GPUs on `nodes` nodes.
struct MeasuredCollective {
    Collective op = Collective::AllReduce;
    int ranks = 0;
    int nodes = 1;
    double bytes = 0;
    double busbw_bytes_per_s = 0;
};

// A node's host side, for CPU offload: its memory, the memory bandwidth the CPU optimizer streams
// at, and each GPU's PCIe link to it (one direction).
struct HostSpec {
    double memory_bytes = 0; // per node
    double memory_bytes_per_s = 0; // per node, all sockets (DDR theoretical)
    double memory_efficiency = 0.8; // sustained streaming / theoretical
    double pcie_bytes_per_s = 0; // per GPU, one direction (theoretical)
    double pcie_efficiency = 0.8; // pinned copies / theoretical
    bool known() const { return memory_bytes > 0 && memory_bytes_per_s > 0 && pcie_bytes_per_s > 0; }
};

// NVLink SHARP (NVLS): the NVSwitch reduces an all-reduce inside a node (NCCL ≥ 2.17 on NVSwitch
// gen 3). Its bus bandwidth exceeds the link's, so it is a measured figure per preset (0: the
// cluster has none, or none was published), used from `min_ranks` GPUs on (NCCL's own threshold).
struct NvlsSpec {
    double busbw_bytes_per_s = 0; // nccl-tests all_reduce busbw at large sizes
    int min_ranks = 5;
    double latency_s = 25e-6; // NCCL tuning.cc hwLat NVLS (Simple)
    std::string source;
    bool known() const { return busbw_bytes_per_s > 0; }
};

// The file system checkpoints go to: its aggregate write bandwidth for the whole job (0: not
// known, then only the per-node figure of the stability settings bounds it).
struct StorageSpec {
    double write_bytes_per_s = 0;
    std::string source;
};

// The network between the nodes (the topology what-ifs, parallel/placement.h networkShares). The
// defaults are the DGX design: one NIC per GPU on its own rail, one non-blocking fat tree.
struct FabricSpec {
    int nics_per_node = 0; // 0: one per GPU (rail-optimised); fewer: the node's GPUs share them
    int nodes_per_leaf = 0; // nodes under one leaf switch; 0: one non-blocking layer for every node
    int oversubscription = 1; // a leaf's downlink : uplink bandwidth, o : 1
    bool isDefault() const { return nics_per_node == 0 && nodes_per_leaf == 0 && oversubscription == 1; }
};

struct ClusterSpec {
    std::string id;
    std::string name;
    GpuSpec gpu;
    int gpus_per_node = 8;
    int nodes = 0; // 0 = as many as the parallel layout needs
    LinkSpec intra_node; // NVLink (or PCIe)
    LinkSpec inter_node; // InfiniBand / RoCE, per GPU (rail-optimised)
    bool intra_is_pcie = false;
    HostSpec host; // for CPU offload (unknown: offload cannot be evaluated)
    NvlsSpec nvls;
    StorageSpec storage;
    FabricSpec fabric; // the scenario's "network" section (types/scenario.h), not the preset's
    std::string source;
    std::vector<Term> calibration; // what a hardware profile changed (empty: datasheet defaults)
    std::vector<MeasuredCollective> measured_collectives; // used for groups of the same op, size and placement
};

} // namespace parascope
