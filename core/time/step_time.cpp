#include "time/step_time.h"

#include "schedule/generators.h"
#include "schedule/grad_buckets.h"
#include "schedule/pipeline_closed_form.h"
#include "time/async_pipeline.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace parascope {

double peakFlops(const GpuSpec& gpu, Precision p)
{
    switch (p) {
    case Precision::Fp8: return gpu.peak_fp8_flops > 0 ? gpu.peak_fp8_flops : gpu.peak_bf16_flops;
    case Precision::Fp32: return gpu.peak_fp32_flops > 0 ? gpu.peak_fp32_flops : gpu.peak_bf16_flops;
    default: return gpu.peak_bf16_flops;
    }
}

namespace {

// Exposed communication of one op, by group.
void addExposure(std::map<Group, double>& into, const GroupExposure& e, double scale)
{
    into[Group::Tp] += e.tp * scale;
    into[Group::Ep] += e.ep * scale;
    into[Group::Cp] += e.cp * scale;
    into[Group::Dp] += e.dp * scale;
}

// Per-microbatch time of each rank's layers (forward + backward, communication inside ops
// included): the sum of its stages' op costs, in one pass over the stages.
std::vector<double> rankMicrobatchTimes(const OpCostModel& c)
{
    std::vector<double> t(std::size_t(std::max(1, c.geometry.ranks)), 0.0);
    const double share = c.geometry.microbatchShare();
    for (int s = 0; s < int(c.stages.size()); ++s) {
        const int r = c.geometry.rankOfStage(s);
        if (r >= 0 && r < int(t.size()))
            t[std::size_t(r)]
                += share * (c.stages[std::size_t(s)].cost.forward_s + c.stages[std::size_t(s)].cost.backward_s());
    }
    return t;
}

void finish(StepSimulation& out, const OpCostModel& costs, double step, double compute, double exposed_ops,
            double exposed_tail, double exposed_pp, std::map<Group, double> by_group, Explain explain)
{
    TimeReport& t = out.time;
    t.step_s = step;
    t.compute_s = compute;
    t.optimizer_s = costs.optimizer_s;
    t.offload_pcie = costs.offload_pcie;
    t.exposed_comm_s = exposed_ops + exposed_tail + exposed_pp;
    t.idle_s = std::max(0.0, step - compute - t.exposed_comm_s - t.optimizer_s);
    const std::vector<double> per_rank = rankMicrobatchTimes(costs);
    double sum = 0, most = 0;
    for (double v : per_rank) {
        sum += v;
        most = std::max(most, v);
    }
    const double mean = sum / double(std::max<std::size_t>(1, per_rank.size()));
    t.load_imbalance = most > 0 ? 1 - mean / most : 0;
    // The ranks' compute scaled from the critical rank's (per_rank holds their op costs).
    const double own = t.critical_rank < int(per_rank.size()) ? per_rank[std::size_t(t.critical_rank)] : 0;
    t.mean_compute_s = own > 0 ? compute * mean / own : compute;
    const double heaviest = own > 0 ? compute * most / own : compute;
    t.uneven_s = heaviest - t.mean_compute_s;
    // The heaviest rank works through the whole step but for its idle: never below 0 unless the
    // critical rank's exposed communication is longer than the heaviest rank's (then 0; the term says).
    const double idle = step - heaviest - t.exposed_comm_s - t.optimizer_s;
    t.bubble_s = std::max(0.0, idle);
    if (idle < 0) // the parts still add up to the step: the lighter ranks wait that much less
        t.uneven_s = std::max(0.0, t.uneven_s + idle);
    t.bubble_fraction = step > 0 ? t.bubble_s / step : 0;
    // The compute by kind, in the proportions of the critical rank's op costs.
    double all = 0, gemm = 0, attention = 0, host = 0, recompute = 0;
    for (int s = 0; s < int(costs.stages.size()); ++s)
        if (costs.geometry.rankOfStage(s) == t.critical_rank) {
            const StageOpCost& st = costs.stages[std::size_t(s)];
            all += st.compute_s;
            gemm += st.gemm_s;
            attention += st.attention_s;
            host += st.host_wait_s;
            recompute += st.recompute_s;
        }
    if (all > 0) {
        t.compute_kinds.gemm_s = compute * gemm / all;
        t.compute_kinds.attention_s = compute * attention / all;
        t.compute_kinds.host_wait_s = compute * host / all;
        t.compute_kinds.recompute_s = compute * recompute / all;
        t.compute_kinds.other_s = std::max(
            0.0, compute - t.compute_kinds.gemm_s - t.compute_kinds.attention_s - t.compute_kinds.host_wait_s);
    }
    by_group[Group::Dp] += exposed_tail;
    by_group[Group::Pp] += exposed_pp;
    for (const auto& [g, v] : by_group)
        if (v > 0)
            out.exposed_by_group.emplace_back(g, v);
    if (explain == Explain::NumbersOnly)
        return;
    t.terms.insert(t.terms.end(), costs.terms.begin(), costs.terms.end());
    t.layer_ops = costs.dense_ops;
    t.moe_layer_ops = costs.moe_ops;
    t.terms.push_back(
        {"time.step", step, "s", "mean compute + uneven stages + bubble + exposed communication + optimizer",
         num(t.mean_compute_s) + " + " + num(t.uneven_s) + " + " + num(t.bubble_s) + " + " + num(t.exposed_comm_s)
             + " + " + num(t.optimizer_s),
         t.method == "closed-form" ? "closed form: m·t_microbatch + schedule bubble + tails"
                                   : "event simulation of the schedule (critical rank " + num(t.critical_rank) + ")"});
    t.terms.push_back({"time.bubble_fraction", t.bubble_fraction, "fraction",
                       "(step − heaviest rank's compute − exposed communication − optimizer) / step",
                       "(" + num(step) + " − " + num(heaviest) + " − " + num(t.exposed_comm_s) + " − "
                           + num(t.optimizer_s) + ") / " + num(step)
                           + (idle < 0 ? " (below 0: the critical rank's exposed time is longer; 0)" : ""),
                       "the schedule's idle as the heaviest pipeline rank sees it, the same for every schedule; "
                       "the lighter ranks also wait for the heaviest (uneven stages)"});
    t.terms.push_back({"time.uneven_stages", t.uneven_s, "s", "heaviest rank's compute − mean rank's compute",
                       num(heaviest) + " − " + num(t.mean_compute_s),
                       "what a lighter pipeline rank waits, on average, for the heaviest"});
}

BucketInput bucketInput(const RankTail& tail)
{
    return {tail.grad_reduce_s, tail.last_bucket_s, tail.grad_buckets, tail.overlap_grad_reduce};
}

// The gradient reduction's buckets on the report, and the term that explains them.
void noteBuckets(TimeReport& t, const RankTail& tail, int hidden, Explain explain)
{
    if (tail.grad_reduce_s <= 0)
        return;
    t.grad_buckets = std::max(1, tail.grad_buckets);
    t.grad_buckets_hidden = hidden;
    t.last_bucket_s = t.grad_buckets == 1 ? tail.grad_reduce_s : std::min(tail.grad_reduce_s, tail.last_bucket_s);
    if (explain == Explain::NumbersOnly)
        return;
    t.terms.push_back({"time.grad_buckets", double(t.grad_buckets), "count",
                       "n buckets of the gradient reduction G; bucket i is ready (i + 1)/n of the way through the last "
                       "backward D; they go out one after another: exposed = max(L, G + D/n − D)",
                       num(t.grad_buckets_hidden) + " of " + num(t.grad_buckets)
                           + " end within the backward; the last takes " + num(t.last_bucket_s) + " s"
                           + (tail.overlap_grad_reduce ? "" : " (not overlapped: all after it)"),
                       "Li et al., PyTorch Distributed (VLDB 2020) §3.2.3; Megatron-Core DDP bucket_size "
                       "(parallel.grad_bucket_mparams)"});
}

StepSimulation closedForm(const Scenario& sc, const OpCostModel& costs, long long m, const std::string& why,
                          Explain explain)
{
    const ParallelConfig& p = sc.parallel;
    StepSimulation out;
    out.time.method = "closed-form";
    out.time.note = why;
    const int ranks = costs.geometry.ranks;
    int critical = 0;
    double t_mb = 0;
    const std::vector<double> per_rank = rankMicrobatchTimes(costs);
    for (int r = 0; r < ranks; ++r) {
        const double tr = per_rank[std::size_t(r)];
        if (tr > t_mb) {
            t_mb = tr;
            critical = r;
        }
    }
    std::map<Group, double> by_group;
    double comm_mb = 0;
    const double share = costs.geometry.microbatchShare();
    for (int s = 0; s < int(costs.stages.size()); ++s)
        if (costs.geometry.rankOfStage(s) == critical) {
            const StageOpCost& st = costs.stages[std::size_t(s)];
            comm_mb += share * (st.cost.forward_comm_s + st.cost.backward_comm_s);
            addExposure(by_group, st.forward, share * double(m));
            addExposure(by_group, st.backward, share * double(m));
        }
    const double md = double(std::max(1LL, m));
    const bool async = p.asyncPipeline(); // no flush: no fill, no drain (time/async_pipeline.h)
    const double bf = p.pp > 1 && !async ? bubbleFraction(p.schedule, p.pp, p.vpp, m) : 0.0;
    // Combined 1F1B: the critical rank's warm-up forwards and cool-down backwards run unpaired
    // (StageCost::unpaired_forward_s), spread over its chunks.
    double unpaired = 0;
    const double passes = double(unpairedPasses(p.schedule, p.pp, p.vpp, m, critical));
    for (int s = 0; s < int(costs.stages.size()); ++s)
        if (costs.geometry.rankOfStage(s) == critical) {
            const StageCost& c = costs.stages[std::size_t(s)].cost;
            unpaired += passes / costs.geometry.chunks * (c.unpaired_forward_s + c.unpaired_backward_s);
        }
    const double pipeline = md * t_mb / (1 - bf) + unpaired;
    const RankTail& tail = costs.tails.empty() ? RankTail{} : costs.tails.front();
    // The gradient reduction overlaps the last microbatch's backward, which is the backward share
    // of a microbatch: 4 of the 6 FLOPs per parameter and token (forward 2, backward dX 2 + dW 2;
    // Kaplan et al. 2020 §2.1, Narayanan et al. 2021 §3.3).
    constexpr double kBackwardShareOfMicrobatch = 4.0 / 6.0;
    const double last_bwd = t_mb * kBackwardShareOfMicrobatch;
    const BucketChain chain = bucketChain(bucketInput(tail), 0.0, last_bwd, false);
    const double grad_exposed = tail.grad_reduce_s > 0 ? chain.end_s - last_bwd : 0.0;
    const double tail_exposed = weightUpdatesPerStep(p, m) * (grad_exposed + tail.param_gather_s);
    // The fill and the drain cross every stage boundary once each (forward, then backward).
    double boundaries = 0;
    for (int b = 0; b + 1 < p.pp; ++b)
        boundaries += b < int(costs.boundary_p2p_s.size()) ? costs.boundary_p2p_s[std::size_t(b)] : costs.p2p_s;
    // Blocking sends (no pipeline overlap): each microbatch's forward and backward send hold the
    // slowest boundary's rank once more.
    const double p2p_exposed
        = p.pp > 1 ? (async ? 0.0 : 2.0 * boundaries) + (costs.blocking_p2p ? md * 2.0 * costs.p2p_s : 0.0) : 0.0;
    out.time.critical_rank = critical;
    out.inflight = inflightMicrobatches(p.schedule, p.pp, p.vpp, m);
    finish(out, costs, pipeline + p2p_exposed + tail_exposed + costs.optimizer_s, md * (t_mb - comm_mb),
           md * comm_mb + unpaired, tail_exposed, p2p_exposed, by_group, explain);
    noteBuckets(out.time, tail, chain.hidden, explain);
    return out;
}

Timeline run(const PipelineSchedule& s, const OpCostModel& costs, bool record, bool with_p2p = true)
{
    SimulationInput in;
    in.schedule = &s;
    in.stages.reserve(costs.stages.size());
    for (const StageOpCost& c : costs.stages)
        in.stages.push_back(c.cost);
    if (with_p2p) {
        in.p2p_s = costs.p2p_s;
        in.boundary_p2p_s = costs.boundary_p2p_s;
    }
    in.tails = costs.tails;
    in.record_ops = record;
    in.blocking_sends = with_p2p && costs.blocking_p2p;
    return simulate(in);
}

} // namespace

