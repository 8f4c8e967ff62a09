// Collectives step by step (comm/collective_steps.h): the data each rank ends with, traced
// through every transfer, is the collective's result; the bytes per GPU and the step counts are
// the textbook's exactly; the times are the α–β sums by hand on the DGX H100 preset's links.

#include "comm/collective_steps.h"
#include "io/scenario_json.h"
#include "scenario_fixture.h"

#include <set>

using namespace parascope;
using namespace parascope::test;

namespace {

ClusterSpec cluster(const char* id)
{
    std::vector<InputError> errors;
    const auto c = readCluster(nlohmann::json(id), "cluster", errors);
    if (!c)
        qFatal("no cluster %s", id);
    return *c;
}

CollectivePlan plan(Collective op, double S, int n, CollectiveAlgorithm algo, const char* id = "dgx-h100")
{
    std::vector<InputError> errors;
    const auto p = planCollective(op, S, n, cluster(id), algo, errors);
    if (!p)
        qFatal("%s", errors.front().text().c_str());
    return *p;
}

bool close(double a, double b) { return std::abs(a - b) <= 1e-12 + 1e-12 * std::abs(b); }

// Replays an all-reduce's transfers on sets of contributors: rank r's copy of chunk c starts as
// {r}; a reducing transfer adds the sender's set to the receiver's, a plain one replaces it. At the
// end every rank must hold every piece with all n contributors. Chunk −1 is the whole buffer (one
// piece); a transfer carries `chunks` pieces from `chunk`. Transfers within a step read the state
// before the step.
bool allReduced(const CollectivePlan& p, int chunks)
{
    const int n = p.ranks;
    std::vector<std::vector<std::set<int>>> have(static_cast<std::size_t>(n),
                                                 std::vector<std::set<int>>(static_cast<std::size_t>(chunks)));
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < chunks; ++c)
            have[std::size_t(r)][std::size_t(c)] = {r};
    for (const CollectiveStep& s : p.steps) {
        const auto before = have;
        for (const ChunkTransfer& t : s.transfers)
            for (int piece = std::max(0, t.chunk); piece < std::max(0, t.chunk) + t.chunks; ++piece) {
                const std::size_t c = std::size_t(piece);
                const std::set<int>& sent = before[std::size_t(t.from)][c];
                std::set<int>& mine = have[std::size_t(t.to)][c];
                if (t.reduce)
                    mine.insert(sent.begin(), sent.end());
                else
                    mine = sent;
            }
    }
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < chunks; ++c)
            if (int(have[std::size_t(r)][std::size_t(c)].size()) != n)
                return false;
    return true;
}

} // namespace

class TstCollectiveSteps : public QObject {
    Q_OBJECT

private slots:
    void ringAllReduceInsideANode()
    {
        // n = 8 on one DGX H100 node, S = 1 GiB. The ring: n − 1 = 7 reduce-scatter steps then 7
        // all-gather steps, every rank sending one S/8 chunk per step: 14 steps, 2·7/8·S =
        // 1,879,048,192 B per GPU. Each step α + (S/8)·β over NVLink = 3.4 µs + 134,217,728 B /
        // (450e9 · 0.82) = 3.4 µs + 363.733 µs; all-reduce 14 steps = 5.1399 ms. algbw = S/t,
        // busbw = algbw · 2·7/8.
        const double S = 1073741824.0;
        const CollectivePlan p = plan(Collective::AllReduce, S, 8, CollectiveAlgorithm::Ring);
        QCOMPARE(int(p.steps.size()), 14);
        QCOMPARE(p.nodes, 1);
        QCOMPARE(p.bytes_sent_per_gpu, 2.0 * 7 / 8 * S);
        for (double b : p.bytes_sent_by_rank)
            QCOMPARE(b, 2.0 * 7 / 8 * S);
        const double step = 3.4e-6 + S / 8 / (450e9 * 0.82);
        QVERIFY(close(p.time_s, 14 * step));
        QVERIFY(close(p.busbw_bytes_per_s, S / (14 * step) * 2 * 7 / 8));
        for (const CollectiveStep& s : p.steps) {
            QCOMPARE(int(s.transfers.size()), 8);
            for (const ChunkTransfer& t : s.transfers) {
                QCOMPARE(t.to, (t.from + 1) % 8);
                QCOMPARE(t.link, Link::NvLink);
            }
        }
        QCOMPARE(p.steps[0].phase.en, std::string("reduce-scatter"));
        QCOMPARE(p.steps[7].phase.en, std::string("all-gather"));
        QVERIFY(allReduced(p, 8));
        // The textbook's parameter server moves 2·S·(n − 1) through its server: 14 GiB here, 7.5×
        // what each ring GPU sends, and it grows with n while the ring's 2(n−1)/n·S does not.
        QCOMPARE(p.parameter_server_bytes, 14 * S);
        const CollectivePlan p64 = plan(Collective::AllReduce, S, 64, CollectiveAlgorithm::Ring);
        QVERIFY(close(p64.bytes_sent_per_gpu, 2.0 * 63 / 64 * S)); // 8 channels of S/8 across the nodes
        QVERIFY(p64.bytes_sent_per_gpu < 2 * S);
    }

