// Topology awareness (issue 38 §5, parallel/placement.h networkShares): NICs shared by a node's
// GPUs instead of one per GPU, leaf switches with oversubscribed uplinks, and what each does to a
// group's link — by hand, in the engine, in the collective explainer and in the scenario file.

#include "comm/bandwidth_ladder.h"
#include "comm/collective_cost.h"
#include "comm/collective_steps.h"
#include "estimate/evaluate.h"
#include "io/scenario_json.h"
#include "parallel/placement.h"
#include "types/knobs.h"
#include "scenario_fixture.h"

using namespace parascope;
using namespace parascope::test;

namespace {

bool near(double a, double b, double rel = 1e-12) { return std::abs(a - b) <= rel * std::abs(b); }

ClusterSpec a100(int nics, int per_leaf, int o)
{
    ClusterSpec c = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 1).cluster;
    c.fabric = {nics, per_leaf, o};
    return c;
}

const CommEntry& entry(const Estimate& e, Group g, Purpose p)
{
    for (const CommEntry& c : e.communication)
        if (c.group == g && c.purpose == p)
            return c;
    qFatal("no entry");
}

} // namespace

class TstTopology : public QObject {
    Q_OBJECT

private slots:
    void sharesByHand()
    {
        // 16 nodes of 8 GPUs, one member per node (stride 8): with one NIC per node the node's
        // 8 GPUs share it, 1/8 each. Leaves of 4 nodes with 8:1 uplinks: a ring sends one node's
        // traffic up per leaf, B against 4·B/8, 2× slower (o/n = 8/4); an all-to-all sends
        // (16 − 4)/16 of every node's, 4·B·12/16 against 4·B/8, 6× slower (o·(N − n)/N).
        const GroupPlacement g = placeGroup(Group::Dp, 16, 8, a100(1, 4, 8));
        QCOMPARE(g.nodes, std::int64_t(16));
        QCOMPARE(g.leaves, std::int64_t(4));
        QVERIFY(near(g.nic_share, 1.0 / 8));
        QVERIFY(near(g.network_share, 1.0 / 16));
        QVERIFY(near(g.all_to_all_share, 1.0 / 48));
        // The DGX design (a NIC per GPU, non-blocking): everything 1; inside a node always 1.
        const GroupPlacement dgx = placeGroup(Group::Dp, 16, 8, a100(0, 0, 1));
        QCOMPARE(dgx.network_share, 1.0);
        QCOMPARE(placeGroup(Group::Tp, 8, 1, a100(1, 4, 8)).network_share, 1.0);
        // Leaves of 4 with 2:1 uplinks: a ring does not notice (o/n = 0.5 < 1), an all-to-all
        // over 16 nodes does: 2·12/16 = 1.5× slower.
        const GroupPlacement mild = placeGroup(Group::Ep, 16, 8, a100(0, 4, 2));
        QCOMPARE(mild.network_share, 1.0);
        QVERIFY(near(mild.all_to_all_share, 1 / 1.5));
    }

    void aRingThroughOneNic()
    {
        // A 1 GB all-reduce by NCCL's ring over 2 nodes of 8: each step the GPU's chunk crosses
        // the network at the per-GPU bandwidth times its share: with one NIC per node, 1/8 of it.
        // step = max(α_net + chunk/(busbw·share), α_nvl + 7·chunk/busbw_nvl), 2(n − 1) = 30 steps.
        const ClusterSpec one = a100(1, 0, 1);
        const GroupPlacement g = placeGroup(Group::Dp, 16, 1, one);
        const double S = 1e9, chunk = S / (16 * 8);
        const LinkSpec net = one.inter_node, nvl = one.intra_node;
        const double t_net = net.latency_s + chunk / (net.busBytesPerS(S) / 8);
        const double t_nvl = nvl.latency_s + 7 * chunk / nvl.busBytesPerS(S);
        const double want = 30 * std::max(t_net, t_nvl);
        const double got
            = collectiveModelTime(CollectiveAlgorithm::Ring, Collective::AllReduce, S, g, one, Explain::NumbersOnly)
                  .seconds;
        QVERIFY(near(got, want, 1e-12));
        // The explainer plays the same steps in the same time (one answer, issue 35).
        std::vector<InputError> errors;
        const auto plan = planCollective(Collective::AllReduce, S, 16, one, CollectiveAlgorithm::Ring, errors);
        QVERIFY(plan);
        QVERIFY(near(plan->time_s, want, 1e-9));
    }

