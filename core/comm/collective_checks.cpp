// What the explainer picks and checks before it plays a collective (the algorithm, the group's
// placement, the request's errors), and what every rank holds after a number of its steps
// (comm/collective_steps.h).

#include "comm/collective_steps.h"

#include "comm/collective_cost.h"

#include "types/term.h"

#include <algorithm>

namespace parascope {

CollectiveAlgorithm explainerAlgorithm(Collective op, double bytes, int ranks, const ClusterSpec& cluster)
{
    return steppedAlgorithm(assumedAlgorithm(op, bytes, explainerPlacement(ranks, cluster), cluster), op);
}

CollectiveAlgorithm steppedAlgorithm(CollectiveAlgorithm engine, Collective op)
{
    switch (engine) {
    case CollectiveAlgorithm::Hierarchical: // the explainer's form is the all-reduce's
        return op == Collective::AllReduce ? engine : CollectiveAlgorithm::Ring;
    case CollectiveAlgorithm::Ring:
    case CollectiveAlgorithm::Tree:
    case CollectiveAlgorithm::Nvls:
    case CollectiveAlgorithm::FlatRing:
    case CollectiveAlgorithm::BinomialTree: return runs(engine, op) ? engine : CollectiveAlgorithm::Ring;
    default: return CollectiveAlgorithm::Ring; // an all-to-all's ring is its pairwise exchange
    }
}

GroupPlacement explainerPlacement(int ranks, const ClusterSpec& cluster)
{
    GroupPlacement g;
    g.size = ranks;
    g.ranks_per_node = std::min(std::max(1, cluster.gpus_per_node), ranks);
    g.nodes = ranks / g.ranks_per_node;
    g.link = g.nodes > 1 ? Link::Network : cluster.intra_is_pcie ? Link::Pcie : Link::NvLink;
    networkShares(g, cluster);
    return g;
}

namespace {

constexpr int kMaxRanks = CollectivePlan::kMaxRanks;

// The algorithm's errors for an operation that has a step-by-step form.
void checkAlgorithm(Collective op, int ranks, const ClusterSpec& cluster, CollectiveAlgorithm algorithm,
                    std::vector<InputError>& errors)
{
    const int per_node = std::max(1, cluster.gpus_per_node);
    if (op == Collective::AllToAll
            ? algorithm != CollectiveAlgorithm::Pairwise && algorithm != CollectiveAlgorithm::Ring
            : !runs(algorithm, op))
        errors.push_back({"--algorithm",
                          std::string(toString(algorithm)) + " has no form of " + toString(op)
                              + ": all_reduce runs by ring, tree, nvls, hierarchical, flat_ring or binomial_tree; "
                                "all_gather and reduce_scatter by ring or flat_ring; broadcast by ring, flat_ring or "
                                "binomial_tree; all_to_all by pairwise"});
    else if (algorithm == CollectiveAlgorithm::Nvls && ranks > per_node)
        errors.push_back(
            {"--algorithm",
             "nvls reduces inside one node's NVSwitch: give at most " + std::to_string(per_node) + " GPUs"});
    else if (algorithm == CollectiveAlgorithm::Nvls && !cluster.nvls.known())
        errors.push_back({"--algorithm",
                          "cluster " + cluster.id
                              + " has no NVLink SHARP figure (NVSwitch gen 3 with a published "
                                "nccl-tests busbw): use ring"});
    else if (algorithm == CollectiveAlgorithm::Nvls && ranks < cluster.nvls.min_ranks)
        errors.push_back({"--algorithm",
                          "NCCL uses nvls from " + std::to_string(cluster.nvls.min_ranks)
                              + " GPUs on this cluster, got " + std::to_string(ranks)});
    else if (algorithm == CollectiveAlgorithm::Hierarchical && op != Collective::AllReduce)
        errors.push_back(
            {"--algorithm",
             "the hierarchical form is an all_reduce's; " + std::string(toString(op)) + " runs as a ring"});
}

} // namespace

void checkCollectiveRequest(Collective op, double bytes, int ranks, const ClusterSpec& cluster,
                            CollectiveAlgorithm algorithm, std::vector<InputError>& errors)
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
    else
        checkAlgorithm(op, ranks, cluster, algorithm, errors);
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
