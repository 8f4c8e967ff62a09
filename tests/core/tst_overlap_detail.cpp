// Overlap in detail (issue 38 §3): the data-parallel gradient reduction bucket by bucket
// (schedule/grad_buckets.h) and ZeRO-3's prefetch depth (parallel.zero3_prefetch), each derived
// by hand, on the timeline's communication lanes, and reachable from --set.

#include "estimate/evaluate.h"
#include "io/scenario_json.h"
#include "schedule/grad_buckets.h"
#include "types/knobs.h"
#include "scenario_fixture.h"

#include <algorithm>

using namespace parascope;
using namespace parascope::test;

namespace {

bool near(double a, double b, double tol = 1e-12) { return std::abs(a - b) <= tol * std::max(1.0, std::abs(b)); }

const Term& memoryTerm(const StageMemory& s, const char* name)
{
    const Term* t = findTerm(s.terms, name);
    if (!t)
        qFatal("no term %s", name);
    return *t;
}

// The rank-0 ops of one type on the communication lane, by start.
std::vector<TimedOp> laneOps(const Estimate& e, OpType type, bool buckets_only)
{
    std::vector<TimedOp> out;
    for (const TimedOp& op : e.timeline.timeline.ops)
        if (op.rank == 0 && op.comm_lane && op.type == type && (!buckets_only || op.bucket >= 0))
            out.push_back(op);
    std::sort(out.begin(), out.end(), [](const TimedOp& a, const TimedOp& b) { return a.start_s < b.start_s; });
    return out;
}

// Llama 2 7B on 8 A100s, data parallel only, ZeRO-1: one rank, the reduction after its backward.
Scenario dataParallel7b()
{
    Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 8);
    sc.training.global_batch = 32; // 4 microbatches of 1 per GPU
    sc.parallel.zero = 1;
    return sc;
}

} // namespace

class TstOverlapDetail : public QObject {
    Q_OBJECT

private slots:
    void bucketsBehindALongBackward()
    {
        // G = 0.4 s in n = 4 buckets of 0.1 s, the backward from 0 to D = 2 s: bucket i is ready
        // at 0.5(i + 1) and takes 0.1, so they end at 0.6, 1.1, 1.6 and 2.1: three hide, the last
        // one's 0.1 s = L is exposed (max(L, G + D/n − D) = max(0.1, 0.4 + 0.5 − 2)).
        const BucketChain c = bucketChain({0.4, 0.1, 4, true}, 0.0, 2.0, true);
        QCOMPARE(c.count, 4);
        QCOMPARE(c.hidden, 3);
        QVERIFY(near(c.end_s, 2.1));
        QVERIFY(near(c.buckets[0].start_s, 0.5));
        QVERIFY(near(c.buckets[2].end_s, 1.6));
    }

    void bucketsLongerThanTheBackward()
    {
        // G = 1 s, n = 4, L = 0.25, the backward from 0 to D = 0.6: ready at 0.15, 0.3, 0.45, 0.6,
        // but the lane is busy: 0.15–0.40, 0.40–0.65, 0.65–0.90, 0.90–1.15. Only the first hides;
        // exposed 1.15 − 0.6 = 0.55 = G + D/n − D = 1 + 0.15 − 0.6.
        const BucketChain c = bucketChain({1.0, 0.25, 4, true}, 0.0, 0.6, true);
        QCOMPARE(c.hidden, 1);
        QVERIFY(near(c.end_s, 1.15));
        QVERIFY(near(c.buckets[1].start_s, 0.40));
        QVERIFY(near(c.buckets[1].end_s, 0.65));
        // An uneven last bucket: the others share G − L. L = 0.4: 0.2 each, 0.15–0.35, 0.35–0.55,
        // 0.55–0.75, then 0.75–1.15; exposed max(0.4, 0.55) = 0.55 again, two hide.
        const BucketChain u = bucketChain({1.0, 0.4, 4, true}, 0.0, 0.6, false);
        QCOMPARE(u.hidden, 2);
        QVERIFY(near(u.end_s, 1.15));
        QVERIFY(u.buckets.empty()); // not kept when not asked for
    }

