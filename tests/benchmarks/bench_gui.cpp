// Slider → engine → every visible chart replotted, on the largest preset (Llama-3.1 405B on
// 16,384 H100, TP 8 × PP 16 × DP 128, interleaved VPP 8, 128 microbatches), in a shown window at
// 1600×1000 on the offscreen (software) platform, with the allocator tuned as the app runs
// (ui/allocator_tuning.h). Prints the median, p90 and p99 latency of 200 moves and each slow one.
//   build/dev/tests/bench_gui

#include "allocator_tuning.h"
#include "main_window.h"
#include "controllers/files_controller.h"
#include "memory_chart.h"
#include "comm_chart.h"
#include "io/scenario_json.h"
#include "models/scenario_model.h"
#include "scenario_panel.h"
#include "gantt_plottable.h"
#include "timeline_chart.h"

#include <qcustomplot.h>

#include <QElapsedTimer>
#include <QSlider>
#include <QtTest>

using namespace parascope;
using namespace parascope::ui;

class BenchGui : public QObject {
    Q_OBJECT

private slots:
    void sliderToReplot()
    {
        QStandardPaths::setTestModeEnabled(true);
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        std::vector<InputError> errors;
        const auto j = parseJsonText(R"({"schema":"parascope.scenario/1","model":"llama3.1-405b","cluster":"dgx-h100",
            "parallel":{"tp":8,"pp":16,"dp":128,"vpp":8,"schedule":"interleaved","sequence_parallel":true,"zero":1},
            "training":{"seq_len":8192,"micro_batch":1,"global_batch":16384}})",
                                     errors);
        w.model()->setScenario(*readScenario(*j, errors));
        QSlider* seq = w.panel()->slider(QStringLiteral("training.seq_len"));
        const int base = seq->value();
        std::vector<double> ms, engine, update, charts[3];
        for (int i = 0; i < 200; ++i) {
            QElapsedTimer t;
            t.start();
            seq->setValue(base + (i % 2 == 0 ? -1 : 0)); // 4096 ↔ 8192 tokens
            w.model()->flush(); // engine + every view's refresh (data into the plots)
            engine.push_back(w.model()->lastEvaluationMs());
            update.push_back(double(t.nsecsElapsed()) / 1e6);
            int c = 0;
            for (QCustomPlot* p : {w.memoryChart()->plot(), w.timelineChart()->plot(), w.commChart()->plot()}) {
                QElapsedTimer r;
                r.start();
                p->replot(QCustomPlot::rpImmediateRefresh);
                charts[c++].push_back(double(r.nsecsElapsed()) / 1e6);
            }
            ms.push_back(double(t.nsecsElapsed()) / 1e6);
        }
        const auto at = [](std::vector<double> v, double q) {
            std::sort(v.begin(), v.end());
            return v[std::min(v.size() - 1, std::size_t(q * v.size()))];
        };
        qInfo("slider -> engine + 3 charts replotted: median %.1f ms, p90 %.1f ms, p99 %.1f ms (%zu moves)",
              at(ms, 0.5), at(ms, 0.9), at(ms, 0.99), ms.size());
        for (std::size_t i = 0; i < ms.size(); ++i)
            if (ms[i] > 2 * at(ms, 0.5))
                qInfo("  slow move %zu: %.1f ms (engine %.1f ms, updates %.1f ms)", i, ms[i], engine[i], update[i]);
        qInfo("  engine %.1f ms, engine + view updates %.1f ms, replot memory %.1f / timeline %.1f / communication "
              "%.1f ms "
              "(medians); timeline drew %zu rectangles for %zu ops",
              at(engine, 0.5), at(update, 0.5), at(charts[0], 0.5), at(charts[1], 0.5), at(charts[2], 0.5),
              w.timelineChart()->gantt()->lastDrawnRects(), w.timelineChart()->gantt()->segments().size());
        QVERIFY(!ms.empty());
    }

    void boundedScenarios()
    {
        // Bounded work: open each extreme scenario (10⁶ GPUs, 10⁶ microbatches, PP 10⁴, seq 10⁷)
        // in a shown window: read + evaluate + every view updated + the three charts replotted.
        QStandardPaths::setTestModeEnabled(true);
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        for (const char* name : {"bounded-gpus-1e6", "bounded-microbatches-1e6", "bounded-pp-1e4", "bounded-seq-1e7",
                                 "bounded-pp-1e5-vpp-1024", "bounded-pp-128"}) {
            QElapsedTimer t;
            t.start();
            const QString error = w.files()->openScenario(QStringLiteral(PARASCOPE_TEST_DATA "/") + QLatin1String(name)
                                                          + QStringLiteral(".parascope.json"));
            QVERIFY2(error.isEmpty(), qPrintable(error));
            w.model()->flush();
            for (QCustomPlot* p : {w.memoryChart()->plot(), w.timelineChart()->plot(), w.commChart()->plot()})
                p->replot(QCustomPlot::rpImmediateRefresh);
            qInfo("%-26s open + evaluate + replot: %6.1f ms (engine %.1f ms; timeline %zu ops, %zu rectangles drawn)",
                  name, double(t.nsecsElapsed()) / 1e6, w.model()->lastEvaluationMs(),
                  w.timelineChart()->gantt()->segments().size(), w.timelineChart()->gantt()->lastDrawnRects());
        }
    }
};

int main(int argc, char** argv)
{
    tuneAllocatorForRedraws(argv); // as the app's main() does
    QApplication app(argc, argv);
    BenchGui bench;
    return QTest::qExec(&bench, argc, argv);
}
#include "bench_gui.moc"
