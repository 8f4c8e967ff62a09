// Search: the ranking is a brute force over evaluate() (same code path, so every row equals a
// full evaluation), results do not depend on the thread count, the bounds hold, and the
// helpers answer hand-checked cases.

#include "search/search.h"
#include "types/knobs.h"
#include "scenario_fixture.h"

#include <algorithm>
#include <cmath>
#include <set>

using namespace parascope;
using namespace parascope::test;

class TstSearch : public QObject {
    Q_OBJECT

    // Llama-2 7B on one node of 8 A100-80GB, 8 sequences of 4096 per step.
    static Scenario small()
    {
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 8);
        sc.training.global_batch = 8;
        return sc;
    }

private slots:
    void boundsHold()
    {
        SearchOptions o;
        const auto all = enumerateStrategies(small(), o);
        QVERIFY(all.size() > 50);
        for (const Strategy& s : all) {
            const ParallelConfig& p = s.parallel;
            QCOMPARE(p.gpus(), std::int64_t(8));
            QVERIFY(p.tp <= 8); // TP inside the node
            QCOMPARE(32 % p.tp, 0); // Llama-2 7B: 32 heads (and 32 KV heads) divide by TP
            QVERIFY(p.pp <= 32); // at least one of the 32 layers per stage
            QCOMPARE(s.training.global_batch % (s.training.micro_batch * p.dp), 0LL); // the batch divides
        }
    }

    // Llama-2 7B on one A100: its three layouts (micro batch 1, 2, 4… of one sequence: here the
    // enumerated ones) break no rule but all run out of memory. The search said "0 valid" and
    // blamed the batch ("global batch 1 must be a multiple of micro batch × DP"), which 1 × 1
    // is; it now counts them valid and says that memory rules them out, and what would help.
    void everyLayoutOutOfMemorySaysSo()
    {
        const Scenario sc = sevenBOnOneGpu();
        SearchOptions o;
        o.threads = 1;
        const SearchResult r = searchStrategies(sc, o);
        QVERIFY(r.enumerated >= 1);
        QCOMPARE(r.valid, r.enumerated);
        QCOMPARE(r.fitting, std::size_t(0));
        const EmptySearchReason why = explainEmptySearch(sc, o, r);
        QVERIFY2(why.text.en.rfind("Every valid layout of 1 GPU runs out of memory", 0) == 0, why.text.en.c_str());
        QVERIFY(why.text.en.find("CPU offload") != std::string::npos);
        QVERIFY(why.text.zh.find("CPU 卸载") != std::string::npos);
        QVERIFY(why.nearest.empty());
    }

    void enumerationDrawsFromTheKnobTable()
    {
        // Every searched TP, PP, CP, EP and ZeRO value is one the knob table offers for the scenario
        // (a slider could reach it), and every offered PP that divides the GPUs is searched.
        const Scenario base = small();
        const auto offered = [&](const char* path, long long v) {
            const std::vector<long long> o = findKnob(path)->offered(base);
            return std::find(o.begin(), o.end(), v) != o.end();
        };
        std::set<int> pps;
        for (const Strategy& s : enumerateStrategies(base, SearchOptions{})) {
            const ParallelConfig& p = s.parallel;
            QVERIFY(offered("parallel.tp", p.tp) && offered("parallel.pp", p.pp) && offered("parallel.cp", p.cp));
            QVERIFY(offered("parallel.ep", p.ep) && offered("parallel.zero", p.zero));
            pps.insert(p.pp);
        }
        QCOMPARE(pps, (std::set<int>{1, 2, 4, 8}));
    }

    void rowsEqualFullEvaluations()
    {
        SearchOptions o;
        o.top = 5;
        const SearchResult r = searchStrategies(small(), o);
        QVERIFY(!r.top.empty());
        QCOMPARE(r.evaluated, r.enumerated);
        // The best row is the brute-force maximum of tokens/s over every fitting candidate.
        double best = 0;
        EvaluateOptions eo;
        eo.record_timeline = false;
        for (const Strategy& s : enumerateStrategies(small(), o)) {
            const Estimate e = evaluate(applyStrategy(small(), s), eo);
            if (!e.hasErrors() && e.memory.fits)
                best = std::max(best, e.throughput.tokens_per_s);
        }
        // Ties (1e-9 relative) may rank a row of equal throughput and less memory first.
        QVERIFY(std::fabs(r.top.front().tokens_per_s - best) <= 1e-9 * best);
        for (const SearchRow& row : r.top) {
            const Estimate e = evaluate(applyRow(small(), row), eo);
            QCOMPARE(row.step_s, e.time.step_s);
            QCOMPARE(row.peak_bytes, e.memory.peak_bytes);
            QVERIFY(e.memory.fits && !e.hasErrors());
        }
        for (std::size_t i = 1; i < r.top.size(); ++i)
            QVERIFY(r.top[i - 1].tokens_per_s >= r.top[i].tokens_per_s * (1 - 1e-9));
        // Pareto: along increasing memory, the step time strictly falls.
        for (std::size_t i = 1; i < r.pareto.size(); ++i) {
            QVERIFY(r.pareto[i - 1].peak_bytes <= r.pareto[i].peak_bytes);
            QVERIFY(r.pareto[i - 1].step_s > r.pareto[i].step_s);
        }
    }

    void tiesGoToLessMemoryThenTheSimplerLayout()
    {
        // A hand-made tie: three layouts of 8 GPUs with the same step, 2.0 s, so the same tokens/s
        // (8 sequences × 4096 tokens / 2 s = 16384 tokens/s; the third 1e-12 faster, float noise).
        // Enumerated first, "heavy" (TP 2 · DP 4, 60 GiB) used to take the star though "light"
        // (TP 2 · PP 2 · DP 2, 40 GiB) is as fast with less memory: heavy is dominated.
        const auto row = [](std::size_t index, int tp, int pp, int dp, double tokens, double gib) {
            SearchRow r;
            r.index = index;
            r.parallel.tp = tp;
            r.parallel.pp = pp;
            r.parallel.dp = dp;
            r.step_s = 8 * 4096 / tokens;
            r.tokens_per_s = tokens;
            r.peak_bytes = gib * GiB;
            r.fits = true;
            return r;
        };
        const SearchRow heavy = row(0, 2, 1, 4, 16384, 60), light = row(1, 2, 2, 2, 16384 * (1 + 1e-12), 40),
                        slower = row(2, 8, 1, 1, 16000, 20), twin = row(3, 1, 2, 4, 16384, 40);
        std::vector<SearchRow> rows{heavy, light, slower, twin};
        rankRows(rows);
        // 40 GiB beats 60 GiB; of the two 40 GiB rows on 8 GPUs, TP 1 · PP 2 (one parallel
        // dimension in use) is simpler than TP 2 · PP 2 (two); the slower row stays last whatever
        // its memory (a tie-break never outranks throughput).
        QCOMPARE(rows[0].index, std::size_t(3));
        QCOMPARE(rows[1].index, std::size_t(1));
        QCOMPARE(rows[2].index, std::size_t(0));
        QCOMPARE(rows[3].index, std::size_t(2));
        QVERIFY(winsTie(light, heavy) && !winsTie(heavy, light));
        // Equal memory and layout width: fewer GPUs first, then the enumeration order.
        SearchRow wide = row(4, 1, 2, 8, 16384, 40);
        QVERIFY(winsTie(twin, wide) && !winsTie(wide, twin));
        SearchRow same = twin;
        same.index = 9;
        QVERIFY(winsTie(twin, same) && !winsTie(same, twin));
        // ZeRO-1 and plain 1F1B are simpler than ZeRO-1 with an interleaved schedule.
        SearchRow plain = twin, interleaved = twin;
        interleaved.index = 0;
        interleaved.parallel.schedule = ScheduleKind::Interleaved;
        interleaved.parallel.vpp = 2;
        QVERIFY(winsTie(plain, interleaved));
    }

    void theBestRowIsOnTheParetoFront()
    {
        // The search itself: the best row (the star) is never dominated — it is on the Pareto
        // front, and no row tied with it needs less memory. Llama-2 7B on 8 GPUs and 70B on 64.
        for (const auto& [model, gpus] : {std::pair{"llama2-7b", 8}, std::pair{"llama2-70b", 64}}) {
            Scenario sc = presetScenario(model, "dgx-a100-80g", 1, 1, gpus);
            sc.training.global_batch = 64;
            SearchOptions o;
            o.top = 100000;
            o.simulate = false;
            const SearchResult r = searchStrategies(sc, o);
            QVERIFY(!r.top.empty());
            const SearchRow& best = r.top.front();
            QVERIFY(std::any_of(r.pareto.begin(), r.pareto.end(),
                                [&](const SearchRow& p) { return p.index == best.index; }));
            for (const SearchRow& row : r.top)
                if (std::fabs(row.tokens_per_s - best.tokens_per_s) <= 1e-9 * best.tokens_per_s)
                    QVERIFY(std::llround(row.peak_bytes) >= std::llround(best.peak_bytes));
        }
    }

    void extrapolatedRowsMatchTheFullSimulation()
    {
        // A search simulates at most 5,000 ops per candidate and extrapolates the steady state
        // beyond (bounded work); the full evaluation simulates up to 400,000. The pipeline's
        // steady state is periodic, so both agree: here 512 microbatches per pipeline.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 8);
        sc.training.global_batch = 4096;
        SearchOptions o;
        o.top = 8;
        o.micro_batches = {1};
        const SearchResult r = searchStrategies(sc, o);
        QVERIFY(r.top.size() >= 4);
        EvaluateOptions full;
        full.record_timeline = false;
        int extrapolated = 0;
        for (const SearchRow& row : r.top) {
            const Estimate e = evaluate(applyRow(sc, row), full);
            QVERIFY2(std::fabs(row.step_s / e.time.step_s - 1) < 1e-9,
                     qPrintable(QStringLiteral("TP %1 PP %2: %3 vs %4")
                                    .arg(row.parallel.tp)
                                    .arg(row.parallel.pp)
                                    .arg(row.step_s, 0, 'g', 12)
                                    .arg(e.time.step_s, 0, 'g', 12)));
            QCOMPARE(row.peak_bytes, e.memory.peak_bytes);
            EvaluateOptions bounded = full;
            bounded.max_simulated_ops = o.max_simulated_ops;
            extrapolated += evaluate(applyRow(sc, row), bounded).time.method == "simulated (extrapolated)" ? 1 : 0;
        }
        QVERIFY(extrapolated > 0); // the case does exercise the extrapolation
    }

    void tpPpCells()
    {
        // One cell per (TP, PP) enumerated; its best step is the fastest fitting strategy with
        // that TP and PP.
        SearchOptions o;
        o.top = 100000;
        const SearchResult r = searchStrategies(small(), o);
        std::set<std::pair<int, int>> pairs;
        for (const Strategy& s : enumerateStrategies(small(), o))
            pairs.insert({s.parallel.tp, s.parallel.pp});
        QCOMPARE(r.cells.size(), pairs.size());
        for (const SearchCell& c : r.cells) {
            double best = 0;
            for (const SearchRow& row : r.top)
                if (row.parallel.tp == c.tp && row.parallel.pp == c.pp && (best == 0 || row.step_s < best))
                    best = row.step_s;
            QCOMPARE(c.fits, best > 0);
            if (c.fits) {
                QCOMPARE(c.best_step_s, best);
                QVERIFY(c.valid && c.best_tokens_per_s > 0);
            }
        }
        // A cell is valid when some strategy with its TP and PP breaks no rule but memory (the
        // heatmap marks it OOM when none of those fits, "no valid layout" otherwise).
        EvaluateOptions eo;
        eo.record_timeline = false;
        eo.explain = Explain::NumbersOnly;
        std::set<std::pair<int, int>> valid;
        for (const Strategy& s : enumerateStrategies(small(), o)) {
            const Estimate e = evaluate(applyStrategy(small(), s), eo);
            if (std::none_of(e.diagnostics.begin(), e.diagnostics.end(), [](const Diagnostic& d) {
                    return d.severity == Severity::Error && d.code != "out_of_memory";
                }))
                valid.insert({s.parallel.tp, s.parallel.pp});
        }
        for (const SearchCell& c : r.cells)
            QCOMPARE(c.valid, valid.count({c.tp, c.pp}) == 1);
    }

    void cellsWhereNothingFitsAreStillValid()
    {
        // Llama-2 70B on 8 GPUs: nothing fits (see nothingFitsWhenStatesDoNot), but TP 8 · PP 1 is
        // a valid layout that runs out of memory: its cell is valid, not fitting (OOM, not "—").
        Scenario sc = presetScenario("llama2-70b", "dgx-a100-80g", 1, 1, 8);
        sc.training.global_batch = 8;
        SearchOptions o;
        o.simulate = false;
        const SearchResult r = searchStrategies(sc, o);
        QVERIFY(!r.cells.empty());
        for (const SearchCell& c : r.cells)
            QVERIFY(!c.fits);
        const auto tp8
            = std::find_if(r.cells.begin(), r.cells.end(), [](const SearchCell& c) { return c.tp == 8 && c.pp == 1; });
        QVERIFY(tp8 != r.cells.end() && tp8->valid);
    }

    void numbersOnlyEqualsExplained_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<bool>("simulate");
        QTest::newRow("7B on 8, simulated") << "llama2-7b" << 8 << true;
        QTest::newRow("7B on 8, closed form") << "llama2-7b" << 8 << false;
        QTest::newRow("70B on 8 (out of memory)") << "llama2-70b" << 8 << false;
        QTest::newRow("Mixtral on 16 (MoE, EP)") << "mixtral-8x7b" << 16 << false;
    }

    void numbersOnlyEqualsExplained()
    {
        // The search evaluates with Explain::NumbersOnly (no Term strings, no out-of-memory
        // remedies). Every number, and every diagnostic code, must equal the explained
        // evaluation of the same strategy.
        QFETCH(QString, model);
        QFETCH(int, gpus);
        QFETCH(bool, simulate);
        Scenario base = presetScenario(model.toStdString(), "dgx-a100-80g", 1, 1, gpus);
        base.training.global_batch = 32;
        SearchOptions o;
        EvaluateOptions full, fast;
        full.record_timeline = fast.record_timeline = false;
        full.simulate = fast.simulate = simulate;
        fast.explain = Explain::NumbersOnly;
        const std::vector<Strategy> all = enumerateStrategies(base, o);
        QVERIFY(all.size() > 20);
        for (const Strategy& s : all) {
            const Scenario sc = applyStrategy(base, s);
            const Estimate a = evaluate(sc, full), b = evaluate(sc, fast);
            QCOMPARE(b.memory.peak_bytes, a.memory.peak_bytes);
            QCOMPARE(b.memory.fits, a.memory.fits);
            QCOMPARE(b.memory.stages.size(), a.memory.stages.size());
            for (std::size_t i = 0; i < a.memory.stages.size(); ++i) {
                const StageMemory &x = a.memory.stages[i], &y = b.memory.stages[i];
                QCOMPARE(y.weights, x.weights);
                QCOMPARE(y.gradients, x.gradients);
                QCOMPARE(y.optimizer, x.optimizer);
                QCOMPARE(y.activations, x.activations);
                QCOMPARE(y.other, x.other);
                QVERIFY(y.terms.empty() && !x.terms.empty());
            }
            QCOMPARE(b.communication.size(), a.communication.size());
            for (std::size_t i = 0; i < a.communication.size(); ++i) {
                QCOMPARE(b.communication[i].time_s, a.communication[i].time_s);
                QCOMPARE(b.communication[i].exposed_s, a.communication[i].exposed_s);
                QCOMPARE(b.communication[i].bytes_per_gpu_per_step, a.communication[i].bytes_per_gpu_per_step);
            }
            QCOMPARE(b.time.step_s, a.time.step_s);
            QCOMPARE(b.time.bubble_fraction, a.time.bubble_fraction);
            QCOMPARE(b.time.exposed_comm_s, a.time.exposed_comm_s);
            QCOMPARE(b.throughput.tokens_per_s, a.throughput.tokens_per_s);
            QCOMPARE(b.throughput.mfu, a.throughput.mfu);
            QCOMPARE(b.flops.hardware_flops_per_step, a.flops.hardware_flops_per_step);
            QCOMPARE(b.params.total, a.params.total);
            QCOMPARE(b.diagnostics.size(), a.diagnostics.size());
            for (std::size_t i = 0; i < a.diagnostics.size(); ++i) {
                QCOMPARE(b.diagnostics[i].code, a.diagnostics[i].code);
                QCOMPARE(b.diagnostics[i].severity, a.diagnostics[i].severity);
            }
        }
    }

    void deterministicAcrossThreadCounts()
    {
        SearchOptions one, two;
        one.threads = 1;
        two.threads = 2;
        one.top = two.top = 20;
        const SearchResult a = searchStrategies(small(), one), b = searchStrategies(small(), two);
        QCOMPARE(a.top.size(), b.top.size());
        for (std::size_t i = 0; i < a.top.size(); ++i) {
            QCOMPARE(a.top[i].index, b.top[i].index);
            QCOMPARE(a.top[i].tokens_per_s, b.top[i].tokens_per_s);
        }
        QCOMPARE(a.pareto.size(), b.pareto.size());
        QCOMPARE(a.fitting, b.fitting);
    }

    void nothingFitsWhenStatesDoNot()
    {
        // Llama-2 70B on 8 A100-80GB: 68.98e9 × 16 B = 1.10 TB of model states; even split
        // eight ways (ZeRO-3 or TP·PP) that is 138 GB per GPU > 80 GiB.
        Scenario sc = presetScenario("llama2-70b", "dgx-a100-80g", 1, 1, 8);
        sc.training.global_batch = 8;
        SearchOptions o;
        o.simulate = false;
        const SearchResult r = searchStrategies(sc, o);
        QVERIFY(r.enumerated > 0);
        QVERIFY(r.top.empty());
        QCOMPARE(r.fitting, std::size_t(0));
    }

    void cancel()
    {
        SearchOptions o;
        o.threads = 1;
        o.progress = [](std::size_t done, std::size_t) { return done < 10; };
        const SearchResult r = searchStrategies(small(), o);
        QVERIFY(r.cancelled);
        QVERIFY(r.evaluated < r.enumerated);
    }

    void largestMicroBatch()
    {
        // Llama-2 7B, TP 8 + SP, selective recompute: the largest power-of-two micro batch that
        // fits, and twice that does not.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 8, 1, 1);
        sc.parallel.sequence_parallel = true;
        sc.training.global_batch = 64;
        const long long mb = largestFittingMicroBatch(sc);
        QVERIFY(mb >= 1);
        Scenario bigger = sc;
        bigger.training.micro_batch = mb * 2;
        bigger.training.global_batch = std::max<long long>(64, mb * 2);
        QVERIFY(mb == 1024 || !evaluate(bigger).memory.fits);
    }

    void fewestGpusForThirteenB()
    {
        // Llama-2 13B at 16 B/param = 208 GB of model states: on 2 GPUs any split leaves 104 GB
        // per GPU (> 80 GiB); on 4, 52 GB + activations fit.
        Scenario sc = presetScenario("llama2-13b", "dgx-a100-80g", 1, 1, 1);
        sc.training.global_batch = 8;
        QCOMPARE(fewestGpus(sc, 64).gpus, std::int64_t(4));
    }
};

QTEST_GUILESS_MAIN(TstSearch)
#include "tst_search.moc"
