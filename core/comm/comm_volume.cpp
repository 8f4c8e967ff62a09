#include "comm/comm_volume.h"

#include "comm/collective_cost.h"
#include "schedule/pipeline_geometry.h"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace parascope {

double bucketParams(std::int64_t dp)
{
    return std::max(40e6, 1e6 * double(dp));
}

namespace {

// A volume formula is either text or a function that writes it (when it needs numbers).
std::string volumeText(const char* text) { return text; }
template <class Write>
std::string volumeText(const Write& write) { return write(); }

struct Builder {
    const CommInputs& in;
    std::vector<CommEntry> out;

    // volume_formula and source explain the entry; they are only read when explaining.
    // `on` replaces the group's placement (HSDP's shard and replica groups are parts of dp·cp).
    template <class VolumeFormula>
    void add(Group group, Collective c, Purpose purpose, double calls, double S, double rounds, Overlap overlap,
             VolumeFormula&& volume_formula, const char* source, const GroupPlacement* on = nullptr)
    {
        const GroupPlacement& g = on ? *on : in.placement.group(group);
        if (calls <= 0 || S <= 0 || (g.size <= 1 && c != Collective::SendRecv))
            return;
        CommEntry e;
        e.group = group == Group::DpCp ? Group::Dp : group;
        e.collective = c;
        e.purpose = purpose;
        e.link = g.link;
        e.group_size = g.size;
        e.nodes_spanned = g.nodes;
        e.calls_per_step = calls;
        e.bytes_per_call = S;
        const double f = busFactor(c, g.size);
        e.bytes_per_gpu_per_step = calls * S * f;
        const CollectiveTime one = collectiveTime(c, S, g, in.cluster, false, in.explain);
        e.time_s = calls * one.seconds;
        e.rounds = rounds;
        e.overlap = overlap;
        if (in.explain == Explain::NumbersOnly) {
            out.push_back(std::move(e));
            return;
        }
        e.terms.push_back({"comm.bytes_per_gpu_per_step", e.bytes_per_gpu_per_step, "bytes",
                           "calls · S · factor(n)", num(calls) + "·" + num(S) + "·" + num(f) + "  [" + volumeText(volume_formula) + "]",
                           source});
        Term per_call = one.term;
        per_call.name = "comm.time_per_call";
        e.terms.push_back(per_call);
        e.terms.push_back({"comm.time", e.time_s, "s", "calls · t_call", num(calls) + "·" + num(one.seconds), source});
        out.push_back(std::move(e));
    }

    // The all-to-all entry just added, sent by DeepEP: one copy per GPU and per node of the
    // token's experts instead of one per expert (dedupAllToAllTime).
    void dedupLast(double top_k, double experts)
    {
        if (out.empty() || out.back().collective != Collective::AllToAll)
            return;
        CommEntry& e = out.back();
        const GroupPlacement& g = in.placement.group(e.group);
        const CollectiveTime one = dedupAllToAllTime(e.bytes_per_call, top_k, experts, g, in.cluster, in.explain);
        e.time_s = e.calls_per_step * one.seconds;
        if (in.explain == Explain::NumbersOnly)
            return;
        for (Term& term : e.terms) {
            if (term.name == "comm.time_per_call") {
                term = one.term;
                term.name = "comm.time_per_call";
            } else if (term.name == "comm.time") {
                term = {"comm.time", e.time_s, "s", "calls · t_call", num(e.calls_per_step) + "·" + num(one.seconds), term.source};
            }
        }
    }

    // The PP entry just added: one send of S across each stage boundary over that boundary's own
    // link (a pair of GPUs, inside a node or across two). The entry keeps the slowest boundary.
    void addBoundaries(double S)
    {
        if (out.empty() || out.back().group != Group::Pp)
            return;
        CommEntry& e = out.back();
        double slowest = 0;
        GroupPlacement slowest_pair;
        for (const PipelineBoundary& pb : in.placement.pp_boundaries) {
            GroupPlacement pair = in.placement.group(Group::Pp);
            pair.size = 2;
            pair.nodes = pb.link == Link::Network ? 2 : 1;
            pair.ranks_per_node = pair.nodes == 2 ? 1 : 2;
            pair.link = pb.link;
            const double t = collectiveTime(Collective::SendRecv, S, pair, in.cluster, false, Explain::NumbersOnly).seconds;
            e.boundaries.push_back({pb, t});
            if (t > slowest) {
                slowest = t;
                slowest_pair = pair;
                e.link = pb.link;
            }
        }
        if (slowest <= 0 || e.calls_per_step <= 0)
            return;
        e.time_s = e.calls_per_step * slowest;
        if (in.explain == Explain::NumbersOnly)
            return;
        for (Term& term : e.terms) {
            if (term.name == "comm.time_per_call") {
                term = collectiveTime(Collective::SendRecv, S, slowest_pair, in.cluster, false, Explain::Full).term;
                term.name = "comm.time_per_call";
            } else if (term.name == "comm.time") {
                term = {"comm.time", e.time_s, "s", "calls · t_call (slowest stage boundary)",
                        num(e.calls_per_step) + "·" + num(slowest), term.source};
            }
        }
    }
};

} // namespace

