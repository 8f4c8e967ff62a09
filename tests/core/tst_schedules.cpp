// Pipeline schedules: exact op order, validation, and the event simulator's makespans against
// the golden values of docs/reference/schedules-and-comm.md §1.11 (unit costs F = 1, B = 2 with Bi = W = 1, no
// communication) and the closed-form bubbles.

#include "schedule/pipeline_geometry.h"
#include "schedule/generators.h"
#include "schedule/pipeline_closed_form.h"
#include "schedule/simulator.h"
#include "schedule/slot_grid.h"
#include "schedule/validate.h"
#include "scenario_fixture.h"

#include <QtTest>

using namespace parascope;
using parascope::test::presetScenario;

namespace {

std::string order(const PipelineSchedule& s, int rank)
{
    std::string out;
    for (const Action& a : s.actions[rank])
        out += (out.empty() ? "" : " ") + toString(a);
    return out;
}

// Unit costs for a rank's layers: F = 1, B = 2 (I = W = 1), split evenly over its chunks;
// an overlapped F&B costs F + B (no overlap gain) unless fb_gain hides some of it.
Timeline unitSimulation(const PipelineSchedule& s, double p2p = 0, std::vector<double> boundaries = {})
{
    SimulationInput in;
    in.schedule = &s;
    const double c = s.chunks;
    in.stages.assign(std::size_t(s.stages()), StageCost{1 / c, 1 / c, 1 / c, 0, 0});
    in.p2p_s = p2p;
    in.boundary_p2p_s = std::move(boundaries);
    return simulate(in);
}

} // namespace

class TstSchedules : public QObject {
    Q_OBJECT

private slots:
    void pipelineGeometry()
    {
        ModelSpec m;
        m.layers = 30;
        ParallelConfig p;
        p.pp = 4;
        p.vpp = 2;
        p.schedule = ScheduleKind::Interleaved;
        // Interleaved, p = 4, v = 2: 30 layers → ranks 8, 8, 7, 7; stage s on rank s mod 4, chunk
        // s div 4; a rank's layers shared over its chunks (8 → 4 + 4, 7 → 4 + 3).
        PipelineGeometry g = parascope::pipelineGeometry(m, p);
        QCOMPARE(g.chunks, 2);
        QCOMPARE(g.virtualStages(), 8);
        QVERIFY(!g.v_shape && !g.split_backward);
        QCOMPARE(g.stages[5].rank, 1);
        QCOMPARE(g.stages[5].chunk, 1);
        QCOMPARE(g.stages[2].layers, 4);
        QCOMPARE(g.stages[6].layers, 3);
        int total = 0;
        for (const VirtualStage& v : g.stages)
            total += v.layers;
        QCOMPARE(total, 30);
        QVERIFY(g.rank_layers.back().has_output && g.rank_layers.front().has_embedding);
        // V shape, p = 4: rank r holds stages r and 7 − r; rank 0 holds the first and last stage, so
        // the embedding and the output layer.
        p.schedule = ScheduleKind::ZbV;
        m.layers = 32;
        g = parascope::pipelineGeometry(m, p);
        QCOMPARE(g.chunks, 2);
        QVERIFY(g.v_shape && g.split_backward);
        QCOMPARE(g.stages[7].rank, 0);
        QCOMPARE(g.stages[4].rank, 3);
        QVERIFY(g.rank_layers.front().has_output && !g.rank_layers.back().has_output);
        // 1F1B: one chunk per rank, the vpp knob ignored.
        p.schedule = ScheduleKind::OneFOneB;
        QCOMPARE(chunksPerRank(p), 1);
    }

