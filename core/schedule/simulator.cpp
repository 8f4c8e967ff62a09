#include "schedule/simulator.h"
#include "schedule/grad_buckets.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

namespace parascope {

bool isCompute(OpType t)
{
    return t == OpType::F || t == OpType::B || t == OpType::I || t == OpType::W || t == OpType::FB
        || t == OpType::Optimizer;
}

namespace {

constexpr double kUnset = -1.0;

struct Ends {
    int m = 0;
    std::vector<double> f, b, i; // b: end of B or I (the input gradient is ready); i: end of I or B
    explicit Ends(int stages, int microbatches)
        : m(microbatches)
        , f(std::size_t(stages) * microbatches, kUnset)
        , b(f.size(), kUnset)
        , i(f.size(), kUnset)
    { }
    std::size_t at(int s, int mb) const { return std::size_t(s) * m + mb; }
};

} // namespace

// Neighbouring ranks share boundary min(a, b); the last rank and rank 0 share the wrap (the
// interleaved schedule's next model chunk).
double SimulationInput::p2pBetween(int from_rank, int to_rank) const
{
    if (boundary_p2p_s.empty())
        return p2p_s;
    const int d = from_rank - to_rank;
    const std::size_t at = std::size_t(d == 1 || d == -1 ? std::min(from_rank, to_rank) : std::max(from_rank, to_rank));
    return at < boundary_p2p_s.size() ? boundary_p2p_s[at] : p2p_s;
}

namespace {

// The order a stable sort by (rank, start) gives, in linear time for what the simulator emits:
// ops are bucketed by rank in emission order (a counting pass), and each rank's ops, already
// almost in time order (only the tails' gradient reduction starts before the ops it follows),
// are finished by a stable insertion sort. A stable_sort of every op was a quarter of an
// evaluation on the slider path.
void sortByRankThenStart(std::vector<TimedOp>& ops, int ranks)
{
    std::vector<std::size_t> offset(std::size_t(ranks) + 1, 0);
    for (const TimedOp& op : ops)
        ++offset[std::size_t(op.rank) + 1];
    for (std::size_t r = 1; r < offset.size(); ++r)
        offset[r] += offset[r - 1];
    std::vector<TimedOp> sorted(ops.size());
    std::vector<std::size_t> next(offset.begin(), offset.end() - 1);
    for (const TimedOp& op : ops)
        sorted[next[std::size_t(op.rank)]++] = op;
    for (int r = 0; r < ranks; ++r)
        for (std::size_t i = offset[std::size_t(r)] + 1; i < offset[std::size_t(r) + 1]; ++i)
            for (std::size_t j = i; j > offset[std::size_t(r)] && sorted[j - 1].start_s > sorted[j].start_s; --j)
                std::swap(sorted[j - 1], sorted[j]);
    ops = std::move(sorted);
}

} // namespace

namespace {

// One replay of a schedule: every rank runs its actions in order, an action as soon as its rank
// is free and its input has arrived; a rank whose next action waits goes back to the work list
// and is woken when the stage it waits for finishes. The state of every rank lives here.
class Simulation {
public:
    explicit Simulation(const SimulationInput& in);
    Timeline run();

private:
    // What an action costs now: when its inputs are ready (kUnset: not yet), how long it runs
    // and how much of that is exposed communication.
    struct Timing {
        double ready = 0, duration = 0, comm = 0;
        OpType type = OpType::F;
    };
    const StageCost& cost(int s) const { return in_.stages[std::size_t(s)]; }
    void findUnpaired();
    double arrive(int from_stage, int to_rank, double end) const;
    double forwardReady(int s, int mb, int r) const;
    double backwardReady(int s, int mb, int r) const;
    Timing timing(const Action& a, int r) const;
    Timing forwardBackwardTiming(const Action& a, int r) const;
    void wake(int stage);
    void record(int r, OpType t, int stage, int mb, double start, double end, double comm);
    void recordSend(int r, int to_stage, int stage, int mb, double start);
    void recordZeroCollectives(int r, OpType t, int stage, int chunk, int mb, double start, double end);
    void finishForward(int r, int s, int mb, double end);
    void finishBackward(int r, int s, int mb, bool full, double start, double end);
    void finish(const Action& a, int r, double start, double end);
    void replayRank(int r);
    bool deadlocked();
    void addTails();

