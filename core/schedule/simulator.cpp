#include "schedule/simulator.h"

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

// Where a schedule's stages sit, read once from its row: the simulator asks for every op.
struct StageMap {
    explicit StageMap(const PipelineSchedule& s)
        : ranks(s.ranks)
        , last(s.stages() - 1)
        , bidirectional(s.bidirectional())
        , mirrored(mirroredPlacement(s.kind))
    { }
    bool isFirst(int stage) const { return stage == 0 || (bidirectional && stage == ranks); }
    bool isLast(int stage) const { return stage == last || (bidirectional && stage == ranks - 1); }
    int rankOf(int stage) const { return rankOfVirtualStage(stage, ranks, mirrored); }
    int ranks, last;
    bool bidirectional, mirrored;
};

} // namespace

Timeline simulate(const SimulationInput& in)
{
    const PipelineSchedule& sch = *in.schedule;
    const StageMap stage_map(sch);
    const int p = sch.ranks, S = sch.stages(), m = sch.microbatches;
    Timeline tl;
    tl.ranks = p;
    tl.busy_s.assign(p, 0);
    tl.comm_in_ops_s.assign(p, 0);
    tl.pipeline_end_per_rank_s.assign(p, 0);
    tl.tail_exposed_s.assign(p, 0);
    tl.step_end_per_rank_s.assign(p, 0);
    tl.peak_inflight.assign(p, 0);
    Ends ends(S, m);
    std::vector<std::size_t> pos(p, 0);
    // Per rank: where its first backward is and where its last forward is (combined 1F1B pairs
    // only the passes between them, StageCost::unpaired_forward_s). Without such costs nothing
    // is unpaired: no pass comes before 0 or after the end.
    const bool pairs = std::any_of(in.stages.begin(), in.stages.end(), [](const StageCost& c) {
        return c.unpaired_forward_s > 0 || c.unpaired_backward_s > 0;
    });
    std::vector<std::size_t> first_backward(p, 0), last_forward(p, std::numeric_limits<std::size_t>::max());
    for (int r = 0; r < p && pairs; ++r) {
        const auto& list = sch.actions[r];
        first_backward[r] = list.size();
        for (std::size_t i = 0; i < list.size(); ++i) {
            const bool backward = list[i].kind == OpKind::Backward || list[i].kind == OpKind::BackwardInput;
            if (backward && first_backward[r] == list.size())
                first_backward[r] = i;
            if (list[i].kind == OpKind::Forward)
                last_forward[r] = i;
        }
    }
    std::vector<double> clock(p, 0);
    std::vector<double> last_backward_start(p, 0);
    std::vector<int> inflight(p, 0), peak(p, 0);
    if (in.record_ops)
        tl.ops.reserve(2 * sch.actionCount() + 4 * std::size_t(p)); // compute ops and about as many sends

    const auto cost = [&](int s) -> const StageCost& { return in.stages[std::size_t(s)]; };
    const auto arrive = [&](int from_stage, int to_rank, double end) {
        const int from_rank = stage_map.rankOf(from_stage);
        return from_rank == to_rank ? end : end + in.p2pBetween(from_rank, to_rank);
    };
    // When the inputs of a compute op are ready (kUnset if not yet).
    const auto forwardReady = [&](int s, int mb, int r) -> double {
        if (stage_map.isFirst(s))
            return 0;
        const double e = ends.f[ends.at(s - 1, mb)];
        return e < 0 ? kUnset : arrive(s - 1, r, e);
    };
    const auto backwardReady = [&](int s, int mb, int r) -> double {
        if (stage_map.isLast(s)) {
            const double e = ends.f[ends.at(s, mb)];
            return e < 0 ? kUnset : e;
        }
        const double e = ends.b[ends.at(s + 1, mb)];
        return e < 0 ? kUnset : arrive(s + 1, r, e);
    };

    std::deque<int> work;
    std::vector<char> queued(p, 1);
    for (int r = 0; r < p; ++r)
        work.push_back(r);
    const auto wake = [&](int stage) {
        if (stage < 0 || stage >= S)
            return;
        const int r = stage_map.rankOf(stage);
        if (!queued[r]) {
            queued[r] = 1;
            work.push_back(r);
        }
    };
    const auto record = [&](int r, OpType t, int stage, int mb, double start, double end, double comm) {
        if (in.record_ops)
            tl.ops.push_back({r, false, t, stage, stage >= 0 ? sch.chunkOfStage(stage) : 0, mb, start, end, comm});
    };
    const auto recordSend = [&](int r, int to_stage, int stage, int mb, double start) {
        const double t = in.p2pBetween(r, stage_map.rankOf(to_stage));
        if (in.record_ops && t > 0)
            tl.ops.push_back(
                {r, true, OpType::Send, stage, sch.chunkOfStage(stage), mb, start, start + t, t, to_stage});
        // A blocking send holds its rank until the data has arrived: exposed communication.
        if (in.blocking_sends && start + t > clock[r]) {
            const double held = start + t - clock[r];
            tl.busy_s[r] += held;
            tl.comm_in_ops_s[r] += held;
            clock[r] = start + t;
        }
    };

    std::size_t done = 0;
    const std::size_t total = sch.actionCount();
    while (!work.empty()) {
        const int r = work.front();
        work.pop_front();
        queued[r] = 0;
        const auto& list = sch.actions[r];
        while (pos[r] < list.size()) {
            const Action& a = list[pos[r]];
            double ready = 0, duration = 0, comm = 0;
            OpType type = OpType::F;
            switch (a.kind) {
            case OpKind::Forward:
                ready = forwardReady(a.stage, a.microbatch, r);
                duration = cost(a.stage).forward_s;
                comm = cost(a.stage).forward_comm_s;
                if (pos[r] < first_backward[r]) { // warm-up: no backward to pair with
                    duration += cost(a.stage).unpaired_forward_s;
                    comm += cost(a.stage).unpaired_forward_s;
                }
                type = OpType::F;
                break;
            case OpKind::Backward:
            case OpKind::BackwardInput:
                ready = backwardReady(a.stage, a.microbatch, r);
                duration = a.kind == OpKind::Backward ? cost(a.stage).backward_s() : cost(a.stage).backward_input_s;
                comm = cost(a.stage).backward_comm_s;
                if (pos[r] > last_forward[r]) { // cool-down: no forward to pair with
                    duration += cost(a.stage).unpaired_backward_s;
                    comm += cost(a.stage).unpaired_backward_s;
                }
                type = a.kind == OpKind::Backward ? OpType::B : OpType::I;
                break;
            case OpKind::BackwardWeight: {
                const double e = ends.i[ends.at(a.stage, a.microbatch)];
                ready = e < 0 ? kUnset : e;
                duration = cost(a.stage).backward_weight_s;
                type = OpType::W;
                break;
            }
            case OpKind::ForwardBackward: {
                const double rf = forwardReady(a.stage, a.microbatch, r);
                const double rb = backwardReady(a.b_stage, a.b_microbatch, r);
                ready = (rf < 0 || rb < 0) ? kUnset : std::max(rf, rb);
                // Overlapped: each half's communication hides behind the other's compute.
                const StageCost& cf = cost(a.stage);
                const StageCost& cb = cost(a.b_stage);
                const double compute = (cf.forward_s - cf.forward_comm_s) + (cb.backward_s() - cb.backward_comm_s);
                const double c = cf.forward_comm_s + cb.backward_comm_s;
                comm = std::max(0.0, c - compute);
                duration = compute + comm;
                type = OpType::FB;
                break;
            }
            }
            if (ready < 0)
                break; // waits for another rank
            const double start = std::max(clock[r], ready);
            const double end = start + duration;
            clock[r] = end;
            tl.busy_s[r] += duration;
            tl.comm_in_ops_s[r] += comm;
            record(r, type, a.stage, a.microbatch, start, end, comm);
            ++done;
            ++pos[r];

            // Activation bookkeeping (in chunk units): +1 at F, −1 when the stage's backward is
            // complete (B, or W after a split: the ZB code frees most activations at W).
            const auto finishForward = [&](int s, int mb) {
                ends.f[ends.at(s, mb)] = end;
                ++inflight[r];
                peak[r] = std::max(peak[r], inflight[r]);
                if (!stage_map.isLast(s) && stage_map.rankOf(s + 1) != r)
                    recordSend(r, s + 1, s, mb, end);
                wake(s + 1);
                if (stage_map.isLast(s))
                    wake(s);
            };
            const auto finishBackward = [&](int s, int mb, bool full) {
                ends.b[ends.at(s, mb)] = end;
                ends.i[ends.at(s, mb)] = end;
                last_backward_start[r] = start;
                if (full)
                    --inflight[r];
                if (!stage_map.isFirst(s) && stage_map.rankOf(s - 1) != r)
                    recordSend(r, s - 1, s, mb, end);
                wake(s - 1);
            };
            switch (a.kind) {
            case OpKind::Forward: finishForward(a.stage, a.microbatch); break;
            case OpKind::Backward: finishBackward(a.stage, a.microbatch, true); break;
            case OpKind::BackwardInput: finishBackward(a.stage, a.microbatch, false); break;
            case OpKind::BackwardWeight:
                --inflight[r];
                last_backward_start[r] = start;
                break;
            case OpKind::ForwardBackward:
                finishForward(a.stage, a.microbatch);
                finishBackward(a.b_stage, a.b_microbatch, true);
                break;
            }
        }
    }
    if (done != total) {
        tl.deadlock = true;
        for (int r = 0; r < p; ++r)
            if (pos[r] < sch.actions[r].size()) {
                tl.problem = "rank " + std::to_string(r) + " waits forever at " + toString(sch.actions[r][pos[r]]);
                break;
            }
        return tl;
    }

    for (int r = 0; r < p; ++r) {
        tl.pipeline_end_per_rank_s[r] = clock[r];
        tl.pipeline_end_s = std::max(tl.pipeline_end_s, clock[r]);
        tl.peak_inflight[r] = double(peak[r]) / sch.chunks;
    }
    // Tails: gradient reduction from the start of the last backward (when overlapped), then the
    // optimizer once both are done, then the exposed part of the parameter all-gather.
    tl.step_s = tl.pipeline_end_s;
    for (int r = 0; r < p; ++r)
        tl.step_end_per_rank_s[r] = clock[r];
    for (int r = 0; r < p && r < int(in.tails.size()); ++r) {
        const RankTail& t = in.tails[r];
        double now = clock[r];
        if (t.grad_reduce_s > 0) {
            const double start = t.overlap_grad_reduce ? last_backward_start[r] : clock[r];
            const double end = std::max(start + t.grad_reduce_s, clock[r] + t.last_bucket_s);
            if (in.record_ops)
                tl.ops.push_back({r, true, t.grad_reduce_type, -1, 0, -1, start, end, t.grad_reduce_s});
            tl.tail_exposed_s[r] += std::max(0.0, end - clock[r]);
            now = std::max(now, end);
        }
        if (t.optimizer_s > 0) {
            if (in.record_ops)
                tl.ops.push_back({r, false, OpType::Optimizer, -1, 0, -1, now, now + t.optimizer_s, 0});
            now += t.optimizer_s;
        }
        if (t.param_gather_s > 0) {
            if (in.record_ops)
                tl.ops.push_back(
                    {r, true, OpType::AllGather, -1, 0, -1, now, now + t.param_gather_s, t.param_gather_s});
            tl.tail_exposed_s[r] += t.param_gather_s;
            now += t.param_gather_s;
        }
        tl.step_end_per_rank_s[r] = now;
        tl.step_s = std::max(tl.step_s, now);
    }
    if (in.record_ops)
        sortByRankThenStart(tl.ops, p);
    return tl;
}

} // namespace parascope
