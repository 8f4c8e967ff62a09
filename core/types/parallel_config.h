#pragma once
// ParallelConfig and TrainingConfig: the knobs of the course.

#include "util/enum_names.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace parascope {

enum class ScheduleKind { GPipe, OneFOneB, Interleaved, ZbH1, ZbV, DualPipeV, DualPipe };
enum class Recompute { None, Selective, Full };
enum class Precision { Bf16, Fp16, Fp8, Fp32 };
enum class GradDtype { Bf16, Fp32 };
// Whether the pipeline flushes at each optimizer step (1F1B: PipeDream-Flush, the default) or
// runs on without one (Narayanan et al.): PipeDream keeps a weight version per microbatch in
// flight (weight stashing) and updates after every microbatch; PipeDream-2BW keeps two versions
// (double-buffered weights) and updates every m microbatches, one update stale.
enum class AsyncPipeline { Flush, PipeDream, TwoBw };
// What the data-parallel gradient reduction sends on the wire (the communication module's
// what-if): the gradients as they are, bf16, fp8 (FP8-LM, Peng et al. 2023 §3.1) or one bit per
// element with error feedback (1-bit Adam, Tang et al. 2021).
enum class GradComm { Same, Bf16, Fp8, OneBit, PowerSgd, TopK };
enum class Optimizer { AdamW, Sgd };
// How context parallelism exchanges keys and values (Megatron --cp-comm-type): p2p, the ring
// (ring attention, each K/V chunk passed on cp−1 times behind the attention blocks); a2a, the
// all-to-all of DeepSpeed-Ulysses (Jacobs et al. 2023: Q, K, V go from sequence shards to head
// shards and the output back); allgather, every rank gathers all keys and values (Llama 3's CP);
// ring_allgather, PyTorch's context_parallel with its default allgather rotation (torchtitan): the
// keys and values gathered once per pass behind the first (local, causal) block, the attention
// run block by block with fp32 merges of the outputs, the backward gathering them again and
// passing the fp32 K/V gradients around the ring, one send per block
// (torch/distributed/tensor/experimental/_attention.py; time/layer_cost.cpp exposeCp).
enum class CpComm { P2p, A2a, AllGather, RingAllGather };
inline constexpr EnumName<CpComm> kCpCommNames[] = {{CpComm::P2p, "p2p"},
                                                    {CpComm::A2a, "a2a"},
                                                    {CpComm::AllGather, "allgather"},
                                                    {CpComm::RingAllGather, "ring_allgather"}};
constexpr std::span<const EnumName<CpComm>> enumNames(CpComm) { return kCpCommNames; }
inline const char* toString(CpComm v) { return nameOf(v); }
// Which TP communication overlap (tp_comm_overlap) runs: userbuffers, Transformer Engine's under
// Megatron --tp-comm-overlap (chunk GEMMs on up to three concurrent streams); async_tp, PyTorch's
// micro-pipelined async TP (torchtitan's enable_async_tensor_parallel: every all-gather→matmul
// and matmul→reduce-scatter in TP chunks, one after another). time/layer_ops.cpp charges the
// chunks' fixed costs (overlapSplitCosts).
enum class TpOverlap { Userbuffers, AsyncTp };
inline constexpr EnumName<TpOverlap> kTpOverlapNames[]
    = {{TpOverlap::Userbuffers, "userbuffers"}, {TpOverlap::AsyncTp, "async_tp"}};
constexpr std::span<const EnumName<TpOverlap>> enumNames(TpOverlap) { return kTpOverlapNames; }
inline const char* toString(TpOverlap v) { return nameOf(v); }
// How MoE tokens reach their experts (Megatron --moe-token-dispatcher-type): alltoall sends a
// copy of each token to every one of its top_k experts (Megatron's alltoall dispatcher, GShard);
// deepep sends it once per destination GPU inside a node and once per destination node across
// nodes, where NVLink forwards it to its GPUs (deepseek-ai/DeepEP normal kernels; Megatron
// --moe-token-dispatcher-type flex --moe-flex-dispatcher-backend deepep).
enum class MoeDispatcher { AllToAll, DeepEp };
inline constexpr EnumName<MoeDispatcher> kMoeDispatcherNames[]
    = {{MoeDispatcher::AllToAll, "alltoall"}, {MoeDispatcher::DeepEp, "deepep"}};
