// The communication plan one group at a time (comm/group_collectives.h) and the algorithm each
// collective runs by (comm/comm_algorithm.h): every group's function returns only its group's
// collectives, each names the algorithm its time was computed by, the plan is their
// concatenation, and the collective explainer plays the algorithm the engine names. Times by
// algorithm are derived by hand on the DGX A100 preset.

#include "comm/collective_cost.h"
#include "comm/collective_steps.h"
#include "comm/group_collectives.h"
#include "estimate/evaluate.h"
#include "scenario_fixture.h"

#include <QtTest>

#include <cmath>

using namespace parascope;
using namespace parascope::test;

namespace {

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::abs(b); }

// DGX A100 (preset): NVLink 300 GB/s × 0.77, α 3.4 µs; HDR 25 GB/s × 0.96, α 6 µs; no size ramp.
ClusterSpec dgx() { return presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 1).cluster; }
ClusterSpec cluster(const std::string& id) { return presetScenario("llama2-7b", id, 1, 1, 1).cluster; }

// The inputs evaluate() gives communicationPlan for a scenario (the busiest stage's share).
struct PlanInputs {
    Scenario sc;
    Estimate est;
    Placement placement;
    CommInputs in;
    explicit PlanInputs(Scenario s)
        : sc(std::move(s))
        , est(evaluate(sc))
        , placement(placeRanks(sc.parallel, sc.cluster))
        , in{sc.model,
             sc.parallel,
             sc.training,
             sc.cluster,
             placement,
             est.microbatches,
             sc.model.layers / sc.parallel.pp,
             sc.model.moe ? sc.model.layers / sc.parallel.pp : 0,
             double(est.params.total) / sc.parallel.pp / sc.parallel.tp,
             1e9,
             Explain::Full}
    { }
};

} // namespace

class TstCommGroups : public QObject {
    Q_OBJECT

private slots:
    void presetLinksAreTheDerivationsLinks()
    {
        const ClusterSpec c = dgx();
        QCOMPARE(c.intra_node.bytes_per_s, 300e9);
        QCOMPARE(c.intra_node.efficiency, 0.77);
        QCOMPARE(c.intra_node.latency_s, 3.4e-6);
        QCOMPARE(c.intra_node.half_bytes, 0.0);
        QCOMPARE(c.inter_node.bytes_per_s, 25e9);
        QCOMPARE(c.inter_node.efficiency, 0.96);
        QCOMPARE(c.inter_node.latency_s, 6e-6);
        QCOMPARE(c.inter_node.half_bytes, 0.0);
        QCOMPARE(c.gpus_per_node, 8);
    }

