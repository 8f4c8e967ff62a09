#include "comm/collective_steps.h"

#include "types/term.h"

#include <algorithm>
#include <cmath>

namespace parascope {

namespace {

constexpr int kMaxRanks = CollectivePlan::kMaxRanks;

int mod(int a, int n) { return ((a % n) + n) % n; }

// Steps are built one at a time into `current`, timed, then kept or dropped.
class StepBuilder {
public:
    StepBuilder(CollectivePlan& plan, const ClusterSpec& cluster, int listed_ranks)
        : plan_(plan)
        , cluster_(cluster)
        , keep_(plan.ranks <= listed_ranks)
    {
        plan_.bytes_sent_by_rank.assign(std::size_t(plan_.ranks), 0.0);
    }

    Link linkBetween(int a, int b) const
    {
        if (a / plan_.gpus_per_node != b / plan_.gpus_per_node)
            return Link::Network;
        return cluster_.intra_is_pcie ? Link::Pcie : Link::NvLink;
    }

    // α + bytes·β on the link (the LinkSpec's latency, bandwidth and efficiency).
    double transferSeconds(double bytes, Link link) const
    {
        const LinkSpec& l = link == Link::Network ? cluster_.inter_node : cluster_.intra_node;
        const double bw = l.bytes_per_s * l.efficiency;
        return l.latency_s + (bw > 0 ? bytes / bw : 0.0);
    }

    void send(int from, int to, int chunk, double bytes, bool reduce, int chunks = 1)
    {
        current_.push_back({from, to, chunk, chunks, bytes, linkBetween(from, to), reduce});
    }

    bool keepsTransfers() const { return keep_; }

    // Above kMaxListedRanks a step is timed from the links it uses, not from its transfers
    // (linear work however many GPUs): `network` and `inside` say which links carry a transfer
    // of `bytes`; each sender's bytes are added by the caller (addSent).
    void endStepOnLinks(const Localized& phase, double bytes, bool network, bool inside)
    {
        double longest = 0;
        if (network)
            longest = std::max(longest, transferSeconds(bytes, Link::Network));
        if (inside)
            longest = std::max(longest, transferSeconds(bytes, cluster_.intra_is_pcie ? Link::Pcie : Link::NvLink));
        record(phase, longest);
    }
    void addSent(int rank, double bytes) { plan_.bytes_sent_by_rank[std::size_t(rank)] += bytes; }

    // The step just ended, `times` more times: a ring's steps differ only in which chunk each
    // GPU sends, so their links, times and bytes are the first step's (linear work).
    void repeatLastStep(int times)
    {
        if (times <= 0 || plan_.steps.empty())
            return;
        const Localized phase = plan_.steps.back().phase;
        for (int r = 0; r < plan_.ranks; ++r)
            plan_.bytes_sent_by_rank[std::size_t(r)] += double(times) * last_sent_[std::size_t(r)];
        for (int t = 0; t < times; ++t)
            record(phase, last_seconds_);
    }

    void endStep(const Localized& phase)
    {
        if (current_.empty())
            return;
        double longest = 0;
        last_sent_.assign(std::size_t(plan_.ranks), 0.0);
        for (const ChunkTransfer& t : current_) {
            longest = std::max(longest, transferSeconds(t.bytes, t.link));
            plan_.bytes_sent_by_rank[std::size_t(t.from)] += t.bytes;
            last_sent_[std::size_t(t.from)] += t.bytes;
        }
        record(phase, longest);
        if (keep_)
            plan_.steps.back().transfers = std::move(current_);
        current_.clear();
    }

private:
    void record(const Localized& phase, double seconds)
    {
        last_seconds_ = seconds;
        CollectiveStep s;
        s.index = int(plan_.steps.size());
        s.phase = phase;
        s.start_s = clock_;
        clock_ += seconds;
        s.end_s = clock_;
        plan_.steps.push_back(std::move(s));
    }

