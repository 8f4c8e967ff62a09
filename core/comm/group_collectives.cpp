#include "comm/group_collectives.h"

#include "comm/grad_compression.h"
#include "comm/plan_builder.h"
#include "schedule/pipeline_geometry.h"

#include <algorithm>
#include <cmath>

namespace parascope {

using comm_plan::Builder;

namespace {

// What every group's volumes start from: the microbatches, the activation bytes, the sequence
// shard one GPU holds and the stage's layers.
struct Shape {
    double mb, act_bytes, s, bsz, h, L, Lmoe;
    bool sp, full;
};

Shape shapeOf(const CommInputs& in)
{
    const ParallelConfig& p = in.parallel;
    const TrainingConfig& t = in.training;
    return {double(std::max(1LL, in.microbatches)),
            t.activationBytes(),
            double(t.seq_len) / p.cp,
            double(t.micro_batch),
            double(in.model.hidden),
            double(in.stage_layers),
            double(in.stage_moe_layers),
            p.sequence_parallel && p.tp > 1,
            t.recompute == Recompute::Full};
}

constexpr const char* kTpSource = "Shoeybi et al. 2019 (Megatron) §3; Korthikanti et al. 2022 §4.2.2 (SP)";

const char* reduceScatterText(const ModelSpec& m)
{
    return m.parallel_block ? "1 RS fwd + 1 RS bwd per layer (parallel block), S = s·b·h·2"
                            : "2 RS fwd + 2 RS bwd per layer, S = s·b·h·2";
}

// PyTorch's ring with the allgather rotation (CpComm::RingAllGather): one all-gather of K and V
// per pass (the forward's, a full recompute's, and the backward's own), and the K/V gradients,
// accumulated in fp32, sent on around the ring after every block of the backward: cp sends per
// layer (torch/distributed/tensor/experimental/_attention.py, _templated_ring_attention_backward:
// the dkv rotater is an all-to-all permute whatever the rotate method).
void ringAllGatherCollectives(Builder& b, const Shape& x, double kv, double cp)
{
    const char* src = "PyTorch context_parallel, rotate method allgather "
                      "(torch/distributed/tensor/experimental/_attention.py); torchtitan";
    b.add(Group::Cp, Collective::AllGather, Purpose::Kv, (x.full ? 3 : 2) * x.L * x.mb,
          x.s * cp * x.bsz * kv * x.act_bytes, x.mb, Overlap::Attention,
          "1 AG per layer and pass (forward, backward, +1 with full recompute), S = s·b·(k + v)/t·2, behind the first "
          "block",
          src);
    b.add(Group::Cp, Collective::SendRecv, Purpose::Gradients, cp * x.L * x.mb, x.s * x.bsz * kv * 4, x.mb,
          Overlap::Attention,
          "cp sends per layer backward, S = (s/cp)·b·(k + v)/t·4 (fp32 dK, dV), each behind the next block", src);
}

// Megatron's gradient bucket, or the one the scenario sets.
double bucket(const ParallelConfig& p, std::int64_t dp)
{
    return p.grad_bucket_mparams > 0 ? p.grad_bucket_mparams * 1e6 : bucketParams(dp);
}

} // namespace

double kernelKvWidth(const ModelSpec& m, const ParallelConfig& p, bool repeat_kv)
{
    // The KV heads split with TP, repeated on each rank once TP exceeds them.
    const double split = repeat_kv ? double(p.tp) : std::min<double>(p.tp, std::max(1, m.kv_heads));
    return double(m.kernelKeyWidth(repeat_kv) + m.kernelValueWidth(repeat_kv)) / split;
}

// Per layer 2 all-reduces forward (after attention and MLP) and 2 backward of s·b·h; full
// recompute repeats the forward ones.
std::vector<CommEntry> tensorParallelCollectives(const CommInputs& in)
{
    Builder b{in, {}};
    const Shape x = shapeOf(in);
    const ParallelConfig& p = in.parallel;
    if (p.tp <= 1 || x.sp)
        return {};
    const double S = x.s * x.bsz * x.h * x.act_bytes;
    const double per_layer = callsPerLayer(tpCollectivesPerLayer(in.model), x.full);
    b.add(Group::Tp, Collective::AllReduce, Purpose::Activations, per_layer * x.L * x.mb, S, x.mb,
          p.tp_comm_overlap ? Overlap::LinearLayers : Overlap::None,
          in.model.parallel_block ? "1 AR fwd + 1 AR bwd per layer (parallel block), S = s·b·h·2"
                                  : "2 AR fwd + 2 AR bwd per layer, S = s·b·h·2",
          kTpSource);
    return b.out;
}

// With SP each all-reduce becomes an all-gather + reduce-scatter pair of the same size.
std::vector<CommEntry> sequenceParallelCollectives(const CommInputs& in)
{
    Builder b{in, {}};
    const Shape x = shapeOf(in);
    const ParallelConfig& p = in.parallel;
    const TrainingConfig& t = in.training;
    const ModelSpec& m = in.model;
    if (!x.sp)
        return {};
    const double S = x.s * x.bsz * x.h * x.act_bytes, n = tpCollectivesPerLayer(m);
    const double per_layer = callsPerLayer(n, x.full);
    const Overlap ov = p.tp_comm_overlap ? Overlap::LinearLayers : Overlap::None;
    // torchtitan's op SAC (every_other_mm) keeps the reduce-scatters' outputs but gathers the
    // inputs of the matmuls it recomputes again in the backward.
    const bool regather = !x.full && t.recomputes(RecomputeModule::EveryOtherMm);
    if (t.fp8Gathers()) {
        // The forward's (and a recompute's) all-gathers carry the FP8 inputs of QKV and the
        // MLP; the backward's, gathering output gradients, stay bf16.
        b.add(Group::Tp, Collective::AllGather, Purpose::Activations, (x.full || regather ? 2 : 1) * n * x.L * x.mb,
              S / 2, x.mb, ov, "AG of the FP8 inputs per layer forward (and recompute), S = s·b·h·1", kTpSource);
        b.add(Group::Tp, Collective::AllGather, Purpose::Gradients, n * x.L * x.mb, S, x.mb, ov,
              "AG of the output gradients per layer backward, S = s·b·h·2", kTpSource);
    } else {
        b.add(Group::Tp, Collective::AllGather, Purpose::Activations, (per_layer + (regather ? n : 0)) * x.L * x.mb, S,
              x.mb, ov,
              regather ? "2 AG fwd + 2 AG bwd + 2 AG again for op-SAC's recompute per layer, S = s·b·h·2"
                  : m.parallel_block ? "1 AG fwd + 1 AG bwd per layer (parallel block), S = s·b·h·2"
                                     : "2 AG fwd + 2 AG bwd per layer, S = s·b·h·2",
              kTpSource);
    }
    b.add(Group::Tp, Collective::ReduceScatter, Purpose::Activations, per_layer * x.L * x.mb, S, x.mb, ov,
          reduceScatterText(m), kTpSource);
    return b.out;
}

// Ring attention (Megatron context_parallel.rst): per layer the K/V chunk travels cp−1 steps
// forward; backward sends K/V and dK/dV again: 3·(cp−1) sends of 2·(s/cp)·b·g·d·2 bytes (MLA: K
// a·(d_nope + d_rope) and V a·d_v per token, after the up projection). Ulysses (DeepSpeed-Ulysses,
// Jacobs et al. 2023 §3): one all-to-all turns the rank's sequence shard of Q, K, V into all
// tokens of 1/cp of the heads, one turns the output back; the backward does both in reverse; not
// hidden. All-gather (Llama 3 §3.3.2): every rank gathers all K and V before its attention and
// reduce-scatters their gradients in the backward; not hidden.
std::vector<CommEntry> contextParallelCollectives(const CommInputs& in)
{
    Builder b{in, {}};
    const Shape x = shapeOf(in);
    const ParallelConfig& p = in.parallel;
    const ModelSpec& m = in.model;
    if (p.cp <= 1)
        return {};
    const double kv = kernelKvWidth(m, p, in.training.repeat_kv);
    if (p.cp_comm == CpComm::RingAllGather) {
        ringAllGatherCollectives(b, x, kv, double(p.cp));
    } else if (p.cp_comm == CpComm::P2p) {
        const double per_layer = (1 + kCpBackwardSendsPerStep) * (p.cp - 1) + (x.full ? (p.cp - 1) : 0);
        b.add(Group::Cp, Collective::SendRecv, Purpose::Kv, per_layer * x.L * x.mb, x.s * x.bsz * kv * x.act_bytes,
              x.mb, Overlap::Attention, "3·(cp−1) sends per layer, S = 2·(s/cp)·b·(g·d/t)·2",
              "Megatron-LM context_parallel.rst (ring attention)");
    } else if (p.cp_comm == CpComm::A2a) {
        const double tp = p.tp;
        const double S_qkv = x.s * x.bsz * (double(m.queryWidth()) / tp + kv) * x.act_bytes;
        const double S_out = x.s * x.bsz * double(m.attentionOutWidth()) / tp * x.act_bytes;
        const double per_layer = callsPerLayer(kCpAllToAllsPerDirection, x.full);
        const char* src = "Jacobs et al. 2023 (DeepSpeed-Ulysses) §3; Megatron-LM --cp-comm-type a2a";
        b.add(Group::Cp, Collective::AllToAll, Purpose::Kv, per_layer * x.L * x.mb, S_qkv, x.mb, Overlap::None,
              "1 fwd + 1 bwd per layer, S = (s/cp)·b·(q/t + (k + v)/t)·2 (sequence → heads)", src);
        b.add(Group::Cp, Collective::AllToAll, Purpose::Activations, per_layer * x.L * x.mb, S_out, x.mb, Overlap::None,
              "1 fwd + 1 bwd per layer, S = (s/cp)·b·o/t·2 (heads → sequence)", src);
    } else {
        const double S = x.s * p.cp * x.bsz * kv * x.act_bytes;
        const char* src = "Megatron-LM --cp-comm-type allgather; torchtitan context parallel (allgather rotation)";
        b.add(Group::Cp, Collective::AllGather, Purpose::Kv, (x.full ? 2 : 1) * x.L * x.mb, S, x.mb, Overlap::None,
              "1 AG per layer forward (+1 with full recompute), S = s·b·(k + v)/t·2 (all keys and values)", src);
        b.add(Group::Cp, Collective::ReduceScatter, Purpose::Gradients, x.L * x.mb, S, x.mb, Overlap::None,
              "1 RS per layer backward, S = s·b·(k + v)/t·2 (their gradients)", src);
    }
    return b.out;
}

// Dispatch + combine all-to-all forward and again backward per MoE layer; each carries the
// microbatch's tokens × top_k × h, the busiest rank's share (t.moeLoad() times the mean).
std::vector<CommEntry> expertParallelCollectives(const CommInputs& in)
{
    Builder b{in, {}};
    const Shape x = shapeOf(in);
    const ParallelConfig& p = in.parallel;
    const TrainingConfig& t = in.training;
    const ModelSpec& m = in.model;
    if (p.ep <= 1 || x.Lmoe <= 0 || !m.moe)
        return {};
    const double S = x.s * x.bsz / (x.sp ? p.tp : 1) * m.moe->top_k * x.h * x.act_bytes * t.moeLoad();
    // Recomputing the whole MoE block (--recompute-modules moe) dispatches and combines again.
    const bool again = x.full || t.recomputes(RecomputeModule::Moe);
    b.add(Group::Ep, Collective::AllToAll, Purpose::Tokens,
          callsPerLayer(kEpAllToAllsPerMoeLayer, again) * x.Lmoe * x.mb, S, x.mb,
          scheduleRow(p.schedule).overlaps_f_and_b ? Overlap::Forward : Overlap::None,
          again ? "6 all-to-all per MoE layer (recompute repeats dispatch and combine), S = s·b·top_k·h·2 (× the "
                  "busiest rank's load)"
                : "4 all-to-all per MoE layer, S = s·b·top_k·h·2 (× the busiest rank's load)",
          "Lepikhin et al. 2020 (GShard); Megatron MoE README");
    if (p.moe_dispatcher == MoeDispatcher::DeepEp)
        b.dedupLast(double(m.moe->top_k), double(m.moe->experts));
    return b.out;
}

namespace {

// DualPipe keeps two copies of every stage (rank r and rank p−1−r hold stages r and p−1−r, one
// per direction): once per step the pair all-reduces the gradients of the rank's two stages, each
// GPU's own (after ZeRO-2/3 sharding), as the data-parallel reduction does. Ranks 0 and p−1 are
// the farthest pair: across nodes when the pipeline spans them.
void mirroredPair(Builder& b)
{
    const CommInputs& in = b.in;
    const ParallelConfig& p = in.parallel;
    const GroupPlacement& whole = in.placement.group(Group::Pp);
    GroupPlacement pair = whole;
    pair.size = 2;
    pair.nodes = whole.nodes > 1 ? 2 : 1;
    pair.ranks_per_node = pair.nodes == 2 ? 1 : 2;
    pair.link = pair.nodes == 2 ? Link::Network : whole.link;
    const double dense = in.dense_params / (p.zero >= 2 ? double(p.zeroShard()) : 1);
    const double experts = in.expert_params / (p.zero >= 2 ? p.expertZeroShard() : 1);
    const double params = dense + experts;
    const double buckets = std::max(1.0, std::ceil(params / bucket(p, 2)));
    b.add(
        Group::Pp, Collective::AllReduce, Purpose::Gradients, buckets, params * in.training.gradWireBytes() / buckets,
        1, p.overlap_grad_reduce ? Overlap::Backward : Overlap::None,
        [&] {
            return "all-reduce over the mirrored pair (r, p−1−r) of the rank's two stages' gradients, Ψ = "
                + num(params) + " params in " + num(buckets) + " calls, once per step";
        },
        "DeepSeek-V3 report §3.2.1 (DualPipe keeps two copies of the model parameters); deepseek-ai/DualPipe", &pair);
}

} // namespace

// One send of the activation forward and one of its gradient backward per microbatch and stage
// boundary; interleaving crosses v times as many boundaries (Narayanan 2021 §2.2.2); V-shaped
// schedules two per rank (DualPipe one: each microbatch takes one direction). SP scatters the
// tensor over TP ranks (Narayanan §4.1).
std::vector<CommEntry> pipelineParallelCollectives(const CommInputs& in)
{
    Builder b{in, {}};
    const Shape x = shapeOf(in);
    const ParallelConfig& p = in.parallel;
    if (p.pp <= 1)
        return {};
    const double S = x.s * x.bsz * x.h * x.act_bytes / (x.sp ? p.tp : 1);
    const double chunks = passesPerRank(p);
    const char* src = "Narayanan et al. 2021 §2.2, §4.1";
    for (const Purpose what : {Purpose::Activations, Purpose::Gradients}) {
        b.add(Group::Pp, Collective::SendRecv, what, chunks * x.mb, S, 1, Overlap::PipelineFill,
              x.sp ? "v·m sends, S = s·b·h·2/t" : "v·m sends, S = s·b·h·2", src);
        b.addBoundaries(S);
    }
    if (isBidirectional(p.schedule))
        mirroredPair(b);
    return b.out;
}

namespace {

// ZeRO-3 / FSDP gathers each layer's parameters (one FSDP unit per layer) for its forward and
// again for its backward, which also serves the recompute of full recompute (FSDP's pre-backward
// hook runs before the checkpointed forward): 2 gathers per microbatch, 1 without
// reshard_after_forward; and reduce-scatters each layer's gradients in the backward. These
// per-layer collectives run like every other one: NCCL drives all of a node's rails, so the
// two-level cost applies (NVLink inside the node, then 1/k of the data per NIC across nodes).
void fullySharded(Builder& b, Group group, double params, const GroupPlacement* on, Overlap grad_ov, Overlap param_ov)
{
    const ParallelConfig& p = b.in.parallel;
    const TrainingConfig& t = b.in.training;
    const double mb = double(std::max(1LL, b.in.microbatches));
    const double units = std::max(1.0, double(b.in.stage_layers));
    const double gathers = p.reshard_after_forward ? 2 : 1;
    const double w_bytes = t.precision == Precision::Fp32 ? 4 : 2;
    const double gather_bytes = t.fp8Gathers() ? 1 : w_bytes; // FSDP float8 all-gather
    const char* fsdp
        = "Zhao et al. 2023 (PyTorch FSDP) §3.2–3.3: per-unit all-gather, prefetched; reshard_after_forward";
    const auto vol = [&](const char* what) {
        return [=] { return what + std::string("Ψ = ") + num(params) + " params in " + num(units) + " calls"; };
    };
    b.add(group, Collective::AllGather, Purpose::Parameters, gathers * units * mb, params * gather_bytes / units,
          gathers * mb, param_ov,
          vol(p.reshard_after_forward
                  ? "all-gather per layer, forward + backward, per microbatch of "
                  : "all-gather per layer, forward only (kept for the backward), per microbatch of "),
          fsdp, on);
    b.add(group, Collective::ReduceScatter, Purpose::Gradients, units * mb, params * t.gradWireBytes() / units, mb,
          grad_ov, vol("reduce-scatter per layer per microbatch of "), fsdp, on);
}

// DDP's once-per-step reduction of every bucket: an all-reduce of the gradients (or of their
// quantized copy); PowerSGD's two all-reduces (P, then Q) of r·(n + m) per n·m elements; top-k's
// all-gather of every rank's k values and indices (comm/grad_compression.h).
template <class Vol>
void ddpReduction(Builder& b, Group group, double params, double buckets, double updates, Overlap grad_ov,
                  const Vol& vol, const char* src)
{
    const CommInputs& in = b.in;
    const TrainingConfig& t = in.training;
    const GradWire w = gradWire(in.model, in.parallel, t);
    const double n = double(in.placement.group(group).size);
    if (w.gathered) {
        b.add(group, Collective::AllGather, Purpose::Gradients, updates * buckets,
              n * params * w.bytes_per_element / buckets, updates, grad_ov, vol("all-gather of every rank's top-k of "),
              w.source);
        return;
    }
    const double calls = buckets * w.calls_per_bucket;
    b.add(group, Collective::AllReduce, Purpose::Gradients, updates * calls, params * w.bytes_per_element / calls,
          updates, grad_ov, vol(w.calls_per_bucket > 1 ? "all-reduce of P and Q (PowerSGD) of " : "all-reduce of "),
          *w.source ? w.source : src);
}

// The data-parallel group over `group`'s GPUs, for `params` parameters per GPU. HSDP (shard_size
// < dp·cp, ZeRO ≥ 1): the ZeRO collectives run inside each shard group (shard_size consecutive
// ranks of dp·cp, stride tp), and once per step the gradient shard (Ψ/shard_size) is
// all-reduced across the dp·cp/shard_size replicas (stride tp·shard_size): PyTorch FSDP
// HYBRID_SHARD (Zhao et al. 2023 §3.2.2).
void dataParallelGroup(Builder& b, Group group, double params)
{
    const CommInputs& in = b.in;
    const ParallelConfig& p = in.parallel;
    const TrainingConfig& t = in.training;
    const GroupPlacement& whole = in.placement.group(group);
    if (whole.size <= 1 || params <= 0)
        return;
    const bool hybrid = group == Group::DpCp && p.zero >= 1 && p.shard_size > 0 && p.shard_size < whole.size;
    const GroupPlacement shard = hybrid ? placeGroup(group, p.shard_size, whole.stride, in.cluster) : whole;
    const GroupPlacement replicas
        = hybrid ? placeGroup(group, whole.size / p.shard_size, whole.stride * p.shard_size, in.cluster) : whole;
    const GroupPlacement* on = hybrid ? &shard : nullptr;
    const double mb = double(std::max(1LL, in.microbatches)), w_bytes = t.precision == Precision::Fp32 ? 4 : 2;
    const double grad_bytes = t.gradWireBytes(), buckets = std::ceil(params / bucket(p, shard.size));
    const Overlap grad_ov = p.overlap_grad_reduce ? Overlap::Backward : Overlap::None;
    const Overlap param_ov = p.overlap_grad_reduce ? Overlap::Forward : Overlap::None;
    const char* src = t.grad_comm == GradComm::Same
        ? "Rajbhandari et al. 2019 (ZeRO) §7; Megatron distrib_optimizer.md; bucket max(40M, 1M·dp) params"
        : "Rajbhandari et al. 2019 (ZeRO) §7; gradients compressed on the wire: FP8-LM (Peng et al. 2023) "
          "§3.1, 1-bit Adam (Tang et al. 2021); bucket max(40M, 1M·dp) params unless set";
    const auto vol = [&](const char* what) {
        return [=] { return what + std::string("Ψ = ") + num(params) + " params in " + num(buckets) + " calls"; };
    };
    // PipeDream updates the weights after every microbatch: the reduction and the gather of the
    // updated weights run m times a step (parallel.async_pipeline).
    const double updates = p.asyncPipeline() && p.async_pipeline == AsyncPipeline::PipeDream ? mb : 1;
    if (p.zero == 0)
        ddpReduction(b, group, params, buckets, updates, grad_ov, vol, src);
    if (p.zero == 1 || p.zero == 2) // ZeRO-2 must reduce-scatter every microbatch: its gradients are sharded
        b.add(group, Collective::ReduceScatter, Purpose::Gradients, p.zero == 2 ? buckets * mb : buckets * updates,
              params * grad_bytes / buckets, p.zero == 2 ? mb : updates, grad_ov,
              vol(p.zero == 2 ? "reduce-scatter per microbatch of " : "reduce-scatter of "), src, on);
    if (p.zero == 1 || p.zero == 2)
        b.add(group, Collective::AllGather, Purpose::Parameters, buckets * updates, params * w_bytes / buckets, updates,
              param_ov, vol("all-gather of updated "), src, on);
    if (p.zero >= 3)
        fullySharded(b, group, params, on, grad_ov, param_ov);
    if (hybrid)
        b.add(
            group, Collective::AllReduce, Purpose::Gradients, buckets, params * grad_bytes / p.shard_size / buckets, 1,
            grad_ov,
            [&] {
                return "all-reduce across " + num(double(replicas.size)) + " replicas of the gradient shard Ψ/"
                    + num(double(p.shard_size)) + ", once per step";
            },
            "Zhao et al. 2023 (PyTorch FSDP) §3.2.2 hybrid sharding", &replicas);
}

} // namespace

// Over dp·cp (ZeRO paper §7; Megatron distributed optimizer): gradients once per step
// (all-reduce, or reduce-scatter + parameter all-gather with ZeRO-1), bucketed; ZeRO-2 reduce-
// scatters every microbatch; ZeRO-3 / FSDP per layer. Then the same for the expert parameters
// over the expert-data-parallel group. On the wire: the gradients as they are, or compressed
// (training.grad_comm).
std::vector<CommEntry> dataParallelCollectives(const CommInputs& in)
{
    Builder b{in, {}};
    dataParallelGroup(b, Group::DpCp, in.dense_params);
    dataParallelGroup(b, Group::Edp, in.expert_params);
    return b.out;
}

} // namespace parascope