    // A send is p2p, an all-to-all pairwise; otherwise the fastest of NCCL's own: the ring, the
    // double binary tree across nodes, NVLS inside an NVSwitch-3 node.
    void theAssumedAlgorithm()
    {
        const ClusterSpec c = dgx();
        const GroupPlacement inside = placeGroup(Group::Tp, 8, 1, c), across = placeGroup(Group::Dp, 16, 1, c);
        QCOMPARE(assumedAlgorithm(Collective::AllReduce, 1e9, inside, c), CollectiveAlgorithm::Ring);
        QCOMPARE(assumedAlgorithm(Collective::AllGather, 1e9, inside, c), CollectiveAlgorithm::Ring);
        // 1 GB over 2 nodes: the ring's 9.95 ms beats the tree's 11.38 ms (oneAllReduceByEachAlgorithm).
        QCOMPARE(assumedAlgorithm(Collective::AllReduce, 1e9, across, c), CollectiveAlgorithm::Ring);
        QCOMPARE(assumedAlgorithm(Collective::ReduceScatter, 1e9, across, c), CollectiveAlgorithm::Ring);
        // 64 KiB over 512 nodes: the ring's 2·4095 steps of ≥ 6 µs (49 ms) against the tree's
        // 2·(9·6 µs + 7·3.4 µs) + 2·64Ki/(8·24e9)/0.92 = 0.16 ms.
        const GroupPlacement wide = placeGroup(Group::Dp, 4096, 1, c);
        QCOMPARE(assumedAlgorithm(Collective::AllReduce, 65536, wide, c), CollectiveAlgorithm::Tree);
        QCOMPARE(assumedAlgorithm(Collective::AllToAll, 1e9, across, c), CollectiveAlgorithm::Pairwise);
        QCOMPARE(assumedAlgorithm(Collective::SendRecv, 1e9, inside, c), CollectiveAlgorithm::PointToPoint);
        // H100 has NVLS (480 GB/s measured busbw): 25 µs + 1.75·1e9/480e9 = 3.67 ms against the
        // ring's 14·(3.4 µs + 1e9/8/(450e9·0.82)) = 4.79 ms; not across nodes, not on 4 GPUs.
        const ClusterSpec h100 = cluster("dgx-h100");
        QCOMPARE(assumedAlgorithm(Collective::AllReduce, 1e9, placeGroup(Group::Tp, 8, 1, h100), h100),
                 CollectiveAlgorithm::Nvls);
        QCOMPARE(assumedAlgorithm(Collective::AllReduce, 1e9, placeGroup(Group::Tp, 4, 1, h100), h100),
                 CollectiveAlgorithm::Ring);
        QVERIFY(!available(CollectiveAlgorithm::Nvls, Collective::AllReduce, placeGroup(Group::Dp, 16, 1, h100), h100));
        QVERIFY(runs(CollectiveAlgorithm::BinomialTree, Collective::Broadcast)
                && !runs(CollectiveAlgorithm::Tree, Collective::Broadcast)
                && !runs(CollectiveAlgorithm::Tree, Collective::AllGather));
        QVERIFY(runs(CollectiveAlgorithm::Pairwise, Collective::AllToAll)
                && !runs(CollectiveAlgorithm::Ring, Collective::AllToAll));
    }

    // The same all-reduce of S = 1 GB over 16 GPUs on 2 nodes by each algorithm.
    void oneAllReduceByEachAlgorithm()
    {
        const ClusterSpec c = dgx();
        const GroupPlacement g = placeGroup(Group::Dp, 16, 1, c);
        QCOMPARE(g.nodes, std::int64_t(2));
        const double S = 1e9, nvl = 300e9 * 0.77, net = 25e9 * 0.96;
        // Flat ring: 2·15 network hops, factor 2·15/16: 30·6 µs + 1.875·S/24e9 = 78.305 ms.
        QVERIFY(close(collectiveTime(CollectiveAlgorithm::FlatRing, Collective::AllReduce, S, g, c).seconds,
                      30 * 6e-6 + 1.875 * S / net));
        // NCCL's ring: 8 channels of S/8, each step a chunk S/(8·16) on every NIC and 7 of them on
        // each GPU's NVLink: 30·max(6 µs + S/128/24e9, 3.4 µs + 7·S/128/231e9) = 30·331.5 µs = 9.95 ms,
        // 7.9× faster than one ring through one NIC (busbw 1.875·S/t = 189 GB/s ≈ 8 NICs).
        const double ring = 30 * std::max(6e-6 + S / 128 / net, 3.4e-6 + 7 * S / 128 / nvl);
        QVERIFY(close(collectiveTime(CollectiveAlgorithm::Ring, Collective::AllReduce, S, g, c).seconds, ring));
        QVERIFY(close(collectiveTime(Collective::AllReduce, S, g, c).seconds, ring)); // what the engine assumes
        // Hierarchical: inside each node 2·7 steps, factor 1.75 on S; across 2 nodes 2·1 steps,
        // factor 1 on S/8: 14·3.4 µs + 1.75·S/231e9 + 2·6 µs + (S/8)/24e9 = 12.841 ms.
        const double hier = 14 * 3.4e-6 + 1.75 * S / nvl + 2 * 6e-6 + (S / 8) / net;
        QVERIFY(close(collectiveTime(CollectiveAlgorithm::Hierarchical, Collective::AllReduce, S, g, c).seconds, hier));
        // Double binary tree: 2·(1·6 µs + 7·3.4 µs) + max(2S/(8·24e9), 2S/231e9)/0.92 = 11.38 ms.
        const double dbt = 2 * (6e-6 + 7 * 3.4e-6) + std::max(2 * S / (8 * net), 2 * S / nvl) / 0.92;
        QVERIFY(close(collectiveTime(CollectiveAlgorithm::Tree, Collective::AllReduce, S, g, c).seconds, dbt));
        // Binomial tree over ranks 0–15 (8 per node): levels 1, 2, 4 apart stay inside a node,
        // 8 apart crosses; up and down: 2·(3·(3.4 µs + S/231e9) + (6 µs + S/24e9)) = 109.35 ms.
        const double tree = 2 * (3 * (3.4e-6 + S / nvl) + (6e-6 + S / net));
        QVERIFY(close(collectiveTime(CollectiveAlgorithm::BinomialTree, Collective::AllReduce, S, g, c).seconds, tree));
        // A broadcast only goes down.
        QVERIFY(
            close(collectiveTime(CollectiveAlgorithm::BinomialTree, Collective::Broadcast, S, g, c).seconds, tree / 2));
    }