constexpr std::span<const EnumName<MoeDispatcher>> enumNames(MoeDispatcher) { return kMoeDispatcherNames; }
inline const char* toString(MoeDispatcher v) { return nameOf(v); }
// CPU offload of model states (ZeRO-Offload, Ren et al. 2021; ZeRO-Infinity; FSDP CPUOffload):
// the optimizer states (with fp32 master weights and gradients, and the optimizer step) live in
// host memory, or with params the weights and gradients too (ZeRO-3 / FSDP only), copied over
// PCIe when a layer needs them.
enum class Offload { None, Optimizer, Params };
inline constexpr EnumName<Offload> kOffloadNames[]
    = {{Offload::None, "none"}, {Offload::Optimizer, "optimizer"}, {Offload::Params, "params"}};
constexpr std::span<const EnumName<Offload>> enumNames(Offload) { return kOffloadNames; }
inline const char* toString(Offload v) { return nameOf(v); }
// FP8 scaling recipes (Megatron --fp8-recipe; Transformer Engine recipes): one scale per tensor
// from the amax history (delayed) or from the tensor itself (tensorwise, "current scaling"), or
// per block: 1×128 / 128×128 on Hopper (blockwise, DeepSeek-V3 §3.3), 1×32 in hardware on
// Blackwell (mxfp8).
enum class Fp8Recipe { Delayed, Tensorwise, Blockwise, Mxfp8 };
// The fused attention kernel a run's software calls (with flash_attention): cuDNN's fused
// attention (Transformer Engine's default, and FlashAttention-3's speed on Hopper) or
// FlashAttention-2 (also PyTorch SDPA's flash backend, which SDPA picks unless cuDNN is opted in:
// pytorch/pytorch#138522 made cuDNN opt-in from 2.5.1 until 2.9).
enum class AttentionKernel { Cudnn, Fa2 };
// How the loss turns the output layer's logits into the cross-entropy, which sets the output
// stage's largest transient buffer: fused, a vocab-parallel cross-entropy that keeps one fp32
// copy of the logits (Megatron-LM; 4 bytes per token and vocab entry of the TP shard); eager,
// PyTorch's F.cross_entropy(logits.float()) as torchtitan calls it: the bf16 logits, their fp32
// copy and the fp32 log-softmax in the forward (2 + 4 + 4), the saved log-softmax, its gradient
// and the input gradient in the backward (4 + 4 + 4): 12 bytes at the peak.
enum class CrossEntropy { Fused, Eager };
// Which parts of a layer replay as CUDA graphs instead of being issued kernel by kernel from the
// host (Megatron-Core --cuda-graph-impl and --cuda-graph-modules): none (eager); partial,
// attention and the MoE router and preprocessing (Transformer Engine's scoped graphs for dropless
// MoE: the dispatcher and the experts stay eager, the token counts still go to the host); layers,
// whole layers, MoE included (needs static shapes: a capacity factor); full_iteration, the whole
// forward-backward (the same). Only MoE layers have a host time in the model (time/layer_cost.cpp
// hostWaits); dense layers' launch gaps are GPU-side (kernel_overhead_us) and stay.
enum class CudaGraphs { None, Partial, Layers, FullIteration };
// How a run lays out its activations, which decides what its sequence-parallel collectives cost
// besides the transfer. sbh, sequence first ([s, b, h]; Megatron-LM): the sequence shards are the
// tensor's leading dimension, and an all-gather or reduce-scatter works on them in place. bsh,
// batch first ([b, s, h]; PyTorch DTensor, as torchtitan runs TP): the sequence is dimension 1;
// PyTorch's functional all_gather_tensor gathers along dimension 0 and then reassembles the
// sequence (torch.cat of the gathered chunks along dimension 1), reduce_scatter_tensor lays its
// input out the same way before it scatters: one more read and write of the whole buffer per
// collective (time/layer_ops.cpp sequenceRelayout).
enum class ActivationLayout { Sbh, Bsh };
// How ZeRO-3 / FSDP holds a unit's shards, which decides what a gather costs besides the
// transfer. flat (PyTorch FSDP1's FlatParameter, DeepSpeed ZeRO-3, Megatron-FSDP): the unit's
// parameters are views into the buffer the all-gather writes. per_parameter (PyTorch FSDP2, as
// torchtitan runs it): every parameter is sharded on its own; FSDP2 gathers the shards into one
// flat buffer and then, on the compute stream, copies them out into the unsharded parameters
// (foreach_all_gather_copy_out, torch.split_with_sizes_copy): one more read and write of the
// gathered unit per gather (time/layer_ops.cpp fsdpCopyOut).
enum class Zero3Sharding { Flat, PerParameter };

