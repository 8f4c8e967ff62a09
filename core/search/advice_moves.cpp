#include "search/advice_moves.h"

// The moves advice tries, per problem: layouts that keep the GPU count (TP, PP or CP taking GPUs
// from DP) and the combinations for out of memory. What a change is: advice_change.cpp.

#include "estimate/diagnostics.h"

#include <algorithm>

namespace parascope::advice_detail {

namespace {

// ---- Layout moves that keep the GPU count ------------------------------------------------------

// After DP moved: the global batch stays when it still divides, else the microbatch count stays
// (the DP knob's rule).
bool keepBatch(Scenario& s, long long microbatches)
{
    const long long unit = s.training.micro_batch * s.parallel.dp;
    if (unit <= 0)
        return false;
    if (s.training.global_batch % unit != 0)
        s.training.global_batch = std::max(1LL, microbatches) * unit;
    return true;
}

// Sets `degree` (TP, PP or CP) to `to`, DP taking the difference; false when it does not divide.
bool moveDegree(Scenario& s, int& degree, long long to, long long microbatches)
{
    const long long product = (long long)s.parallel.dp * degree;
    if (to < 1 || product % to != 0)
        return false;
    degree = int(to);
    s.parallel.dp = int(product / to);
    return keepBatch(s, microbatches);
}

bool setTp(Scenario& s, long long tp, long long m)
{
    const int before = s.parallel.tp;
    if (!moveDegree(s, s.parallel.tp, tp, m))
        return false;
    if (tp == 1)
        s.parallel.sequence_parallel = false;
    else if (tp > before)
        s.parallel.sequence_parallel = true; // Megatron's practice with TP: SP splits the rest
    return true;
}

bool setPp(Scenario& s, long long pp, long long m)
{
    if (pp > s.model.layers || !moveDegree(s, s.parallel.pp, pp, m))
        return false;
    s.parallel.stage_layers.clear();
    return true;
}

bool setCp(Scenario& s, long long cp, long long m)
{
    return s.training.seq_len % (2 * cp) == 0 && moveDegree(s, s.parallel.cp, cp, m);
}

bool tpSplitsHeads(const Scenario& s, long long tp) { return s.model.heads % tp == 0 && s.model.kv_heads % tp == 0; }

// A knob's values, weakest (least memory saved) first. Applied in the order of the dimensions, so
// that ZeRO sees the DP the layout moves left.
struct Dimension {
    std::vector<std::function<bool(Scenario&)>> values;
};

std::vector<Dimension> memoryDimensions(const Scenario& base, long long m)
{
    const ParallelConfig& p = base.parallel;
    const int per_node = std::max(1, base.cluster.gpus_per_node);
    std::vector<Dimension> dims;
    Dimension tp, pp, cp, zero, offload, recompute, activations, micro;
    // TP inside a node, splitting the heads; PP dividing the layers; each taking GPUs from DP.
    for (long long v = 2LL * p.tp; v <= per_node; v *= 2)
        if (tpSplitsHeads(base, v) && ((long long)p.dp * p.tp) % v == 0)
            tp.values.push_back([v, m](Scenario& s) { return setTp(s, v, m); });
    for (long long v = p.pp + 1; v <= base.model.layers && pp.values.size() < 4; ++v)
        if (base.model.layers % v == 0 && ((long long)p.dp * p.pp) % v == 0)
            pp.values.push_back([v, m](Scenario& s) { return setPp(s, v, m); });
    if (base.training.seq_len >= 8192)
        for (long long v = 2LL * p.cp; v <= 4LL * p.cp && base.training.seq_len / v >= 1024; v *= 2)
            cp.values.push_back([v, m](Scenario& s) { return setCp(s, v, m); });
    for (int z = p.zero + 1; z <= 3; ++z)
        zero.values.push_back([z](Scenario& s) {
            s.parallel.zero = z;
            // Nothing to shard over, or ZeRO-2/3 under a pipeline (zero_with_pp): not advice.
            return (long long)s.parallel.dp * s.parallel.cp > 1 && (z < 2 || s.parallel.pp == 1);
        });
    // The optimizer states to the host's memory (ZeRO-Offload), where the cluster says how much
    // it has: the out-of-memory diagnostic's remedy, evaluated like the others.
    if (p.offload == Offload::None && base.cluster.host.known())
        offload.values.push_back([](Scenario& s) {
            s.parallel.offload = Offload::Optimizer;
            return true;
        });
    if (base.training.recompute == Recompute::None)
        recompute.values.push_back([](Scenario& s) {
            s.training.recompute = Recompute::Selective;
            return true;
        });
    if (base.model.moe && base.training.recompute != Recompute::Full
        && !base.training.recomputes(RecomputeModule::MoeAct))
        recompute.values.push_back([](Scenario& s) {
            s.training.addRecomputeModule(RecomputeModule::MoeAct);
            return true;
        });
    if (base.training.recompute != Recompute::Full)
        recompute.values.push_back([](Scenario& s) {
            s.training.recompute = Recompute::Full;
            return true;
        });
    // FP8 runs can keep their linear layers' inputs as the FP8 copies (DeepSeek-V3).
    if (base.training.precision == Precision::Fp8 && !base.training.fp8_activations)
        activations.values.push_back([](Scenario& s) {
            s.training.fp8_activations = true;
            return true;
        });
    const long long mb = base.training.micro_batch;
    if (mb > 1 && mb % 2 == 0 && mb / 2 > 1)
        micro.values.push_back([mb](Scenario& s) {
            s.training.micro_batch = mb / 2;
            return true;
        });
    if (mb > 1)
        micro.values.push_back([](Scenario& s) {
            s.training.micro_batch = 1;
            return true;
        });
    for (Dimension* d : {&tp, &pp, &cp, &zero, &offload, &recompute, &activations, &micro})
        if (!d->values.empty())
            dims.push_back(std::move(*d));
    return dims;
}

// The largest TP ≤ limit that splits the heads, divides `tp` and fills a node evenly.
long long tpWithinNode(const Scenario& base, long long limit)
{
    const int per_node = std::max(1, base.cluster.gpus_per_node);
    for (long long v = std::min<long long>(limit, per_node); v >= 1; --v)
        if (per_node % v == 0 && base.parallel.tp % v == 0 && tpSplitsHeads(base, v))
            return v;
    return 1;
}

std::vector<Scenario> tpIntoNodeMoves(const Scenario& base, long long m)
{
    std::vector<Scenario> out;
    const long long v = tpWithinNode(base, base.parallel.tp - 1);
    const long long factor = base.parallel.tp / v;
    Scenario s = base;
    if (setTp(s, v, m)) // DP takes the TP's share
        out.push_back(s);
    // Or PP takes it, DP staying.
    const long long pp = (long long)base.parallel.pp * factor;
    if (pp <= base.model.layers && base.model.layers % pp == 0) {
        s = base;
        s.parallel.tp = int(v);
        s.parallel.sequence_parallel = v > 1 && base.parallel.sequence_parallel;
        s.parallel.pp = int(pp);
        s.parallel.stage_layers.clear();
        out.push_back(s);
    }
    return out;
}

} // namespace

std::vector<Candidate> memoryCombinations(const Scenario& base, long long m)
{
    const std::vector<Dimension> dims = memoryDimensions(base, m);
    std::vector<std::pair<int, Candidate>> combos;
    std::vector<int> idx(dims.size(), -1); // −1: the dimension keeps its value
    for (;;) {
        // Next combination (odometer over −1 … size−1 per dimension).
        std::size_t i = 0;
        while (i < dims.size() && idx[i] + 1 >= int(dims[i].values.size()))
            idx[i++] = -1;
        if (i == dims.size())
            break;
        ++idx[i];
        Scenario s = base;
        bool ok = true;
        for (std::size_t d = 0; d < dims.size() && ok; ++d)
            if (idx[d] >= 0)
                ok = dims[d].values[std::size_t(idx[d])](s);
        if (!ok || s.training.global_batch % (s.training.micro_batch * s.parallel.dp) != 0)
            continue;
        if (std::optional<Candidate> c = candidateOf(base, s)) {
            const int knobs = knobCount(*c);
            combos.emplace_back(knobs, std::move(*c));
        }
    }
    std::stable_sort(combos.begin(), combos.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<Candidate> out;
    out.reserve(combos.size());
    for (auto& c : combos)
        out.push_back(std::move(c.second));
    return out;
}

std::vector<Scenario> bubbleMoves(const Scenario& base, long long m)
{
    const ParallelConfig& p = base.parallel;
    const long long mb = base.training.micro_batch;
    std::vector<Scenario> out;
    Scenario s = base;
    if (m < 4LL * p.pp) {
        s.training.global_batch = 4LL * p.pp * mb * p.dp;
        out.push_back(s);
    }
    for (long long to : {mb / 2, 1LL})
        if (to >= 1 && to < mb) {
            s = base;
            s.training.micro_batch = to;
            if (s.training.global_batch % (to * p.dp) == 0)
                out.push_back(s);
        }
    const auto interleaved = [&](int v) {
        if (v >= 2 && m % p.pp == 0 && base.model.layers % ((long long)p.pp * v) == 0) {
            s = base;
            s.parallel.schedule = ScheduleKind::Interleaved;
            s.parallel.vpp = v;
            out.push_back(s);
            return true;
        }
        return false;
    };
    if (p.schedule == ScheduleKind::OneFOneB || p.schedule == ScheduleKind::GPipe) {
        for (int v = 2; v <= 8 && !interleaved(v); ++v) { }
        s = base;
        s.parallel.schedule = ScheduleKind::ZbH1;
        s.parallel.vpp = 1;
        out.push_back(s);
    } else if (p.schedule == ScheduleKind::Interleaved) {
        interleaved(2 * p.vpp);
    }
    // Fewer stages, DP taking the GPUs, down to no pipeline at all: every such layout that keeps
    // the global batch (PP 16 → 8, 4, 2, 1 on 16 GPUs), so the fastest is offered, not only the next.
    for (int to = p.pp / 2; to >= 1; to /= 2)
        if (p.pp % to == 0) {
            s = base;
            const long long batch = s.training.global_batch;
            if (setPp(s, to, m) && s.training.global_batch == batch)
                out.push_back(s);
        }
    if (p.dp % 2 == 0 && 2LL * p.tp <= base.cluster.gpus_per_node && tpSplitsHeads(base, 2LL * p.tp)) {
        s = base;
        if (setTp(s, 2LL * p.tp, m))
            out.push_back(s);
    }
    return out;
}

std::vector<Scenario> exposedMoves(const Scenario& base, const Estimate& est, long long m)
{
    const ParallelConfig& p = base.parallel;
    std::vector<Scenario> out;
    Scenario s = base;
    if (p.tp > 1 && !p.tp_comm_overlap) {
        s.parallel.tp_comm_overlap = true;
        out.push_back(s);
    }
    if ((long long)p.dp * p.cp > 1 && !p.overlap_grad_reduce) {
        s = base;
        s.parallel.overlap_grad_reduce = true;
        out.push_back(s);
    }
    for (const GroupPlacement& g : est.placement.groups)
        if (g.group == Group::Tp && g.crossesNodes())
            for (Scenario& t : tpIntoNodeMoves(base, m))
                out.push_back(std::move(t));
    if (p.zero >= 2) {
        s = base;
        s.parallel.zero = 1;
        out.push_back(s);
    }
    // A MoE model's ZeRO collectives move each GPU's 1/(EP·ETP) of the experts: double EP.
    if (p.zero >= 2 && base.model.moe && p.expertGridFits(2LL * p.ep, base.model.moe->experts)) {
        s = base;
        s.parallel.ep = 2 * p.ep;
        out.push_back(s);
    }
    if (p.dp % 2 == 0) {
        s = base;
        if (setPp(s, 2LL * p.pp, m) && base.model.layers % s.parallel.pp == 0)
            out.push_back(s);
        s = base;
        if (2LL * p.tp <= base.cluster.gpus_per_node && tpSplitsHeads(base, 2LL * p.tp) && setTp(s, 2LL * p.tp, m))
            out.push_back(s);
    }
    if (p.tp > 1 && p.tp % 2 == 0) {
        s = base;
        if (setTp(s, p.tp / 2, m))
            out.push_back(s);
    }
    return out;
}

namespace {

// The fixes for one problem, built in `s`: each push keeps `s` when it is a fix, then starts
// `s` over from the base.
struct Fixes {
    const Scenario& base;
    Scenario s;
    std::vector<Scenario> out;
    void push(bool ok)
    {
        if (ok)
            out.push_back(s);
        s = base;
    }
};

// gpu_count_mismatch: the DP the cluster's nodes hold, or else the nearest DPs below and above
// that fill whole nodes.
void gpuCountFixes(Fixes& f, long long m)
{
    const Scenario& base = f.base;
    const ParallelConfig& p = base.parallel;
    Scenario& s = f.s;
    const long long mb = base.training.micro_batch;
    const long long per_replica = p.replicaGpus();
    const int per_node = std::max(1, base.cluster.gpus_per_node);
    if (base.cluster.nodes > 0) {
        const long long have = (long long)base.cluster.nodes * per_node;
        if (have % per_replica == 0) {
            s.parallel.dp = int(have / per_replica);
            s.training.global_batch = m * mb * s.parallel.dp; // the microbatch count stays (the DP knob)
            f.push(true);
        }
    } else {
        for (long long dp = p.dp - 1; dp >= 1; --dp)
            if (per_replica * dp % per_node == 0) {
                s.parallel.dp = int(dp);
                f.push(keepBatch(s, m));
                break;
            }
        for (long long dp = p.dp + 1; dp <= 2LL * p.dp + per_node; ++dp)
            if (per_replica * dp % per_node == 0) {
                s.parallel.dp = int(dp);
                s.training.global_batch = m * mb * dp;
                f.push(true);
                break;
            }
    }
}

// The nearest TP below that splits the heads and leaves a whole DP.
void tpHeadsFixes(Fixes& f, long long m)
{
    for (long long v = f.base.parallel.tp - 1; v >= 1; --v)
        if (tpSplitsHeads(f.base, v) && setTp(f.s, v, m)) {
            f.push(true);
            break;
        } else {
            f.s = f.base;
        }
}

// The nearest PP below and above that divides the layers and leaves a whole DP.
void ppLayersFixes(Fixes& f, long long m)
{
    const ParallelConfig& p = f.base.parallel;
    const ModelSpec& model = f.base.model;
    for (long long v = std::min<long long>(p.pp - 1, model.layers); v >= 1; --v)
        if (model.layers % v == 0 && setPp(f.s, v, m)) {
            f.push(true);
            break;
        } else {
            f.s = f.base;
        }
    for (long long v = p.pp + 1; v <= model.layers; ++v)
        if (model.layers % v == 0 && setPp(f.s, v, m)) {
            f.push(true);
            break;
        } else {
            f.s = f.base;
        }
}

// vpp_not_divisible: the smallest VPP that splits the layers, or a schedule without virtual stages.
void vppFixes(Fixes& f)
{
    const ParallelConfig& p = f.base.parallel;
    Scenario& s = f.s;
    if (p.schedule == ScheduleKind::Interleaved)
        for (int v = 2; v <= 16; ++v)
            if (f.base.model.layers % ((long long)p.pp * v) == 0) {
                s.parallel.vpp = v;
                f.push(true);
                break;
            }
    s.parallel.schedule = p.schedule == ScheduleKind::Interleaved || mirroredPlacement(p.schedule)
        ? ScheduleKind::OneFOneB
        : p.schedule;
    s.parallel.vpp = 1;
    f.push(true);
}

// ep_invalid: the nearest EP below that divides the experts and the stage's GPUs.
void epFixes(Fixes& f)
{
    const ParallelConfig& p = f.base.parallel;
    const int experts = f.base.model.moe ? f.base.model.moe->experts : 1;
    for (long long v = p.ep - 1; v >= 1; --v)
        if (p.expertGridFits(v, experts)) {
            f.s.parallel.ep = int(v);
            f.push(true);
            break;
        }
}

// cp_not_divisible: the nearest CP below that splits the sequence and leaves a whole DP.
void cpFixes(Fixes& f, long long m)
{
    for (long long v = f.base.parallel.cp - 1; v >= 1; --v)
        if (setCp(f.s, v, m)) {
            f.push(true);
            break;
        } else {
            f.s = f.base;
        }
}

} // namespace

// Fixes for the configuration's own rules (the diagnostic's suggestion, made concrete).
std::vector<Scenario> ruleFixes(const std::string& code, const Scenario& base, long long m)
{
    const ParallelConfig& p = base.parallel;
    const ModelSpec& model = base.model;
    const long long mb = base.training.micro_batch, per_step = mb * p.dp;
    Fixes f{base, base, {}};
    Scenario& s = f.s;
    if (code == "gpu_count_mismatch") {
        gpuCountFixes(f, m);
    } else if (code == "heads_not_divisible_by_tp" || code == "kv_heads_not_divisible_by_tp") {
        tpHeadsFixes(f, m);
    } else if (code == "pp_exceeds_layers" || code == "layers_not_divisible_by_pp") {
        ppLayersFixes(f, m);
    } else if (code == "vpp_not_divisible") {
        vppFixes(f);
    } else if (code == "batch_not_divisible") {
        s.training.global_batch = std::max(per_step, base.training.global_batch / per_step * per_step);
        f.push(per_step > 0);
        s.training.global_batch = (base.training.global_batch / std::max(1LL, per_step) + 1) * per_step;
        f.push(per_step > 0);
    } else if (code == "interleaved_needs_microbatch_multiple") {
        s.training.global_batch = (m / p.pp + 1) * p.pp * per_step;
        f.push(true);
        s.parallel.schedule = ScheduleKind::OneFOneB;
        s.parallel.vpp = 1;
        f.push(true);
    } else if (code == "microbatches_lt_pp") { // the error: DualPipe(V) needs 2·PP microbatches (DualPipe: even)
        s.training.global_batch
            = std::max(2LL * p.pp, p.schedule == ScheduleKind::DualPipe ? m + m % 2 : 0LL) * per_step;
        f.push(true);
    } else if (code == "dualpipe_needs_even_pp") {
        for (long long v : {(long long)p.pp + 1, (long long)p.pp - 1})
            f.push(v >= 2 && setPp(s, v, m));
        s.parallel.schedule = ScheduleKind::DualPipeV;
        f.push(true);
    } else if (code == "ep_invalid") {
        epFixes(f);
    } else if (code == "sp_requires_tp") {
        s.parallel.sequence_parallel = false;
        f.push(true);
    } else if (code == "cp_not_divisible") {
        cpFixes(f, m);
    } else if (code == "seq_exceeds_positions") {
        s.training.seq_len = model.max_positions;
        f.push(model.max_positions > 0);
    } else if (code == "zero_with_pp") {
        s.parallel.zero = 1;
        f.push(true);
    } else if (code == "tp_spans_nodes") {
        f.out = tpIntoNodeMoves(base, m);
    }
    return std::move(f.out);
}

} // namespace parascope::advice_detail