    // DeepEP through the algorithm is dedupAllToAllTime; without routing it is the pairwise time.
    void deepEpIsAnAlgorithm()
    {
        const ClusterSpec c = dgx();
        const GroupPlacement ep = placeGroup(Group::Ep, 32, 1, c);
        const double S = 64e6;
        QCOMPARE(collectiveTime(CollectiveAlgorithm::DeepEp, Collective::AllToAll, S, ep, c, Explain::Full, {8, 128})
                     .seconds,
                 dedupAllToAllTime(S, 8, 128, ep, c).seconds);
        QCOMPARE(collectiveTime(CollectiveAlgorithm::DeepEp, Collective::AllToAll, S, ep, c).seconds,
                 collectiveTime(CollectiveAlgorithm::Pairwise, Collective::AllToAll, S, ep, c).seconds);
    }

    // A measured bus bandwidth is what NCCL ran when it was measured: it replaces the assumed
    // algorithm's model, not another algorithm's.
    void measuredReplacesOnlyTheAssumedAlgorithm()
    {
        ClusterSpec c = dgx();
        const GroupPlacement g = placeGroup(Group::Tp, 8, 1, c);
        c.measured_collectives.push_back({Collective::AllReduce, 8, 1, 1e9, 200e9});
        // 1.75·S/busbw_measured = 1.75·1e9/200e9 = 8.75 ms.
        QVERIFY(close(collectiveTime(CollectiveAlgorithm::Ring, Collective::AllReduce, 1e9, g, c).seconds,
                      1.75 * 1e9 / 200e9));
        QVERIFY(close(collectiveTime(CollectiveAlgorithm::BinomialTree, Collective::AllReduce, 1e9, g, c).seconds,
                      2 * 3 * (3.4e-6 + 1e9 / (300e9 * 0.77))));
    }

    // Each group's function returns its group only, every entry names the algorithm its time came
    // from, and the plan is the functions' entries in order.
    void thePlanIsEveryGroupInTurn()
    {
        Scenario sc = presetScenario("mixtral-8x7b", "dgx-h100", 2, 2, 8);
        sc.parallel.ep = 4;
        sc.parallel.cp = 2;
        sc.parallel.dp = 4;
        sc.parallel.sequence_parallel = true;
        sc.parallel.zero = 1;
        sc.training.global_batch = 64;
        const PlanInputs x(sc);
        const std::vector<CommEntry> plan = communicationPlan(x.in);
        std::vector<CommEntry> joined;
        const std::pair<std::vector<Group>, std::vector<CommEntry> (*)(const CommInputs&)> parts[]
            = {{{Group::Tp}, tensorParallelCollectives},   {{Group::Tp}, sequenceParallelCollectives},
               {{Group::Cp}, contextParallelCollectives},  {{Group::Ep}, expertParallelCollectives},
               {{Group::Pp}, pipelineParallelCollectives}, {{Group::Dp, Group::Edp}, dataParallelCollectives}};
        for (const auto& [groups, collectives] : parts) {
            for (const CommEntry& e : collectives(x.in)) {
                QVERIFY2(std::find(groups.begin(), groups.end(), e.group) != groups.end(), toString(e.group));
                joined.push_back(e);
            }
        }
        QVERIFY(tensorParallelCollectives(x.in).empty()); // SP is on: TP's collectives are SP's
        QCOMPARE(joined.size(), plan.size());
        for (std::size_t i = 0; i < plan.size(); ++i) {
            QCOMPARE(joined[i].group, plan[i].group);
            QCOMPARE(joined[i].collective, plan[i].collective);
            QCOMPARE(joined[i].time_s, plan[i].time_s);
            QCOMPARE(joined[i].algorithm, plan[i].algorithm);
            const GroupPlacement& g = x.placement.group(plan[i].group == Group::Dp ? Group::DpCp : plan[i].group);
            if (plan[i].group != Group::Pp && plan[i].group != Group::Ep)
                QCOMPARE(plan[i].algorithm,
                         assumedAlgorithm(plan[i].collective, plan[i].bytes_per_call, g, x.in.cluster));
            QVERIFY(runs(plan[i].algorithm, plan[i].collective));
        }
    }