    CollectivePlan& plan_;
    const ClusterSpec& cluster_;
    bool keep_;
    double clock_ = 0;
    std::vector<ChunkTransfer> current_;
    std::vector<double> last_sent_; // per rank, in the last step built from transfers
    double last_seconds_ = 0;
};

const Localized kReduceScatter{"reduce-scatter", "ReduceScatter"};
const Localized kAllGather{"all-gather", "AllGather"};

// Rings run side by side, one step for all. Each ring has its members in order and the id of its
// first piece; its chunk c is `pieces` consecutive pieces from base + c·pieces.
struct Ring {
    std::vector<int> members;
    int base = 0;
};

// Ring reduce-scatter: step k sends chunk (i − k) from member i to member i + 1, which adds it.
// After n − 1 steps member i holds chunk i + 1 reduced.
void ringReduceScatter(StepBuilder& b, const std::vector<Ring>& rings, double chunk_bytes, const Localized& phase,
                       int pieces = 1)
{
    const int n = int(rings.front().members.size());
    for (int k = 0; k + 1 < n; ++k) {
        for (const Ring& ring : rings)
            for (int i = 0; i < n; ++i)
                b.send(ring.members[std::size_t(i)], ring.members[std::size_t((i + 1) % n)],
                       ring.base + mod(i - k, n) * pieces, chunk_bytes, true, pieces);
        b.endStep(phase);
        if (!b.keepsTransfers())
            return b.repeatLastStep(n - 2);
    }
}

// Ring all-gather: step k sends chunk (i + owned − k) from member i to member i + 1: first what
// member i owns (owned = 1 after a reduce-scatter, 0 for a plain all-gather), then what it received.
void ringAllGather(StepBuilder& b, const std::vector<Ring>& rings, double chunk_bytes, const Localized& phase,
                   int owned, int pieces = 1)
{
    const int n = int(rings.front().members.size());
    for (int k = 0; k + 1 < n; ++k) {
        for (const Ring& ring : rings)
            for (int i = 0; i < n; ++i)
                b.send(ring.members[std::size_t(i)], ring.members[std::size_t((i + 1) % n)],
                       ring.base + mod(i + owned - k, n) * pieces, chunk_bytes, false, pieces);
        b.endStep(phase);
        if (!b.keepsTransfers())
            return b.repeatLastStep(n - 2);
    }
}

std::vector<Ring> oneRing(int n)
{
    Ring r;
    for (int i = 0; i < n; ++i)
        r.members.push_back(i);
    return {r};
}

int ceilLog2(int n)
{
    int l = 0;
    while ((1 << l) < n)
        ++l;
    return l;
}

// The errors of a request, with the option each concerns.
void checkRequest(Collective op, double bytes, int ranks, const ClusterSpec& cluster, CollectiveAlgorithm algorithm,
                  std::vector<InputError>& errors)
{
    if (!(bytes >= 1 && bytes <= 1e13))
        errors.push_back({"--bytes", "must be 1 B to 10 TB, got " + num(bytes)});
    if (ranks < 2 || ranks > kMaxRanks)
        errors.push_back({"--ranks", "must be 2 to " + std::to_string(kMaxRanks) + ", got " + std::to_string(ranks)});
    const int per_node = std::max(1, cluster.gpus_per_node);
    if (ranks > per_node && ranks % per_node != 0)
        errors.push_back({"--ranks",
                          std::to_string(ranks) + " GPUs do not fill nodes of " + std::to_string(per_node)
                              + ": give a multiple of " + std::to_string(per_node) + " (or at most "
                              + std::to_string(per_node) + ")"});
    const bool ring_op = op == Collective::AllReduce || op == Collective::AllGather || op == Collective::ReduceScatter
        || op == Collective::AllToAll || op == Collective::Broadcast;
    if (!ring_op)
        errors.push_back({"--op",
                          std::string(toString(op))
                              + " is not shown step by step: use all_reduce, all_gather, reduce_scatter, "
                                "all_to_all or broadcast"});
    else if (algorithm != CollectiveAlgorithm::Ring && algorithm != CollectiveAlgorithm::Tree
             && algorithm != CollectiveAlgorithm::Hierarchical
             && !(algorithm == CollectiveAlgorithm::Pairwise && op == Collective::AllToAll))
        errors.push_back({"--algorithm",
                          std::string(toString(algorithm))
                              + " is not shown step by step: use ring, tree or hierarchical"
                                " (pairwise for all_to_all)"});
    else if (algorithm == CollectiveAlgorithm::Tree && op != Collective::AllReduce && op != Collective::Broadcast)
        errors.push_back(
            {"--algorithm", "a tree runs all_reduce and broadcast; " + std::string(toString(op)) + " runs as a ring"});
    else if (algorithm == CollectiveAlgorithm::Hierarchical && op != Collective::AllReduce)
        errors.push_back(
            {"--algorithm",
             "the hierarchical form is an all_reduce's; " + std::string(toString(op)) + " runs as a ring"});
}

// The formulas a plan's bytes and time terms show, as its algorithm's steps are written.
struct Formulas {
    std::string bytes, time;
};

// Pairwise exchange: at step k every rank sends the piece meant for rank + k.
void pairwiseExchange(StepBuilder& b, const CollectivePlan& plan, double bytes)
{
    const int n = plan.ranks;
    const double nd = n;
    for (int k = 1; k < n; ++k) {
        const Localized phase{"pairwise exchange", "两两交换"};
        if (!b.keepsTransfers()) {
            // Nodes of g: some pair stays inside a node iff k < g or k > n − g; with
            // several nodes some pair always crosses (rank g − 1 to g − 1 + k, or 0 to k).
            const int g = plan.gpus_per_node;
            b.endStepOnLinks(phase, bytes / nd, plan.nodes > 1, g > 1 && (k < g || k > n - g));
            continue;
        }
        for (int r = 0; r < n; ++r)
            b.send(r, (r + k) % n, (r + k) % n, bytes / nd, false);
        b.endStep(phase);
    }
    if (!b.keepsTransfers())
        for (int r = 0; r < n; ++r)
            b.addSent(r, (nd - 1) * bytes / nd);
}

// Broadcast: a pipeline of n chunks down the ring from rank 0.
void pipelinedBroadcast(StepBuilder& b, const CollectivePlan& plan, double bytes)
{
    const int n = plan.ranks;
    const double nd = n;
    for (int t = 0; t < 2 * n - 2; ++t) {
        const Localized phase{"pipelined broadcast", "流水线广播"};
        if (!b.keepsTransfers()) {
            // Senders r = lo … hi; r → r + 1 crosses nodes iff r + 1 is a multiple of g.
            const int g = plan.gpus_per_node, lo = std::max(0, t - n + 1), hi = std::min(t, n - 2);
            const bool network = (hi + 1) / g > lo / g, inside = g > 1 && (hi > lo || (lo + 1) % g != 0);
            b.endStepOnLinks(phase, bytes / nd, plan.nodes > 1 && network, inside);
            continue;
        }
        for (int r = 0; r + 1 < n; ++r)
            if (t - r >= 0 && t - r < n)
                b.send(r, r + 1, t - r, bytes / nd, false);
        b.endStep(phase);
    }
    if (!b.keepsTransfers())
        for (int r = 0; r + 1 < n; ++r)
            b.addSent(r, bytes); // every chunk once
}

// The ring forms (and the all-to-all's pairwise exchange), one op each.
Formulas planRing(StepBuilder& b, const CollectivePlan& plan, Collective op, double bytes)
{
    const int n = plan.ranks;
    const double nd = n;
    switch (op) {
    case Collective::AllReduce:
        ringReduceScatter(b, oneRing(n), bytes / nd, kReduceScatter);
        ringAllGather(b, oneRing(n), bytes / nd, kAllGather, 1);
        return {"2(n−1)/n · S", "2(n−1) steps of α + (S/n)·β on the slowest link of the ring"};
    case Collective::ReduceScatter:
        ringReduceScatter(b, oneRing(n), bytes / nd, kReduceScatter);
        return {"(n−1)/n · S", "(n−1) steps of α + (S/n)·β"};
    case Collective::AllGather:
        ringAllGather(b, oneRing(n), bytes / nd, kAllGather, 0);
        return {"(n−1)/n · S", "(n−1) steps of α + (S/n)·β"};
    case Collective::AllToAll: pairwiseExchange(b, plan, bytes); return {"(n−1)/n · S", "(n−1) steps of α + (S/n)·β"};
    default: // Broadcast
        pipelinedBroadcast(b, plan, bytes);
        return {"S (each rank but the last forwards every chunk)", "(2n−2) steps of α + (S/n)·β"};
    }
}

// Binomial tree rooted at rank 0: reduce up (all-reduce only), then broadcast down.
Formulas planTree(StepBuilder& b, Collective op, double bytes, int n)
{
    const int L = ceilLog2(n);
    if (op == Collective::AllReduce)
        for (int j = 0; j < L; ++j) {
            for (int r = 0; r < n; ++r)
                if (r % (2 << j) == (1 << j))
                    b.send(r, r - (1 << j), -1, bytes, true);
            b.endStep({"reduce up the tree", "沿树归约"});
        }
    for (int j = L - 1; j >= 0; --j) {
        for (int r = 0; r < n; ++r)
            if (r % (2 << j) == 0 && r + (1 << j) < n)
                b.send(r, r + (1 << j), -1, bytes, false);
        b.endStep({"broadcast down the tree", "沿树广播"});
    }
    return {op == Collective::AllReduce ? "S per send; ⌈log₂n⌉ sends from the root" : "S per send",
            op == Collective::AllReduce ? "2⌈log₂n⌉ steps of α + S·β" : "⌈log₂n⌉ steps of α + S·β"};
}

// Hierarchical all-reduce: k GPUs per node, N nodes.
Formulas planHierarchical(StepBuilder& b, const CollectivePlan& plan, double bytes)
{
    const int k = plan.gpus_per_node, N = plan.nodes;
    // The buffer in k·N pieces: shard j (what local rank j − 1 reduces inside its node) is
    // pieces j·N … j·N + N − 1.
    std::vector<Ring> in_nodes, rails;
    for (int m = 0; m < N; ++m) {
        in_nodes.emplace_back();
        for (int i = 0; i < k; ++i)
            in_nodes.back().members.push_back(m * k + i);
    }
    for (int i = 0; i < k; ++i) {
        rails.push_back({{}, ((i + 1) % k) * N});
        for (int m = 0; m < N; ++m)
            rails.back().members.push_back(m * k + i);
    }
    if (k > 1)
        ringReduceScatter(b, in_nodes, bytes / k, {"reduce-scatter inside nodes", "节点内 ReduceScatter"}, N);
    if (N > 1) {
        // Local rank i now holds shard (i + 1) mod k; each rail all-reduces that shard, in N pieces.
        ringReduceScatter(b, rails, bytes / k / N,
                          {"reduce-scatter across nodes (every rail)", "跨节点 ReduceScatter（各轨道并行）"});
        ringAllGather(b, rails, bytes / k / N,
                      {"all-gather across nodes (every rail)", "跨节点 AllGather（各轨道并行）"}, 1);
    }
    if (k > 1)
        ringAllGather(b, in_nodes, bytes / k, {"all-gather inside nodes", "节点内 AllGather"}, 1, N);
    return {"2(k−1)/k · S + 2(N−1)/N · S/k",
            "2(k−1) NVLink steps of α + (S/k)·β + 2(N−1) network steps of α + (S/kN)·β"};
}

// The plan's totals from its timed steps, and the terms that explain them.
void summarize(CollectivePlan& plan, const Formulas& formulas)
{
    const Collective op = plan.op;
    const CollectiveAlgorithm algorithm = plan.algorithm;
    const double bytes = plan.bytes;
    const int n = plan.ranks;
    const double nd = n;
    plan.pieces = algorithm == CollectiveAlgorithm::Tree ? 1 : n;
    plan.time_s = plan.steps.empty() ? 0 : plan.steps.back().end_s;
    plan.bytes_sent_per_gpu = *std::max_element(plan.bytes_sent_by_rank.begin(), plan.bytes_sent_by_rank.end());
    plan.algbw_bytes_per_s = plan.time_s > 0 ? bytes / plan.time_s : 0;
    plan.busbw_bytes_per_s = plan.algbw_bytes_per_s * busFactor(op, n);
    if (op == Collective::AllReduce) {
        plan.parameter_server_bytes = 2 * bytes * (nd - 1);
        plan.textbook_total_bytes = 2 * bytes * nd;
    }
    const std::string where
        = std::to_string(n) + " GPUs on " + std::to_string(plan.nodes) + (plan.nodes == 1 ? " node" : " nodes");
    plan.terms.push_back({"collective.bytes_sent_per_gpu", plan.bytes_sent_per_gpu, "bytes", formulas.bytes,
                          "S = " + num(bytes) + ", n = " + std::to_string(n)
                              + (algorithm == CollectiveAlgorithm::Hierarchical ? ", k = "
                                         + std::to_string(plan.gpus_per_node) + ", N = " + std::to_string(plan.nodes)
                                                                                : std::string()),
                          "Thakur, Rabenseifner & Gropp 2005; Patarasuk & Yuan 2009 (bandwidth-optimal ring)"});
    plan.terms.push_back({"collective.time", plan.time_s, "s", formulas.time,
                          std::to_string(plan.steps.size()) + " steps, " + where,
                          "α–β model per link: α its latency, β = 1/(bandwidth · efficiency) (cluster preset)"});
    plan.terms.push_back({"collective.busbw", plan.busbw_bytes_per_s, "bytes/s", "S/t · busFactor",
                          num(bytes) + "/" + num(plan.time_s) + " · " + num(busFactor(op, n)),
                          "nccl-tests doc/PERFORMANCE.md: algbw = S/t, busbw = algbw · 2(n−1)/n (all-reduce), (n−1)/n "
                          "(gather, scatter, all-to-all), 1 (broadcast)"});
}

} // namespace

CollectiveAlgorithm steppedAlgorithm(CollectiveAlgorithm engine, Collective op)
{
    if (engine == CollectiveAlgorithm::Tree && (op == Collective::AllReduce || op == Collective::Broadcast))
        return engine;
    if (engine == CollectiveAlgorithm::Hierarchical && op == Collective::AllReduce)
        return engine;
    return CollectiveAlgorithm::Ring;
}

std::optional<CollectivePlan> planCollective(Collective op, double bytes, int ranks, const ClusterSpec& cluster,
                                             CollectiveAlgorithm algorithm, std::vector<InputError>& errors,
                                             int listed_ranks)
{
    checkRequest(op, bytes, ranks, cluster, algorithm, errors);
    if (!errors.empty())
        return std::nullopt;

    const int per_node = std::max(1, cluster.gpus_per_node);
    // An all-to-all runs by pairwise exchange whatever the ring asks for.
    if (op == Collective::AllToAll)
        algorithm = CollectiveAlgorithm::Pairwise;
    CollectivePlan plan;
    plan.op = op;
    plan.algorithm = algorithm;
    plan.bytes = bytes;
    plan.ranks = ranks;
    plan.gpus_per_node = std::min(per_node, ranks);
    plan.nodes = ranks / plan.gpus_per_node;
    StepBuilder b(plan, cluster, std::min(listed_ranks, CollectivePlan::kMaxListedRanks));
    const Formulas formulas = algorithm == CollectiveAlgorithm::Ring || algorithm == CollectiveAlgorithm::Pairwise
        ? planRing(b, plan, op, bytes)
        : algorithm == CollectiveAlgorithm::Tree ? planTree(b, op, bytes, ranks)
                                                 : planHierarchical(b, plan, bytes);
    summarize(plan, formulas);
    return plan;
}

std::vector<std::vector<int>> collectiveHoldings(const CollectivePlan& plan, int steps_done)
{
    const int n = plan.ranks, pieces = plan.pieces;
    if (n > CollectivePlan::kMaxListedRanks || pieces < 1)
        return {};
    std::vector<std::vector<int>> held(std::size_t(n), std::vector<int>(std::size_t(pieces), 0));
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < pieces; ++c) {
            int start = 1; // all-reduce, reduce-scatter
            if (plan.op == Collective::AllGather || plan.op == Collective::AllToAll)
                start = c == r ? 1 : 0;
            else if (plan.op == Collective::Broadcast)
                start = r == 0 ? 1 : 0;
            held[std::size_t(r)][std::size_t(c)] = start;
        }
    const int last = std::clamp(steps_done, 0, int(plan.steps.size()));
    for (int s = 0; s < last; ++s) {
        const auto before = held;
        for (const ChunkTransfer& t : plan.steps[std::size_t(s)].transfers) {
            if (plan.op == Collective::AllToAll) {
                held[std::size_t(t.to)][std::size_t(t.from)] = 1;
                continue;
            }
            const int first = std::max(0, t.chunk);
            for (int piece = first; piece < first + t.chunks && piece < pieces; ++piece) {
                const int sent = before[std::size_t(t.from)][std::size_t(piece)];
                int& mine = held[std::size_t(t.to)][std::size_t(piece)];
                mine = t.reduce ? mine + sent : sent;
            }
        }
    }
    return held;
}

} // namespace parascope