namespace {

// Compute ops per microbatch of the schedule, and about as many pipeline sends on the
// communication lanes.
double opsPerMicrobatch(const PipelineGeometry& g)
{
    return double(g.ranks) * g.chunks * g.microbatchShare() * (g.split_backward ? 3 : 2) * (g.ranks > 1 ? 2 : 1);
}

// How many microbatches the simulation runs: all m when they fit max_ops ops, else fewer, whole
// rounds of the schedule, at least 2p + step_mb (−1: the pipeline is too large to simulate).
long long simulatedMicrobatches(ScheduleKind kind, int p, long long m, long long step_mb, double ops_per_mb,
                                double max_ops)
{
    if (ops_per_mb * double(m) <= max_ops)
        return m;
    long long m_sim = (long long)(max_ops / ops_per_mb);
    if (kind == ScheduleKind::Interleaved)
        m_sim -= m_sim % p;
    if (kind == ScheduleKind::DualPipe) // half each way (p is even, so m_sim − p stays even)
        m_sim -= m_sim % 2;
    const long long m_min = 2LL * p + step_mb;
    return m_sim < m_min ? -1 : m_sim;
}

// The exposed communication of the critical rank's ops by group, scaled to all m microbatches.
std::map<Group, double> exposureByGroup(const std::vector<Action>& actions, const OpCostModel& costs, double scale)
{
    std::map<Group, double> by_group;
    for (const Action& a : actions) {
        const StageOpCost& f = costs.stages[std::size_t(a.stage)];
        switch (a.kind) {
        case OpKind::Forward: addExposure(by_group, f.forward, scale); break;
        case OpKind::Backward:
        case OpKind::BackwardInput: addExposure(by_group, f.backward, scale); break;
        case OpKind::BackwardWeight: break;
        case OpKind::ForwardBackward: {
            // Overlapped: what stays exposed is shared out in proportion.
            const StageOpCost& b = costs.stages[std::size_t(a.b_stage)];
            const double naive = f.forward.total() + b.backward.total();
            const double compute
                = (f.cost.forward_s - f.cost.forward_comm_s) + (b.cost.backward_s() - b.cost.backward_comm_s);
            const double left = std::max(0.0, naive - compute);
            const double k = naive > 0 ? left / naive : 0;
            addExposure(by_group, f.forward, scale * k);
            addExposure(by_group, b.backward, scale * k);
            break;
        }
        }
    }
    return by_group;
}

// Exposed pipeline p2p: the step less the same schedule's without p2p time.
double exposedP2p(const PipelineSchedule& schedule, const OpCostModel& costs, const Timeline& tl)
{
    if (tl.ranks <= 1 || costs.p2p_s <= 0)
        return 0;
    const Timeline no_p2p = run(schedule, costs, false, false);
    return std::max(0.0, tl.step_s - no_p2p.step_s);
}

// The rank whose step ends last.
int lastRank(const Timeline& tl)
{
    int critical = 0;
    for (int r = 0; r < tl.ranks; ++r)
        if (tl.step_end_per_rank_s[r] > tl.step_end_per_rank_s[critical])
            critical = r;
    return critical;
}

// The numbers of the step: at most options.max_simulated_ops ops simulated, whether or not the
// timeline is wanted, so that a scenario has one step time whatever is asked. The ops are kept
// (record_ops) only when they fit kMaxRecordedOps.
StepSimulation simulateNumbers(const Scenario& sc, const OpCostModel& costs, long long m,
                               const EvaluateOptions& options)
{
    const Explain explain = options.explain;
    const double max_ops = double(options.max_simulated_ops);
    if (!options.simulate)
        return closedForm(sc, costs, m, "closed form requested (search)", explain);
    const PipelineGeometry& g = costs.geometry;
    const int p = g.ranks;
    const ScheduleKind kind = g.kind;
    const ScheduleRequest full = scheduleRequest(g, m);
    if (const std::string why = scheduleRequirement(full); !why.empty())
        return closedForm(sc, costs, m, "the schedule cannot run: " + why, explain);

    // Bounded work: simulate at most max_ops ops; beyond, fewer microbatches and a
    // linear extrapolation of the steady state (each extra microbatch adds one period).
    const double ops_per_mb = opsPerMicrobatch(costs.geometry);
    const long long step_mb = kind == ScheduleKind::Interleaved ? p : std::max(1, p);
    const long long m_sim = simulatedMicrobatches(kind, p, m, step_mb, ops_per_mb, max_ops);
    if (m_sim < 0)
        return closedForm(sc, costs, m,
                          "the pipeline is too large to simulate (" + num(ops_per_mb * double(m)) + " ops)", explain);
    const bool record_ops = options.record_timeline && ops_per_mb * double(m_sim) <= double(kMaxRecordedOps);
    const auto schedule = generateSchedule(scheduleRequest(g, m_sim));
    Timeline tl = run(*schedule, costs, record_ops);
    if (tl.deadlock)
        return closedForm(sc, costs, m, "the schedule deadlocks: " + tl.problem, explain);

    StepSimulation out;
    out.time.method = m_sim == m ? "simulated" : "simulated (extrapolated)";
    double extra = 0;
    if (m_sim < m) {
        const auto shorter = generateSchedule(scheduleRequest(g, m_sim - step_mb));
        const Timeline t2 = run(*shorter, costs, false);
        const double period = (tl.pipeline_end_s - t2.pipeline_end_s) / double(step_mb);
        extra = period * double(m - m_sim);
        out.time.note = "simulated " + num(double(m_sim)) + " of " + num(double(m)) + " microbatches; the other "
            + num(double(m - m_sim)) + " add the steady-state period " + num(period) + " s each";
    }
    // No flush (time/async_pipeline.h): the steady state, paced by the busiest rank, hides the
    // pipeline's sends; else the rank that ends last, and the sends it waited for.
    const bool async = sc.parallel.asyncPipeline();
    const AsyncStep steady = async ? asyncSteadyState(sc.parallel, tl, m, m_sim) : AsyncStep{};
    const double pp_exposed = async ? 0.0 : exposedP2p(*schedule, costs, tl);
    const int critical = async ? steady.critical : lastRank(tl);
    double step = tl.step_s + extra, tail_exposed = tl.tail_exposed_s[critical];
    if (async) {
        step = steady.step_s;
        tail_exposed = steady.tail_exposed_s;
        out.time.note = "no flush (" + std::string(toString(sc.parallel.async_pipeline))
            + "): the steady state of 1F1B; the timeline shows one flushed step's ops";
    }
    const double scale = double(m) / double(m_sim);
    const std::map<Group, double> by_group = exposureByGroup(schedule->actions[critical], costs, scale);
    out.time.critical_rank = critical;
    out.inflight = tl.peak_inflight;
    if (m_sim < m && kind == ScheduleKind::GPipe)
        out.inflight = inflightMicrobatches(kind, p, full.vpp, m); // GPipe holds all m
    const double compute = (tl.busy_s[critical] - tl.comm_in_ops_s[critical]) * scale;
    finish(out, costs, step, compute, tl.comm_in_ops_s[critical] * scale, tail_exposed, pp_exposed, by_group, explain);
    if (async && explain != Explain::NumbersOnly)
        out.time.terms.push_back(asyncTerm(sc.parallel, steady, m));
    if (std::size_t(critical) < costs.tails.size())
        noteBuckets(out.time, costs.tails[std::size_t(critical)], tl.grad_buckets_hidden[critical], explain);

    out.timeline.simulated = record_ops;
    if (m_sim < m || async)
        out.timeline.note = out.time.note;
    out.timeline.microbatches_shown = m_sim;
    out.timeline.microbatches_total = m;
    if (record_ops)
        out.timeline.timeline = std::move(tl);
    return out;
}

// Not even one round of the schedule fits kMaxRecordedOps (PP 64 × VPP 4 needs 64 microbatches
// of 1,024 ops): the smallest round the schedule runs is simulated whole, when the simulator's
// budget allows, and the timeline keeps evenly spaced pipeline ranks (the first and the last
// among them) so that their ops fit; the chart and the JSON say which ranks they show.
StepSimulation sampledRanks(const OpCostModel& costs, long long m, StepSimulation out, const EvaluateOptions& options)
{
    const PipelineGeometry& g = costs.geometry;
    const int p = g.ranks;
    const long long unit = g.kind == ScheduleKind::Interleaved ? p : 1;
    long long round = 0;
    for (long long c = unit; c <= std::min(m, 4 * unit); c += unit)
        if (scheduleRequirement(scheduleRequest(g, c)).empty()) {
            round = c;
            break;
        }
    const double ops = opsPerMicrobatch(g) * double(round);
    if (round < 1 || p < 2 || ops > double(options.max_simulated_ops))
        return out; // too large to simulate even once: the numbers stand, the chart says why
    const auto schedule = generateSchedule(scheduleRequest(g, round));
    Timeline tl = run(*schedule, costs, true);
    if (tl.deadlock)
        return out;
    const int keep = int(std::clamp<double>(std::floor(double(kMaxRecordedOps) / (ops / p)), 2, p));
    std::vector<int> ranks;
    for (int i = 0; i < keep; ++i)
        ranks.push_back(int(std::lround(double(i) * (p - 1) / (keep - 1))));
    std::vector<TimedOp> kept;
    for (const TimedOp& op : tl.ops)
        if (std::binary_search(ranks.begin(), ranks.end(), op.rank))
            kept.push_back(op);
    tl.ops = std::move(kept);
    out.timeline.simulated = true;
    out.timeline.ranks_shown = ranks;
    out.timeline.note = "the timeline shows " + num(double(keep)) + " of " + num(double(p))
        + " pipeline ranks (evenly spaced) for the first " + num(double(round)) + " of " + num(double(m))
        + " microbatches, simulated for drawing: all ranks' " + num(ops)
        + " ops are more than a timeline keeps; the step time is the " + out.time.method + " one";
    out.timeline.microbatches_shown = round;
    out.timeline.microbatches_total = m;
    out.timeline.timeline = std::move(tl);
    return out;
}

} // namespace

