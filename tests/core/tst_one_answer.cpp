// One question, one answer: the same collective on the same placement gets the same algorithm
// and the same time from the engine (evaluate's communication plan, comm/collective_cost.h), the
// step-by-step explainer (comm/collective_steps.h, what `parascope-cli collective` and the
// Collectives tab show) and the time model alone, over a grid of sizes, group sizes and clusters.

#include "comm/collective_cost.h"
#include "comm/collective_steps.h"
#include "estimate/evaluate.h"
#include "parallel/placement.h"
#include "scenario_fixture.h"

#include <QtTest>

#include <cmath>

using namespace parascope;
using namespace parascope::test;

namespace {

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

const char* kClusters[] = {"dgx-a100-80g", "dgx-h100", "hgx-h200", "hgx-b200", "hgx-h800"};

std::string where(const char* cluster, Collective op, double S, int ranks)
{
    return std::string(cluster) + " " + toString(op) + " S=" + num(S) + " n=" + std::to_string(ranks);
}

} // namespace

class TestOneAnswer : public QObject {
    Q_OBJECT
private slots:
    // The explainer, by default, plays what the engine assumes, in the engine's time; its
    // teaching forms say their factor to it.
    void explainerAndEngineAgreeOverAGrid()
    {
        const Collective ops[] = {Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter};
        int checked = 0;
        for (const char* id : kClusters) {
            const ClusterSpec cl = presetScenario("llama2-7b", id, 1, 1, 1).cluster;
            for (int ranks : {2, 8, 16, 64, 512})
                for (double S : {65536.0, 16.0 * 1048576, 1e9, 140e9})
                    for (Collective op : ops) {
                        const GroupPlacement g = explainerPlacement(ranks, cl);
                        const CollectiveAlgorithm engine = assumedAlgorithm(op, S, g, cl);
                        std::vector<InputError> errors;
                        const auto p = planCollective(op, S, ranks, cl, steppedAlgorithm(engine, op), errors);
                        const std::string at = where(id, op, S, ranks);
                        QVERIFY2(p, at.c_str());
                        QVERIFY2(p->algorithm == engine, at.c_str());
                        QVERIFY2(p->engine_algorithm == engine, at.c_str());
                        QVERIFY2(close(p->time_s, collectiveTime(op, S, g, cl, Explain::NumbersOnly).seconds),
                                 at.c_str());
                        QVERIFY2(close(p->time_s, p->engine_time_s), at.c_str());
                        ++checked;
                    }
        }
        QCOMPARE(checked, 5 * 5 * 4 * 3);
    }

    // evaluate's gradient all-reduce (DP over whole nodes, TP = PP = 1) is the explainer's
    // all-reduce of the same bytes on the same GPUs: same algorithm, same time per call, and
    // the bus bandwidth it names is factor·S/t.
    void evaluateAndExplainerAgree()
    {
        for (const char* id : {"dgx-a100-80g", "dgx-h100"})
            for (int dp : {8, 16, 64}) {
                Scenario sc = presetScenario("llama2-7b", id, 1, 1, dp);
                sc.training.global_batch = dp;
                sc.parallel.zero = 0;
                const Estimate est = evaluate(sc);
                bool found = false;
                for (const CommEntry& e : est.communication) {
                    if (e.group != Group::Dp || e.collective != Collective::AllReduce)
                        continue;
                    found = true;
                    std::vector<InputError> errors;
                    const auto p = planCollective(e.collective, e.bytes_per_call, int(e.group_size), sc.cluster,
                                                  steppedAlgorithm(e.algorithm, e.collective), errors);
                    const std::string at = where(id, e.collective, e.bytes_per_call, int(e.group_size));
                    QVERIFY2(p, at.c_str());
                    QVERIFY2(p->algorithm == e.algorithm, at.c_str());
                    QVERIFY2(close(e.time_s / e.calls_per_step, p->time_s), at.c_str());
                    QVERIFY2(close(e.busbw_bytes_per_s, p->busbw_bytes_per_s), at.c_str());
                }
                QVERIFY2(found, id);
            }
    }

    // The case: 140 GB of 70B gradients over 64 A100s on 8 nodes. One ring through one
    // NIC: 126·(6 µs + 140e9/64/24e9) = 11.49 s, busbw 24 GB/s. NCCL's ring with 8 channels:
    // 126·(6 µs + 140e9/512/24e9) = 1.436 s, busbw 1.96875·140e9/1.436 = 192 GB/s — 8 NICs.
    void theRingUsesEveryNic()
    {
        const ClusterSpec cl = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 1).cluster;
        std::vector<InputError> errors;
        const auto flat = planCollective(Collective::AllReduce, 140e9, 64, cl, CollectiveAlgorithm::FlatRing, errors);
        const auto nccl = planCollective(Collective::AllReduce, 140e9, 64, cl, CollectiveAlgorithm::Ring, errors);
        QVERIFY(flat && nccl);
        QVERIFY(close(flat->time_s, 126 * (6e-6 + 140e9 / 64 / 24e9)));
        QVERIFY(close(nccl->time_s, 126 * (6e-6 + 140e9 / 512 / 24e9)));
        QCOMPARE(nccl->channels, 8);
        QCOMPARE(nccl->engine_algorithm, CollectiveAlgorithm::Ring);
        QVERIFY(std::abs(nccl->busbw_bytes_per_s / 1e9 - 192) < 0.5);
        // Each GPU still sends 2(n−1)/n·S in all: 8 channels of S/8.
        QVERIFY(close(nccl->bytes_sent_per_gpu, 2.0 * 63 / 64 * 140e9));
        QVERIFY(teachingOnly(flat->algorithm) && !teachingOnly(nccl->algorithm));
    }
};

QTEST_GUILESS_MAIN(TestOneAnswer)
#include "tst_one_answer.moc"