    void gatherScatterAllToAll()
    {
        // n − 1 steps each, (n−1)/n·S per GPU (nccl-tests' S: the whole buffer).
        const double S = 64.0 * 1048576;
        for (Collective op : {Collective::AllGather, Collective::ReduceScatter, Collective::AllToAll}) {
            const CollectivePlan p = plan(op, S, 4, CollectiveAlgorithm::Ring);
            QCOMPARE(int(p.steps.size()), 3);
            QCOMPARE(p.bytes_sent_per_gpu, 3.0 / 4 * S);
            QVERIFY(close(p.busbw_bytes_per_s, S / p.time_s * 3 / 4));
        }
        // All-gather: after its 3 steps every rank has received the 3 chunks it lacked, each once.
        const CollectivePlan ag = plan(Collective::AllGather, S, 4, CollectiveAlgorithm::Ring);
        std::vector<std::set<int>> got(4);
        for (int r = 0; r < 4; ++r)
            got[std::size_t(r)] = {r};
        for (const CollectiveStep& s : ag.steps)
            for (const ChunkTransfer& t : s.transfers) {
                QVERIFY2(got[std::size_t(t.from)].count(t.chunk), "a rank sends a chunk it has");
                QVERIFY2(!got[std::size_t(t.to)].count(t.chunk), "no chunk arrives twice");
                got[std::size_t(t.to)].insert(t.chunk);
            }
        for (const std::set<int>& g : got)
            QCOMPARE(int(g.size()), 4);
        // All-to-all: every ordered pair exchanges exactly one S/n piece.
        const CollectivePlan a2a = plan(Collective::AllToAll, S, 4, CollectiveAlgorithm::Ring);
        std::set<std::pair<int, int>> pairs;
        for (const CollectiveStep& s : a2a.steps)
            for (const ChunkTransfer& t : s.transfers)
                QVERIFY(pairs.insert({t.from, t.to}).second);
        QCOMPARE(int(pairs.size()), 12);
    }

    void allToAllAcrossNodesGoesNodeByNode()
    {
        // 16 GPUs on 2 DGX H100 nodes (k = 8, N = 2), S = 1 GB: n − k = 8 steps. In step t GPU i
        // of node a sends S/16 = 62.5 MB to GPU (i + t) mod 8 of the other node over its NIC, and
        // in the first k − 1 = 7 steps another S/16 to GPU i + 1 + t of its own node over NVLink.
        // A step lasts its network send: 6 µs + 62.5e6/(50e9·0.94) = 1.33578 ms (NVLink's
        // 3.4 µs + 62.5e6/(450e9·0.82) = 0.1728 ms beside it); 8 steps = 10.686 ms. The engine's
        // all-to-all (evaluate's EP rows) is the same sum: 7·max(s_net, s_nvl) + 1·s_net.
        const double S = 1e9, step = 6e-6 + 62.5e6 / (50e9 * 0.94);
        const CollectivePlan p = plan(Collective::AllToAll, S, 16, CollectiveAlgorithm::Ring);
        QCOMPARE(int(p.steps.size()), 8);
        QVERIFY(close(p.time_s, 8 * step));
        QVERIFY(std::abs(p.time_s - 10.686e-3) < 0.001e-3);
        QVERIFY(close(p.engine_time_s, p.time_s));
        std::set<std::pair<int, int>> pairs;
        for (std::size_t k = 0; k < p.steps.size(); ++k) {
            int network = 0, nvlink = 0;
            for (const ChunkTransfer& t : p.steps[k].transfers) {
                QVERIFY(pairs.insert({t.from, t.to}).second); // every ordered pair once
                network += t.link == Link::Network ? 1 : 0;
                nvlink += t.link == Link::NvLink ? 1 : 0;
            }
            QCOMPARE(network, 16); // each NIC sends one piece a step and receives one
            QCOMPARE(nvlink, k < 7 ? 16 : 0);
            QVERIFY(close(p.steps[k].end_s - p.steps[k].start_s, step));
        }
        QCOMPARE(int(pairs.size()), 16 * 15);
        for (double sent : p.bytes_sent_by_rank)
            QVERIFY(close(sent, 15 * 62.5e6));
    }