    const SimulationInput& in_;
    const PipelineSchedule& sch_;
    const StageLayout layout_;
    const int p_, S_;
    Timeline tl_;
    Ends ends_;
    std::vector<std::size_t> pos_;
    // Per rank: where its first backward is and where its last forward is (combined 1F1B pairs
    // only the passes between them, StageCost::unpaired_forward_s).
    std::vector<std::size_t> first_backward_, last_forward_;
    std::vector<double> clock_, last_backward_start_;
    std::vector<int> inflight_, peak_;
    std::deque<int> work_;
    std::vector<char> queued_;
    std::size_t done_ = 0;
    bool zero_lanes_ = false; // any ZeRO-2/3 collective to draw beside the passes
};

Simulation::Simulation(const SimulationInput& in)
    : in_(in)
    , sch_(*in.schedule)
    , layout_(sch_.layout())
    , p_(sch_.ranks)
    , S_(sch_.stages())
    , ends_(S_, sch_.microbatches)
    , pos_(p_, 0)
    , first_backward_(p_, 0)
    , last_forward_(p_, std::numeric_limits<std::size_t>::max())
    , clock_(p_, 0)
    , last_backward_start_(p_, 0)
    , inflight_(p_, 0)
    , peak_(p_, 0)
    , queued_(p_, 1)
{
    tl_.ranks = p_;
    tl_.busy_s.assign(p_, 0);
    tl_.comm_in_ops_s.assign(p_, 0);
    tl_.pipeline_end_per_rank_s.assign(p_, 0);
    tl_.tail_exposed_s.assign(p_, 0);
    tl_.grad_buckets_hidden.assign(p_, 0);
    tl_.step_end_per_rank_s.assign(p_, 0);
    tl_.peak_inflight.assign(p_, 0);
    findUnpaired();
    zero_lanes_ = std::any_of(in_.stages.begin(), in_.stages.end(), [](const StageCost& c) {
        return c.forward_gather_s > 0 || c.backward_gather_s > 0 || c.backward_reduce_s > 0;
    });
    if (in_.record_ops)
        tl_.ops.reserve(2 * sch_.actionCount() + 4 * std::size_t(p_)); // compute ops and about as many sends
    for (int r = 0; r < p_; ++r)
        work_.push_back(r);
}

// Without unpaired costs nothing is unpaired: no pass comes before 0 or after the end. (A cost
// can be negative: a pair pays a slowdown an unpaired pass does not, layer_cost.cpp exposeEp.)
void Simulation::findUnpaired()
{
    const bool pairs = std::any_of(in_.stages.begin(), in_.stages.end(), [](const StageCost& c) {
        return c.unpaired_forward_s != 0 || c.unpaired_backward_s != 0;
    });
    for (int r = 0; r < p_ && pairs; ++r) {
        const auto& list = sch_.actions[r];
        first_backward_[r] = list.size();
        for (std::size_t i = 0; i < list.size(); ++i) {
            const bool backward = list[i].kind == OpKind::Backward || list[i].kind == OpKind::BackwardInput;
            if (backward && first_backward_[r] == list.size())
                first_backward_[r] = i;
            if (list[i].kind == OpKind::Forward)
                last_forward_[r] = i;
        }
    }
}

double Simulation::arrive(int from_stage, int to_rank, double end) const
{
    const int from_rank = layout_.rankOf(from_stage);
    return from_rank == to_rank ? end : end + in_.p2pBetween(from_rank, to_rank);
}

// When the inputs of a compute op are ready (kUnset if not yet).
double Simulation::forwardReady(int s, int mb, int r) const
{
    if (layout_.isFirst(s))
        return 0;
    const double e = ends_.f[ends_.at(s - 1, mb)];
    return e < 0 ? kUnset : arrive(s - 1, r, e);
}

double Simulation::backwardReady(int s, int mb, int r) const
{
    if (layout_.isLast(s)) {
        const double e = ends_.f[ends_.at(s, mb)];
        return e < 0 ? kUnset : e;
    }
    const double e = ends_.b[ends_.at(s + 1, mb)];
    return e < 0 ? kUnset : arrive(s + 1, r, e);
}

Simulation::Timing Simulation::timing(const Action& a, int r) const
{
    Timing t;
    switch (a.kind) {
    case OpKind::Forward:
        t.ready = forwardReady(a.stage, a.microbatch, r);
        t.duration = cost(a.stage).forward_s;
        t.comm = cost(a.stage).forward_comm_s;
        if (pos_[r] < first_backward_[r]) { // warm-up: no backward to pair with
            t.duration += cost(a.stage).unpaired_forward_s;
            t.comm += cost(a.stage).unpaired_forward_s;
        }
        t.type = OpType::F;
        break;
    case OpKind::Backward:
    case OpKind::BackwardInput:
        t.ready = backwardReady(a.stage, a.microbatch, r);
        t.duration = a.kind == OpKind::Backward ? cost(a.stage).backward_s() : cost(a.stage).backward_input_s;
        t.comm = cost(a.stage).backward_comm_s;
        if (pos_[r] > last_forward_[r]) { // cool-down: no forward to pair with
            t.duration += cost(a.stage).unpaired_backward_s;
            t.comm += cost(a.stage).unpaired_backward_s;
        }
        t.type = a.kind == OpKind::Backward ? OpType::B : OpType::I;
        break;
    case OpKind::BackwardWeight: {
        const double e = ends_.i[ends_.at(a.stage, a.microbatch)];
        t.ready = e < 0 ? kUnset : e;
        t.duration = cost(a.stage).backward_weight_s;
        t.type = OpType::W;
        break;
    }
    case OpKind::ForwardBackward: return forwardBackwardTiming(a, r);
    }
    return t;
}

// Overlapped: each half's communication hides behind the other's compute.
Simulation::Timing Simulation::forwardBackwardTiming(const Action& a, int r) const
{
    Timing t;
    const double rf = forwardReady(a.stage, a.microbatch, r);
    const double rb = backwardReady(a.b_stage, a.b_microbatch, r);
    t.ready = (rf < 0 || rb < 0) ? kUnset : std::max(rf, rb);
    const StageCost& cf = cost(a.stage);
    const StageCost& cb = cost(a.b_stage);
    const double compute = (cf.forward_s - cf.forward_comm_s) + (cb.backward_s() - cb.backward_comm_s);
    const double c = cf.forward_comm_s + cb.backward_comm_s;
    t.comm = std::max(0.0, c - compute);
    t.duration = compute + t.comm;
    t.type = OpType::FB;
    return t;
}

void Simulation::wake(int stage)
{
    if (stage < 0 || stage >= S_)
        return;
    const int r = layout_.rankOf(stage);
    if (!queued_[r]) {
        queued_[r] = 1;
        work_.push_back(r);
    }
}

void Simulation::record(int r, OpType t, int stage, int mb, double start, double end, double comm)
{
    if (!in_.record_ops)
        return;
    const int chunk = stage >= 0 ? sch_.chunkOfStage(stage) : 0;
    tl_.ops.push_back({r, false, t, stage, chunk, mb, start, end, comm});
    if (zero_lanes_)
        recordZeroCollectives(r, t, stage, chunk, mb, start, end);
}

// ZeRO-2/3 on the communication lane beside a pass: the forward's (and the backward's) parameter
// all-gather from the pass's start (prefetched ahead of the layers, or, without prefetch, the
// exposed part at the start of the pass), and the backward's gradient reduce-scatter ending with
// the pass (each layer's gradients go out behind it).
void Simulation::recordZeroCollectives(int r, OpType t, int stage, int chunk, int mb, double start, double end)
{
    if (stage < 0 || std::size_t(stage) >= in_.stages.size() || t == OpType::W)
        return;
    const StageCost& c = in_.stages[std::size_t(stage)];
    const double gather = t == OpType::F ? c.forward_gather_s
        : t == OpType::FB                ? c.forward_gather_s + c.backward_gather_s
                                         : c.backward_gather_s;
    const double reduce = t == OpType::F ? 0.0 : c.backward_reduce_s;
    if (gather > 0)
        tl_.ops.push_back({r, true, OpType::AllGather, stage, chunk, mb, start, start + gather, gather});
    if (reduce > 0)
        tl_.ops.push_back({r, true, OpType::ReduceScatter, stage, chunk, mb, std::max(start, end - reduce),
                           std::max(start, end - reduce) + reduce, reduce});
}

void Simulation::recordSend(int r, int to_stage, int stage, int mb, double start)
{
    const double t = in_.p2pBetween(r, layout_.rankOf(to_stage));
    if (in_.record_ops && t > 0)
        tl_.ops.push_back({r, true, OpType::Send, stage, sch_.chunkOfStage(stage), mb, start, start + t, t, to_stage});
    // A blocking send holds its rank until the data has arrived: exposed communication.
    if (in_.blocking_sends && start + t > clock_[r]) {
        const double held = start + t - clock_[r];
        tl_.busy_s[r] += held;
        tl_.comm_in_ops_s[r] += held;
        clock_[r] = start + t;
    }
}

// Activation bookkeeping (in chunk units): +1 at F, −1 when the stage's backward is complete (B,
// or W after a split: the ZB code frees most activations at W).
void Simulation::finishForward(int r, int s, int mb, double end)
{
    ends_.f[ends_.at(s, mb)] = end;
    ++inflight_[r];
    peak_[r] = std::max(peak_[r], inflight_[r]);
    if (!layout_.isLast(s) && layout_.rankOf(s + 1) != r)
        recordSend(r, s + 1, s, mb, end);
    wake(s + 1);
    if (layout_.isLast(s))
        wake(s);
}

void Simulation::finishBackward(int r, int s, int mb, bool full, double start, double end)
{
    ends_.b[ends_.at(s, mb)] = end;
    ends_.i[ends_.at(s, mb)] = end;
    last_backward_start_[r] = start;
    if (full)
        --inflight_[r];
    if (!layout_.isFirst(s) && layout_.rankOf(s - 1) != r)
        recordSend(r, s - 1, s, mb, end);
    wake(s - 1);
}

void Simulation::finish(const Action& a, int r, double start, double end)
{
    switch (a.kind) {
    case OpKind::Forward: finishForward(r, a.stage, a.microbatch, end); break;
    case OpKind::Backward: finishBackward(r, a.stage, a.microbatch, true, start, end); break;
    case OpKind::BackwardInput: finishBackward(r, a.stage, a.microbatch, false, start, end); break;
    case OpKind::BackwardWeight:
        --inflight_[r];
        last_backward_start_[r] = start;
        break;
    case OpKind::ForwardBackward:
        finishForward(r, a.stage, a.microbatch, end);
        finishBackward(r, a.b_stage, a.b_microbatch, true, start, end);
        break;
    }
}

// Rank r runs its next actions until one waits for another rank.
void Simulation::replayRank(int r)
{
    const auto& list = sch_.actions[r];
    while (pos_[r] < list.size()) {
        const Action& a = list[pos_[r]];
        const Timing t = timing(a, r);
        if (t.ready < 0)
            break; // waits for another rank
        const double start = std::max(clock_[r], t.ready);
        const double end = start + t.duration;
        clock_[r] = end;
        tl_.busy_s[r] += t.duration;
        tl_.comm_in_ops_s[r] += t.comm;
        record(r, t.type, a.stage, a.microbatch, start, end, t.comm);
        ++done_;
        ++pos_[r];
        finish(a, r, start, end);
    }
}

bool Simulation::deadlocked()
{
    if (done_ == sch_.actionCount())
        return false;
    tl_.deadlock = true;
    for (int r = 0; r < p_; ++r)
        if (pos_[r] < sch_.actions[r].size()) {
            tl_.problem = "rank " + std::to_string(r) + " waits forever at " + toString(sch_.actions[r][pos_[r]]);
            break;
        }
    return true;
}

// Tails: gradient reduction from the start of the last backward (when overlapped), then the
// optimizer once both are done, then the exposed part of the parameter all-gather.
void Simulation::addTails()
{
    for (int r = 0; r < p_ && r < int(in_.tails.size()); ++r) {
        const RankTail& t = in_.tails[r];
        double now = clock_[r];
        if (t.grad_reduce_s > 0) {
            const BucketChain chain
                = bucketChain({t.grad_reduce_s, t.last_bucket_s, t.grad_buckets, t.overlap_grad_reduce},
                              last_backward_start_[r], clock_[r], in_.record_ops);
            for (std::size_t b = 0; b < chain.buckets.size(); ++b) {
                const BucketSlot& slot = chain.buckets[b];
                tl_.ops.push_back({r, true, t.grad_reduce_type, -1, 0, -1, slot.start_s, slot.end_s,
                                   slot.end_s - slot.start_s, -1, int(b)});
            }
            tl_.grad_buckets_hidden[r] = chain.hidden;
            tl_.tail_exposed_s[r] += std::max(0.0, chain.end_s - clock_[r]);
            now = std::max(now, chain.end_s);
        }
        if (t.optimizer_s > 0) {
            if (in_.record_ops)
                tl_.ops.push_back({r, false, OpType::Optimizer, -1, 0, -1, now, now + t.optimizer_s, 0});
            now += t.optimizer_s;
        }
        if (t.param_gather_s > 0) {
            if (in_.record_ops)
                tl_.ops.push_back(
                    {r, true, OpType::AllGather, -1, 0, -1, now, now + t.param_gather_s, t.param_gather_s});
            tl_.tail_exposed_s[r] += t.param_gather_s;
            now += t.param_gather_s;
        }
        tl_.step_end_per_rank_s[r] = now;
        tl_.step_s = std::max(tl_.step_s, now);
    }
}

Timeline Simulation::run()
{
    while (!work_.empty()) {
        const int r = work_.front();
        work_.pop_front();
        queued_[r] = 0;
        replayRank(r);
    }
    if (deadlocked())
        return std::move(tl_);
    for (int r = 0; r < p_; ++r) {
        tl_.pipeline_end_per_rank_s[r] = clock_[r];
        tl_.pipeline_end_s = std::max(tl_.pipeline_end_s, clock_[r]);
        tl_.peak_inflight[r] = double(peak_[r]) / sch_.chunks;
    }
    tl_.step_s = tl_.pipeline_end_s;
    for (int r = 0; r < p_; ++r)
        tl_.step_end_per_rank_s[r] = clock_[r];
    addTails();
    if (in_.record_ops)
        sortByRankThenStart(tl_.ops, p_);
    return std::move(tl_);
}

} // namespace

Timeline simulate(const SimulationInput& in) { return Simulation(in).run(); }

} // namespace parascope
