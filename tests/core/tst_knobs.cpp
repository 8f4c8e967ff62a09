// The knob table (core/types/knobs.h): one rule per knob for the app's sliders, sweeps and
// `parascope-cli --set`. Before it there were three tables that disagreed: on the default
// scenario at DP = 32 the DP slider kept the microbatch count (global batch 512 → 2,048) while
// "Sweep this knob" kept the global batch, so the sweep reported 534k tokens/s and a large-bubble
// warning where the slider showed 694k and none.

#include "types/knobs.h"
#include "search/sweep.h"
#include "scenario_fixture.h"

#include <set>

using namespace parascope;
using namespace parascope::test;

class TstKnobs : public QObject {
    Q_OBJECT

    static Scenario defaultScenario() { return scenarioFromFile("../../resources/scenarios/default.parascope.json"); }

private slots:
    void everyKnobHasOneRule()
    {
        std::set<std::string> paths;
        for (const Knob& k : knobs()) {
            QVERIFY2(paths.insert(k.path).second, k.path.c_str()); // one entry per path
            QVERIFY2(!k.short_name.empty() && !k.label.en.empty() && !k.label.zh.empty(), k.path.c_str());
            QVERIFY2(k.get && k.set && k.offered && k.min <= k.max, k.path.c_str());
            // Every offered value is in range and contains the current one.
            const Scenario sc = defaultScenario();
            const std::vector<long long> offered = k.offered(sc);
            QVERIFY2(std::is_sorted(offered.begin(), offered.end()), k.path.c_str());
            QVERIFY2(std::find(offered.begin(), offered.end(), k.get(sc)) != offered.end(), k.path.c_str());
            // Setting the current value changes nothing.
            Scenario same = sc;
            std::string why;
            QVERIFY2(applyKnob(same, k.path, k.get(sc), why), why.c_str());
            QCOMPARE(scenarioToJson(same).dump(), scenarioToJson(sc).dump());
        }
    }

    void sweepEqualsSetForEveryKnob()
    {
        // For every knob and a few of its values (the first, a middle and the last offered, and
        // the current one), a sweep point is number for number the evaluation of the scenario
        // with that knob set, which is what the slider and --set evaluate.
        const Scenario base = defaultScenario();
        EvaluateOptions o;
        o.record_timeline = false;
        int compared = 0;
        for (const Knob& k : knobs()) {
            const std::vector<long long> offered = k.offered(base);
            const std::vector<long long> values
                = {offered.front(), offered[offered.size() / 2], offered.back(), k.get(base)};
            const SweepResult r = sweep(base, k.path, values);
            QCOMPARE(r.points.size(), values.size());
            for (std::size_t i = 0; i < values.size(); ++i) {
                Scenario set = base;
                std::string why;
                if (!applyKnob(set, k.path, values[i], why)) {
                    QVERIFY2(!r.points[i].valid, (k.path + " " + why).c_str());
                    continue;
                }
                const Estimate e = evaluate(set, o);
                const SweepPoint& p = r.points[i];
                const std::string where = k.path + " = " + std::to_string(values[i]);
                QVERIFY2(p.step_s == e.time.step_s, where.c_str());
                QVERIFY2(p.tokens_per_s == e.throughput.tokens_per_s, where.c_str());
                QVERIFY2(p.mfu == e.throughput.mfu, where.c_str());
                QVERIFY2(p.peak_bytes == e.memory.peak_bytes, where.c_str());
                QVERIFY2(p.bubble_fraction == e.time.bubble_fraction, where.c_str());
                QCOMPARE(p.diagnostics.size(), e.diagnostics.size());
                ++compared;
            }
        }
        QVERIFY(compared >= 40);
    }

    void dpKeepsTheMicrobatchCount()
    {
        // The default scenario: Llama-2 70B, TP8 PP8 DP8, micro batch 1, global batch 512, so
        // m = 512/(1·8) = 64 microbatches. DP 32 keeps m = 64: global batch 64·1·32 = 2,048. The
        // sweep used to keep 512 (m = 16 on PP 8: the bubble warning the slider did not show).
        Scenario sc = defaultScenario();
        QCOMPARE(sc.microbatches(), 64LL);
        std::string why;
        QVERIFY(applyKnob(sc, "parallel.dp", 32, why));
        QCOMPARE(sc.parallel.dp, 32);
        QCOMPARE(sc.training.global_batch, 2048LL);
        QCOMPARE(sc.microbatches(), 64LL);
        const SweepResult r = sweep(defaultScenario(), "parallel.dp", {32});
        QCOMPARE(r.points.front().tokens_per_s, evaluate(sc).throughput.tokens_per_s);
        for (const Diagnostic& d : r.points.front().diagnostics)
            QVERIFY2(d.code != "large_bubble", d.message.en.c_str());
    }

    void assignmentsParseNamesAndRefuseNonsense()
    {
        Scenario sc = defaultScenario();
        std::string why;
        QVERIFY(applyKnobAssignment(sc, "training.recompute=full", why));
        QCOMPARE(sc.training.recompute, Recompute::Full);
        QVERIFY(applyKnobAssignment(sc, "parallel.schedule=interleaved", why));
        QCOMPARE(sc.parallel.schedule, ScheduleKind::Interleaved);
        QVERIFY(applyKnobAssignment(sc, "parallel.pp=4", why));
        QCOMPARE(sc.parallel.pp, 4);
        QVERIFY(!applyKnobAssignment(sc, "parallel.pp", why));
        QVERIFY(why.find("PATH=VALUE") != std::string::npos);
        QVERIFY(!applyKnobAssignment(sc, "parallel.pp=four", why));
        QVERIFY(why.find("not a whole number") != std::string::npos);
        QVERIFY(!applyKnobAssignment(sc, "parallel.zero=4", why));
        QVERIFY(why.find("outside 0 … 3") != std::string::npos);
        QVERIFY(!applyKnobAssignment(sc, "model.hidden=1", why));
        QVERIFY(why.find("no knob") != std::string::npos);
        // A path that is no knob is named as such whatever its value (not "not a whole number").
        QVERIFY(!applyKnobAssignment(sc, "parallel.ep_comm_overlap=true", why));
        QVERIFY2(why.find("no knob \"parallel.ep_comm_overlap\"") != std::string::npos, why.c_str());
    }
};

QTEST_GUILESS_MAIN(TstKnobs)
#include "tst_knobs.moc"