    void embeddingAndLossCountAsLayers()
    {
        // Llama 3 405B: 126 layers on PP 16. Shared evenly: 126 = 16·7 + 14, so ranks 0–13 get 8
        // and ranks 14–15 get 7: the first rank, which also holds the embedding, is the heaviest.
        ModelSpec m;
        m.layers = 126;
        ParallelConfig p;
        p.pp = 16;
        PipelineGeometry g = parascope::pipelineGeometry(m, p);
        QCOMPARE(g.rank_layers[0].layers, 8);
        QCOMPARE(g.rank_layers[13].layers, 8);
        QCOMPARE(g.rank_layers[14].layers, 7);
        // Megatron's --account-for-embedding/loss-in-pipeline-split: 126 + 2 = 128 slots, 8 per
        // rank; the embedding takes one of rank 0's and the loss one of rank 15's: 7, 8 … 8, 7.
        p.account_for_embedding_in_pipeline_split = true;
        p.account_for_loss_in_pipeline_split = true;
        g = parascope::pipelineGeometry(m, p);
        QCOMPARE(g.rank_layers[0].layers, 7);
        for (int r = 1; r < 15; ++r)
            QCOMPARE(g.rank_layers[std::size_t(r)].layers, 8);
        QCOMPARE(g.rank_layers[15].layers, 7);
        // Interleaved, VPP 2: 128 slots over 32 virtual stages of 4; stage 0 (rank 0, chunk 0) and
        // stage 31 (rank 15, chunk 1) give a slot to the embedding and the loss.
        p.schedule = ScheduleKind::Interleaved;
        p.vpp = 2;
        g = parascope::pipelineGeometry(m, p);
        QCOMPARE(g.stages[0].layers, 3);
        QCOMPARE(g.stages[16].layers, 4);
        QCOMPARE(g.stages[31].layers, 3);
        QCOMPARE(g.rank_layers[0].layers, 7);
        QCOMPARE(g.rank_layers[15].layers, 7);
        int total = 0;
        for (const VirtualStage& v : g.stages)
            total += v.layers;
        QCOMPARE(total, 126);

        // Qwen3-235B's Megatron-MoE-ModelZoo layout: 94 layers + embedding + loss = 96 slots on
        // PP 32 × VPP 3, one slot per virtual stage. The evaluation keeps VPP 3 (the rank 0
        // chunk 0 holds only the embedding, the last chunk only the loss): rank 1's in-flight
        // count is Megatron's warm-up (p − 2)·2 + (v − 1)·p + 1 = 60 + 64 + 1 = 125
        // chunk-microbatches, 125/3 rank units.
        Scenario q = presetScenario("mixtral-8x7b", "dgx-h100", 1, 32, 1);
        q.model.layers = 94;
        q.parallel.schedule = ScheduleKind::Interleaved;
        q.parallel.vpp = 3;
        q.parallel.account_for_embedding_in_pipeline_split = true;
        q.parallel.account_for_loss_in_pipeline_split = true;
        q.training.global_batch = 512;
        const Estimate e = evaluate(q);
        QCOMPARE(e.memory.stages.at(1).inflight_microbatches, 125.0 / 3);
        QCOMPARE(e.memory.stages.at(0).layers, 2);
        QCOMPARE(e.memory.stages.at(1).layers, 3);
    }

    void oneFOneBOrder()
    {
        // p = 4, m = 6: rank 0 warms up with p − 1 = 3 forwards; rank 3 alternates at once.
        const PipelineSchedule s = oneFOneBSchedule(4, 6);
        QCOMPARE(order(s, 0), std::string("0F0 0F1 0F2 0F3 0B0 0F4 0B1 0F5 0B2 0B3 0B4 0B5"));
        QCOMPARE(order(s, 3), std::string("3F0 3B0 3F1 3B1 3F2 3B2 3F3 3B3 3F4 3B4 3F5 3B5"));
    }

    void gpipeOrder() { QCOMPARE(order(gpipeSchedule(2, 3), 1), std::string("1F0 1F1 1F2 1B0 1B1 1B2")); }

    void interleavedOrder()
    {
        // p = 2, v = 2, m = 4: rank 0 holds stages 0 and 2; warm-up (2−0−1)·2 + (2−1)·2 = 4;
        // forwards go two microbatches per chunk, backwards start with the last chunk.
        const PipelineSchedule s = interleavedSchedule(2, 2, 4);
        QCOMPARE(order(s, 0), std::string("0F0 0F1 2F0 2F1 0F2 2B0 0F3 2B1 2F2 0B0 2F3 0B1 2B2 2B3 0B2 0B3"));
    }