    void flatRingVersusHierarchicalAcrossNodes()
    {
        // 16 GPUs on 2 DGX H100 nodes, S = 1 GiB. NVLink step α_n + x/B_n with B_n = 450e9·0.82,
        // network α_i + x/B_i with B_i = 50e9·0.94 (per GPU, rail-optimised).
        const double S = 1073741824.0, Bn = 450e9 * 0.82, Bi = 50e9 * 0.94, an = 3.4e-6, ai = 6e-6;
        // Flat ring (the textbook's one ring): 2·15 = 30 steps of S/16, each waiting for the two
        // node-crossing hops.
        const CollectivePlan flat = plan(Collective::AllReduce, S, 16, CollectiveAlgorithm::FlatRing);
        QCOMPARE(int(flat.steps.size()), 30);
        QVERIFY(close(flat.time_s, 30 * (ai + S / 16 / Bi)));
        QCOMPARE(flat.bytes_sent_per_gpu, 2.0 * 15 / 16 * S);
        QVERIFY(allReduced(flat, 16));
        // Hierarchical (k = 8, N = 2): reduce-scatter inside the node (7 steps of S/8), all-reduce
        // of each S/8 shard across the 2 nodes on all 8 rails at once (2 steps of S/16), all-gather
        // inside (7 steps of S/8): 16 steps; per GPU 2·7/8·S + 2·1/2·S/8.
        const CollectivePlan h = plan(Collective::AllReduce, S, 16, CollectiveAlgorithm::Hierarchical);
        QCOMPARE(int(h.steps.size()), 16);
        QCOMPARE(h.bytes_sent_per_gpu, 2.0 * 7 / 8 * S + 2.0 * 1 / 2 * S / 8);
        QVERIFY(close(h.time_s, 14 * (an + S / 8 / Bn) + 2 * (ai + S / 16 / Bi)));
        QVERIFY(allReduced(h, 8 * 2)); // k·N pieces
        // On these links the hierarchical form is 5.5× faster: 23.0 ms + 5.2 ms… vs 43.4 ms.
        QVERIFY(h.time_s < flat.time_s / 1.5);
        // NCCL's ring: 8 channels of S/8; the steps list channel 1 (chunks of S/128) and last
        // max(α_i + S/128/B_i, α_n + 7·S/128/B_n) with all channels on the links; each GPU still
        // sends 2·15/16·S in all.
        const CollectivePlan nccl = plan(Collective::AllReduce, S, 16, CollectiveAlgorithm::Ring);
        QCOMPARE(nccl.channels, 8);
        QCOMPARE(int(nccl.steps.size()), 30);
        QVERIFY(close(nccl.time_s, 30 * std::max(ai + S / 128 / Bi, an + 7 * S / 128 / Bn)));
        QVERIFY(close(nccl.bytes_sent_per_gpu, 2.0 * 15 / 16 * S));
        QCOMPARE(nccl.steps.front().transfers.front().bytes, S / 128);
        QVERIFY(allReduced(nccl, 16));
        QVERIFY(nccl.time_s < h.time_s);
        int network = 0;
        for (const CollectiveStep& s : h.steps)
            for (const ChunkTransfer& t : s.transfers)
                network += t.link == Link::Network;
        QCOMPARE(network, 2 * 16); // 2 steps, every GPU on its own rail
    }

