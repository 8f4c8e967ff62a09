// The schedule table (core/schedule/schedule_table.h): one row per schedule, in ScheduleKind order,
// and every reader (geometry, generators, closed forms, labels, search) answering from it. The
// closed forms are checked against a hand calculation at p = 4, v = 2, m = 8 (unit costs F = 1,
// B = 2, Bi = W = 1, F&B = 3; docs/reference/schedules-and-comm.md §1.11).
#include "estimate/display_names.h"
#include "schedule/generators.h"
#include "schedule/pipeline_closed_form.h"
#include "schedule/schedule_table.h"
#include "schedule/validate.h"
#include "search/search.h"
#include "util/enum_names.h"

#include "scenario_fixture.h"

#include <QtTest>

#include <set>

using namespace parascope;

class TestScheduleTable : public QObject {
    Q_OBJECT
private slots:
    void coversEveryKindInOrder()
    {
        const auto names = enumNames(ScheduleKind{});
        QCOMPARE(scheduleTable().size(), names.size());
        for (std::size_t i = 0; i < names.size(); ++i) {
            const ScheduleRow& row = scheduleTable()[i];
            QCOMPARE(int(row.kind), int(names[i].value));
            QCOMPARE(&scheduleRow(row.kind), &row);
            QVERIFY(!row.label.en.empty() && !row.label.zh.empty());
            QCOMPARE(displayName(row.kind).en, row.label.en);
            QVERIFY(row.generate && row.requirement && row.inflight && row.inflight_term && row.bubble
                    && row.bubble_term);
        }
    }

    void traitsReadTheTable()
    {
        // The geometry's questions are the table's columns.
        for (const ScheduleRow& row : scheduleTable()) {
            QCOMPARE(isVShape(row.kind), row.placement == StagePlacement::VShape);
            QCOMPARE(isBidirectional(row.kind), row.placement == StagePlacement::Bidirectional);
            QCOMPARE(mirroredPlacement(row.kind), row.mirrored());
            QCOMPARE(splitsBackward(row.kind), row.split_backward);
            ParallelConfig p;
            p.schedule = row.kind;
            p.pp = 4;
            p.vpp = 3;
            QCOMPARE(chunksPerRank(p), row.chunks_from_vpp ? 3 : row.mirrored() ? 2 : 1);
        }
        // The published shapes: 1F1B and GPipe loop without a split backward; ZB-H1 splits it;
        // ZB-V and DualPipeV are V shapes; DualPipe runs two directions; only interleaved uses vpp.
        QVERIFY(!scheduleRow(ScheduleKind::OneFOneB).split_backward);
        QVERIFY(scheduleRow(ScheduleKind::ZbH1).split_backward);
        QCOMPARE(scheduleRow(ScheduleKind::ZbV).placement, StagePlacement::VShape);
        QCOMPARE(scheduleRow(ScheduleKind::DualPipeV).placement, StagePlacement::VShape);
        QCOMPARE(scheduleRow(ScheduleKind::DualPipe).placement, StagePlacement::Bidirectional);
        QVERIFY(scheduleRow(ScheduleKind::Interleaved).chunks_from_vpp);
        // DualPipe and DualPipeV overlap a forward with a backward (F&B); ZB-V does not.
        QVERIFY(scheduleRow(ScheduleKind::DualPipe).overlaps_f_and_b
                && scheduleRow(ScheduleKind::DualPipeV).overlaps_f_and_b);
        QVERIFY(!scheduleRow(ScheduleKind::ZbV).overlaps_f_and_b);
    }