inline constexpr EnumName<ScheduleKind> kScheduleKindNames[] = {
    {ScheduleKind::GPipe, "gpipe"},      {ScheduleKind::OneFOneB, "1f1b"}, {ScheduleKind::Interleaved, "interleaved"},
    {ScheduleKind::ZbH1, "zb-h1"},       {ScheduleKind::ZbV, "zb-v"},      {ScheduleKind::DualPipeV, "dualpipe-v"},
    {ScheduleKind::DualPipe, "dualpipe"}};
constexpr std::span<const EnumName<ScheduleKind>> enumNames(ScheduleKind) { return kScheduleKindNames; }
inline const char* toString(ScheduleKind v) { return nameOf(v); }
inline constexpr EnumName<Recompute> kRecomputeNames[]
    = {{Recompute::None, "none"}, {Recompute::Selective, "selective"}, {Recompute::Full, "full"}};
constexpr std::span<const EnumName<Recompute>> enumNames(Recompute) { return kRecomputeNames; }
inline const char* toString(Recompute v) { return nameOf(v); }
inline constexpr EnumName<Precision> kPrecisionNames[]
    = {{Precision::Bf16, "bf16"}, {Precision::Fp16, "fp16"}, {Precision::Fp8, "fp8"}, {Precision::Fp32, "fp32"}};
constexpr std::span<const EnumName<Precision>> enumNames(Precision) { return kPrecisionNames; }
inline const char* toString(Precision v) { return nameOf(v); }
inline constexpr EnumName<GradDtype> kGradDtypeNames[] = {{GradDtype::Bf16, "bf16"}, {GradDtype::Fp32, "fp32"}};
constexpr std::span<const EnumName<GradDtype>> enumNames(GradDtype) { return kGradDtypeNames; }
inline const char* toString(GradDtype v) { return nameOf(v); }
inline constexpr EnumName<AsyncPipeline> kAsyncPipelineNames[]
    = {{AsyncPipeline::Flush, "flush"}, {AsyncPipeline::PipeDream, "pipedream"}, {AsyncPipeline::TwoBw, "2bw"}};
constexpr std::span<const EnumName<AsyncPipeline>> enumNames(AsyncPipeline) { return kAsyncPipelineNames; }
inline const char* toString(AsyncPipeline v) { return nameOf(v); }
inline constexpr EnumName<GradComm> kGradCommNames[]
    = {{GradComm::Same, "same"},   {GradComm::Bf16, "bf16"},         {GradComm::Fp8, "fp8"},
       {GradComm::OneBit, "1bit"}, {GradComm::PowerSgd, "powersgd"}, {GradComm::TopK, "topk"}};
constexpr std::span<const EnumName<GradComm>> enumNames(GradComm) { return kGradCommNames; }
inline const char* toString(GradComm v) { return nameOf(v); }
inline constexpr EnumName<Fp8Recipe> kFp8RecipeNames[] = {{Fp8Recipe::Delayed, "delayed"},
                                                          {Fp8Recipe::Tensorwise, "tensorwise"},
                                                          {Fp8Recipe::Blockwise, "blockwise"},
                                                          {Fp8Recipe::Mxfp8, "mxfp8"}};
constexpr std::span<const EnumName<Fp8Recipe>> enumNames(Fp8Recipe) { return kFp8RecipeNames; }
inline const char* toString(Fp8Recipe v) { return nameOf(v); }
inline constexpr EnumName<AttentionKernel> kAttentionKernelNames[]
    = {{AttentionKernel::Cudnn, "cudnn"}, {AttentionKernel::Fa2, "fa2"}};
