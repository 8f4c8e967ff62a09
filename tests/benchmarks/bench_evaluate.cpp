// Benchmarks of the engine (label "bench"; not part of the default test run):
//   ctest --preset dev -L bench -V      or      build/dev/tests/bench_evaluate
// Figures go into the README; nothing here asserts a time.

#include "scenario_fixture.h"

using namespace parascope;
using namespace parascope::test;

class BenchEvaluate : public QObject {
    Q_OBJECT

private slots:
    void evaluateDefault()
    {
        const Scenario sc = scenarioFromFile("../../resources/scenarios/default.parascope.json");
        QBENCHMARK {
            const Estimate e = evaluate(sc);
            QVERIFY(e.memory.fits);
        }
    }

    void evaluate405bOn16kGpus()
    {
        // Llama-3.1 405B on 16,384 H100: TP 8, PP 16, DP 128, interleaved VPP 7 (126 layers ≠
        // multiple of 112, so diagnostics fire too — the engine still computes everything).
        Scenario sc = presetScenario("llama3.1-405b", "dgx-h100", 8, 16, 128);
        sc.parallel.sequence_parallel = true;
        sc.parallel.zero = 1;
        sc.training.seq_len = 8192;
        sc.training.global_batch = 2048;
        QBENCHMARK {
            const Estimate e = evaluate(sc);
            QCOMPARE(e.memory.stages.size(), std::size_t(16));
        }
    }

    void parseAndEvaluateFile()
    {
        const std::string file = std::string(PARASCOPE_SOURCE_DIR) + "/resources/scenarios/default.parascope.json";
        QBENCHMARK {
            std::vector<InputError> errors;
            const auto sc = readScenarioFile(file, errors);
            QVERIFY(sc);
            const Estimate e = evaluate(*sc);
            QVERIFY(!e.communication.empty());
        }
    }

    void hugePipeline()
    {
        // Bounded work: PP = 10,000 stages of a 10,000-layer model, 10⁶ microbatches.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 10000, 1);
        sc.model.layers = 10000;
        sc.training.global_batch = 1000000;
        QBENCHMARK {
            const Estimate e = evaluate(sc);
            QCOMPARE(e.memory.stages.size(), std::size_t(10000));
        }
    }
};

QTEST_GUILESS_MAIN(BenchEvaluate)
#include "bench_evaluate.moc"