    void bucketsWithoutOverlap()
    {
        // overlap_grad_reduce = false: every bucket waits for the backward's end, G exposed.
        const BucketChain c = bucketChain({0.4, 0.1, 4, false}, 0.0, 2.0, true);
        QCOMPARE(c.hidden, 0);
        QVERIFY(near(c.end_s, 2.4));
        QVERIFY(near(c.buckets[0].start_s, 2.0));
        // One bucket holds everything: it is ready only when the backward ends.
        const BucketChain one = bucketChain({0.4, 0.0, 1, true}, 0.0, 2.0, false);
        QCOMPARE(one.hidden, 0);
        QVERIFY(near(one.end_s, 2.4));
    }

    void timelineDrawsEachBucket()
    {
        // Llama 2 7B, DP 8: Megatron's bucket is max(40 M, 1 M·8) = 40 M parameters, so the
        // 6.74 G parameters go out in ⌈6,738,415,616 / 40 M⌉ = 169 reduce-scatter calls.
        const Estimate e = evaluate(dataParallel7b());
        QVERIFY(!e.hasErrors());
        QCOMPARE(e.time.grad_buckets, 169);
        const std::vector<TimedOp> buckets = laneOps(e, OpType::ReduceScatter, true); // ZeRO-1 reduce-scatters
        QCOMPARE(int(buckets.size()), 169);
        // The rank's last backward, from which the buckets are ready in turn.
        double last_b_start = 0, last_b_end = 0;
        for (const TimedOp& op : e.timeline.timeline.ops)
            if (op.rank == 0 && !op.comm_lane && op.type == OpType::B && op.start_s >= last_b_start) {
                last_b_start = op.start_s;
                last_b_end = op.end_s;
            }
        const double D = last_b_end - last_b_start;
        int hidden = 0;
        for (std::size_t i = 0; i < buckets.size(); ++i) {
            const double ready = last_b_start + D * double(i + 1) / 169.0;
            const double lane_free = i ? buckets[i - 1].end_s : last_b_start;
            QVERIFY(near(buckets[i].start_s, std::max(ready, lane_free), 1e-9));
            QCOMPARE(buckets[i].bucket, int(i));
            hidden += buckets[i].end_s <= last_b_end + 1e-9 ? 1 : 0;
        }
        QCOMPARE(e.time.grad_buckets_hidden, hidden);
        QVERIFY(hidden > 0 && hidden < 169); // the last bucket never hides
        const Term* t = findTerm(e.time.terms, "time.grad_buckets");
        QVERIFY(t && t->value == 169);
    }

    void smallerBucketsHideMore()
    {
        // --set parallel.grad_bucket_mparams=1000: 7 buckets (⌈6,738 / 1000⌉), a 1 G-parameter
        // last bucket that cannot hide; =10: 674 smaller ones. The step with the big buckets is
        // longer by at least the difference of their last buckets' exposed time.
        Scenario big = dataParallel7b(), small = dataParallel7b();
        std::string why;
        QVERIFY2(applyKnobAssignment(big, "parallel.grad_bucket_mparams=1000", why), why.c_str());
        QVERIFY2(applyKnobAssignment(small, "parallel.grad_bucket_mparams=10", why), why.c_str());
        const Estimate b = evaluate(big), s = evaluate(small);
        QCOMPARE(b.time.grad_buckets, 7);
        QCOMPARE(s.time.grad_buckets, 674);
        QVERIFY(b.time.last_bucket_s > 50 * s.time.last_bucket_s);
        QVERIFY(b.time.step_s > s.time.step_s);
        // Not overlapped (--set parallel.overlap_grad_reduce=0): nothing hides.
        QVERIFY2(applyKnobAssignment(small, "parallel.overlap_grad_reduce=0", why), why.c_str());
        const Estimate n = evaluate(small);
        QCOMPARE(n.time.grad_buckets_hidden, 0);
        QVERIFY(n.time.step_s > s.time.step_s);
    }