constexpr std::span<const EnumName<AttentionKernel>> enumNames(AttentionKernel) { return kAttentionKernelNames; }
inline const char* toString(AttentionKernel v) { return nameOf(v); }
inline constexpr EnumName<CrossEntropy> kCrossEntropyNames[]
    = {{CrossEntropy::Fused, "fused"}, {CrossEntropy::Eager, "eager"}};
constexpr std::span<const EnumName<CrossEntropy>> enumNames(CrossEntropy) { return kCrossEntropyNames; }
inline const char* toString(CrossEntropy v) { return nameOf(v); }
inline constexpr EnumName<CudaGraphs> kCudaGraphsNames[] = {{CudaGraphs::None, "none"},
                                                            {CudaGraphs::Partial, "partial"},
                                                            {CudaGraphs::Layers, "layers"},
                                                            {CudaGraphs::FullIteration, "full_iteration"}};
constexpr std::span<const EnumName<CudaGraphs>> enumNames(CudaGraphs) { return kCudaGraphsNames; }
inline const char* toString(CudaGraphs v) { return nameOf(v); }
inline constexpr EnumName<ActivationLayout> kActivationLayoutNames[]
    = {{ActivationLayout::Sbh, "sbh"}, {ActivationLayout::Bsh, "bsh"}};
constexpr std::span<const EnumName<ActivationLayout>> enumNames(ActivationLayout) { return kActivationLayoutNames; }
inline const char* toString(ActivationLayout v) { return nameOf(v); }
inline constexpr EnumName<Zero3Sharding> kZero3ShardingNames[]
    = {{Zero3Sharding::Flat, "flat"}, {Zero3Sharding::PerParameter, "per_parameter"}};
constexpr std::span<const EnumName<Zero3Sharding>> enumNames(Zero3Sharding) { return kZero3ShardingNames; }
inline const char* toString(Zero3Sharding v) { return nameOf(v); }
inline constexpr EnumName<Optimizer> kOptimizerNames[] = {{Optimizer::AdamW, "adamw"}, {Optimizer::Sgd, "sgd"}};
constexpr std::span<const EnumName<Optimizer>> enumNames(Optimizer) { return kOptimizerNames; }
inline const char* toString(Optimizer v) { return nameOf(v); }