    void treeForSmallMessages()
    {
        // Binomial tree, n = 8: ⌈log₂8⌉ = 3 steps up, 3 down; every step α + S·β. For 8 KiB on
        // NVLink: 6·(3.4 µs + 8192/(450e9·0.82)) = 20.53 µs, against the ring's 14 steps of
        // 3.4 µs + 1 KiB/B = 47.99 µs: latency wins small messages for the tree.
        const double S = 8192;
        const CollectivePlan tree = plan(Collective::AllReduce, S, 8, CollectiveAlgorithm::BinomialTree);
        const CollectivePlan ring = plan(Collective::AllReduce, S, 8, CollectiveAlgorithm::Ring);
        const double B = 450e9 * 0.82;
        QCOMPARE(int(tree.steps.size()), 6);
        QVERIFY(close(tree.time_s, 6 * (3.4e-6 + S / B)));
        QVERIFY(close(ring.time_s, 14 * (3.4e-6 + S / 8 / B)));
        QVERIFY(tree.time_s < ring.time_s);
        QCOMPARE(tree.bytes_sent_by_rank[0], 3 * S); // the root sends to 4, 2 and 1
        QVERIFY(allReduced(tree, 1));
        // 6 ranks: the tree still reaches everyone (3 levels; no sends to missing ranks).
        QVERIFY(allReduced(plan(Collective::AllReduce, S, 6, CollectiveAlgorithm::BinomialTree), 1));
        const CollectivePlan bcast = plan(Collective::Broadcast, S, 8, CollectiveAlgorithm::BinomialTree);
        QCOMPARE(int(bcast.steps.size()), 3);
    }

    void holdingsStepByStep()
    {
        // The animation's state (collectiveHoldings) against the set replay above: after every step
        // of every algorithm, each count equals the number of contributors the sets hold.
        const double S = 1048576;
        struct Case {
            Collective op;
            int n;
            CollectiveAlgorithm a;
        };
        for (const Case c : {Case{Collective::AllReduce, 8, CollectiveAlgorithm::Ring},
                             Case{Collective::AllReduce, 16, CollectiveAlgorithm::Hierarchical},
                             Case{Collective::AllReduce, 6, CollectiveAlgorithm::BinomialTree}}) {
            const CollectivePlan p = plan(c.op, S, c.n, c.a);
            QCOMPARE(p.pieces, c.a == CollectiveAlgorithm::BinomialTree ? 1 : c.n);
            for (int done = 0; done <= int(p.steps.size()); ++done) {
                CollectivePlan head = p;
                head.steps.resize(std::size_t(done));
                const auto held = collectiveHoldings(p, done);
                for (int r = 0; r < c.n; ++r)
                    for (int piece = 0; piece < p.pieces; ++piece) {
                        // The set replay, cut at `done` steps: count contributors with a fresh replay.
                        std::vector<std::vector<std::set<int>>> have(std::size_t(c.n),
                                                                     std::vector<std::set<int>>(std::size_t(p.pieces)));
                        for (int q = 0; q < c.n; ++q)
                            for (int k = 0; k < p.pieces; ++k)
                                have[std::size_t(q)][std::size_t(k)] = {q};
                        for (const CollectiveStep& st : head.steps) {
                            const auto before = have;
                            for (const ChunkTransfer& t : st.transfers)
                                for (int k = std::max(0, t.chunk); k < std::max(0, t.chunk) + t.chunks; ++k) {
                                    auto& mine = have[std::size_t(t.to)][std::size_t(k)];
                                    const auto& sent = before[std::size_t(t.from)][std::size_t(k)];
                                    if (t.reduce)
                                        mine.insert(sent.begin(), sent.end());
                                    else
                                        mine = sent;
                                }
                        }
                        QCOMPARE(held[std::size_t(r)][std::size_t(piece)],
                                 int(have[std::size_t(r)][std::size_t(piece)].size()));
                    }
            }
        }
        // Ring reduce-scatter, n = 4: after its 3 steps rank i holds piece i + 1 from all 4 ranks.
        const CollectivePlan rs = plan(Collective::ReduceScatter, S, 4, CollectiveAlgorithm::Ring);
        const auto rs_end = collectiveHoldings(rs, 3);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(rs_end[std::size_t(i)][std::size_t((i + 1) % 4)], 4);
        // All-gather starts with one piece per rank and ends with all; broadcast from rank 0 ends
        // with every piece everywhere; all-to-all ends with a part from every rank.
        for (Collective op : {Collective::AllGather, Collective::Broadcast, Collective::AllToAll}) {
            const CollectivePlan p = plan(op, S, 4, CollectiveAlgorithm::Ring);
            const auto start = collectiveHoldings(p, 0);
            const auto end = collectiveHoldings(p, int(p.steps.size()));
            int at_start = 0;
            for (int r = 0; r < 4; ++r)
                for (int k = 0; k < 4; ++k) {
                    at_start += start[std::size_t(r)][std::size_t(k)];
                    QCOMPARE(end[std::size_t(r)][std::size_t(k)], 1);
                }
            QCOMPARE(at_start, 4);
        }
        // Above 64 ranks no transfers are kept: nothing to replay.
        QVERIFY(collectiveHoldings(plan(Collective::AllReduce, S, 128, CollectiveAlgorithm::Ring), 1).empty());
    }