    void bubbleByHand_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("fraction");
        QTest::addColumn<QString>("formula");
        // p = 4, v = 2, m = 8: ideal m·(F + B) = 24 units; the bubble in units, then the fraction.
        QTest::newRow("gpipe") << int(ScheduleKind::GPipe) << 9.0 / 33 << u"(p−1)/(m+p−1)"_qs; // (p−1)(F+B) = 9
        QTest::newRow("1f1b") << int(ScheduleKind::OneFOneB) << 9.0 / 33 << u"(p−1)/(m+p−1)"_qs; // = 3/11
        QTest::newRow("interleaved") << int(ScheduleKind::Interleaved) << 4.5 / 28.5
                                     << u"(p−1)/(v·m+p−1)"_qs; // 9/v = 4.5: 3/19
        QTest::newRow("zb-h1") << int(ScheduleKind::ZbH1) << 3.0 / 27 << u"(p−1)/(3m+p−1)"_qs; // (p−1)(F+Bi−W) = 3
        QTest::newRow("zb-v") << int(ScheduleKind::ZbV) << 1.5 / 25.5 << u"(p−1)/(6m+p−1)"_qs; // (p−1)·F/2 = 1.5: 3/51
        QTest::newRow("dualpipe-v") << int(ScheduleKind::DualPipeV) << 3.0 / 27
                                    << u"(p−1)/(3m+p−1)"_qs; // (p−1)(3+2−3)/2 = 3
        QTest::newRow("dualpipe") << int(ScheduleKind::DualPipe) << 2.0 / 26
                                  << u"(p−2)/(3m+p−2)"_qs; // (p/2−1)(3+2−3) = 2
    }
    void bubbleByHand()
    {
        QFETCH(int, kind);
        QFETCH(double, fraction);
        QFETCH(QString, formula);
        const auto k = ScheduleKind(kind);
        QVERIFY(qAbs(bubbleFraction(k, 4, 2, 8) - fraction) < 1e-12);
        const Term t = bubbleTerm(k, 4, 2, 8);
        QVERIFY(qAbs(t.value - fraction) < 1e-12);
        QCOMPARE(QString::fromStdString(t.formula), formula);
        QVERIFY(!t.source.empty() && !t.substituted.empty());
    }

    void inflightByHand_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("rank0");
        QTest::addColumn<double>("rank3");
        // p = 4, v = 2, m = 8, in "one microbatch through the rank's layers".
        QTest::newRow("gpipe") << int(ScheduleKind::GPipe) << 8.0 << 8.0; // m
        QTest::newRow("1f1b") << int(ScheduleKind::OneFOneB) << 4.0 << 1.0; // min(p − i, m)
        QTest::newRow("interleaved") << int(ScheduleKind::Interleaved) << 5.5
                                     << 2.5; // min(2(p−i−1) + (v−1)p + 1, mv)/v: 11/2, 5/2
        QTest::newRow("zb-h1") << int(ScheduleKind::ZbH1) << 4.0 << 4.0; // min(p, m)
        QTest::newRow("zb-v") << int(ScheduleKind::ZbV) << 4.0 << 4.0; // min(p, m)
        QTest::newRow("dualpipe-v") << int(ScheduleKind::DualPipeV) << 4.5 << 4.5; // min((2p + 1)/2, m)
        QTest::newRow("dualpipe") << int(ScheduleKind::DualPipe) << 2.5 << 2.5; // min((p + 1)/2, m/2)
    }
    void inflightByHand()
    {
        QFETCH(int, kind);
        QFETCH(double, rank0);
        QFETCH(double, rank3);
        const auto k = ScheduleKind(kind);
        const std::vector<double> v = inflightMicrobatches(k, 4, 2, 8);
        QCOMPARE(v.size(), std::size_t(4));
        QCOMPARE(v.front(), rank0);
        QCOMPARE(v.back(), rank3);
        const Term t = inflightTerm(k, 4, 2, 8, 0, v.front());
        QCOMPARE(t.value, rank0);
        QVERIFY(!t.formula.empty() && !t.substituted.empty() && !t.source.empty());
    }

    // A request the row's requirement accepts generates a valid schedule; one it refuses does not
    // generate.
    void requirementsGateTheGenerators()
    {
        for (const ScheduleRow& row : scheduleTable())
            for (int p : {1, 2, 3, 4})
                for (int m : {1, 3, 4, 8, 9})
                    for (int v : {1, 2}) {
                        const ScheduleRequest r{row.kind, p, v, m};
                        const std::optional<PipelineSchedule> s = generateSchedule(r);
                        QCOMPARE(s.has_value(), scheduleRequirement(r).empty());
                        if (s)
                            QVERIFY2(validateSchedule(*s).empty(), toString(row.kind));
                    }
    }

    // The search enumerates exactly the rows marked for it: with PP 1 only those it always tries,
    // with a pipeline the others too (interleaved at vpp 2 and 4), in the order of the table's
    // unchunked rows first.
    void searchTriesTheMarkedRows()
    {
        std::set<ScheduleKind> marked, always, seen, seen_without_pipeline;
        for (const ScheduleRow& row : scheduleTable()) {
            if (row.search != SearchUse::Never)
                marked.insert(row.kind);
            if (row.search == SearchUse::Always)
                always.insert(row.kind);
        }
        QCOMPARE(marked,
                 (std::set<ScheduleKind>{ScheduleKind::OneFOneB, ScheduleKind::Interleaved, ScheduleKind::ZbH1}));
        const Scenario base = test::presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 8);
        std::set<int> vpps;
        for (const Strategy& s : enumerateStrategies(base, {})) {
            seen.insert(s.parallel.schedule);
            if (s.parallel.pp == 1)
                seen_without_pipeline.insert(s.parallel.schedule);
            if (s.parallel.schedule == ScheduleKind::Interleaved)
                vpps.insert(s.parallel.vpp);
        }
        QCOMPARE(seen, marked);
        QCOMPARE(seen_without_pipeline, always);
        QCOMPARE(vpps, (std::set<int>{2, 4}));
    }
};

QTEST_GUILESS_MAIN(TestScheduleTable)
#include "tst_schedule_table.moc"
