// Pipelines without a flush (issue 38 §4, time/async_pipeline.h): PipeDream's weight stashing
// and PipeDream-2BW's double-buffered weights beside 1F1B (PipeDream-Flush) — the bubble each
// removes, the weight versions each keeps, the updates each makes — derived by hand from the
// simulated ops.

#include "estimate/evaluate.h"
#include "io/scenario_json.h"
#include "time/async_pipeline.h"
#include "types/knobs.h"
#include "scenario_fixture.h"

#include <algorithm>

using namespace parascope;
using namespace parascope::test;

namespace {

bool near(double a, double b, double rel) { return std::abs(a - b) <= rel * std::abs(b); }

const Term& memoryTerm(const StageMemory& s, const char* name)
{
    const Term* t = findTerm(s.terms, name);
    if (!t)
        qFatal("stage %d has no term %s", s.stage, name);
    return *t;
}

// Llama 2 7B on TP 2 × PP 4, 16 microbatches of 1.
Scenario fourStages(AsyncPipeline a, int dp = 1)
{
    Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 2, 4, dp);
    sc.training.global_batch = 16 * dp;
    sc.parallel.zero = 0;
    sc.parallel.async_pipeline = a;
    return sc;
}

// The busiest rank's compute per microbatch, from its ops (F and B of the 16 microbatches).
double busiestPeriod(const Estimate& e)
{
    std::vector<double> busy(4, 0.0);
    for (const TimedOp& op : e.timeline.timeline.ops)
        if (!op.comm_lane && op.microbatch >= 0)
            busy[std::size_t(op.rank)] += op.end_s - op.start_s;
    return *std::max_element(busy.begin(), busy.end()) / 16.0;
}

double optimizerOp(const Estimate& e, int rank)
{
    for (const TimedOp& op : e.timeline.timeline.ops)
        if (op.rank == rank && op.type == OpType::Optimizer)
            return op.end_s - op.start_s;
    return 0;
}

} // namespace

class TstAsyncPipeline : public QObject {
    Q_OBJECT

private slots:
    void twoBwHasNoBubble()
    {
        // Without a flush the step is the steady state: m = 16 periods of the busiest rank, then
        // (DP = 1: no reduction) the optimizer. The flushed 1F1B step adds the fill and the drain.
        const Estimate flush = evaluate(fourStages(AsyncPipeline::Flush));
        const Estimate two = evaluate(fourStages(AsyncPipeline::TwoBw));
        QVERIFY(!flush.hasErrors() && !two.hasErrors());
        const double period = busiestPeriod(two);
        QVERIFY(near(two.time.step_s, 16 * period + optimizerOp(two, two.time.critical_rank), 1e-9));
        // What 2BW saves is the flushed step's bubble (the fill and the drain), to within the
        // exposed communication that moves between them (1 % here).
        QVERIFY(flush.time.bubble_s > 2 * period);
        QVERIFY(near(flush.time.step_s - two.time.step_s, flush.time.bubble_s, 0.05));
        QVERIFY(two.time.bubble_s < 1e-9 * two.time.step_s);
        QVERIFY(findTerm(two.time.terms, "time.async_pipeline"));
        QVERIFY(!two.timeline.note.empty()); // the timeline says it shows a flushed step's ops
        QVERIFY(two.has("async_pipeline_staleness"));
    }

    void twoBwKeepsTwoVersions()
    {
        // Double-buffered weights: each stage's weights twice, the extra copy as a term.
        const Estimate flush = evaluate(fourStages(AsyncPipeline::Flush));
        const Estimate two = evaluate(fourStages(AsyncPipeline::TwoBw));
        for (int s = 0; s < 4; ++s) {
            const StageMemory& f = flush.memory.stages[std::size_t(s)];
            const StageMemory& t = two.memory.stages[std::size_t(s)];
            QCOMPARE(t.weights, 2 * f.weights);
            QCOMPARE(memoryTerm(t, "weights.stashed_versions").value, f.weights);
            QCOMPARE(t.activations, f.activations); // the same microbatches in flight as 1F1B
        }
    }

    void pipeDreamStashesAVersionPerMicrobatchInFlight()
    {
        // 1F1B holds p − r microbatches on rank r (4, 3, 2, 1): PipeDream keeps as many weight
        // versions, so stage r's weights are (4 − r)× the flushed ones; staleness p − 1 − r.
        const Estimate flush = evaluate(fourStages(AsyncPipeline::Flush));
        const Estimate pd = evaluate(fourStages(AsyncPipeline::PipeDream));
        QVERIFY(!pd.hasErrors());
        for (int r = 0; r < 4; ++r) {
            QCOMPARE(pd.memory.stages[std::size_t(r)].weights, (4 - r) * flush.memory.stages[std::size_t(r)].weights);
            QCOMPARE(staleness(fourStages(AsyncPipeline::PipeDream).parallel, r), 3 - r);
            QCOMPARE(staleness(fourStages(AsyncPipeline::TwoBw).parallel, r), 1);
            QCOMPARE(staleness(fourStages(AsyncPipeline::Flush).parallel, r), 0);
        }
    }

    void pipeDreamUpdatesEveryMicrobatch()
    {
        // An update per microbatch: 16 optimizer steps a step, and with DP = 2 sixteen gradient
        // all-reduces of the same buckets (16× the calls and the time of one step's).
        const Estimate flush = evaluate(fourStages(AsyncPipeline::Flush, 2));
        const Estimate pd = evaluate(fourStages(AsyncPipeline::PipeDream, 2));
        QVERIFY(near(pd.time.optimizer_s, 16 * flush.time.optimizer_s, 1e-12));
        const auto reduce = [](const Estimate& e) {
            for (const CommEntry& c : e.communication)
                if (c.group == Group::Dp && c.purpose == Purpose::Gradients)
                    return c;
            return CommEntry{};
        };
        QCOMPARE(reduce(pd).calls_per_step, 16 * reduce(flush).calls_per_step);
        QVERIFY(near(reduce(pd).time_s, 16 * reduce(flush).time_s, 1e-12));
        // The buckets of one update, drawn once behind the last backward.
        QCOMPARE(pd.time.grad_buckets, flush.time.grad_buckets);
    }

    void closedFormHasNoBubbleEither()
    {
        Scenario sc = fourStages(AsyncPipeline::TwoBw);
        EvaluateOptions closed;
        closed.simulate = false;
        const Estimate c = evaluate(sc, closed), s = evaluate(sc);
        QCOMPARE(c.time.bubble_fraction, 0.0);
        QVERIFY(near(c.time.step_s, s.time.step_s, 0.02));
    }

    void fromSetAndTheFile()
    {
        Scenario sc = fourStages(AsyncPipeline::Flush);
        std::string why;
        QVERIFY2(applyKnobAssignment(sc, "parallel.async_pipeline=2bw", why), why.c_str());
        QCOMPARE(sc.parallel.async_pipeline, AsyncPipeline::TwoBw);
        const nlohmann::json j = scenarioToJson(sc);
        QCOMPARE(j["parallel"]["async_pipeline"].get<std::string>(), std::string("2bw"));
        QCOMPARE(scenarioFromJson(j.dump()).parallel.async_pipeline, AsyncPipeline::TwoBw);
        QVERIFY(!applyKnobAssignment(sc, "parallel.async_pipeline=gpipe", why));
    }
};

QTEST_APPLESS_MAIN(TstAsyncPipeline)
#include "tst_async_pipeline.moc"