struct ParallelConfig {
    int tp = 1, pp = 1, dp = 1, cp = 1, ep = 1, vpp = 1;
    int etp = 0; // expert tensor parallel; 0 = same as tp (Megatron default)
    bool sequence_parallel = false;
    CpComm cp_comm = CpComm::P2p; // with cp > 1
    MoeDispatcher moe_dispatcher = MoeDispatcher::AllToAll; // with ep > 1
    Offload offload = Offload::None;
    int zero = 0; // 0..3; 1 = distributed optimizer
    ScheduleKind schedule = ScheduleKind::OneFOneB;
    // 1F1B without a flush (AsyncPipeline): PipeDream or PipeDream-2BW (schedule/async_pipeline.h).
    AsyncPipeline async_pipeline = AsyncPipeline::Flush;
    bool asyncPipeline() const
    {
        return async_pipeline != AsyncPipeline::Flush && pp > 1 && schedule == ScheduleKind::OneFOneB;
    }
    std::vector<int> stage_layers; // optional uneven layout: layers per pipeline rank (DualPipe: per
        // stage of one direction; rank r holds stages r and pp−1−r)
    bool tp_comm_overlap = false; // Megatron --tp-comm-overlap, PyTorch async TP
    TpOverlap tp_overlap = TpOverlap::Userbuffers; // which implementation, with tp_comm_overlap
    ActivationLayout activation_layout = ActivationLayout::Sbh; // what SP's collectives copy besides
    // Combined 1F1B (Megatron --overlap-moe-expert-parallel-comm): one microbatch's forward runs
    // beside the previous one's backward, layer by layer, each one's expert-parallel dispatch and
    // combine hidden behind the other's compute. Megatron allows it with EP > 1, without full
    // recompute, and with PP > 1 only on the interleaved schedule (epOverlapApplies).
    bool ep_comm_overlap = false;
    // The SMs DeepEP's dispatch and combine kernels run on (Megatron --moe-deepep-num-sms, its
    // default 20): under combined 1F1B the compute beside them has the rest of the GPU's SMs.
    int deepep_sms = 20;
    // Pipeline sends overlapped with compute (the default: a rank computes on while its
    // activation travels; Megatron --overlap-p2p-comm). false: each send blocks its sender until
    // it has arrived (Megatron's batched, synchronous send/recv), as in the textbook's timeline.
    bool pp_comm_overlap = true;
    // PyTorch's async TP: collectives fused with the matmuls beside them (time/layer_ops.cpp
    // sequenceRelayout, time/layer_cost.cpp asyncTpSplitsBackward, time/op_fixed_costs.cpp).
    bool asyncTp() const { return tp_comm_overlap && tp_overlap == TpOverlap::AsyncTp; }
    bool epOverlapApplies(bool full_recompute) const
    {
        return ep_comm_overlap && ep > 1 && !full_recompute
            && (pp == 1 || (schedule == ScheduleKind::Interleaved && vpp > 1));
    }
    bool overlap_grad_reduce = true;
    // Gradient buckets of the data-parallel reduction, in millions of parameters; 0: Megatron's
    // max(40M, 1M·dp) (comm/comm_volume.h bucketParams). Smaller buckets: more calls (latency);
    // larger: a longer last bucket, which cannot overlap (it is ready when the backward ends).
    double grad_bucket_mparams = 0;
    // ZeRO-3 / FSDP: free each layer's gathered parameters after its forward and gather them
    // again for its backward (FSDP reshard_after_forward, the default); false keeps them from the
    // forward to the backward: one gather per microbatch instead of two, the whole stage's
    // unsharded weights in memory.
    bool reshard_after_forward = true;
    Zero3Sharding zero3_sharding = Zero3Sharding::Flat; // what a ZeRO-3 gather copies besides
    // ZeRO-3 gathering granularity: 0 gathers whole layers (PyTorch FSDP's units, the layer being
    // computed and the one prefetched); DeepSpeed ZeRO-3 gathers module by module and keeps at
    // most this many parameters unsharded (stage3_max_live_parameters, default 1e9).
    double zero3_max_live_params = 0;
    // ZeRO-3 / FSDP prefetch depth: how many layers ahead the parameter all-gather is issued
    // (FSDP BackwardPrefetch / forward_prefetch, FSDP2 set_modules_to_forward_prefetch, DeepSpeed
    // stage3_prefetch_bucket_size). 0: each layer gathers when it starts, nothing hides; 1 (the
    // default) hides the gather behind the layer before; each layer more keeps one more layer's
    // unsharded weights and hides no more while the layers are alike.
    int zero3_prefetch = 1;
    // HSDP (PyTorch FSDP's hybrid sharding; DeepSpeed ZeRO++ hpZ): ZeRO shards the states over
    // `shard_size` consecutive data-parallel ranks (a node, typically) and replicates across the
    // dp·cp / shard_size groups of them; 0 = over all dp·cp ranks.
    int shard_size = 0;
    int zeroShard() const { return shard_size > 0 ? shard_size : dp * cp; }
    // Megatron --account-for-embedding-in-pipeline-split / --account-for-loss-in-pipeline-split:
    // the input embedding and the output layer + loss each count as one layer when the layers
    // are shared out over the (virtual) pipeline stages, so the first and the last stage get one
    // transformer layer fewer (Llama 3 405B: 126 layers + 2 = 128 over PP 16).
    bool account_for_embedding_in_pipeline_split = false;
    bool account_for_loss_in_pipeline_split = false;

