// Benchmarks of the engine (label "bench"; not part of the default test run):
//   ctest --preset dev -L bench -V      or      build/dev/tests/bench_evaluate
// Figures go into the README; nothing here asserts a time.

#include "search/search.h"

#include <algorithm>
#include "scenario_fixture.h"

using namespace parascope;
using namespace parascope::test;

class BenchEvaluate : public QObject {
    Q_OBJECT

    static void searchModes()
    {
        QTest::addColumn<bool>("simulate");
        QTest::newRow("closed-form step") << false;
        QTest::newRow("simulated step") << true;
    }

    // Runs the whole search (enumeration, evaluation on every core, ranking, Pareto, cells) five
    // times and reports the median: configurations per second and the total.
    static void reportSearch(const char* what, const Scenario& sc, std::int64_t gpus)
    {
        QFETCH(bool, simulate);
        SearchOptions o;
        o.gpus = gpus;
        o.simulate = simulate;
        std::vector<double> seconds;
        SearchResult r;
        for (int i = 0; i < 5; ++i) {
            r = searchStrategies(sc, o);
            seconds.push_back(r.seconds);
        }
        std::sort(seconds.begin(), seconds.end());
        const double median = seconds[seconds.size() / 2];
        qInfo("%s on %lld GPUs: %zu configurations in %.1f ms (median of 5) = %.0f configurations/s (%s); %zu fit",
              what, (long long)gpus, r.evaluated, median * 1e3, double(r.evaluated) / median,
              simulate ? "simulated" : "closed form", r.fitting);
        QVERIFY(r.evaluated > 0);
    }

private slots:
    void evaluateDefault()
    {
        // Llama-2 70B, TP 8 × PP 8 × DP 8, 64 microbatches, 1F1B (the README's scenario).
        const Scenario sc = scenarioFromFile("../../resources/scenarios/default.parascope.json");
        QBENCHMARK
        {
            const Estimate e = evaluate(sc);
            QVERIFY(e.memory.fits);
        }
    }

    void evaluate405bOn16kGpus_data()
    {
        QTest::addColumn<bool>("record");
        QTest::newRow("with timeline") << true;
        QTest::newRow("numbers only") << false;
    }

    void evaluate405bOn16kGpus()
    {
        // Llama-3.1 405B on 16,384 H100: TP 8 × PP 16 × DP 128, interleaved VPP 8, 128
        // microbatches (global batch 16,384 × micro batch 1): memory + the full simulation
        // (16 ranks × 8 chunks × 128 microbatches × F/B = 32,768 compute ops + sends).
        Scenario sc = presetScenario("llama3.1-405b", "dgx-h100", 8, 16, 128);
        sc.parallel.sequence_parallel = true;
        sc.parallel.zero = 1;
        sc.parallel.schedule = ScheduleKind::Interleaved;
        sc.parallel.vpp = 8;
        sc.training.seq_len = 8192;
        sc.training.global_batch = 16384;
        QFETCH(bool, record);
        EvaluateOptions opt;
        opt.record_timeline = record;
        // All 128 microbatches are simulated either way (the step time does not depend on the
        // timeline being asked for); with the timeline, its 65,328 ops are more than the 50,000 a
        // timeline keeps, so the first 96 microbatches are simulated once more for drawing.
        QBENCHMARK
        {
            const Estimate e = evaluate(sc, opt);
            QCOMPARE(e.time.method, std::string("simulated"));
            QCOMPARE(e.timeline.microbatches_shown, record ? 96LL : 128LL);
        }
    }

    void parseAndEvaluateFile()
    {
        const std::string file = std::string(PARASCOPE_SOURCE_DIR) + "/resources/scenarios/default.parascope.json";
        QBENCHMARK
        {
            std::vector<InputError> errors;
            const auto sc = readScenarioFile(file, errors);
            QVERIFY(sc);
            const Estimate e = evaluate(*sc);
            QVERIFY(!e.communication.empty());
        }
    }

    void searchTuring530b_data() { searchModes(); }

    void searchTuring530b()
    {
        // The reference point: Turing-530B (105 layers, h 20480, 128 heads, seq 2048) on
        // about 5,000 A100-80GB, global batch 2,520. Configurations per second.
        Scenario sc = presetScenario("megatron-gpt-530b", "dgx-a100-80g", 8, 1, 1);
        sc.training.seq_len = 2048;
        sc.training.global_batch = 2520;
        // 5,128 = 8·641 leaves no split of 105 layers and a batch of 2,520 that uses every GPU
        // (the reference tool also counts layouts on fewer GPUs); 5,040 = 8·35·18 is the nearest
        // count with exact layouts.
        reportSearch("Turing-530B", sc, 5040);
    }

    void searchLlama405bOn16kGpus_data() { searchModes(); }

    void searchLlama405bOn16kGpus()
    {
        // The second target: the full space for Llama-3.1 405B (126 layers) on 16,384
        // H100, seq 8,192, global batch 2,048 (Llama 3 paper, stage 1).
        Scenario sc = presetScenario("llama3.1-405b", "dgx-h100", 8, 16, 128);
        sc.training.seq_len = 8192;
        sc.training.global_batch = 2048;
        reportSearch("Llama-3.1 405B", sc, 16384);
    }

    void hugePipeline()
    {
        // Bounded work: PP = 10,000 stages of a 10,000-layer model, 10⁶ microbatches.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 10000, 1);
        sc.model.layers = 10000;
        sc.training.global_batch = 1000000;
        QBENCHMARK
        {
            const Estimate e = evaluate(sc);
            QCOMPARE(e.memory.stages.size(), std::size_t(10000));
        }
    }
};

QTEST_GUILESS_MAIN(BenchEvaluate)
#include "bench_evaluate.moc"