    void errorsNameTheOption()
    {
        std::vector<InputError> errors;
        QVERIFY(
            !planCollective(Collective::AllReduce, 1e6, 12, cluster("dgx-h100"), CollectiveAlgorithm::Ring, errors));
        QCOMPARE(errors.at(0).path, std::string("--ranks"));
        errors.clear();
        QVERIFY(!planCollective(Collective::AllGather, 1e6, 8, cluster("dgx-h100"), CollectiveAlgorithm::Tree, errors));
        QCOMPARE(errors.at(0).path, std::string("--algorithm"));
        errors.clear();
        QVERIFY(!planCollective(Collective::SendRecv, 1e6, 8, cluster("dgx-h100"), CollectiveAlgorithm::Ring, errors));
        QCOMPARE(errors.at(0).path, std::string("--op"));
        errors.clear();
        QVERIFY(!planCollective(Collective::AllReduce, 0, 1, cluster("dgx-h100"), CollectiveAlgorithm::Ring, errors));
        QCOMPARE(int(errors.size()), 2);
        // Many ranks: the steps are timed, the transfers not kept.
        const CollectivePlan big = plan(Collective::AllReduce, 1e9, 1024, CollectiveAlgorithm::Ring);
        QCOMPARE(int(big.steps.size()), 2046);
        QVERIFY(big.steps.front().transfers.empty());
        errors.clear();
        QVERIFY(!planCollective(Collective::AllReduce, 1e6, CollectivePlan::kMaxRanks + 8, cluster("dgx-h100"),
                                CollectiveAlgorithm::Ring, errors));
        QCOMPARE(errors.at(0).text(), "--ranks: must be 2 to 131072, got 131080");
    }

    void linearTimingEqualsTheListedPlan()
    {
        // Above 64 GPUs a step is timed from the links it uses (rings: the first step, repeated),
        // which is linear in the GPUs (it was O(n²) and capped at 4,096). The same plans with
        // their transfers listed give the same step times and the same bytes per GPU.
        const ClusterSpec c = cluster("dgx-h100");
        for (const int n : {2, 8, 16, 24, 64})
            for (const Collective op : {Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter,
                                        Collective::AllToAll, Collective::Broadcast})
                for (const CollectiveAlgorithm algo :
                     {CollectiveAlgorithm::Ring, CollectiveAlgorithm::FlatRing, CollectiveAlgorithm::BinomialTree,
                      CollectiveAlgorithm::Hierarchical}) {
                    std::vector<InputError> errors;
                    const auto listed = planCollective(op, 3e8, n, c, algo, errors);
                    const auto linear = planCollective(op, 3e8, n, c, algo, errors, 0);
                    if (!listed)
                        continue; // no such form (a tree all-gather)
                    const std::string what
                        = std::string(toString(op)) + " " + toString(algo) + " n " + std::to_string(n);
                    QVERIFY2(linear && linear->steps.size() == listed->steps.size(), what.c_str());
                    for (std::size_t s = 0; s < listed->steps.size(); ++s)
                        QVERIFY2(close(linear->steps[s].end_s, listed->steps[s].end_s),
                                 (what + " step " + std::to_string(s)).c_str());
                    for (int r = 0; r < n; ++r)
                        QVERIFY2(close(linear->bytes_sent_by_rank[std::size_t(r)],
                                       listed->bytes_sent_by_rank[std::size_t(r)]),
                                 what.c_str());
                    QVERIFY(linear->steps.front().transfers.empty());
                }
        // 16,384 GPUs (a DP group of the 405B run): the flat ring crosses nodes at every step,
        // 2(n − 1) steps of α_net + (S/n)/(B_net · η_net).
        const int n = 16384;
        const double S = 140e9;
        const CollectivePlan p = plan(Collective::AllReduce, S, n, CollectiveAlgorithm::FlatRing);
        const double step = c.inter_node.latency_s + (S / n) / (c.inter_node.bytes_per_s * c.inter_node.efficiency);
        QVERIFY(close(p.time_s, 2.0 * (n - 1) * step));
        QVERIFY(close(p.bytes_sent_per_gpu, 2.0 * (n - 1) / n * S));
    }
};

QTEST_GUILESS_MAIN(TstCollectiveSteps)
#include "tst_collective_steps.moc"
