// Rank placement in Megatron order (tp innermost, then cp, dp, pp; EP inside dp·cp): which
// groups stay inside an 8-GPU node and which cross the network, and how many nodes they span.

#include "parallel/placement.h"
#include "scenario_fixture.h"

using namespace parascope;
using namespace parascope::test;

class TstPlacement : public QObject {
    Q_OBJECT

    static ClusterSpec cluster()
    {
        return scenarioFromJson(R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-a100-80g"})")
            .cluster;
    }
    static ParallelConfig config(int tp, int cp, int dp, int pp, int ep = 1)
    {
        ParallelConfig p;
        p.tp = tp;
        p.cp = cp;
        p.dp = dp;
        p.pp = pp;
        p.ep = ep;
        p.etp = 1;
        return p;
    }

private slots:
    void llama70bOn512()
    {
        // TP 8 × PP 8 × DP 8: tp = ranks 0–7 (one node); dp stride 8 = a node, so its 8 members
        // sit on 8 nodes; pp stride 64 → 8 nodes. 512 GPUs = 64 nodes.
        const Placement pl = placeRanks(config(8, 1, 8, 8), cluster());
        QCOMPARE(pl.nodes, std::int64_t(64));
        QCOMPARE(pl.group(Group::Tp).nodes, std::int64_t(1));
        QCOMPARE(pl.group(Group::Tp).link, Link::NvLink);
        QCOMPARE(pl.group(Group::Dp).stride, std::int64_t(8));
        QCOMPARE(pl.group(Group::Dp).nodes, std::int64_t(8));
        QCOMPARE(pl.group(Group::Dp).link, Link::Network);
        QCOMPARE(pl.group(Group::Pp).stride, std::int64_t(64));
        QCOMPARE(pl.group(Group::Pp).nodes, std::int64_t(8));
        QCOMPARE(pl.group(Group::Pp).ranks_per_node, std::int64_t(1));
    }

    void smallGroupsStayInANode()
    {
        // TP 2 × DP 4 = 8 GPUs: dp members 0, 2, 4, 6 → one node, NVLink.
        const Placement pl = placeRanks(config(2, 1, 4, 1), cluster());
        QCOMPARE(pl.group(Group::Dp).nodes, std::int64_t(1));
        QCOMPARE(pl.group(Group::Dp).link, Link::NvLink);
        // TP 2 × DP 8: dp members 0, 2, …, 14 → 2 nodes with 4 members each (hierarchical).
        const Placement wide = placeRanks(config(2, 1, 8, 1), cluster());
        QCOMPARE(wide.group(Group::Dp).nodes, std::int64_t(2));
        QCOMPARE(wide.group(Group::Dp).ranks_per_node, std::int64_t(4));
    }

    void tensorParallelBeyondANode()
    {
        // TP 16 spans ranks 0–15: two nodes, over the network.
        const GroupPlacement tp = placeRanks(config(16, 1, 1, 1), cluster()).group(Group::Tp);
        QCOMPARE(tp.nodes, std::int64_t(2));
        QVERIFY(tp.crossesNodes());
        QCOMPARE(tp.link, Link::Network);
    }

    void contextAndGradientGroups()
    {
        // TP 4 × CP 2 × DP 4: cp stride 4 (ranks 0, 4: one node); the gradient group dp·cp = 8
        // has stride tp = 4 → ranks 0 … 28, 4 nodes with 2 members each.
        const Placement pl = placeRanks(config(4, 2, 4, 1), cluster());
        QCOMPARE(pl.group(Group::Cp).stride, std::int64_t(4));
        QCOMPARE(pl.group(Group::Cp).nodes, std::int64_t(1));
        QCOMPARE(pl.group(Group::DpCp).size, std::int64_t(8));
        QCOMPARE(pl.group(Group::DpCp).nodes, std::int64_t(4));
        QCOMPARE(pl.group(Group::DpCp).ranks_per_node, std::int64_t(2));
    }

    void expertGroups()
    {
        // EP 8 with ETP 1 takes 8 consecutive ranks: one node. Expert-DP = tp·cp·dp/(etp·ep)
        // = 1·1·16/8 = 2, stride 8 → two nodes.
        const Placement pl = placeRanks(config(1, 1, 16, 1, 8), cluster());
        QCOMPARE(pl.group(Group::Ep).nodes, std::int64_t(1));
        QCOMPARE(pl.group(Group::Edp).size, std::int64_t(2));
        QCOMPARE(pl.group(Group::Edp).stride, std::int64_t(8));
        QCOMPARE(pl.group(Group::Edp).nodes, std::int64_t(2));
    }

    void hugeClustersAreCheap()
    {
        // 10⁶ GPUs: placement is arithmetic, not enumeration.
        const Placement pl = placeRanks(config(8, 1, 125000, 1), cluster());
        QCOMPARE(pl.gpus, std::int64_t(1000000));
        QCOMPARE(pl.group(Group::Dp).nodes, std::int64_t(125000));
    }
};

QTEST_GUILESS_MAIN(TstPlacement)
#include "tst_placement.moc"