    void unpairedPassesMatchTheOrders()
    {
        // Combined 1F1B pairs a rank's forwards with backwards only between its first backward
        // and its last forward; the closed form's count of the others (unpairedPasses) must be
        // the generated orders' — e.g. interleaved p = 2, v = 2, m = 4, rank 0 above: 5 forwards
        // before 2B0 (warm-up 4 + the first steady one), 5 backwards after 2F3.
        QCOMPARE(unpairedPasses(ScheduleKind::Interleaved, 2, 2, 4, 0), 5LL);
        const auto check = [](const PipelineSchedule& s, ScheduleKind kind, int p, int v, int m) {
            for (int r = 0; r < p; ++r) {
                const auto& list = s.actions[std::size_t(r)];
                long long before = 0, after = 0;
                bool seen_backward = false;
                for (const Action& a : list) {
                    seen_backward = seen_backward || a.kind == OpKind::Backward;
                    before += !seen_backward && a.kind == OpKind::Forward;
                }
                for (auto it = list.rbegin(); it != list.rend() && it->kind != OpKind::Forward; ++it)
                    ++after;
                const long long expected = unpairedPasses(kind, p, v, m, r);
                QVERIFY2(before == expected && after == expected,
                         qPrintable(QStringLiteral("p %1 v %2 m %3 rank %4: %5 before, %6 after, closed form %7")
                                        .arg(p)
                                        .arg(v)
                                        .arg(m)
                                        .arg(r)
                                        .arg(before)
                                        .arg(after)
                                        .arg(expected)));
            }
        };
        for (int p : {1, 2, 4, 8})
            for (int m : {1, 3, 8, 16})
                check(oneFOneBSchedule(p, m), ScheduleKind::OneFOneB, p, 1, m);
        for (int p : {2, 4, 8})
            for (int v : {2, 3})
                for (int m : {p, 2 * p, 4 * p})
                    check(interleavedSchedule(p, v, m), ScheduleKind::Interleaved, p, v, m);
    }

    void zbH1Order()
    {
        // Rank 1 of 3 delays its W's by one steady iteration.
        QCOMPARE(order(zbH1Schedule(3, 4), 1), std::string("1F0 1F1 1I0 1F2 1I1 1W0 1F3 1I2 1W1 1I3 1W2 1W3"));
    }

    void zbVOrder()
    {
        // p = 2, m = 4, rank 0 (stages 0 and 3), following the reference steps: 2(p−r)−1 = 3
        // F(0); r = 0 {F(3); F(0)}; p − r = 2 {F(3) I(3) W(3)}; steady {F(0) I(0) W(0) F(3) I(3)
        // W(3)} until F(3) is exhausted (F(0) runs out first); r = 0 {I(0) I(3)};
        // p − r = 2 {I(0) W(0)}.
        QCOMPARE(order(zbVSchedule(2, 4), 0),
                 std::string("0F0 0F1 0F2 3F0 3I0 3W0 3F1 3I1 3W1 0F3 0I0 0W0 3F2 3I2 3W2 "
                             "0I1 0W1 3F3 3I3 3W3 0I2 0W2 0I3 0W3"));
    }

    void dualPipeVOrder()
    {
        // R = 2, m = 4, last rank (stages 1 and 2), dualpipev.py steps: (r+1) {F0 F1}; main
        // m − 2R + r + 1 = 2 steps, the first pair not overlapped on the last rank; step 6
        // (r+1) {B1 B0}, zero-bubble (I now, W later) from half-way; step 8 the queued W's.
        QCOMPARE(order(dualPipeVSchedule(2, 4), 1),
                 std::string("1F0 2F0 1F1 2F1 1F2 2B0 (2F2;1B0) (1F3;2B1) (2F3;1B1) 2B2 1B2 2I3 1I3 2W3 1W3"));
    }

    void dualPipeOrder()
    {
        // p = 2, m = 4 (dualpipe.py): H = p/2 = 1, both ranks are middle ranks with half_rank 0.
        // Rank 0: phase 0 = the forward direction (stage 0, microbatches 0 and 1), phase 1 = the
        // reverse direction (its last stage 3, microbatches 2 and 3). Step 2 {F0 F1}: 0F0 3F2;
        // main step m/2 − p + half_rank + 1 = 1, its first pair un-overlapped on a middle rank:
        // 0F1 3B2, then (3F3;0B0); step 6 (half_rank + 1 = 1): 3B3, then zero bubble from
        // half-way: 0I1 with its W queued; step 8: 0W1.
        QCOMPARE(order(dualPipeSchedule(2, 4), 0), std::string("0F0 3F2 0F1 3B2 (3F3;0B0) 3B3 0I1 0W1"));
        // Rank 1 (second half): phase 0 is the reverse direction (its first stage 2), phase 1 the
        // forward direction (its last stage 1).
        QCOMPARE(order(dualPipeSchedule(2, 4), 1), std::string("2F2 1F0 2F3 1B0 (1F1;2B2) 1B1 2I3 2W3"));
    }

