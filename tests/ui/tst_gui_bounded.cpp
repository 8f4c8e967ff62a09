// Every file the CLI answers, the app answers too (issue "Reliability and speed, round 3"):
// each tests/data/bounded-* scenario opens in a shown window, every view redraws and every chart
// exports. Before: PP 10,000 made 10,000 memory-over-time curves and 20,000 out-of-memory
// marks (over 40 s of CPU for one export, the CLI 0.05 s), and PP 64 × VPP 4 drew an empty Gantt.
// The time is bounded by this suite's CTest timeout (tests/CMakeLists.txt), not asserted.

#include "chart_kind.h"
#include "main_window.h"
#include "controllers/export_controller.h"
#include "controllers/files_controller.h"
#include "memory_time_chart.h"
#include "models/scenario_model.h"
#include "timeline_chart.h"

#include <QDir>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace parascope;
using namespace parascope::ui;

class TstGuiBounded : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void ranksToDrawAreEvenlySpaced()
    {
        // 10 ranks in 4 rows: 0, 3, 6, 9; of a sample, its own ranks; everything when it fits.
        QCOMPARE(TimelineChart::ranksToDraw(10, {}, 4), (std::vector<int>{0, 3, 6, 9}));
        QCOMPARE(TimelineChart::ranksToDraw(64, {0, 10, 20, 30, 40, 63}, 3), (std::vector<int>{0, 30, 63}));
        QVERIFY(TimelineChart::ranksToDraw(10, {}, 10).empty());
        QCOMPARE(TimelineChart::ranksToDraw(64, {0, 21, 42, 63}, 8), (std::vector<int>{0, 21, 42, 63}));
    }

    void everyBoundedFileOpensRedrawsAndExports()
    {
        const QStringList files
            = QDir(QStringLiteral(PARASCOPE_TEST_DATA)).entryList({QStringLiteral("bounded-*.parascope.json")});
        QVERIFY(files.size() >= 7);
        QTemporaryDir out;
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        for (const QString& name : files) {
            QElapsedTimer clock;
            clock.start();
            const QString error = w.files()->openScenario(QStringLiteral(PARASCOPE_TEST_DATA "/") + name);
            QVERIFY2(error.isEmpty(), qPrintable(name + QStringLiteral(": ") + error));
            w.model()->flush();
            const Estimate& e = w.model()->estimate();
            // The memory-over-time chart draws at most 64 curves, whatever the pipeline.
            QVERIFY2(w.memoryTimeChart()->drawn().size() <= std::size_t(MemoryTimeChart::kMaxDrawnRanks),
                     qPrintable(name));
            // A timeline that could be simulated once is drawn, sampled if need be.
            if (name == QStringLiteral("bounded-pp-64-vpp-4.parascope.json")) {
                QVERIFY(e.timeline.simulated && !e.timeline.timeline.ops.empty());
                QCOMPARE(e.timeline.ranks_shown.size(), std::size_t(48)); // 50,000 ops / (65,536 / 64 per rank)
                QCOMPARE(e.timeline.ranks_shown.front(), 0);
                QCOMPARE(e.timeline.ranks_shown.back(), 63);
                QVERIFY(w.timelineChart()->title().contains(QStringLiteral("48 of 64 ranks")));
            }
            // PP 10,000 in a Gantt a few hundred pixels high: evenly spaced ranks, two pixels a row
            // at least (before, 10,000 rows of a fiftieth of a pixel drew nothing visible).
            if (name == QStringLiteral("bounded-pp-1e4.parascope.json")) {
                const std::vector<int>& rows = w.timelineChart()->drawnRanks();
                QVERIFY(!rows.empty() && rows.size() < 1000 && rows.front() == 0 && rows.back() == 9999);
                QVERIFY2(w.timelineChart()->title().contains(QStringLiteral("of 10000 ranks")),
                         qPrintable(w.timelineChart()->title()));
            }
            for (const ChartKind kind :
                 {ChartKind::Memory, ChartKind::Timeline, ChartKind::Communication, ChartKind::Walls,
                  ChartKind::Collective, ChartKind::MemoryTime, ChartKind::Slots}) {
                const QString file
                    = out.filePath(name + QLatin1Char('-') + QLatin1String(toString(kind)) + QStringLiteral(".png"));
                const QString failed = w.exports()->exportChartTo(kind, file, QSize(1280, 720), 1);
                QVERIFY2(failed.isEmpty(),
                         qPrintable(name + QLatin1Char(' ') + QLatin1String(toString(kind)) + QStringLiteral(": ")
                                    + failed));
                QVERIFY(QFileInfo(file).size() > 1000);
            }
            qInfo("%s: opened, redrawn and exported in %.1f s", qPrintable(name), double(clock.elapsed()) / 1000);
        }
    }
};

QTEST_MAIN(TstGuiBounded)
#include "tst_gui_bounded.moc"
