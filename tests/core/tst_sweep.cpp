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

    void whatElseChangesAlongTheAxis()
    {
        // PP keeps DP (types/knobs.h), so on TP 8 · DP 4 the GPU count is 8 · PP · 4:
        // PP 1, 2, 4, 8 → 32, 64, 128, 256 GPUs; DP and the global batch (64) stay.
        Scenario sc = base();
        sc.parallel.tp = 8;
        sc.parallel.dp = 4;
        sc.training.global_batch = 64;
        const SweepResult pp = sweep(sc, "parallel.pp", {1, 2, 4, 8});
        QCOMPARE(pp.points[0].gpus, std::int64_t(32));
        QCOMPARE(pp.points[3].gpus, std::int64_t(256));
        for (const SweepPoint& p : pp.points) {
            QCOMPARE(p.dp, 4);
            QCOMPARE(p.global_batch, 64LL);
            QCOMPARE(p.microbatches, 16LL); // 64 / (micro batch 1 · DP 4)
        }
        QCOMPARE(pp.changes.size(), std::size_t(1));
        QCOMPARE(pp.changes[0].what, std::string("gpus"));
        QCOMPARE(pp.changes[0].first, 32LL);
        QCOMPARE(pp.changes[0].last, 256LL);
        QCOMPARE(pp.changes_note.en,
                 std::string("Along this axis the GPU count changes from 32 to 256 (DP kept at 4)."));
        QCOMPARE(pp.changes_note.zh, std::string("沿此轴，GPU 数从 32 变为 256（DP 保持为 4）。"));

        // DP keeps the microbatch count (16), so the global batch follows: 16 · 1 · DP; and the GPUs.
        const SweepResult dp = sweep(sc, "parallel.dp", {1, 2, 4});
        QCOMPARE(dp.changes.size(), std::size_t(2));
        QCOMPARE(dp.points[0].global_batch, 16LL);
        QCOMPARE(dp.points[2].global_batch, 64LL);
        QCOMPARE(dp.changes_note.en,
                 std::string("Along this axis the GPU count changes from 8 to 32 and the global batch from 16 "
                             "to 64 (the microbatch count stays at 16)."));
        QCOMPARE(dp.changes_note.zh,
                 std::string("沿此轴，GPU 数从 8 变为 32，全局批大小从 16 变为 64（微批数保持为 16）。"));

        // The micro batch moves nothing else: the GPUs, DP and the global batch stay (the
        // microbatch count m = 64 / (micro batch · 4) is the point of that sweep, not a side effect).
        const SweepResult mb = sweep(sc, "training.micro_batch", {1, 2, 4});
        QVERIFY(mb.changes.empty());
        QVERIFY(mb.changes_note.en.empty() && mb.changes_note.zh.empty());
        QCOMPARE(mb.points[2].gpus, std::int64_t(32));
        QCOMPARE(mb.points[2].microbatches, 4LL);

        // A refused value ran no layout: no GPU count, and it does not count as a change.
        const SweepResult refused = sweep(sc, "gpus", {3, 32});
        QCOMPARE(refused.points[0].gpus, std::int64_t(0));
        QVERIFY(refused.changes.empty());
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