StepSimulation simulateStep(const Scenario& sc, const OpCostModel& costs, long long m, const EvaluateOptions& options)
{
    StepSimulation out = simulateNumbers(sc, costs, m, options);
    if (!options.record_timeline || out.timeline.simulated)
        return out;
    // The numbers came from more ops than a timeline keeps (or from the closed form): draw the
    // first microbatches of the same schedule instead, as many as kMaxRecordedOps allow, and
    // say so ("showing N of M microbatches"). The step time stays the one computed above.
    const PipelineGeometry& g = costs.geometry;
    const int p = g.ranks;
    const double ops_per_mb = opsPerMicrobatch(g);
    if (!scheduleRequirement(scheduleRequest(g, m)).empty())
        return out; // the schedule cannot run as asked: nothing to draw
    long long shown = std::min<long long>(m, (long long)(double(kMaxRecordedOps) / ops_per_mb));
    if (g.kind == ScheduleKind::Interleaved)
        shown -= shown % p;
    if (shown < 1 || !scheduleRequirement(scheduleRequest(g, shown)).empty())
        return sampledRanks(costs, m, std::move(out), options);
    const auto schedule = generateSchedule(scheduleRequest(g, shown));
    Timeline tl = run(*schedule, costs, true);
    if (tl.deadlock)
        return out;
    out.timeline.simulated = true;
    out.timeline.note = "the timeline shows the first " + num(double(shown)) + " of " + num(double(m))
        + " microbatches, simulated for drawing; the step time is the " + out.time.method + " one";
    out.timeline.microbatches_shown = shown;
    out.timeline.microbatches_total = m;
    out.timeline.timeline = std::move(tl);
    return out;
}