    void dualPipe()
    {
        // Placement: rank r holds stage r of the forward direction and stage p−1−r of the reverse
        // one (virtual stage 2p−1−r); the reverse direction enters at the last rank.
        const PipelineSchedule s = dualPipeSchedule(8, 20);
        QVERIFY(validateSchedule(s).empty());
        QCOMPARE(s.rankOfStage(8), 7);
        QCOMPARE(s.rankOfStage(15), 0);
        QVERIFY(s.isFirstStage(0) && s.isFirstStage(8) && s.isLastStage(7) && s.isLastStage(15));
        QVERIFY(s.carries(3, 9) && !s.carries(3, 10) && s.carries(12, 10) && !s.carries(12, 9));
        // docs/reference/schedules-and-comm.md §1.7, with a stage's F = 1, B = 2, W = 1, F&B = 3
        // (no overlap gain; a DualPipe stage is a 1F1B stage, and a microbatch passes one of
        // the rank's two): p = 8, m = 20 gives 66 against the ideal m(F + B) = 60, a bubble of
        // (p/2 − 1)(F&B + B − 3W) = 3·2 = 6; p = 16, m = 64: 192 + 7·2 = 206. (unitSimulation
        // gives a rank's two stages F = 1 together: half of these.)
        const auto perStage = [](const PipelineSchedule& sch) {
            SimulationInput in;
            in.schedule = &sch;
            in.stages.assign(std::size_t(sch.stages()), StageCost{1, 1, 1, 0, 0});
            return simulate(in).pipeline_end_s;
        };
        QCOMPARE(perStage(s), 66.0);
        QCOMPARE(perStage(dualPipeSchedule(16, 64)), 206.0);
        QCOMPARE(unitSimulation(s).pipeline_end_s, 33.0);
        // The closed form quotes the same bubble: 6/66, and (p − 2)/(3m + p − 2) = 14/206.
        QCOMPARE(bubbleFraction(ScheduleKind::DualPipe, 8, 1, 20), 6.0 / 66.0);
        QCOMPARE(bubbleFraction(ScheduleKind::DualPipe, 16, 1, 64), 14.0 / 206.0);
        // DualPipeV's README row counts its 2p stages of half a rank each: on p = 4 ranks with
        // m = 10 and a rank's F = 1, B = 2 (a chunk's half of that): ideal 30, 33 simulated, so
        // (p − 1)/(3m + p − 1) = 3/33.
        QCOMPARE(unitSimulation(dualPipeVSchedule(4, 10)).pipeline_end_s, 33.0);
        QCOMPARE(bubbleFraction(ScheduleKind::DualPipeV, 4, 1, 10), 3.0 / 33.0);
        // Hiding communication in the F&B pairs shortens the step below the ideal, as in DualPipeV.
        SimulationInput in;
        in.schedule = &s;
        in.stages.assign(16, StageCost{1, 1, 1, 0.3, 0.3});
        QVERIFY(simulate(in).pipeline_end_s < 60.0);
        // The simulated activation peak stays within the README's PP + 1 stage-microbatches,
        // (p + 1)/2 in rank units (a rank holds two stages), the closed form the estimate quotes
        // when it cannot simulate.
        for (int p : {2, 4, 8}) {
            const Timeline t = unitSimulation(dualPipeSchedule(p, 4 * p));
            const double closed = inflightMicrobatches(ScheduleKind::DualPipe, p, 1, 4 * p)[0];
            QCOMPARE(closed, (p + 1) / 2.0);
            QCOMPARE(*std::max_element(t.peak_inflight.begin(), t.peak_inflight.end()), closed);
        }
    }