std::vector<CommEntry> communicationPlan(const CommInputs& in)
{
    Builder b{in, {}};
    const ParallelConfig& p = in.parallel;
    const TrainingConfig& t = in.training;
    const ModelSpec& m = in.model;
    const double mb = double(std::max(1LL, in.microbatches));
    const double act_bytes = t.precision == Precision::Fp32 ? 4 : 2;
    const double s = double(t.seq_len) / p.cp, bsz = double(t.micro_batch), h = double(m.hidden);
    const bool sp = p.sequence_parallel && p.tp > 1;
    const bool full = t.recompute == Recompute::Full;
    const double L = in.stage_layers, Lmoe = in.stage_moe_layers;

    // TP (Shoeybi et al. 2019): per layer 2 all-reduces forward (after attention and MLP) and 2
    // backward of s·b·h; with SP (Korthikanti 2022 §4.2.2) each becomes an all-gather +
    // reduce-scatter pair of the same size. Full recompute repeats the forward ones.
    if (p.tp > 1) {
        const double S = s * bsz * h * act_bytes;
        const double per_layer = callsPerLayer(tpCollectivesPerLayer(m), full);
        const Overlap ov = p.tp_comm_overlap ? Overlap::LinearLayers : Overlap::None;
        const char* src = "Shoeybi et al. 2019 (Megatron) §3; Korthikanti et al. 2022 §4.2.2 (SP)";
        // torchtitan's op SAC (every_other_mm) keeps the reduce-scatters' outputs but gathers the
        // inputs of the matmuls it recomputes again in the backward.
        const bool regather = sp && !full && t.recomputes(RecomputeModule::EveryOtherMm);
        if (sp && t.fp8Gathers()) {
            // The forward's (and a recompute's) all-gathers carry the FP8 inputs of QKV and the
            // MLP; the backward's, gathering output gradients, stay bf16.
            const double n = tpCollectivesPerLayer(m);
            b.add(Group::Tp, Collective::AllGather, Purpose::Activations, (full || regather ? 2 : 1) * n * L * mb, S / 2, mb, ov,
                  "AG of the FP8 inputs per layer forward (and recompute), S = s·b·h·1", src);
            b.add(Group::Tp, Collective::AllGather, Purpose::Gradients, n * L * mb, S, mb, ov,
                  "AG of the output gradients per layer backward, S = s·b·h·2", src);
            b.add(Group::Tp, Collective::ReduceScatter, Purpose::Activations, per_layer * L * mb, S, mb, ov,
                  m.parallel_block ? "1 RS fwd + 1 RS bwd per layer (parallel block), S = s·b·h·2"
                                   : "2 RS fwd + 2 RS bwd per layer, S = s·b·h·2", src);
        } else if (sp) {
            b.add(Group::Tp, Collective::AllGather, Purpose::Activations,
                  (per_layer + (regather ? tpCollectivesPerLayer(m) : 0)) * L * mb, S, mb, ov,
                  regather ? "2 AG fwd + 2 AG bwd + 2 AG again for op-SAC's recompute per layer, S = s·b·h·2"
                  : m.parallel_block ? "1 AG fwd + 1 AG bwd per layer (parallel block), S = s·b·h·2"
                                     : "2 AG fwd + 2 AG bwd per layer, S = s·b·h·2", src);
            b.add(Group::Tp, Collective::ReduceScatter, Purpose::Activations, per_layer * L * mb, S, mb, ov,
                  m.parallel_block ? "1 RS fwd + 1 RS bwd per layer (parallel block), S = s·b·h·2"
                                   : "2 RS fwd + 2 RS bwd per layer, S = s·b·h·2", src);
        } else {
            b.add(Group::Tp, Collective::AllReduce, Purpose::Activations, per_layer * L * mb, S, mb, ov,
                  m.parallel_block ? "1 AR fwd + 1 AR bwd per layer (parallel block), S = s·b·h·2"
                                   : "2 AR fwd + 2 AR bwd per layer, S = s·b·h·2", src);
        }
    }

    // K and V of one TP rank: split with the KV heads (GQA heads repeat when TP exceeds them).
    const double kv_split = std::min<double>(p.tp, std::max(1, m.kv_heads));

    // CP (ring attention, Megatron context_parallel.rst): per layer the K/V chunk travels cp−1
    // steps forward; backward sends K/V and dK/dV again: 3·(cp−1) sends of 2·(s/cp)·b·g·d·2 bytes
    // (MLA: K a·(d_nope + d_rope) and V a·d_v per token, after the up projection).
    if (p.cp > 1 && p.cp_comm == CpComm::P2p) {
        const double S = s * bsz * double(m.kvWidth() + m.valueWidth()) / kv_split * act_bytes;
        const double per_layer = (1 + kCpBackwardSendsPerStep) * (p.cp - 1) + (full ? (p.cp - 1) : 0);
        b.add(Group::Cp, Collective::SendRecv, Purpose::Kv, per_layer * L * mb, S, mb, Overlap::Attention,
              "3·(cp−1) sends per layer, S = 2·(s/cp)·b·(g·d/t)·2", "Megatron-LM context_parallel.rst (ring attention)");
    }
    // CP a2a (DeepSpeed-Ulysses, Jacobs et al. 2023 §3): before the attention one all-to-all
    // turns the rank's sequence shard of Q, K, V (all its TP heads) into all tokens of 1/cp of the
    // heads, after it one turns the output back; the backward does both in reverse. Not hidden:
    // the attention waits for them.
    if (p.cp > 1 && p.cp_comm == CpComm::A2a) {
        const double tp = p.tp;
        const double S_qkv = s * bsz * (double(m.queryWidth()) / tp + double(m.kvWidth() + m.valueWidth()) / kv_split) * act_bytes;
        const double S_out = s * bsz * double(m.attentionOutWidth()) / tp * act_bytes;
        const double per_layer = callsPerLayer(kCpAllToAllsPerDirection, full);
        const char* src = "Jacobs et al. 2023 (DeepSpeed-Ulysses) §3; Megatron-LM --cp-comm-type a2a";
        b.add(Group::Cp, Collective::AllToAll, Purpose::Kv, per_layer * L * mb, S_qkv, mb, Overlap::None,
              "1 fwd + 1 bwd per layer, S = (s/cp)·b·(q/t + (k + v)/t)·2 (sequence → heads)", src);
        b.add(Group::Cp, Collective::AllToAll, Purpose::Activations, per_layer * L * mb, S_out, mb, Overlap::None,
              "1 fwd + 1 bwd per layer, S = (s/cp)·b·o/t·2 (heads → sequence)", src);
    }
    // CP allgather (Llama 3 §3.3.2's context parallelism): every rank gathers all K and V before
    // its attention, and reduce-scatters their gradients in the backward. Not hidden.
    if (p.cp > 1 && p.cp_comm == CpComm::AllGather) {
        const double S = s * p.cp * bsz * double(m.kvWidth() + m.valueWidth()) / kv_split * act_bytes;
        const double forward = full ? 2 : 1;
        const char* src = "Megatron-LM --cp-comm-type allgather; torchtitan context parallel (allgather rotation)";
        b.add(Group::Cp, Collective::AllGather, Purpose::Kv, forward * L * mb, S, mb, Overlap::None,
              "1 AG per layer forward (+1 with full recompute), S = s·b·(k + v)/t·2 (all keys and values)", src);
        b.add(Group::Cp, Collective::ReduceScatter, Purpose::Gradients, L * mb, S, mb, Overlap::None,
              "1 RS per layer backward, S = s·b·(k + v)/t·2 (their gradients)", src);
    }

    // EP: dispatch + combine all-to-all forward and again backward per MoE layer; each carries
    // the microbatch's tokens × top_k × h.
    if (p.ep > 1 && Lmoe > 0 && m.moe) {
        // The busiest rank's share: t.moeLoad() times the mean (padded to capacity, or imbalance).
        const double S = s * bsz / (sp ? p.tp : 1) * m.moe->top_k * h * act_bytes * t.moeLoad();
        // Recomputing the whole MoE block (--recompute-modules moe) dispatches and combines again.
        const bool again = full || t.recomputes(RecomputeModule::Moe);
        const double per_layer = callsPerLayer(kEpAllToAllsPerMoeLayer, again);
        b.add(Group::Ep, Collective::AllToAll, Purpose::Tokens, per_layer * Lmoe * mb, S, mb,
              scheduleRow(p.schedule).overlaps_f_and_b ? Overlap::Forward : Overlap::None,
              again ? "6 all-to-all per MoE layer (recompute repeats dispatch and combine), S = s·b·top_k·h·2 (× the busiest rank's load)"
                    : "4 all-to-all per MoE layer, S = s·b·top_k·h·2 (× the busiest rank's load)", "Lepikhin et al. 2020 (GShard); Megatron MoE README");
        if (p.moe_dispatcher == MoeDispatcher::DeepEp)
            b.dedupLast(double(m.moe->top_k), double(m.moe->experts));
    }

    // PP: one send of the activation forward and one of its gradient backward per microbatch and
    // stage boundary; interleaving crosses v times as many boundaries (Narayanan 2021 §2.2.2);
    // V-shaped schedules two per rank (DualPipe one: each microbatch takes one direction). SP
    // scatters the tensor over TP ranks (Narayanan §4.1).
    if (p.pp > 1) {
        const double S = s * bsz * h * act_bytes / (sp ? p.tp : 1);
        const double chunks = passesPerRank(p);
        const char* src = "Narayanan et al. 2021 §2.2, §4.1";
        b.add(Group::Pp, Collective::SendRecv, Purpose::Activations, chunks * mb, S, 1, Overlap::PipelineFill,
              sp ? "v·m sends, S = s·b·h·2/t" : "v·m sends, S = s·b·h·2", src);
        b.addBoundaries(S);
        b.add(Group::Pp, Collective::SendRecv, Purpose::Gradients, chunks * mb, S, 1, Overlap::PipelineFill,
              sp ? "v·m sends, S = s·b·h·2/t" : "v·m sends, S = s·b·h·2", src);
        b.addBoundaries(S);
    }

    // DP over dp·cp (ZeRO paper §7; Megatron distributed optimizer): gradients once per step
    // (all-reduce, or reduce-scatter + parameter all-gather with ZeRO-1), bucketed. ZeRO-2 must
    // reduce-scatter every microbatch (its gradients are sharded). ZeRO-3 / FSDP gathers each
    // layer's parameters (one FSDP unit per layer) for its forward and again for its backward,
    // which also serves the recompute of full recompute (FSDP's pre-backward hook runs before
    // the checkpointed forward): 2 gathers per microbatch, 1 without reshard_after_forward; and
    // reduce-scatters each layer's gradients in the backward. These per-layer collectives run
    // like every other one: NCCL drives all of a node's rails, so the two-level cost applies
    // (NVLink inside the node, then 1/k of the data per NIC across nodes).
    //
    // HSDP (shard_size < dp·cp, ZeRO ≥ 1): the collectives above run inside each shard group
    // (shard_size consecutive ranks of dp·cp, stride tp), and once per step the gradient shard
    // (Ψ/shard_size) is all-reduced across the dp·cp/shard_size replicas (stride tp·shard_size):
    // PyTorch FSDP HYBRID_SHARD (Zhao et al. 2023 §3.2.2).
    // On the wire: the gradients as they are, or compressed (training.grad_comm).
    const double grad_bytes = t.gradWireBytes();
    const auto bucket = [&](std::int64_t dp) { return p.grad_bucket_mparams > 0 ? p.grad_bucket_mparams * 1e6 : bucketParams(dp); };
    const auto data_parallel = [&](Group group, double params) {
        const GroupPlacement& whole = in.placement.group(group);
        if (whole.size <= 1 || params <= 0)
            return;
        const bool hybrid = group == Group::DpCp && p.zero >= 1 && p.shard_size > 0 && p.shard_size < whole.size;
        const GroupPlacement shard = hybrid ? placeGroup(group, p.shard_size, whole.stride, in.cluster) : whole;
        const GroupPlacement replicas =
            hybrid ? placeGroup(group, whole.size / p.shard_size, whole.stride * p.shard_size, in.cluster) : whole;
        const GroupPlacement& g = shard;
        const GroupPlacement* on = hybrid ? &shard : nullptr;
        const double w_bytes = t.precision == Precision::Fp32 ? 4 : 2;
        const double buckets = std::ceil(params / bucket(g.size));
        const Overlap grad_ov = p.overlap_grad_reduce ? Overlap::Backward : Overlap::None;
        const Overlap param_ov = p.overlap_grad_reduce ? Overlap::Forward : Overlap::None;
        const char* src = t.grad_comm == GradComm::Same
                              ? "Rajbhandari et al. 2019 (ZeRO) §7; Megatron distrib_optimizer.md; bucket max(40M, 1M·dp) params"
                              : "Rajbhandari et al. 2019 (ZeRO) §7; gradients compressed on the wire: FP8-LM (Peng et al. 2023) "
                                "§3.1, 1-bit Adam (Tang et al. 2021); bucket max(40M, 1M·dp) params unless set";
        const auto vol = [&](const char* what, double calls) {
            return [=] { return what + std::string("Ψ = ") + num(params) + " params in " + num(calls) + " calls"; };
        };
        switch (p.zero) {
        case 0:
            b.add(group, Collective::AllReduce, Purpose::Gradients, buckets, params * grad_bytes / buckets, 1, grad_ov,
                  vol("all-reduce of ", buckets), src);
            break;
        case 1:
            b.add(group, Collective::ReduceScatter, Purpose::Gradients, buckets, params * grad_bytes / buckets, 1, grad_ov,
                  vol("reduce-scatter of ", buckets), src, on);
            b.add(group, Collective::AllGather, Purpose::Parameters, buckets, params * w_bytes / buckets, 1, param_ov,
                  vol("all-gather of updated ", buckets), src, on);
            break;
        case 2:
            b.add(group, Collective::ReduceScatter, Purpose::Gradients, buckets * mb, params * grad_bytes / buckets, mb,
                  grad_ov, vol("reduce-scatter per microbatch of ", buckets), src, on);
            b.add(group, Collective::AllGather, Purpose::Parameters, buckets, params * w_bytes / buckets, 1, param_ov,
                  vol("all-gather of updated ", buckets), src, on);
            break;
        default: {
            const double units = std::max(1.0, L);
            const double gathers = p.reshard_after_forward ? 2 : 1;
            const double gather_bytes = t.fp8Gathers() ? 1 : w_bytes; // FSDP float8 all-gather
            const char* fsdp = "Zhao et al. 2023 (PyTorch FSDP) §3.2–3.3: per-unit all-gather, prefetched; reshard_after_forward";
            b.add(group, Collective::AllGather, Purpose::Parameters, gathers * units * mb, params * gather_bytes / units, gathers * mb,
                  param_ov,
                  vol(p.reshard_after_forward ? "all-gather per layer, forward + backward, per microbatch of "
                                              : "all-gather per layer, forward only (kept for the backward), per microbatch of ",
                      units),
                  fsdp, on);
            b.add(group, Collective::ReduceScatter, Purpose::Gradients, units * mb, params * grad_bytes / units, mb, grad_ov,
                  vol("reduce-scatter per layer per microbatch of ", units), fsdp, on);
            break;
        }
        }
        if (hybrid)
            b.add(group, Collective::AllReduce, Purpose::Gradients, buckets, params * grad_bytes / p.shard_size / buckets, 1, grad_ov,
                  [&] { return "all-reduce across " + num(double(replicas.size)) + " replicas of the gradient shard Ψ/" +
                               num(double(p.shard_size)) + ", once per step"; },
                  "Zhao et al. 2023 (PyTorch FSDP) §3.2.2 hybrid sharding", &replicas);
    };
    data_parallel(Group::DpCp, in.dense_params);
    data_parallel(Group::Edp, in.expert_params);

    // DualPipe keeps two copies of every stage (rank r and rank p−1−r hold stages r and p−1−r,
    // one per direction): once per step the pair all-reduces the gradients of the rank's two
    // stages, each GPU's own (after ZeRO-2/3 sharding), as the data-parallel reduction does.
    // Ranks 0 and p−1 are the farthest pair: across nodes when the pipeline spans them.
    if (isBidirectional(p.schedule) && p.pp > 1) {
        const GroupPlacement& whole = in.placement.group(Group::Pp);
        GroupPlacement pair = whole;
        pair.size = 2;
        pair.nodes = whole.nodes > 1 ? 2 : 1;
        pair.ranks_per_node = pair.nodes == 2 ? 1 : 2;
        pair.link = pair.nodes == 2 ? Link::Network : whole.link;
        const double dense = in.dense_params / (p.zero >= 2 ? double(p.zeroShard()) : 1);
        const double experts = in.expert_params / (p.zero >= 2 ? p.expertZeroShard() : 1);
        const double params = dense + experts;
        const double buckets = std::max(1.0, std::ceil(params / bucket(2)));
        b.add(Group::Pp, Collective::AllReduce, Purpose::Gradients, buckets, params * grad_bytes / buckets, 1,
              p.overlap_grad_reduce ? Overlap::Backward : Overlap::None,
              [&] { return "all-reduce over the mirrored pair (r, p−1−r) of the rank's two stages' gradients, Ψ = " + num(params)
                           + " params in " + num(buckets) + " calls, once per step"; },
              "DeepSeek-V3 report §3.2.1 (DualPipe keeps two copies of the model parameters); deepseek-ai/DualPipe", &pair);
    }
    return b.out;
}

} // namespace parascope