ThroughputReport computeThroughput(const Scenario& sc, const TimeReport& tr, const FlopsReport& flops, Explain explain)
{
    const TrainingConfig& t = sc.training;
    const GpuSpec& gpu = sc.cluster.gpu;
    ThroughputReport th;
    const double gpus = double(std::max<std::int64_t>(1, sc.parallel.gpus()));
    const double peak = peakFlops(gpu, t.precision);
    if (tr.step_s > 0) {
        th.tokens_per_s = double(sc.tokensPerStep()) / tr.step_s;
        th.model_tflops_per_gpu = flops.model_flops_per_step / tr.step_s / gpus / 1e12;
        th.hardware_tflops_per_gpu = flops.hardware_flops_per_step / tr.step_s / gpus / 1e12;
        th.mfu = peak > 0 ? th.model_tflops_per_gpu * 1e12 / peak : 0;
        th.hfu = peak > 0 ? th.hardware_tflops_per_gpu * 1e12 / peak : 0;
    }
    if (explain == Explain::NumbersOnly)
        return th;
    th.terms.push_back(
        {"throughput.mfu", th.mfu, "fraction", "model FLOPs / (step · GPUs · peak)",
         num(flops.model_flops_per_step) + "/(" + num(tr.step_s) + "·" + num(gpus) + "·" + num(peak) + ")",
         "Chowdhery et al. 2022 (PaLM) App. B; FLOPs convention: " + flops.convention});
    th.terms.push_back(
        {"throughput.hfu", th.hfu, "fraction", "hardware FLOPs (with recompute) / (step · GPUs · peak)",
         num(flops.hardware_flops_per_step) + "/(" + num(tr.step_s) + "·" + num(gpus) + "·" + num(peak) + ")",
         "Korthikanti et al. 2022 §6"});
    return th;
}

} // namespace parascope