    void vShapePlacement()
    {
        const PipelineSchedule s = zbVSchedule(4, 8);
        QCOMPARE(s.stages(), 8);
        QCOMPARE(s.rankOfStage(0), 0);
        QCOMPARE(s.rankOfStage(7), 0); // rank 0 holds the first and the last stage
        QCOMPARE(s.rankOfStage(4), 3);
        QCOMPARE(s.actions[0].front().stage, 0);
    }

    void goldenMakespans_data()
    {
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        QTest::addColumn<double>("gpipe");
        QTest::addColumn<double>("v2");
        QTest::addColumn<double>("v4");
        QTest::addColumn<double>("zbh1");
        // docs/reference/schedules-and-comm.md §1.11: GPipe = 1F1B = (m + p − 1)(F + B);
        // interleaved m(F + B) + (p − 1)(F + B)/v; ZB-H1 m(F + B) + (p − 1)(F + Bi − W).
        QTest::newRow("p4 m8") << 4 << 8 << 33.0 << 28.5 << 26.25 << 27.0;
        QTest::newRow("p8 m16") << 8 << 16 << 69.0 << 58.5 << 53.25 << 55.0;
        QTest::newRow("p8 m24") << 8 << 24 << 93.0 << 82.5 << 77.25 << 79.0;
        QTest::newRow("p8 m32") << 8 << 32 << 117.0 << 106.5 << 101.25 << 103.0;
        QTest::newRow("p16 m32") << 16 << 32 << 141.0 << 118.5 << 107.25 << 111.0;
        QTest::newRow("p16 m64") << 16 << 64 << 237.0 << 214.5 << 203.25 << 207.0;
    }

    void goldenMakespans()
    {
        QFETCH(int, p);
        QFETCH(int, m);
        QFETCH(double, gpipe);
        QFETCH(double, v2);
        QFETCH(double, v4);
        QFETCH(double, zbh1);
        QCOMPARE(unitSimulation(gpipeSchedule(p, m)).pipeline_end_s, gpipe);
        QCOMPARE(unitSimulation(oneFOneBSchedule(p, m)).pipeline_end_s, gpipe);
        QCOMPARE(unitSimulation(interleavedSchedule(p, 2, m)).pipeline_end_s, v2);
        QCOMPARE(unitSimulation(interleavedSchedule(p, 4, m)).pipeline_end_s, v4);
        QCOMPARE(unitSimulation(zbH1Schedule(p, m)).pipeline_end_s, zbh1);
        // ZB-V (F = Bi = W): only the ramp remains, m(F + B) + (p − 1)·F/2 (one chunk-forward per
        // rank before the last rank starts) — the lower bound for a V placement.
        QCOMPARE(unitSimulation(zbVSchedule(p, m)).pipeline_end_s, 3.0 * m + (p - 1) * 0.5);
        // And the closed forms agree with the simulation: bubble / (ideal + bubble).
        const double ideal = 3.0 * m;
        for (auto [kind, v, sim] :
             {std::tuple{ScheduleKind::OneFOneB, 1, gpipe}, std::tuple{ScheduleKind::Interleaved, 2, v2},
              std::tuple{ScheduleKind::Interleaved, 4, v4}, std::tuple{ScheduleKind::ZbH1, 1, zbh1}})
            QCOMPARE(bubbleFraction(kind, p, v, m), (sim - ideal) / sim);
    }

    void dualPipeV()
    {
        // docs/reference/schedules-and-comm.md §1.8: R = 4 ranks (8 stages), m = 10, per chunk F = 0.5, B = 1,
        // W = 0.5, F&B = 1.5 (no overlap gain): makespan 33 vs ideal 30, bubble
        // (PP/2 − 1)(F&B + B − 3W) = 3·1 = 3 with PP = 8 stages.
        const PipelineSchedule s = dualPipeVSchedule(4, 10);
        QVERIFY(validateSchedule(s).empty());
        QCOMPARE(unitSimulation(s).pipeline_end_s, 33.0);
        // R = 8, m = 20: bubble (16/2 − 1)·1 = 7 → 67.
        QCOMPARE(unitSimulation(dualPipeVSchedule(8, 20)).pipeline_end_s, 67.0);
        // An overlap gain shortens the step below the ideal m(F + B): F&B = 1.2 instead of 1.5.
        SimulationInput in;
        in.schedule = &s;
        in.stages.assign(8, StageCost{0.5, 0.5, 0.5, 0.15, 0.15}); // 0.3 of comm per F&B hidden
        QVERIFY(simulate(in).pipeline_end_s < 30.0);
    }

