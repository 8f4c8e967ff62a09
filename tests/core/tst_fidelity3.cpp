// Issue 36 (fidelity, round 3): choices a scenario must express the way the frameworks run them,
// the uncertainty every prediction carries, and the three-state memory verdict.

#include "estimate/evaluate.h"
#include "scenario_fixture.h"

#include <QtTest>

using namespace parascope;
using namespace parascope::test;

namespace {

bool hasCode(const Estimate& e, Severity s, const std::string& code)
{
    return std::any_of(e.diagnostics.begin(), e.diagnostics.end(),
                       [&](const Diagnostic& d) { return d.severity == s && d.code == code; });
}

} // namespace

class TstFidelity3 : public QObject {
    Q_OBJECT
private slots:
    // §4: `schedule: interleaved` with VPP 1 is 1F1B, as Megatron runs it without
    // --num-layers-per-virtual-pipeline-stage. Llama-2 70B on TP 8 · PP 8 · DP 8, 64 microbatches:
    // stage 0 holds min(p, m) = 8 microbatches' activations under 1F1B, where the interleaved
    // warm-up with v = 1, 2·(p − r − 1) + 1 = 15, held 15 (the default scenario's 18.5 GiB
    // became 28.7 GiB: the false jump a slider user saw moving VPP to 1).
    void interleavedWithOneChunkIsOneFOneB()
    {
        Scenario one = presetScenario("llama2-70b", "dgx-a100-80g", 8, 8, 8);
        one.training.global_batch = 512;
        one.parallel.schedule = ScheduleKind::OneFOneB;
        Scenario inter = one;
        inter.parallel.schedule = ScheduleKind::Interleaved;
        inter.parallel.vpp = 1;
        const Estimate a = evaluate(one), b = evaluate(inter);
        QCOMPARE(b.memory.peak_bytes, a.memory.peak_bytes);
        QCOMPARE(b.memory.stages.front().inflight_microbatches, 8.0);
        QCOMPARE(b.time.step_s, a.time.step_s);
        QVERIFY(b.layoutError() == nullptr);
        QVERIFY(hasCode(b, Severity::Info, "vpp_not_divisible"));
        // VPP 2 interleaves: a different schedule again.
        inter.parallel.vpp = 2;
        QVERIFY(evaluate(inter).time.step_s != a.time.step_s);
    }
};

QTEST_GUILESS_MAIN(TstFidelity3)
#include "tst_fidelity3.moc"
