// The Gantt geometry, apart from painting: time → pixel mapping, merging of sub-pixel segments,
// culling outside the visible range, and hit-testing.

#include "models/gantt_layout.h"

#include <QtTest>

using namespace parascope;
using namespace parascope::ui;

class TstGanttLayout : public QObject {
    Q_OBJECT

    static std::vector<GanttSegment> run(int n, double width, OpType type = OpType::F)
    {
        std::vector<GanttSegment> s;
        for (int i = 0; i < n; ++i)
            s.push_back({0, 0, i * width, (i + 1) * width, type, i, i});
        return s;
    }

private slots:
    void mapping()
    {
        const TimeToPixel m{2, 4, 100, 300};
        QCOMPARE(m.x(3), 200.0);
        QCOMPARE(m.t(150), 2.5);
    }

    void wideSegmentsStaySeparate()
    {
        // 10 ops of 1 s in 10 s over 1000 px: 100 px each, no merging, microbatch kept.
        const auto rects = layoutGantt(run(10, 1), TimeToPixel{0, 10, 0, 1000});
        QCOMPARE(rects.size(), std::size_t(10));
        QCOMPARE(rects[3].x0, 300.0);
        QCOMPARE(rects[3].x1, 400.0);
        QCOMPARE(rects[3].microbatch, 3);
        QVERIFY(!rects[3].mixed);
    }

    void subPixelSegmentsMerge()
    {
        // 100,000 ops of 1 µs over 100 px (each 0.001 px): they merge into a handful of
        // rectangles instead of 100,000 draw calls.
        const auto rects = layoutGantt(run(100000, 1e-6), TimeToPixel{0, 0.1, 0, 100});
        QVERIFY2(rects.size() <= 100, std::to_string(rects.size()).c_str());
        int ops = 0;
        for (const GanttRect& r : rects) {
            ops += r.count;
            QCOMPARE(r.microbatch, -1);
        }
        QCOMPARE(ops, 100000);
    }

    void mixedTypesAreFlagged()
    {
        std::vector<GanttSegment> s = run(10, 1e-6, OpType::F);
        for (int i = 0; i < 10; i += 2)
            s[std::size_t(i)].type = OpType::B;
        const auto rects = layoutGantt(s, TimeToPixel{0, 1, 0, 1000});
        QCOMPARE(rects.size(), std::size_t(1));
        QVERIFY(rects[0].mixed);
    }

    void mixedRectanglesKeepTheSecondTypesShare()
    {
        // 1F1B far zoomed out: a forward of 1 µs then a backward of 2 µs, 1,000 times over 10 px.
        // A merged rectangle is backward (two thirds of its time) with the forward's third beside
        // it, which the painter draws as a third of the row: not a row all backward.
        std::vector<GanttSegment> s;
        for (int i = 0; i < 1000; ++i) {
            s.push_back({0, 0, i * 3e-6, i * 3e-6 + 1e-6, OpType::F, i, 2 * i});
            s.push_back({0, 0, i * 3e-6 + 1e-6, (i + 1) * 3e-6, OpType::B, i, 2 * i + 1});
        }
        const auto rects = layoutGantt(s, TimeToPixel{0, 3e-3, 0, 10});
        QVERIFY(rects.size() >= 5);
        for (const GanttRect& r : rects) {
            QVERIFY(r.mixed);
            QCOMPARE(r.type, OpType::B);
            QCOMPARE(r.second, OpType::F);
            QVERIFY2(std::abs(r.second_share - 1.0 / 3) < 0.05, std::to_string(r.second_share).c_str());
        }
    }

    void rowsAndLanesNeverMerge()
    {
        std::vector<GanttSegment> s
            = {{0, 0, 0, 1e-6, OpType::F, 0, 0}, {0, 1, 0, 1e-6, OpType::Send, 0, 1}, {1, 0, 0, 1e-6, OpType::F, 0, 2}};
        QCOMPARE(layoutGantt(s, TimeToPixel{0, 1, 0, 1000}).size(), std::size_t(3));
    }

    void cullsOutsideTheVisibleRange()
    {
        // Zoomed to 4 s … 6 s: only ops 3 … 6 touch it (op 3 ends at 4, op 6 starts at 6); the
        // zero-width edges merge into their neighbours, ops 4 and 5 stay 100 px each.
        const auto rects = layoutGantt(run(10, 1), TimeToPixel{4, 6, 0, 200});
        int ops = 0;
        for (const GanttRect& r : rects)
            ops += r.count;
        QCOMPARE(ops, 4);
        QCOMPARE(rects.size(), std::size_t(2));
        QCOMPARE(rects.front().op, 3);
        QCOMPARE(rects.front().x1, 100.0);
        QCOMPARE(rects.back().x0, 100.0);
    }

    void hitTest()
    {
        const auto s = run(10, 1);
        QCOMPARE(segmentAt(s, 0, 0, 2.5), 2);
        QCOMPARE(segmentAt(s, 0, 1, 2.5), -1); // no communication lane ops
        QCOMPARE(segmentAt(s, 1, 0, 2.5), -1);
        QCOMPARE(segmentAt(s, 0, 0, 11), -1);
    }

    void segmentsFromATimeline()
    {
        Timeline t;
        t.ranks = 2;
        t.ops = {{1, false, OpType::F, 1, 0, 0, 1, 2, 0},
                 {0, true, OpType::Send, 0, 0, 0, 1, 1.5, 0.5},
                 {0, false, OpType::F, 0, 0, 0, 0, 1, 0}};
        const auto s = ganttSegments(t);
        QCOMPARE(s.size(), std::size_t(3));
        QCOMPARE(s[0].row, 0);
        QCOMPARE(s[0].lane, 0);
        QCOMPARE(s[1].lane, 1);
        QCOMPARE(s[2].row, 1);
        QCOMPARE(s[2].op, 0);
    }
};

QTEST_MAIN(TstGanttLayout)
#include "tst_gantt_layout.moc"