    std::int64_t gpus() const { return std::int64_t(tp) * pp * dp * cp; }
    std::int64_t replicaGpus() const { return std::int64_t(tp) * pp * cp; } // one data-parallel replica
    int expertTp() const { return etp > 0 ? etp : tp; }
    // The expert-data-parallel degree the experts' ZeRO shards over: the stage's tp·cp·dp GPUs
    // re-sliced into EP·ETP expert groups.
    double expertZeroShard() const { return std::max(1.0, double(tp) * cp * dp / (double(ep) * expertTp())); }
    // Whether EP = ep_degree is a valid layout for `experts` routed experts: it divides them, and
    // EP·ETP divides the stage's tp·cp·dp GPUs (Megatron-Core's expert grid re-slices them).
    bool expertGridFits(std::int64_t ep_degree, int experts) const
    {
        return ep_degree > 0 && experts % ep_degree == 0
            && (std::int64_t(tp) * cp * dp) % (ep_degree * expertTp()) == 0;
    }
};

// Megatron --recompute-modules (with --recompute-granularity selective): what the backward
// rebuilds from the layer's kept inputs instead of keeping. The course's selective recompute is
// core_attn alone (Korthikanti et al. 2022 §5), Megatron's default.
enum class RecomputeModule : unsigned {
    CoreAttn = 1, // attention scores/softmax (with flash attention: the attention kernel)
    Layernorm = 2, // the norms' outputs (inputs of QKV and of the MLP)
    MoeAct = 4, // the routed experts' activation function output
    Mlp = 8, // the dense MLP
    SharedExperts = 16, // the MoE layer's shared experts
    MlaUpProj = 32, // MLA's up projections (Q, K, V from the latents)
    // torchtitan's op-level selective checkpointing (activation_checkpoint.selective_ac_option
    // "op"): it keeps the outputs of the matmuls at odd positions of the layer (q, v, MLP gate /
    // fc1, down) and of the attention kernel, and recomputes the others (k, o, MLP up or fc2)
    // and every elementwise op (norms, rotary, activation).
    EveryOtherMm = 64,
    Moe = 128, // the whole MoE block: router, dispatch, experts, combine (all-to-alls again)
};
inline constexpr EnumName<RecomputeModule> kRecomputeModuleNames[]
    = {{RecomputeModule::CoreAttn, "core_attn"},
       {RecomputeModule::Layernorm, "layernorm"},
       {RecomputeModule::MoeAct, "moe_act"},
       {RecomputeModule::Mlp, "mlp"},
       {RecomputeModule::SharedExperts, "shared_experts"},
       {RecomputeModule::MlaUpProj, "mla_up_proj"},
       {RecomputeModule::EveryOtherMm, "every_other_mm"},
       {RecomputeModule::Moe, "moe"}};
constexpr std::span<const EnumName<RecomputeModule>> enumNames(RecomputeModule) { return kRecomputeModuleNames; }
inline const char* toString(RecomputeModule v) { return nameOf(v); }
// The modules of a mask, by name in the table's order (the scenario file's recompute_modules).
inline std::vector<std::string> recomputeModuleNames(unsigned mask)
{
    std::vector<std::string> names;
    for (const EnumName<RecomputeModule>& n : kRecomputeModuleNames)
        if (mask & unsigned(n.value))
            names.emplace_back(n.name);
    return names;
}

