#include "memory/stage_memory.h"

#include "memory/activation_memory.h"
#include "memory/model_states.h"
#include "memory/other_memory.h"
#include "schedule/pipeline_closed_form.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace parascope {

double zeroDegree(const ParallelConfig& p)
{
    return double(p.zeroShard()); // dp·cp, or the HSDP shard group
}

double expertZeroDegree(const ParallelConfig& p) { return p.expertZeroShard(); }

double optimizerShardParams(const StageParams& sp, const ParallelConfig& p)
{
    return p.zero >= 1 ? sp.dense / zeroDegree(p) + sp.experts / expertZeroDegree(p) : sp.total();
}

double largestOptimizerShard(const ParamCounts& params, const PipelineGeometry& geometry, const ParallelConfig& p)
{
    double most = 0;
    for (const StageLayers& L : geometry.rank_layers)
        most = std::max(most, optimizerShardParams(stageParams(params, L, p), p));
    return most;
}

namespace {

// What every stage's memory shares: the scenario, one layer's activations and the counts that
// do not depend on the stage.
struct StageInputs {
    const Scenario& sc;
    const ParamCounts& params;
    const std::vector<double>& inflight;
    LayerActivation dense_act;
    LayerActivation moe_act;
    Term emb_act;
    int communicators;
    bool has_experts;
    StateBytes sb;
    double largest_layer; // parameters one GPU gathers of its largest layer (ZeRO-3)
};

// The process groups of size > 1 this GPU belongs to (their NCCL communicators).
int countCommunicators(const Placement& placement, bool has_experts)
{
    int communicators = 0;
    for (const GroupPlacement& g : placement.groups) {
        const bool expert_group = g.group == Group::Ep || g.group == Group::Edp;
        // dp is part of dp_cp (the gradient communicator); expert groups exist only with MoE.
        if (g.size > 1 && g.group != Group::Dp && (!expert_group || has_experts))
            ++communicators;
    }
    return communicators;
}

// The most one GPU holds of a single layer once ZeRO-3 has gathered it: its TP share of the dense
// weights and, in a MoE layer, its EP·ETP share of the routed experts (stageParams, as the
// gathers of time/zero_costs.cpp count them).
double largestGatheredLayer(const ParamCounts& params, const ParallelConfig& p)
{
    const double dense = params.dense_layers > 0 ? stageParams(params, {0, 1, 0, false, false}, p).total() : 0;
    const double moe = params.moe_layers > 0 ? stageParams(params, {0, 1, 1, false, false}, p).total() : 0;
    return std::max(dense, moe);
}

// The stage-independent inputs, computed once for all stages.
StageInputs stageInputs(const Scenario& sc, const ParamCounts& params, const std::vector<double>& inflight,
                        const Placement& placement, Explain explain)
{
    const ParallelConfig& p = sc.parallel;
    const TrainingConfig& t = sc.training;
    const ModelSpec& m = sc.model;
    const bool has_experts = params.moe_layers > 0;
    // Braced initialisation evaluates left to right: the same order as when these were locals.
    return {sc,
            params,
            inflight,
            layerActivation(m, t, p, false, explain),
            layerActivation(m, t, p, true, explain),
            embeddingActivation(m, t, p, explain),
            countCommunicators(placement, has_experts),
            has_experts,
            stateBytes(t),
            largestGatheredLayer(params, p)};
}

// Moves the offloaded model states of a stage from the GPU to its `cpu` bytes.
void offloadToCpu(StageMemory& st, const StageParams& sp, const ParallelConfig& p, bool with_terms)
{
    // CPU offload (ZeRO-Offload, Ren et al. 2021 §4.1: the CPU holds the fp32 master weights,
    // momentum, variance and fp32 gradients, 16 bytes per parameter with Adam; FSDP
    // CPUOffload(offload_params) also the weights and gradients of the shard).
    const double shard = optimizerShardParams(sp, p);
    st.cpu = st.optimizer + 4 * shard;
    std::string formula = "optimizer states + 4·Ψ_shard (fp32 gradients)",
                subst = num(st.optimizer) + " + 4·" + num(shard);
    st.optimizer = 0;
    if (p.offload == Offload::Params) {
        st.cpu += st.weights + st.gradients;
        formula += " + weights + gradients";
        subst += " + " + num(st.weights) + " + " + num(st.gradients);
        st.weights = st.gradients = 0;
    }
    if (with_terms)
        st.terms.push_back({"offload.cpu_per_gpu", st.cpu, "bytes", formula, subst,
                            "Ren et al. 2021 (ZeRO-Offload) §4.1; PyTorch FSDP CPUOffload(offload_params=True)"});
}

// Weight versions an asynchronous pipeline keeps (parallel.async_pipeline, time/async_pipeline.h):
// PipeDream stashes one per microbatch in flight on the rank, so that a microbatch's backward
// uses the weights its forward did (Narayanan et al. 2019 §3.3: p − r versions on rank r of
// 1F1B); PipeDream-2BW double-buffers two (Narayanan et al. 2021 §3.1).
void stashWeights(const StageInputs& in, const StageLayers& layers, StageMemory& st, bool with_terms)
{
    const ParallelConfig& p = in.sc.parallel;
    const std::size_t r = std::size_t(layers.rank);
    const double inflight = r < in.inflight.size() ? in.inflight[r] : 1.0;
    const bool two_bw = p.async_pipeline == AsyncPipeline::TwoBw;
    const double versions = two_bw ? 2.0 : std::max(1.0, std::ceil(inflight - 1e-9));
    const double extra = (versions - 1) * st.weights;
    if (with_terms)
        st.terms.push_back({"weights.stashed_versions", extra, "bytes",
                            two_bw ? "(2 − 1) · stage weights (double-buffered)"
                                   : "(microbatches in flight − 1) · stage weights (one version each)",
                            "(" + num(versions) + " − 1) · " + num(st.weights),
                            two_bw ? "Narayanan et al. 2021 (PipeDream-2BW) §3.1"
                                   : "Narayanan et al. 2019 (PipeDream) §3.3 weight stashing"});
    st.weights += extra;
}

// The stage's weights, gradients and optimizer states (and what offload moves to the CPU).
void stageModelStates(const StageInputs& in, const StageLayers& layers, StageMemory& st, bool with_terms)
{
    const ParallelConfig& p = in.sc.parallel;
    const Explain stage_explain = with_terms ? Explain::Full : Explain::NumbersOnly;
    const StageParams sp = stageParams(in.params, layers, p);
    ModelStates ms = modelStates(sp, in.sc.training, p.zero, zeroDegree(p), expertZeroDegree(p), stage_explain);
    st.weights = ms.weights;
    st.gradients = ms.gradients;
    st.optimizer = ms.optimizer;
    st.terms = std::move(ms.terms);
    if (p.asyncPipeline())
        stashWeights(in, layers, st, with_terms);
    if (p.offload != Offload::None)
        offloadToCpu(st, sp, p, with_terms);
}

// The MTP modules on the stage: only the output stage has them.
int stageMtpModules(const StageInputs& in, const StageLayers& layers)
{
    return layers.has_output ? in.sc.model.mtp_modules : 0;
}

// Bytes per microbatch of the stage's `mtp` MTP modules.
double mtpActivation(const StageInputs& in, int mtp)
{
    const ParallelConfig& p = in.sc.parallel;
    const TrainingConfig& t = in.sc.training;
    // MTP modules on the output stage (DeepSeek-V3 §2.2.1): each keeps one layer's
    // activations plus its inputs: the hidden state and the next token's embedding before
    // their norms (2h + 2h) and their concatenation (4h), split by SP like the norm inputs.
    return mtp == 0 ? 0.0
                    : mtp
            * ((in.has_experts ? in.moe_act.stored : in.dense_act.stored)
               + 8.0 * double(in.sc.model.hidden) * double(t.seq_len) / p.cp * double(t.micro_batch)
                   / (p.sequence_parallel && p.tp > 1 ? p.tp : 1));
}

// The terms behind the stage's activations.
void activationTerms(const StageInputs& in, const StageLayers& layers, StageMemory& st, int mtp, double mtp_act,
                     double working)
{
    const ParallelConfig& p = in.sc.parallel;
    const LayerActivation& dense_act = in.dense_act;
    const LayerActivation& moe_act = in.moe_act;
    const int dense_layers = layers.layers - layers.moe_layers;
    st.terms.push_back(layers.moe_layers < layers.layers ? dense_act.term : moe_act.term);
    if (layers.moe_layers > 0 && layers.moe_layers < layers.layers) {
        Term mt = moe_act.term;
        mt.name = "activations.per_moe_layer";
        st.terms.push_back(mt);
    }
    if (layers.has_embedding)
        st.terms.push_back(in.emb_act);
    if (mtp > 0)
        st.terms.push_back({"activations.mtp", mtp_act, "bytes",
                            "D·(A_layer + 8·s·b·h" + std::string(p.sequence_parallel && p.tp > 1 ? "/t" : "") + ")",
                            num(mtp) + "·(" + num(in.has_experts ? moe_act.stored : dense_act.stored) + " + "
                                + num(mtp_act / mtp - (in.has_experts ? moe_act.stored : dense_act.stored)) + ")",
                            "DeepSeek-V3 technical report §2.2.1 (MTP modules)"});
    st.terms.push_back(
        inflightTerm(p.schedule, p.pp, p.vpp, in.sc.microbatches(), layers.rank, st.inflight_microbatches));
    if (working > 0)
        st.terms.push_back({"activations.recompute_working_set", working, "bytes",
                            "one layer's activations without recompute (rebuilt during its backward)", num(working),
                            "Chen et al. 2016 (gradient checkpointing)"});
    st.terms.push_back({"activations", st.activations, "bytes",
                        "inflight · (L_dense·A_layer + L_moe·A_moe + A_embedding"
                            + std::string(mtp > 0 ? " + A_mtp)" : ")") + (working > 0 ? " + working set" : ""),
                        num(st.inflight_microbatches) + "·(" + num(dense_layers) + "·" + num(dense_act.stored) + " + "
                            + num(layers.moe_layers) + "·" + num(moe_act.stored) + " + "
                            + num(layers.has_embedding ? in.emb_act.value : 0.0)
                            + (mtp > 0 ? " + " + num(mtp_act) : std::string()) + ")"
                            + (working > 0 ? " + " + num(working) : ""),
                        "Korthikanti et al. 2022 §4; Megatron-LM compute_activation_memory"});
}

// The stage's activation bytes.
void stageActivations(const StageInputs& in, const StageLayers& layers, StageMemory& st, bool with_terms)
{
    const LayerActivation& dense_act = in.dense_act;
    const LayerActivation& moe_act = in.moe_act;
    // Activations: in-flight microbatches × the rank's layers, + embedding extras on rank 0,
    // + with full recompute one layer's full activations while its backward runs.
    const int dense_layers = layers.layers - layers.moe_layers;
    const int mtp = stageMtpModules(in, layers);
    const double mtp_act = mtpActivation(in, mtp);
    const double per_mb = dense_layers * dense_act.stored + layers.moe_layers * moe_act.stored
        + (layers.has_embedding ? in.emb_act.value : 0.0) + mtp_act;
    const double working = in.sc.training.recompute == Recompute::Full && layers.layers > 0
        ? std::max(dense_layers > 0 ? dense_act.working_set : 0.0, layers.moe_layers > 0 ? moe_act.working_set : 0.0)
        : 0.0;
    st.activations = st.inflight_microbatches * per_mb + working;
    if (with_terms)
        activationTerms(in, layers, st, mtp, mtp_act, working);
}

// What the "other" memory of a stage depends on: its activations, loss buffers and ZeRO-3 gathers.
OtherMemoryInputs otherInputs(const StageInputs& in, const StageLayers& layers, const StageMemory& st)
{
    const ParallelConfig& p = in.sc.parallel;
    const TrainingConfig& t = in.sc.training;
    const int mtp = stageMtpModules(in, layers);
    OtherMemoryInputs oi;
    oi.communicators = in.communicators;
    oi.activations = st.activations;
    // The output stage's loss buffers per token and vocab entry of its shard (Term
    // other.logits): a fused vocab-parallel cross-entropy keeps one fp32 copy, 4 bytes
    // (Megatron-LM theoretical_memory_usage.py); PyTorch's eager F.cross_entropy on
    // logits.float() peaks at 12 (training.cross_entropy, parallel_config.h). Each MTP module
    // adds its own logits for its loss.
    constexpr double kFusedLossBytes = 4.0, kEagerLossBytes = 12.0;
    oi.logits_bytes_per_element = t.cross_entropy == CrossEntropy::Eager ? kEagerLossBytes : kFusedLossBytes;
    if (layers.has_output)
        oi.logits_bytes = (1 + mtp) * oi.logits_bytes_per_element * double(t.seq_len) / p.cp * double(t.micro_batch)
            * double(in.sc.model.vocab) / p.tp;
    // ZeRO-3 / FSDP: the layer being computed and the zero3_prefetch ones prefetched are unsharded; without
    // reshard_after_forward every layer of the stage stays unsharded from its forward to its
    // backward, so the peak holds them all.
    // DeepSpeed gathers module by module, never more than zero3_max_live_params at once.
    if (p.zero >= 3) {
        const double in_flight = 1.0 + std::max(0, p.zero3_prefetch); // the layer computed + those prefetched
        const double gathered_layers = p.reshard_after_forward ? in_flight : std::max(in_flight, double(layers.layers));
        double gathered = gathered_layers * in.largest_layer;
        if (p.zero3_max_live_params > 0 && p.zero3_max_live_params < gathered) {
            gathered = p.zero3_max_live_params;
            oi.zero3_max_live = true;
        }
        oi.zero3_gather_layers = gathered_layers;
        oi.zero3_prefetch = p.zero3_prefetch;
        oi.zero3_whole_stage = gathered_layers > in_flight;
        oi.zero3_gather_bytes = gathered * in.sb.weights;
    }
    return oi;
}

// The stage's "other" memory, and with terms its items and the stage's totals.
void stageOther(const StageInputs& in, const StageLayers& layers, StageMemory& st, bool with_terms)
{
    const Explain stage_explain = with_terms ? Explain::Full : Explain::NumbersOnly;
    OtherMemory other = otherMemory(in.sc.overheads, otherInputs(in, layers, st), stage_explain);
    st.other = other.total;
    if (with_terms) {
        st.terms.insert(st.terms.end(), std::make_move_iterator(other.terms.begin()),
                        std::make_move_iterator(other.terms.end()));
        st.terms.push_back({"other", st.other, "bytes", "Σ other.*", num(st.other), "sum of the items above"});
        st.terms.push_back({"total", st.total(), "bytes", "weights + gradients + optimizer + activations + other",
                            num(st.weights) + " + " + num(st.gradients) + " + " + num(st.optimizer) + " + "
                                + num(st.activations) + " + " + num(st.other),
                            ""});
    }
}

// One stage's memory; its terms only `with_terms`.
StageMemory stageMemory(const StageInputs& in, const StageLayers& layers, bool with_terms)
{
    StageMemory st;
    st.stage = layers.rank;
    st.layers = layers.layers;
    st.moe_layers = layers.moe_layers;
    st.inflight_microbatches = layers.rank < int(in.inflight.size()) ? in.inflight[layers.rank] : 1.0;
    stageModelStates(in, layers, st, with_terms);
    stageActivations(in, layers, st, with_terms);
    stageOther(in, layers, st, with_terms);
    return st;
}

// The stage with the most memory, the first one on a tie.
void findPeak(MemoryReport& r)
{
    for (const StageMemory& st : r.stages) {
        if (st.total() > r.peak_bytes) {
            r.peak_bytes = st.total();
            r.peak_stage = st.stage;
        }
    }
}

// CPU offload: the host memory a node needs for its GPUs, and whether it has it.
void hostMemory(MemoryReport& r, const Scenario& sc)
{
    double cpu_per_gpu = 0;
    for (const StageMemory& st : r.stages)
        cpu_per_gpu = std::max(cpu_per_gpu, st.cpu);
    r.cpu_bytes_per_node = cpu_per_gpu * sc.cluster.gpus_per_node;
    r.host_capacity_bytes = sc.cluster.host.memory_bytes;
    r.fits_host = !sc.cluster.host.known() || r.cpu_bytes_per_node <= r.host_capacity_bytes;
}

} // namespace