    void theLadderNamesTheShare()
    {
        // The bandwidth ladder's per-GPU rung is the NIC's share; a spine rung appears when the
        // group crosses leaves and the uplinks slow it.
        const ClusterSpec c = a100(1, 4, 8);
        const GroupPlacement g = placeGroup(Group::Dp, 16, 8, c);
        const BandwidthLadder l = bandwidthLadder(Link::Network, c, Collective::AllReduce, 1e9, g);
        bool spine = false, per_gpu = false;
        for (const LadderRung& r : l.rungs) {
            per_gpu |= r.name.en == "per GPU" && near(r.bytes_per_s, c.inter_node.bytes_per_s / 8);
            spine |= r.name.en.rfind("through the spine", 0) == 0
                && near(r.bytes_per_s, c.inter_node.bytes_per_s * c.inter_node.efficiency / 16);
        }
        QVERIFY(per_gpu);
        QVERIFY(spine);
    }

    void placementDecidesWhoPays()
    {
        // Llama 2 7B on 16 nodes, TP 8 inside each node, DP 16 across: one NIC per node slows the
        // DP reduction (its ring crosses the network) and leaves TP's NVLink collectives alone.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 8, 1, 16);
        sc.training.global_batch = 256;
        sc.parallel.zero = 1;
        const Estimate dgx = evaluate(sc);
        std::string why;
        QVERIFY2(applyKnobAssignment(sc, "network.nics_per_node=1", why), why.c_str());
        const Estimate one = evaluate(sc);
        const CommEntry &d0 = entry(dgx, Group::Dp, Purpose::Gradients),
                        &d1 = entry(one, Group::Dp, Purpose::Gradients);
        QVERIFY(d1.time_s > 4 * d0.time_s);
        QCOMPARE(entry(one, Group::Tp, Purpose::Activations).time_s,
                 entry(dgx, Group::Tp, Purpose::Activations).time_s);
        QVERIFY(one.time.step_s > dgx.time.step_s);
    }

    void theNetworkSection()
    {
        // Written only when not the DGX design, read back, kept by --set; bad values name the key.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 8, 1, 2);
        QVERIFY(!scenarioToJson(sc).contains("network"));
        std::string why;
        QVERIFY(applyKnobAssignment(sc, "network.nodes_per_leaf=4", why));
        QVERIFY(applyKnobAssignment(sc, "network.oversubscription=3", why));
        const nlohmann::json j = scenarioToJson(sc);
        QCOMPARE(j["network"]["nodes_per_leaf"].get<int>(), 4);
        QCOMPARE(j["cluster"].get<std::string>(), std::string("dgx-a100-80g")); // the preset stays a preset
        const Scenario back = scenarioFromJson(j.dump());
        QCOMPARE(back.cluster.fabric.oversubscription, 3);
        QVERIFY(!applyKnobAssignment(sc, "network.oversubscription=0", why));
        nlohmann::json bad = j;
        bad["network"]["oversubscription"] = 100;
        std::vector<InputError> errors;
        QVERIFY(!readScenario(bad, errors));
        QVERIFY(!errors.empty() && errors.front().path == "network.oversubscription");
        bad["network"] = {{"nics", 2}};
        errors.clear();
        QVERIFY(!readScenario(bad, errors));
        QVERIFY(!errors.empty() && errors.front().path == "network.nics");
    }
};

QTEST_APPLESS_MAIN(TstTopology)
#include "tst_topology.moc"
