// Sweep: every point equals a single evaluation of that value, invalid points stay on the axis
// with their reason, and the breaking points are found and named on constructed cases.

#include "types/knobs.h"
#include "search/sweep.h"
#include "scenario_fixture.h"

using namespace parascope;
using namespace parascope::test;

class TstSweep : public QObject {
    Q_OBJECT

    // Llama-2 7B (32 layers) on one pipeline, 16 microbatches.
    static Scenario base()
    {
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 1);
        sc.training.global_batch = 16;
        return sc;
    }

    static const BreakingPoint* findBreak(const SweepResult& r, const std::string& code)
    {
        for (const BreakingPoint& b : r.breaks)
            if (b.code == code)
                return &b;
        return nullptr;
    }

private slots:
    void pointsEqualSingleEvaluations()
    {
        const SweepResult r = sweep(base(), "parallel.pp", {1, 2, 4, 8});
        QCOMPARE(r.points.size(), std::size_t(4));
        for (const SweepPoint& p : r.points) {
            Scenario sc = base();
            sc.parallel.pp = int(p.value);
            const Estimate e = evaluate(sc);
            QCOMPARE(p.step_s, e.time.step_s);
            QCOMPARE(p.peak_bytes, e.memory.peak_bytes);
            QCOMPARE(p.mfu, e.throughput.mfu);
            QCOMPARE(p.stage_bytes.size(), e.memory.stages.size());
            QCOMPARE(p.valid, !e.hasErrors());
        }
    }

    void breakingPoints()
    {
        // PP 1 … 64 on 32 layers with 16 microbatches:
        //   PP = 1: 6.74e9 params × 16 B = 108 GB > 80 GiB → out_of_memory (gone from PP = 2);
        //   PP = 32 > 16 microbatches → microbatches_lt_pp;  PP = 64 > 32 layers → pp_exceeds_layers.
        const SweepResult r = sweep(base(), "parallel.pp", {1, 2, 4, 8, 16, 32, 64});
        const BreakingPoint* oom = findBreak(r, "out_of_memory");
        QVERIFY(oom);
        QCOMPARE(oom->value, 1LL);
        QVERIFY(oom->message.en.find("at PP = 1") == 0);
        QVERIFY(r.points[1].valid); // PP = 2 fits
        const BreakingPoint* lt = findBreak(r, "microbatches_lt_pp");
        QVERIFY(lt);
        QCOMPARE(lt->value, 32LL);
        QVERIFY(lt->message.en.find("from PP = 32") == 0);
        QVERIFY(lt->message.zh.find("自 PP = 32 起") == 0);
        const BreakingPoint* layers = findBreak(r, "pp_exceeds_layers");
        QVERIFY(layers);
        QCOMPARE(layers->value, 64LL);
        QVERIFY(!r.points.back().valid);
    }

    void tensorParallelOomBoundary()
    {
        // Llama-2 13B, no ZeRO, DP 1: TP 1, 2 run out of memory; from TP = 4 it fits
        // (13.0e9 × 16 B / 4 ≈ 52 GB + activations < 80 GiB).
        Scenario sc = presetScenario("llama2-13b", "dgx-a100-80g", 1, 1, 1);
        sc.training.global_batch = 8;
        const SweepResult r = sweep(sc, "parallel.tp", {1, 2, 4, 8});
        QVERIFY(!r.points[0].valid && !r.points[1].valid);
        QVERIFY(r.points[2].valid && r.points[3].valid);
        QVERIFY(r.points[1].peak_bytes > r.points[1].capacity_bytes);
        QVERIFY(r.points[2].peak_bytes <= r.points[2].capacity_bytes);
    }

    void invalidValuesStayOnTheAxis()
    {
        Scenario two_stages = base();
        two_stages.parallel.pp = 2; // fits at TP 1
        const SweepResult r = sweep(two_stages, "parallel.tp", {0, 1});
        QCOMPARE(r.points.size(), std::size_t(2));
        QVERIFY(!r.points[0].valid);
        QCOMPARE(r.points[0].diagnostics.front().code, std::string("sweep_value_invalid"));
        QVERIFY(r.points[1].valid);
        std::string why;
        Scenario sc = base();
        QVERIFY(!applyKnob(sc, "model.hidden", 1, why));
        QVERIFY(why.find("no knob \"model.hidden\"") != std::string::npos);
        sc.parallel.tp = 2;
        QVERIFY(!applyKnob(sc, "gpus", 3, why)); // not a multiple of tp·pp·cp = 2
        QVERIFY(why.find("not a multiple") != std::string::npos);
    }

    void gpuCountMovesDp()
    {
        // gpus = 8 with TP 2: DP = 4, keeping 16 microbatches per pipeline.
        Scenario sc = base();
        sc.parallel.tp = 2;
        const SweepResult r = sweep(sc, "gpus", {2, 8});
        QCOMPARE(r.points.size(), std::size_t(2));
        std::string why;
        QVERIFY(applyKnob(sc, "gpus", 8, why));
        QCOMPARE(sc.parallel.dp, 4);
        QCOMPARE(sc.microbatches(), 16LL);
    }
};

QTEST_GUILESS_MAIN(TstSweep)
#include "tst_sweep.moc"