MemoryReport computeMemory(const Scenario& sc, const ParamCounts& params, const PipelineGeometry& geometry,
                           const std::vector<double>& inflight, const Placement& placement, Explain explain)
{
    const std::vector<StageLayers>& layout = geometry.rank_layers;
    const ParallelConfig& p = sc.parallel;
    MemoryReport r;
    r.capacity_bytes = sc.cluster.gpu.memory_bytes;

    const StageInputs in = stageInputs(sc, params, inflight, placement, explain);
    const bool explaining = explain == Explain::Full;

    // Bounded work: with thousands of stages, the first and last kExplainedStages / 2 and the
    // peak one carry their terms; the others their numbers only.
    const int stages = int(layout.size());
    const auto explained = [&](int rank) {
        return explaining
            && (stages <= kExplainedStages || rank < kExplainedStages / 2 || rank >= stages - kExplainedStages / 2);
    };
    r.stages.reserve(layout.size());
    for (const StageLayers& layers : layout)
        r.stages.push_back(stageMemory(in, layers, explained(layers.rank)));
    findPeak(r);
    if (explaining && !explained(r.peak_stage))
        r.stages[std::size_t(r.peak_stage)] = stageMemory(in, layout[std::size_t(r.peak_stage)], true);
    r.explained_stages = explaining ? std::min(stages, kExplainedStages) + (explained(r.peak_stage) ? 0 : 1) : 0;
    r.verdict = memoryVerdict(r.peak_bytes, r.capacity_bytes);
    r.fits = r.verdict != MemoryVerdict::OutOfMemory;
    if (p.offload != Offload::None)
        hostMemory(r, sc);
    return r;
}

} // namespace parascope
