#include "schedule/generators.h"

#include <algorithm>
#include <deque>
#include <map>

namespace parascope {

namespace {

PipelineSchedule make(ScheduleKind kind, int p, int chunks, int m)
{
    PipelineSchedule s;
    s.kind = kind;
    s.ranks = p;
    s.chunks = chunks;
    s.microbatches = m;
    s.actions.resize(p);
    return s;
}

Action op(OpKind k, int stage, int mb) { return Action{k, stage, mb, -1, -1}; }

// Per-(kind, stage) counters: the V-shaped generators advance each chunk's microbatches
// independently, as the reference implementations do.
struct Counters {
    std::map<std::pair<int, int>, int> next;
    int take(OpKind k, int stage) { return next[{int(k), stage}]++; }
    int count(OpKind k, int stage) const
    {
        const auto it = next.find({int(k), stage});
        return it == next.end() ? 0 : it->second;
    }
};

} // namespace

ScheduleRequest scheduleRequest(const PipelineGeometry& g, long long m)
{
    return {g.kind, g.ranks, scheduleRow(g.kind).chunks_from_vpp ? g.chunks : 1, int(std::min<long long>(m, 1 << 30))};
}

// GPipe (Huang et al. 2019): all forwards, then all backwards.
PipelineSchedule gpipeSchedule(int p, int m)
{
    PipelineSchedule s = make(ScheduleKind::GPipe, p, 1, m);
    for (int i = 0; i < p; ++i) {
        for (int k = 0; k < m; ++k)
            s.actions[i].push_back(op(OpKind::Forward, i, k));
        for (int k = 0; k < m; ++k)
            s.actions[i].push_back(op(OpKind::Backward, i, k));
    }
    return s;
}

// 1F1B / PipeDream-Flush (Megatron forward_backward_pipelining_without_interleaving):
// warm-up min(p − i − 1, m) forwards, then {F; B} pairs, then the remaining backwards.
PipelineSchedule oneFOneBSchedule(int p, int m)
{
    PipelineSchedule s = make(ScheduleKind::OneFOneB, p, 1, m);
    for (int i = 0; i < p; ++i) {
        auto& list = s.actions[i];
        const int warmup = std::min(p - i - 1, m);
        int f = 0, b = 0;
        for (; f < warmup; ++f)
            list.push_back(op(OpKind::Forward, i, f));
        while (f < m) {
            list.push_back(op(OpKind::Forward, i, f++));
            list.push_back(op(OpKind::Backward, i, b++));
        }
        while (b < m)
            list.push_back(op(OpKind::Backward, i, b++));
    }
    return s;
}

// Megatron interleaved 1F1B: rank r holds chunks r, r + p, …; warm-up
// (m == p ? m·v : min((p − r − 1)·2 + (v − 1)·p, m·v)) chunk-ops; the k-th forward runs chunk
// (k mod p·v) / p on microbatch (k / p·v)·p + k mod p, the k-th backward the mirror chunk.
PipelineSchedule interleavedSchedule(int p, int v, int m)
{
    PipelineSchedule s = make(ScheduleKind::Interleaved, p, v, m);
    const int total = m * v;
    for (int r = 0; r < p; ++r) {
        auto& list = s.actions[r];
        const auto mb = [&](int k) { return (k / (p * v)) * p + k % p; };
        const auto fwd = [&](int k) { return op(OpKind::Forward, ((k % (p * v)) / p) * p + r, mb(k)); };
        const auto bwd = [&](int k) { return op(OpKind::Backward, (v - 1 - (k % (p * v)) / p) * p + r, mb(k)); };
        const int warmup = m == p ? total : std::min((p - r - 1) * 2 + (v - 1) * p, total);
        int f = 0, b = 0;
        for (; f < warmup; ++f)
            list.push_back(fwd(f));
        while (f < total) {
            list.push_back(fwd(f++));
            list.push_back(bwd(b++));
        }
        while (b < total)
            list.push_back(bwd(b++));
    }
    return s;
}

// ZB-H1 (Qi et al. 2024): 1F1B with the backward split into I and W; rank i delays its W's by i
// steady iterations so they fill the cool-down bubbles; memory as 1F1B.
PipelineSchedule zbH1Schedule(int p, int m)
{
    PipelineSchedule s = make(ScheduleKind::ZbH1, p, 1, m);
    for (int i = 0; i < p; ++i) {
        auto& list = s.actions[i];
        const int warmup = std::min(p - i - 1, m);
        int f = 0, b = 0, w = 0;
        for (; f < warmup; ++f)
            list.push_back(op(OpKind::Forward, i, f));
        for (int k = 0; f < m; ++k) {
            list.push_back(op(OpKind::Forward, i, f++));
            list.push_back(op(OpKind::BackwardInput, i, b++));
            if (k >= i)
                list.push_back(op(OpKind::BackwardWeight, i, w++));
        }
        while (b < m) {
            list.push_back(op(OpKind::BackwardInput, i, b++));
            list.push_back(op(OpKind::BackwardWeight, i, w++));
        }
        while (w < m)
            list.push_back(op(OpKind::BackwardWeight, i, w++));
    }
    return s;
}

// ZB-V (PyTorch ScheduleZBVZeroBubble): rank r holds stages r and 2p − 1 − r.
PipelineSchedule zbVSchedule(int p, int m)
{
    PipelineSchedule s = make(ScheduleKind::ZbV, p, 2, m);
    for (int r = 0; r < p; ++r) {
        auto& list = s.actions[r];
        const int c0 = r, c1 = 2 * p - 1 - r;
        Counters n;
        const auto emit = [&](OpKind k, int stage) {
            if (n.count(k, stage) < m)
                list.push_back(op(k, stage, n.take(k, stage)));
        };
        for (int i = 0; i < 2 * (p - r) - 1; ++i)
            emit(OpKind::Forward, c0);
        for (int i = 0; i < r; ++i) {
            emit(OpKind::Forward, c1);
            emit(OpKind::Forward, c0);
        }
        for (int i = 0; i < p - r; ++i) {
            emit(OpKind::Forward, c1);
            emit(OpKind::BackwardInput, c1);
            emit(OpKind::BackwardWeight, c1);
        }
        while (n.count(OpKind::Forward, c1) < m) {
            emit(OpKind::Forward, c0);
            emit(OpKind::BackwardInput, c0);
            emit(OpKind::BackwardWeight, c0);
            emit(OpKind::Forward, c1);
            emit(OpKind::BackwardInput, c1);
            emit(OpKind::BackwardWeight, c1);
        }
        for (int i = 0; i < r; ++i) {
            emit(OpKind::BackwardInput, c0);
            emit(OpKind::BackwardInput, c1);
        }
        for (int i = 0; i < p - r; ++i) {
            emit(OpKind::BackwardInput, c0);
            emit(OpKind::BackwardWeight, c0);
        }
        while (n.count(OpKind::BackwardWeight, c1) < m)
            emit(OpKind::BackwardWeight, c1);
        while (n.count(OpKind::BackwardWeight, c0) < m)
            emit(OpKind::BackwardWeight, c0);
        // Any I not yet emitted (tiny m) goes before its W.
        for (int c : {c0, c1})
            while (n.count(OpKind::BackwardInput, c) < m)
                emit(OpKind::BackwardInput, c);
    }
    return s;
}

// One rank of the DualPipe family (deepseek-ai/DualPipe dualpipe.py, dualpipev.py): the same
// eight steps, counted from `own` (the rank's steps with both chunks: r + 1 in DualPipeV,
// half_rank + 1 in DualPipe) and `rest` (R − r − 1, or p/2 − half_rank − 1); phase 0 (c0) is the
// chunk this rank is nearer the start of. Zero-bubble splits (I now, W from a FIFO later) where
// the reference enables them; `offset` turns a stage's count into its microbatch id.
struct DualPipeRank {
    int c0 = 0, c1 = 0;
    int own = 1, rest = 0, main_steps = 0;
    int parity = 0; // r (DualPipeV) or half_rank: which half of step 6 splits first
    bool plain_first_pair = false; // the main step's first pair not overlapped (last / middle ranks)
};

template <class Offset> void emitDualPipeRank(std::vector<Action>& list, const DualPipeRank& k, Offset offset)
{
    Counters n;
    std::deque<Action> pending_w;
    const auto take = [&](OpKind kind, int stage) { return n.take(kind, stage) + offset(stage); };
    const auto F = [&](int stage) { list.push_back(op(OpKind::Forward, stage, take(OpKind::Forward, stage))); };
    const auto B = [&](int stage, bool zero_bubble) {
        const int mb = take(OpKind::Backward, stage);
        if (zero_bubble) {
            list.push_back(op(OpKind::BackwardInput, stage, mb));
            pending_w.push_back(op(OpKind::BackwardWeight, stage, mb));
        } else {
            list.push_back(op(OpKind::Backward, stage, mb));
        }
    };
    const auto W = [&] {
        if (!pending_w.empty()) {
            list.push_back(pending_w.front());
            pending_w.pop_front();
        }
    };
    const auto FB = [&](int f_stage, int b_stage) {
        list.push_back(Action{OpKind::ForwardBackward, f_stage, take(OpKind::Forward, f_stage), b_stage,
                              take(OpKind::Backward, b_stage)});
    };
    for (int i = 0; i < k.rest * 2; ++i) // step 1: nF0
        F(k.c0);
    for (int i = 0; i < k.own; ++i) { // step 2: nF0F1
        F(k.c0);
        F(k.c1);
    }
    for (int i = 0; i < k.rest; ++i) { // step 3: nB1W1F1, zero bubble
        B(k.c1, true);
        W();
        F(k.c1);
    }
    for (int i = 0; i < k.main_steps; ++i) { // step 4 (main): nF0B1F1B0
        if (i == 0 && k.plain_first_pair) {
            F(k.c0);
            B(k.c1, false);
        } else {
            FB(k.c0, k.c1);
        }
        FB(k.c1, k.c0);
    }
    for (int i = 0; i < k.rest; ++i) { // step 5: nB1F1B0
        B(k.c1, false);
        FB(k.c1, k.c0);
    }
    bool zb = false; // step 6: nB1B0, the second half zero bubble
    for (int i = 0; i < k.own; ++i) {
        if (i == k.own / 2 && k.parity % 2 == 1)
            zb = true;
        B(k.c1, zb);
        if (i == k.own / 2 && k.parity % 2 == 0)
            zb = true;
        B(k.c0, zb);
    }
    for (int i = 0; i < k.rest; ++i) { // step 7: nWB0, zero bubble
        W();
        B(k.c0, true);
    }
    while (!pending_w.empty()) // step 8: nW
        W();
}

// DualPipeV (deepseek-ai/DualPipe dualpipev.py): rank r holds chunks r and 2R−1−r of one
// pipeline; the last rank runs the main step's first pair un-overlapped.
PipelineSchedule dualPipeVSchedule(int R, int m)
{
    PipelineSchedule s = make(ScheduleKind::DualPipeV, R, 2, m);
    for (int r = 0; r < R; ++r)
        emitDualPipeRank(s.actions[r], {r, 2 * R - 1 - r, r + 1, R - r - 1, m - 2 * R + r + 1, r, r == R - 1},
                         [](int) { return 0; });
    return s;
}

// Bidirectional DualPipe (deepseek-ai/DualPipe dualpipe.py): counted from half_rank =
// min(r, p−1−r) with p/2 in place of R, and "phase 0" the direction this rank is nearer the start
// of (forward for the first half of the ranks, reverse for the second). The two middle ranks run
// the main step's first pair un-overlapped. Microbatches [0, m/2) go forward (stages 0…p−1),
// [m/2, m) the reverse way (stages p…2p−1).
PipelineSchedule dualPipeSchedule(int p, int m)
{
    PipelineSchedule s = make(ScheduleKind::DualPipe, p, 2, m);
    const int H = p / 2, half_m = m / 2;
    for (int r = 0; r < p; ++r) {
        const int half_rank = std::min(r, p - 1 - r);
        const int forward_stage = r, reverse_stage = 2 * p - 1 - r;
        const bool second_half = r >= H;
        emitDualPipeRank(s.actions[r],
                         {second_half ? reverse_stage : forward_stage, second_half ? forward_stage : reverse_stage,
                          half_rank + 1, H - half_rank - 1, half_m - p + half_rank + 1, half_rank, half_rank == H - 1},
                         [&](int stage) { return stage >= p ? half_m : 0; });
    }
    return s;
}

// What a schedule requires and how it is generated are in its row of the schedule table.
std::string scheduleRequirement(const ScheduleRequest& r)
{
    if (r.ranks < 1 || r.microbatches < 1)
        return "needs at least one pipeline rank and one microbatch";
    return scheduleRow(r.kind).requirement(r);
}

std::optional<PipelineSchedule> generateSchedule(const ScheduleRequest& r)
{
    if (!scheduleRequirement(r).empty())
        return std::nullopt;
    return scheduleRow(r.kind).generate(r);
}

} // namespace parascope