    void closedFormAgreesWithTheChain()
    {
        // The closed form (used beyond what the simulation can run) ends the same chain: with the
        // reduction overlapped, exposed = max(L, G + D/n − D) with D the backward share of a
        // microbatch; the same hidden count as bucketChain over [0, D].
        Scenario sc = dataParallel7b();
        EvaluateOptions closed;
        closed.simulate = false;
        const Estimate c = evaluate(sc, closed), s = evaluate(sc);
        QCOMPARE(c.time.grad_buckets, s.time.grad_buckets);
        QVERIFY(c.time.grad_buckets_hidden > 0);
        QVERIFY(near(c.time.last_bucket_s, s.time.last_bucket_s, 1e-12));
        QVERIFY(std::abs(c.time.step_s / s.time.step_s - 1) < 0.02);
    }

    void prefetchDepthCostsMemoryNotTime()
    {
        // ZeRO-3 on 8 GPUs: the layer computed and `prefetch` layers ahead are unsharded,
        // (1 + d)·layer·2 bytes (layer = 4h² + 3h·f + 2h = 202,383,360 parameters).
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 8);
        sc.training.global_batch = 32;
        sc.parallel.zero = 3;
        const double layer = 4.0 * 4096 * 4096 + 3.0 * 4096 * 11008 + 2 * 4096;
        std::string why;
        const Estimate one = evaluate(sc);
        QVERIFY(applyKnobAssignment(sc, "parallel.zero3_prefetch=2", why));
        const Estimate two = evaluate(sc);
        QVERIFY(applyKnobAssignment(sc, "parallel.zero3_prefetch=0", why));
        const Estimate none = evaluate(sc);
        QCOMPARE(memoryTerm(one.memory.stages[0], "other.zero3_gather").value, 2 * layer * 2);
        QCOMPARE(memoryTerm(two.memory.stages[0], "other.zero3_gather").value, 3 * layer * 2);
        QCOMPARE(memoryTerm(none.memory.stages[0], "other.zero3_gather").value, 1 * layer * 2);
        // Alike layers: a second layer ahead hides nothing more, so the step is the same; with
        // none ahead each gather waits in full, so the step grows by the hidden part.
        QCOMPARE(two.time.step_s, one.time.step_s);
        QVERIFY(none.time.step_s > one.time.step_s);
        // On the communication lane: one all-gather beside each forward, as long as the
        // forward's gather; without prefetch the whole gather is inside the forward's exposed part.
        const std::vector<TimedOp> gathers = laneOps(none, OpType::AllGather, false);
        const TimedOp* forward = nullptr;
        for (const TimedOp& op : none.timeline.timeline.ops)
            if (op.rank == 0 && !op.comm_lane && op.type == OpType::F && !forward)
                forward = &op;
        QVERIFY(forward && !gathers.empty());
        QCOMPARE(gathers.front().start_s, forward->start_s);
        QCOMPARE(gathers.front().microbatch, forward->microbatch);
        QVERIFY(forward->comm_s >= gathers.front().end_s - gathers.front().start_s - 1e-12);
    }

    void prefetchInTheScenarioFile()
    {
        // Written only when not the default, read back unchanged; out of range is an error.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 8);
        sc.parallel.zero3_prefetch = 3;
        const nlohmann::json j = scenarioToJson(sc);
        QCOMPARE(j["parallel"]["zero3_prefetch"].get<int>(), 3);
        QCOMPARE(scenarioFromJson(j.dump()).parallel.zero3_prefetch, 3);
        QVERIFY(!scenarioToJson(presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 8))["parallel"].contains(
            "zero3_prefetch"));
        std::string why;
        QVERIFY(!applyKnobAssignment(sc, "parallel.zero3_prefetch=65", why));
        QVERIFY(why.find("outside") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TstOverlapDetail)
#include "tst_overlap_detail.moc"