    void everyGeneratorValidates()
    {
        for (int p : {1, 2, 4, 8})
            for (int m : {p, 2 * p, 3 * p + 1, 4 * p}) {
                for (ScheduleKind k :
                     {ScheduleKind::GPipe, ScheduleKind::OneFOneB, ScheduleKind::Interleaved, ScheduleKind::ZbH1,
                      ScheduleKind::ZbV, ScheduleKind::DualPipeV, ScheduleKind::DualPipe}) {
                    const ScheduleRequest req{k, p, 2, m};
                    const auto s = generateSchedule(req);
                    if (!scheduleRequirement(req).empty()) {
                        QVERIFY(!s);
                        continue;
                    }
                    QVERIFY(s);
                    const auto problems = validateSchedule(*s);
                    QVERIFY2(problems.empty(),
                             (std::string(toString(k)) + " p" + std::to_string(p) + " m" + std::to_string(m) + ": "
                              + (problems.empty() ? "" : problems[0]))
                                 .c_str());
                }
            }
    }

    void validationCatchesBrokenSchedules()
    {
        PipelineSchedule s = oneFOneBSchedule(2, 2);
        // Backward before its forward.
        std::swap(s.actions[1][0], s.actions[1][1]);
        auto problems = validateSchedule(s);
        QVERIFY(!problems.empty());
        QVERIFY(problems[0].find("comes before its forward") != std::string::npos);
        // A missing op.
        s = oneFOneBSchedule(2, 2);
        s.actions[0].pop_back();
        problems = validateSchedule(s);
        QVERIFY(!problems.empty());
        QVERIFY(problems[0].find("want 1 each") != std::string::npos);
        // Wrong rank.
        s = oneFOneBSchedule(2, 2);
        s.actions[0][0].stage = 1;
        QVERIFY(validateSchedule(s)[0].find("lives on rank 1") != std::string::npos);
        // Deadlock: rank 0 waits for gradient 1 before sending forward 1.
        s = gpipeSchedule(2, 2);
        s.actions[0] = {Action{OpKind::Forward, 0, 0}, Action{OpKind::Backward, 0, 1}, Action{OpKind::Forward, 0, 1},
                        Action{OpKind::Backward, 0, 0}};
        problems = validateSchedule(s);
        QVERIFY(!problems.empty());
        const std::string all = problems.back();
        QVERIFY2(all.find("deadlock") != std::string::npos || all.find("before its forward") != std::string::npos,
                 all.c_str());
    }

    void requirementsBecomeMessages()
    {
        QVERIFY(scheduleRequirement({ScheduleKind::Interleaved, 4, 2, 6}).find("multiple of pp") != std::string::npos);
        QVERIFY(scheduleRequirement({ScheduleKind::DualPipeV, 4, 1, 7}).find("2·pp") != std::string::npos);
        QVERIFY(scheduleRequirement({ScheduleKind::DualPipe, 3, 1, 12}).find("even pp") != std::string::npos);
        QVERIFY(scheduleRequirement({ScheduleKind::DualPipe, 4, 1, 9}).find("even number") != std::string::npos);
        QVERIFY(scheduleRequirement({ScheduleKind::DualPipe, 4, 1, 6}).find("2·pp") != std::string::npos);
        QVERIFY(scheduleRequirement({ScheduleKind::DualPipe, 4, 1, 8}).empty());
        QVERIFY(scheduleRequirement({ScheduleKind::OneFOneB, 4, 1, 3}).empty()); // m < p is valid, just slow
    }

    void peakInflightMatchesClosedForms()
    {
        for (int p : {2, 4, 8}) {
            const int m = 4 * p;
            const auto sim = [&](const PipelineSchedule& s) { return unitSimulation(s).peak_inflight; };
            const auto closed = [&](ScheduleKind k, int v) { return inflightMicrobatches(k, p, v, m); };
            QCOMPARE(sim(oneFOneBSchedule(p, m)), closed(ScheduleKind::OneFOneB, 1));
            QCOMPARE(sim(gpipeSchedule(p, m)), closed(ScheduleKind::GPipe, 1));
            QCOMPARE(sim(interleavedSchedule(p, 2, m)), closed(ScheduleKind::Interleaved, 2));
            QCOMPARE(sim(zbH1Schedule(p, m)), closed(ScheduleKind::ZbH1, 1));
        }
        // 1F1B with m < p: stage i holds min(p − i, m).
        QCOMPARE(unitSimulation(oneFOneBSchedule(8, 3)).peak_inflight[0], 3.0);
    }

