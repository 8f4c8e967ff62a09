#include "comm/collective_steps.h"

#include "comm/collective_cost.h"
#include "types/term.h"

#include <algorithm>
#include <cmath>

namespace parascope {

namespace {

int mod(int a, int n) { return ((a % n) + n) % n; }

// Steps are built one at a time into `current`, timed, then kept or dropped.
class StepBuilder {
public:
    StepBuilder(CollectivePlan& plan, const ClusterSpec& cluster, const GroupPlacement& g, int listed_ranks)
        : plan_(plan)
        , cluster_(cluster)
        , network_(networkLink(g, cluster, plan.op == Collective::AllToAll))
        , keep_(plan.ranks <= listed_ranks)
        , ramp_{plan.bytes, plan.bytes}
    {
        plan_.bytes_sent_by_rank.assign(std::size_t(plan_.ranks), 0.0);
    }

    // The message size each link's bandwidth ramp is read at (the engine's: the collective's S;
    // the hierarchical form's network level S/k).
    void setRamp(double nvlink_bytes, double network_bytes) { ramp_ = {nvlink_bytes, network_bytes}; }
    // Every step lasts `seconds` whatever its listed transfers (a ring's step by ringStepSeconds,
    // which counts the channels not listed), and each listed byte stands for `scale` (one channel
    // of `scale` is listed). 0: steps are timed from their transfers.
    void setRingTiming(double seconds, double scale)
    {
        ring_step_s_ = seconds;
        sent_scale_ = scale;
    }
    // A step with no transfers listed (a form played phase by phase): its time and each rank's bytes.
    void phaseStep(const Localized& phase, double seconds, double bytes_per_rank)
    {
        for (double& b : plan_.bytes_sent_by_rank)
            b += bytes_per_rank;
        record(phase, seconds);
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
        const LinkSpec& l = link == Link::Network ? network_ : cluster_.intra_node; // the fabric's share
        const double bw = l.busBytesPerS(link == Link::Network ? ramp_.network : ramp_.nvlink);
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
        if (ring_step_s_ > 0)
            return record(phase, ring_step_s_);
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
            plan_.bytes_sent_by_rank[std::size_t(t.from)] += t.bytes * sent_scale_;
            last_sent_[std::size_t(t.from)] += t.bytes * sent_scale_;
        }
        record(phase, ring_step_s_ > 0 ? ring_step_s_ : longest);
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
    const LinkSpec network_; // the inter-node link at the group's share of the fabric (parallel/placement.h)
    bool keep_;
    double clock_ = 0;
    std::vector<ChunkTransfer> current_;
    std::vector<double> last_sent_; // per rank, in the last step built from transfers
    double last_seconds_ = 0;
    struct {
        double nvlink, network;
    } ramp_;
    double ring_step_s_ = 0, sent_scale_ = 1;
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

// The formulas a plan's bytes and time terms show, as its algorithm's steps are written.
struct Formulas {
    std::string bytes, time;
};

// Across nodes the exchange goes node by node, as the engine times it (comm/collective_cost.cpp
// pairwiseAcrossNodes): in step (s − 1)·k + t (s = 1 … N − 1, t = 0 … k − 1) GPU i of node a
// sends over the network to GPU (i + t) mod k of node a + s, and beside the first k − 1 steps over
// NVLink to GPU i + 1 + step of its own node: n − k steps, each as long as its longer send. (Rank
// r to r + k made every step wait for the network, though most of a GPU's first sends stay inside
// its node: 63 network steps for 64 GPUs on 8 nodes where the NICs carry 56.)
void exchangeNodeByNode(StepBuilder& b, const CollectivePlan& plan, double bytes)
{
    const int n = plan.ranks, k = plan.gpus_per_node, N = plan.nodes;
    const double piece = bytes / n;
    const Localized phase{"pairwise exchange, node by node", "逐节点两两交换"};
    int step = 0;
    for (int s = 1; s < N; ++s)
        for (int t = 0; t < k; ++t, ++step) {
            const bool inside = step < k - 1;
            if (!b.keepsTransfers()) {
                b.endStepOnLinks(phase, piece, true, inside);
                continue;
            }
            for (int r = 0; r < n; ++r) {
                const int node = r / k, i = r % k;
                const int far = ((node + s) % N) * k + (i + t) % k;
                b.send(r, far, far, piece, false);
                if (inside) {
                    const int near = node * k + (i + 1 + step) % k;
                    b.send(r, near, near, piece, false);
                }
            }
            b.endStep(phase);
        }
    if (!b.keepsTransfers())
        for (int r = 0; r < n; ++r)
            b.addSent(r, (n - 1) * piece);
}

// Pairwise exchange: at step k every rank sends the piece meant for rank + k (inside one node).
void pairwiseExchange(StepBuilder& b, const CollectivePlan& plan, double bytes)
{
    if (plan.nodes > 1)
        return exchangeNodeByNode(b, plan, bytes);
    const int n = plan.ranks;
    const double nd = n;
    for (int k = 1; k < n; ++k) {
        const Localized phase{"pairwise exchange", "两两交换"};
        if (!b.keepsTransfers()) {
            b.endStepOnLinks(phase, bytes / nd, false, true);
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
    case Collective::AllToAll:
        pairwiseExchange(b, plan, bytes);
        if (plan.nodes > 1)
            return {"(n−1)/n · S", "(n−k) steps of α_net + (S/n)·β_net, the k−1 NVLink sends beside the first ones"};
        return {"(n−1)/n · S", "(n−1) steps of α + (S/n)·β"};
    default: // Broadcast
        pipelinedBroadcast(b, plan, bytes);
        return {"S (each rank but the last forwards every chunk)", "(2n−2) steps of α + (S/n)·β"};
    }
}

// Binomial tree rooted at rank 0: reduce up (all-reduce only), then broadcast down.
Formulas planBinomialTree(StepBuilder& b, Collective op, double bytes, int n)
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

// The forms with no step-by-step listing (NCCL's double binary tree, NVLS): their two phases,
// each half of the model's time (comm/collective_cost.h, the engine's), no transfers listed.
Formulas planPhases(StepBuilder& b, const CollectivePlan& plan, const GroupPlacement& g, const ClusterSpec& cluster)
{
    const double S = plan.bytes;
    const double t = collectiveModelTime(plan.algorithm, plan.op, S, g, cluster, Explain::NumbersOnly).seconds;
    if (plan.algorithm == CollectiveAlgorithm::Nvls) {
        b.phaseStep({"reduce in the NVSwitch", "在 NVSwitch 中归约"}, t / 2, S);
        b.phaseStep({"multicast from the NVSwitch", "NVSwitch 组播结果"}, t / 2, 0);
        return {"S (each GPU sends its buffer to the switch once; the switch reduces and multicasts)",
                "α_nvls + 2(n−1)/n · S / busbw_nvls (measured)"};
    }
    b.phaseStep({"reduce up both trees", "沿两棵树归约"}, t / 2, S);
    b.phaseStep({"broadcast down both trees", "沿两棵树广播"}, t / 2, S);
    return {"≈ 2S (the chain inside the node, up and down); 2S/k per NIC",
            "2(⌈log₂N⌉·α_net + (k−1)·α_nvl) + max(2S/(k·busbw_net), 2S/busbw_nvl) / 0.92"};
}

// Hierarchical all-reduce: k GPUs per node, N nodes.
Formulas planHierarchical(StepBuilder& b, const CollectivePlan& plan, double bytes)
{
    const int k = plan.gpus_per_node, N = plan.nodes;
    b.setRamp(bytes, bytes / k); // the engine reads the network's ramp at the shard's size
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
    plan.pieces = algorithm == CollectiveAlgorithm::BinomialTree || algorithm == CollectiveAlgorithm::Tree
            || algorithm == CollectiveAlgorithm::Nvls
        ? 1
        : n;
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

namespace {

// The steps of the plan's algorithm. A ring's steps last ringStepSeconds (the engine's), one
// channel of `plan.channels` listed.
Formulas planSteps(StepBuilder& b, CollectivePlan& plan, const GroupPlacement& g, const ClusterSpec& cluster)
{
    const double S = plan.bytes;
    switch (plan.algorithm) {
    case CollectiveAlgorithm::Ring:
    case CollectiveAlgorithm::FlatRing: {
        const bool channels = plan.algorithm == CollectiveAlgorithm::Ring && plan.op != Collective::Broadcast;
        const double ch = channels ? ringChannels(g) : 1.0;
        plan.channels = int(ch);
        b.setRingTiming(ringStepSeconds(S / (double(plan.ranks) * ch), ch, S, g, cluster), ch);
        return planRing(b, plan, plan.op, S / ch);
    }
    case CollectiveAlgorithm::Tree:
    case CollectiveAlgorithm::Nvls: return planPhases(b, plan, g, cluster);
    case CollectiveAlgorithm::BinomialTree: return planBinomialTree(b, plan.op, S, plan.ranks);
    case CollectiveAlgorithm::Hierarchical: return planHierarchical(b, plan, S);
    default: return planRing(b, plan, plan.op, S); // all-to-all: pairwise exchange
    }
}

} // namespace

std::optional<CollectivePlan> planCollective(Collective op, double bytes, int ranks, const ClusterSpec& cluster,
                                             CollectiveAlgorithm algorithm, std::vector<InputError>& errors,
                                             int listed_ranks)
{
    checkCollectiveRequest(op, bytes, ranks, cluster, algorithm, errors);
    if (!errors.empty())
        return std::nullopt;

    // An all-to-all runs by pairwise exchange whatever the ring asks for.
    if (op == Collective::AllToAll)
        algorithm = CollectiveAlgorithm::Pairwise;
    const GroupPlacement g = explainerPlacement(ranks, cluster);
    CollectivePlan plan;
    plan.op = op;
    plan.algorithm = algorithm;
    plan.bytes = bytes;
    plan.ranks = ranks;
    plan.gpus_per_node = int(g.ranks_per_node);
    plan.nodes = int(g.nodes);
    plan.engine_algorithm = assumedAlgorithm(op, bytes, g, cluster);
    plan.engine_time_s = collectiveTime(plan.engine_algorithm, op, bytes, g, cluster, Explain::NumbersOnly).seconds;
    StepBuilder b(plan, cluster, g, std::min(listed_ranks, CollectivePlan::kMaxListedRanks));
    const Formulas formulas = planSteps(b, plan, g, cluster);
    summarize(plan, formulas);
    return plan;
}

} // namespace parascope