    // What the explainer plays for a plan entry: the engine's algorithm where it has a form for
    // the operation; the all-to-all's ring is its pairwise exchange.
    void theExplainerPlaysTheEnginesAlgorithm()
    {
        QCOMPARE(steppedAlgorithm(CollectiveAlgorithm::Tree, Collective::AllReduce), CollectiveAlgorithm::Tree);
        QCOMPARE(steppedAlgorithm(CollectiveAlgorithm::Nvls, Collective::AllReduce), CollectiveAlgorithm::Nvls);
        QCOMPARE(steppedAlgorithm(CollectiveAlgorithm::Hierarchical, Collective::AllGather), CollectiveAlgorithm::Ring);
        QCOMPARE(steppedAlgorithm(CollectiveAlgorithm::Ring, Collective::ReduceScatter), CollectiveAlgorithm::Ring);
        QCOMPARE(steppedAlgorithm(CollectiveAlgorithm::Pairwise, Collective::AllToAll), CollectiveAlgorithm::Ring);
        std::vector<InputError> errors;
        const auto a2a = planCollective(Collective::AllToAll, 1e6, 8, dgx(), CollectiveAlgorithm::Ring, errors);
        QVERIFY(a2a && a2a->algorithm == CollectiveAlgorithm::Pairwise);
        QVERIFY(!planCollective(Collective::AllToAll, 1e6, 8, dgx(), CollectiveAlgorithm::DeepEp, errors));
        QCOMPARE(QString::fromStdString(errors.back().path), QStringLiteral("--algorithm"));
        // NVLS needs the hardware: the A100 preset has none, and says so.
        QVERIFY(!planCollective(Collective::AllReduce, 1e9, 8, dgx(), CollectiveAlgorithm::Nvls, errors));
        QVERIFY2(errors.back().message.find("NVLink SHARP") != std::string::npos, errors.back().message.c_str());
        // Every form's time is the engine's for that algorithm (β = 1/(bandwidth·efficiency): no
        // size ramp on this preset); the binomial tree step by step, the double binary tree by phases.
        const GroupPlacement g = placeGroup(Group::Dp, 16, 1, dgx());
        for (CollectiveAlgorithm a :
             {CollectiveAlgorithm::Ring, CollectiveAlgorithm::FlatRing, CollectiveAlgorithm::Tree,
              CollectiveAlgorithm::Hierarchical, CollectiveAlgorithm::BinomialTree}) {
            errors.clear();
            const auto p = planCollective(Collective::AllReduce, 1e9, 16, dgx(), a, errors);
            QVERIFY2(p, toString(a));
            QVERIFY2(close(p->time_s, collectiveTime(a, Collective::AllReduce, 1e9, g, dgx()).seconds), toString(a));
            QCOMPARE(p->engine_algorithm, CollectiveAlgorithm::Ring);
        }
    }
};

QTEST_GUILESS_MAIN(TstCommGroups)
#include "tst_comm_groups.moc"