    void p2pDelaysTheCriticalPath()
    {
        // 1F1B p = 4, m = 8 with a p2p time c: the fill and drain each cross p − 1 boundaries,
        // and the steady state adds 2c per round trip on the critical path:
        // makespan ≥ 33 + 2·(p − 1)·c.
        const double c = 0.1;
        QVERIFY(unitSimulation(oneFOneBSchedule(4, 8), c).pipeline_end_s >= 33 + 6 * c - 1e-12);
    }

    void eachBoundaryHasItsOwnLink()
    {
        // 1F1B p = 3, m = 1: F on ranks 0, 1, 2 (1 each), then B on 2, 1, 0 (2 each); the
        // activation crosses boundary 0 (t0) then 1 (t1), the gradient 1 then 0:
        // makespan = 3·1 + 3·2 + 2·t0 + 2·t1 = 9 + 2·(0.1 + 0.5) = 10.2.
        QCOMPARE(unitSimulation(oneFOneBSchedule(3, 1), 0.5, {0.1, 0.5}).pipeline_end_s, 10.2);
        // One link for all (the slowest) would give 9 + 4·0.5 = 11.
        QCOMPARE(unitSimulation(oneFOneBSchedule(3, 1), 0.5).pipeline_end_s, 11.0);
        // The sends drawn on the communication lane last their boundary's time.
        const Timeline tl = unitSimulation(oneFOneBSchedule(3, 1), 0.5, {0.1, 0.5});
        for (const TimedOp& op : tl.ops)
            if (op.type == OpType::Send && op.rank == 0)
                QCOMPARE(op.end_s - op.start_s, 0.1);
    }

    void slotGridOnAUnitClock()
    {
        // The slot grid: F = 1 slot, B = 2. 1F1B on p = 4 with m = 8 (Narayanan et al. 2021 §2.2):
        // (m + p − 1)·(F + B) = 11·3 = 33 slots. By hand: F0 runs on ranks 0…3 in slots 0…3;
        // B0 on rank 3 in slots 4–5, rank 2 in 6–7, rank 1 in 8–9, rank 0 in 10–11: rank 0's
        // first backward starts at slot 10. Every op starts and ends on a whole slot.
        ModelSpec m;
        m.layers = 32;
        ParallelConfig p;
        p.pp = 4;
        const auto grid = slotGrid(parascope::pipelineGeometry(m, p), 8);
        QVERIFY(grid);
        QCOMPARE(grid->pipeline_end_s, 33.0);
        double first_b0 = -1;
        for (const TimedOp& op : grid->ops) {
            QCOMPARE(op.start_s, std::round(op.start_s));
            QCOMPARE(op.end_s - op.start_s, op.type == OpType::B ? 2.0 : 1.0);
            if (op.rank == 0 && op.type == OpType::B && first_b0 < 0)
                first_b0 = op.start_s;
        }
        QCOMPARE(first_b0, 10.0);
        // Interleaved, v = 2: a slot is one chunk's forward (half a stage). Each rank does m·v = 16
        // chunk forwards and backwards (48 slots) plus the fill and drain of p − 1 chunk round
        // trips, (p − 1)·3 = 9: 57 slots, i.e. (m + (p − 1)/v)·3 = 28.5 whole-stage forwards —
        // the interleaved bubble of Narayanan et al. 2021 §2.2. Not generated for m = 6 (m must be
        // a multiple of p).
        p.schedule = ScheduleKind::Interleaved;
        p.vpp = 2;
        const auto interleaved = slotGrid(parascope::pipelineGeometry(m, p), 8);
        QVERIFY(interleaved);
        QCOMPARE(interleaved->pipeline_end_s, 57.0);
        QVERIFY(!slotGrid(parascope::pipelineGeometry(m, p), 6));
    }
};

QTEST_GUILESS_MAIN(TstSchedules)
#include "tst_schedules.moc"