struct TrainingConfig {
    std::int64_t seq_len = 4096;
    std::int64_t micro_batch = 1;
    std::int64_t global_batch = 1024; // sequences per optimizer step
    Precision precision = Precision::Bf16;
    Fp8Recipe fp8_recipe = Fp8Recipe::Delayed; // with precision fp8
    // With precision fp8: the TP all-gathers of the linear layers' inputs (with SP) and the
    // ZeRO-3/FSDP per-layer parameter all-gathers carry the FP8 copies, 1 byte per element
    // (torchtitan's Float8 tensor-parallel plan and enable_fsdp_float8_all_gather); gradients
    // and reductions stay bf16.
    bool fp8_comm = false;
    bool fp8Gathers() const { return precision == Precision::Fp8 && fp8_comm; }
    // With precision fp8: the linear layers keep their inputs for the backward as the FP8 copy
    // their forward GEMM already made, 1 byte per element instead of 2 (DeepSeek-V3 §3.3.2
    // "cache the activations in FP8 format for the backward pass of the Linear operator"). The
    // attention's output, which the attention backward reads too, stays 16-bit, as DeepSeek-V3
    // keeps it in a wider format. Off by default: torchao's Float8Linear (torchtitan) keeps the
    // 16-bit input and casts again in the backward.
    bool fp8_activations = false;
    bool fp8Activations() const { return precision == Precision::Fp8 && fp8_activations; }
    // MoE routing: tokens per expert on the busiest expert rank over the mean. A capacity factor
    // > 0 drops tokens beyond capacity·mean and pads every expert to it (Megatron
    // --moe-expert-capacity-factor with --moe-pad-expert-input-to-capacity); 0 is dropless, where
    // moe_load_imbalance (≥ 1; 1 = perfectly balanced) is the what-if for the busiest rank.
    double moe_capacity_factor = 0;
    double moe_load_imbalance = 1;
    double moeLoad() const { return moe_capacity_factor > 0 ? moe_capacity_factor : moe_load_imbalance; }
    GradDtype grad_dtype = GradDtype::Bf16;
    GradComm grad_comm = GradComm::Same;
    // PowerSGD's rank r and top-k's share of elements kept, in ‰ (comm/grad_compression.h):
    // PyTorch's powerSGD_hook starts at rank 1, Vogels et al. 2019 trained at 2–4; Deep Gradient
    // Compression (Lin et al. 2018) kept 0.1 % (1 ‰).
    int powersgd_rank = 4;
    int topk_permille = 1;
    // Bytes of one activation element: bf16 (FP8 recipes keep activations and gradients in bf16),
    // fp32 when training in fp32. What a TP/CP collective, a copy or the logits move per element.
    double activationBytes() const { return precision == Precision::Fp32 ? 4.0 : 2.0; }
    double topkDensity() const { return topk_permille / 1000.0; }
    // Bytes per gradient element in a quantized (or plain) data-parallel reduction; PowerSGD and
    // top-k are sketches whose wire volume depends on the model (comm/grad_compression.h): here
    // the gradients' own width, what the sharded (ZeRO) reductions send with them.
    double gradWireBytes() const
    {
        switch (grad_comm) {
        case GradComm::Bf16: return 2;
        case GradComm::Fp8: return 1;
        case GradComm::OneBit: return 1.0 / 8;
        case GradComm::Same:
        case GradComm::PowerSgd:
        case GradComm::TopK: break;
        }
        return (precision == Precision::Fp32 || grad_dtype == GradDtype::Fp32) ? 4 : 2;
    }
    Optimizer optimizer = Optimizer::AdamW;
    Recompute recompute = Recompute::Selective;
    unsigned recompute_modules = unsigned(RecomputeModule::CoreAttn); // with selective recompute
    bool recomputes(RecomputeModule m) const
    {
        return recompute == Recompute::Selective && (recompute_modules & unsigned(m));
    }
    // Selective recompute with module m added to the modules already chosen (a remedy).
    void addRecomputeModule(RecomputeModule m)
    {
        recompute = Recompute::Selective;
        recompute_modules |= unsigned(m);
    }
    bool flash_attention = true;
    AttentionKernel attention_kernel = AttentionKernel::Cudnn; // with flash_attention
    // The model code expands K and V to every query head before the attention kernel (GQA's
    // repeat_kv: torchtitan's Llama until pytorch/torchtitan#2259, Hugging Face's eager
    // attention): CP moves keys and values at the query heads' width, and the copy runs in the
    // forward and again in the backward (time/layer_ops.cpp kvRepeat).
    bool repeat_kv = false;
    // The input projections in one GEMM each (Megatron's linear_qkv and linear_fc1 with gate and up
    // in one weight), or one GEMM per weight as torchtitan's and Hugging Face's Llama write them
    // (wq, wk, wv; SwiGLU's w1 and w3): each further GEMM pays the size curve's fixed cost, and
    // under async TP in every chunk; the input gradient sums the partial products (layer_ops.cpp
    // OpList::separate).
    bool fused_projections = true;
    CrossEntropy cross_entropy = CrossEntropy::Fused;
    CudaGraphs cuda_graphs = CudaGraphs::None;
    // The MoE layers replay as graphs: no host issues their kernels, none reads token counts back.
    bool moeGraphed() const { return cuda_graphs == CudaGraphs::Layers || cuda_graphs == CudaGraphs::FullIteration; }
};

} // namespace parascope
