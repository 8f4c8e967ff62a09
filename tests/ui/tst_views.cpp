// The Search and Sweep views as a lecturer reads them (issue: heatmap and sweep that say what
// they show), offscreen: the heatmap's best cell is the strongest colour, unlike the background
// and the empty cells; every cell carries its value (or, when too small, its tooltip does); empty
// cells are marked and the caption says what the marks mean; the star sits on the Pareto front;
// a PP sweep says that the GPU count changes with it, a micro-batch sweep has nothing to say.
// Slides: an SVG export draws its text as outlines and looks like the PNG.

#include "collectives_view.h"
#include "comm_chart.h"
#include "io/scenario_json.h"
#include "language.h"
#include "dialogs/advisor_dialog.h"
#include "exercise_panel.h"
#include "main_window.h"
#include "scenario_panel.h"
#include "memory_time_chart.h"
#include "models/scenario_model.h"
#include "scenario_fixture.h"
#include "search_view.h"
#include "svg_outline.h"
#include "sweep_view.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QSpinBox>
#include <QComboBox>
#include <QCheckBox>
#include <QPainter>
#include <QSvgRenderer>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolTip>
#include <QtTest>

#include <cmath>

using namespace parascope;
using namespace parascope::ui;

namespace {

// A scenario from JSON text (tests/support: fails the test on an input error).
Scenario scenario(const std::string& json)
{
    return test::scenarioFromJson(json);
}

// The README's scenario: Llama-2 70B on 512 A100-80GB (TP 8 · PP 8 · DP 8), 512 sequences of 4096.
// Its search has fitting cells from 9.85 s to 28 s and cells where nothing fits (TP 1 · PP 2).
Scenario seventyB()
{
    return scenario(R"({"schema":"parascope.scenario/1","model":"llama2-70b","cluster":"dgx-a100-80g",
        "parallel":{"tp":8,"pp":8,"dp":8,"sequence_parallel":true,"zero":1},
        "training":{"seq_len":4096,"micro_batch":1,"global_batch":512,"recompute":"selective"}})");
}

// Llama-2 7B on TP 2 · DP 4 (8 GPUs), 16 sequences per step.
Scenario sevenB()
{
    return scenario(R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-a100-80g",
        "parallel":{"tp":2,"pp":1,"dp":4},"training":{"seq_len":4096,"micro_batch":1,"global_batch":16}})");
}

// The mean colour of a 5×5 patch around `at`.
QColor patch(const QImage& image, QPoint at)
{
    int r = 0, g = 0, b = 0, n = 0;
    for (int dx = -2; dx <= 2; ++dx)
        for (int dy = -2; dy <= 2; ++dy) {
            const QColor c = image.pixelColor(at + QPoint(dx, dy));
            r += c.red();
            g += c.green();
            b += c.blue();
            ++n;
        }
    return QColor(r / n, g / n, b / n);
}

int distance(const QColor& a, const QColor& b)
{
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue());
}

// A point inside cell `h`, beside its centred text (a third of the way to the left edge).
QPoint besideText(SearchView& v, const HeatCell& h)
{
    QCPAxisRect* rect = v.plot()->axisRects().at(1);
    return QPoint(int(rect->axis(QCPAxis::atBottom)->coordToPixel(h.x - 0.33)), int(rect->axis(QCPAxis::atLeft)->coordToPixel(h.y)));
}

QStringList tickLabels(QCPAxis* axis)
{
    const auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
    return ticker ? QStringList(ticker->ticks().values()) : QStringList();
}

} // namespace

class TstViews : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        uiLanguageStorage() = QStringLiteral("en");
    }

    void heatmapShowsTheBestAndMarksEmptyCells()
    {
        ScenarioModel model;
        model.setScenario(seventyB());
        SearchView v(&model);
        v.resize(1000, 900);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.runSearch(false);
        const QImage image = v.plot()->toPixmap().toImage(); // lays out, then draws (texts fitted)
        const std::vector<HeatCell>& cells = v.heatCells();
        QVERIFY(cells.size() >= 4);
        const auto best = std::find_if(cells.begin(), cells.end(), [](const HeatCell& h) { return h.best; });
        QVERIFY(best != cells.end());
        QCOMPARE(std::count_if(cells.begin(), cells.end(), [](const HeatCell& h) { return h.best; }), 1L);
        const auto empty = std::find_if(cells.begin(), cells.end(), [](const HeatCell& h) { return h.empty; });
        QVERIFY(empty != cells.end()); // Llama-2 70B with TP 1 · PP 2 fits nowhere

        // The best cell is the fastest one, and the table's first row (the star) has its step.
        for (const HeatCell& h : cells)
            QVERIFY(h.empty || h.step_s >= best->step_s);
        QCOMPARE(best->step_s, v.result().top.front().step_s);

        // Its colour, as drawn: far from the white background and from an empty cell, and it is
        // the strongest (darkest) of all the cells.
        const QColor white(Qt::white);
        const QColor best_px = patch(image, besideText(v, *best)), empty_px = patch(image, besideText(v, *empty));
        QVERIFY2(distance(best_px, white) > 300, qPrintable(best_px.name()));
        QVERIFY2(distance(best_px, empty_px) > 200, qPrintable(best_px.name() + QLatin1Char(' ') + empty_px.name()));
        QVERIFY(distance(best_px, best->fill) < 30); // drawn in the colour the view reports
        for (const HeatCell& h : cells) {
            if (h.empty)
                continue;
            QVERIFY(qGray(h.fill.rgb()) >= qGray(best->fill.rgb()));
            QVERIFY2(distance(h.fill, white) > 60, qPrintable(h.fill.name())); // even the slowest is no background
            QVERIFY(distance(h.fill, empty->fill) > 60);                    // and no empty cell
        }
        // Empty cells: light grey with hatching (the patch is grey, darker than the plain fill).
        QVERIFY(std::abs(empty_px.red() - empty_px.blue()) < 12 && empty_px.red() < 250 && empty_px.red() > 120);

        // Every cell says its value (or why it is empty), in the chart's font, readable on its fill.
        const QList<QCPItemText*> texts = v.plot()->findChildren<QCPItemText*>();
        for (const HeatCell& h : cells) {
            QVERIFY2(h.text_shown, qPrintable(h.text));
            if (h.empty)
                QVERIFY(h.text == QStringLiteral("OOM") || h.text == QStringLiteral("—"));
            else
                QVERIFY(std::abs(h.text.toDouble() / h.step_s - 1) < 0.01); // "9.85" for 9.854 s
            const auto it = std::find_if(texts.begin(), texts.end(), [&](QCPItemText* t) {
                return t->text() == h.text && t->visible() && std::lround(t->position->coords().x()) == h.x
                    && std::lround(t->position->coords().y()) == h.y;
            });
            QVERIFY2(it != texts.end(), qPrintable(h.text));
            QCOMPARE((*it)->font().pointSize(), std::max(6, v.theme().font_pt - 1));
            if (!h.empty) // white on dark cells, black on light ones
                QCOMPARE((*it)->color(), qGray(h.fill.rgb()) < 128 ? QColor(Qt::white) : QColor(Qt::black));
            QVERIFY(h.tooltip.contains(QStringLiteral("TP %1 · PP %2").arg(h.tp).arg(h.pp)));
        }
        QVERIFY(best->tooltip.contains(best->text + QStringLiteral(" s")));
        // The caption explains the colours and the marks.
        QVERIFY(v.heatCaption().contains(QStringLiteral("darker = faster")));
        QVERIFY(v.heatCaption().contains(QStringLiteral("OOM")) && v.heatCaption().contains(QStringLiteral("—")));

        // The star (best tokens/s) is on the Pareto front.
        const SearchRow& first = v.result().top.front();
        QVERIFY(std::any_of(v.result().pareto.begin(), v.result().pareto.end(),
                            [&](const SearchRow& p) { return p.index == first.index; }));

        // Too small for the numbers: they go, the tooltip keeps them (hover shows it).
        const HeatCell fastest = *best;
        v.resize(420, 420);
        QApplication::processEvents();
        v.plot()->replot();
        const std::vector<HeatCell>& small = v.heatCells();
        QVERIFY(std::any_of(small.begin(), small.end(), [](const HeatCell& h) { return !h.text_shown; }));
        for (const HeatCell& h : small)
            QVERIFY(!h.tooltip.isEmpty());
        QCPAxisRect* heat = v.plot()->axisRects().at(1);
        const QPoint centre(int(heat->axis(QCPAxis::atBottom)->coordToPixel(fastest.x)), int(heat->axis(QCPAxis::atLeft)->coordToPixel(fastest.y)));
        QTest::mouseMove(v.plot(), centre);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(fastest.text), qPrintable(QToolTip::text()));
    }

    void sweepSaysWhatElseChanges()
    {
        ScenarioModel model;
        model.setScenario(sevenB());
        SweepView v(&model);
        v.resize(1000, 800);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        auto* note = v.findChild<QLabel*>(QStringLiteral("sweepAxisNote"));
        QVERIFY(note);
        QCPAxis* bottom = v.plot()->axisRects().at(2)->axis(QCPAxis::atBottom);

        // PP keeps DP 4 on TP 2: 8, 16, 32 GPUs. The note says so, and the values' tick labels
        // carry the GPU count on a second line.
        v.runSweep(QStringLiteral("parallel.pp"), {1, 2, 4}, true);
        QCOMPARE(v.axisNote(), QStringLiteral("Along this axis the GPU count changes from 8 to 32 (DP kept at 4)."));
        QVERIFY(note->isVisibleTo(&v));
        QVERIFY(note->text().contains(v.axisNote()));
        const QStringList labels = tickLabels(bottom);
        QVERIFY2(labels.contains(QStringLiteral("1\n8 GPUs")) || labels.contains(QStringLiteral("1\n8 GPU(s)")), qPrintable(labels.join(u'|')));
        QVERIFY(v.pointText(2).contains(QStringLiteral("DP 4")));
        // In Chinese too.
        uiLanguageStorage() = QStringLiteral("zh");
        QCOMPARE(v.axisNote(), QStringLiteral("沿此轴，GPU 数从 8 变为 32（DP 保持为 4）。"));
        uiLanguageStorage() = QStringLiteral("en");

        // The micro batch moves nothing else: no note, one-line labels.
        v.runSweep(QStringLiteral("training.micro_batch"), {1, 2, 4}, true);
        QVERIFY(v.axisNote().isEmpty());
        QVERIFY(!note->isVisibleTo(&v));
        for (const QString& l : tickLabels(bottom))
            QVERIFY2(!l.contains(QLatin1Char('\n')), qPrintable(l));
    }

    void svgDrawsItsTextAsOutlines()
    {
        // A slide machine without our fonts must show what the app drew: the SVG carries no
        // <text>, only glyph outlines, and drawn by QSvgRenderer it matches the PNG export of the
        // same chart pixel for pixel but for anti-aliasing (Chinese, to exercise the CJK font).
        QTemporaryDir dir;
        MainWindow w;
        w.setLanguage(QStringLiteral("zh"));
        w.model()->setScenario(sevenB());
        const QSize size(1024, 640);
        const QString svg = dir.filePath(QStringLiteral("m.svg")), png = dir.filePath(QStringLiteral("m.png"));
        QCOMPARE(w.exportChartTo(ChartKind::Memory, svg, size, 1), QString());
        QCOMPARE(w.exportChartTo(ChartKind::Memory, png, size, 1), QString());
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(!bytes.contains("<text"));
        QVERIFY(bytes.count("<path") > 20);
        QVERIFY(bytes.contains("<svg xmlns=\"http://www.w3.org/2000/svg\"")); // no generated n1: prefixes

        QSvgRenderer renderer(bytes);
        QVERIFY(renderer.isValid());
        QImage drawn(size, QImage::Format_ARGB32);
        drawn.fill(Qt::white);
        QPainter painter(&drawn);
        renderer.render(&painter);
        painter.end();
        const QImage reference = QImage(png).convertToFormat(QImage::Format_ARGB32);
        QCOMPARE(reference.size(), size);
        // Pixels that differ clearly (not an edge's shade): few, and text exists in both.
        int differ = 0, dark_svg = 0, dark_png = 0;
        for (int y = 0; y < size.height(); ++y)
            for (int x = 0; x < size.width(); ++x) {
                const int a = qGray(drawn.pixel(x, y)), b = qGray(reference.pixel(x, y));
                differ += std::abs(a - b) > 96 ? 1 : 0;
                dark_svg += a < 128 ? 1 : 0;
                dark_png += b < 128 ? 1 : 0;
            }
        QVERIFY2(differ < size.width() * size.height() / 100, qPrintable(QString::number(differ)));
        QVERIFY(dark_png > 1000);
        QVERIFY2(std::abs(dark_svg - dark_png) < dark_png / 5, qPrintable(QStringLiteral("%1 vs %2").arg(dark_svg).arg(dark_png)));
    }

    void collectivesPlayStepByStep()
    {
        // The Collectives tab: a row of the communication chart opens its collective with the
        // real size and group; the player steps through it; the tab follows the row as the
        // scenario changes; the chart exports for a slide.
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(sevenB());
        w.model()->flush();
        const auto& comm = w.model()->estimate().communication;
        int dp = -1;
        for (std::size_t i = 0; i < comm.size(); ++i)
            if (comm[i].group == Group::Dp && comm[i].collective == Collective::AllReduce)
                dp = int(i);
        QVERIFY(dp >= 0);
        // A click on the DP row (after the double-click interval) opens it in the Collectives tab.
        CommChart* chart = w.commChart();
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        int row = -1;
        for (int r = 0; r < 16; ++r)
            if (chart->entryAtRow(r) == dp)
                row = r;
        QVERIFY(row >= 0);
        QCustomPlot* plot = chart->plot();
        const QPoint at(plot->axisRect()->center().x(), int(plot->yAxis->coordToPixel(row)));
        QTest::mouseClick(plot, Qt::LeftButton, {}, at);
        CollectivesView* view = w.collectivesView();
        QTRY_COMPARE(static_cast<QTabWidget*>(w.centralWidget())->currentWidget(), static_cast<QWidget*>(view));
        const CommEntry e = w.model()->estimate().communication[std::size_t(dp)]; // a copy: edits replace the estimate
        const CollectiveChart* c = view->chart();
        QCOMPARE(c->choice().bytes, e.bytes_per_call);
        QCOMPARE(c->choice().ranks, 4); // DP 4 (TP 2 inside the node: 4 of the node's GPUs)
        QCOMPARE(c->choice().origin, CommChart::entryName(e));
        // A ring all-reduce on 4 GPUs: 2·(4 − 1) = 6 steps; each GPU sends 2·3/4·S.
        QCOMPARE(c->stepCount(), 6);
        QCOMPARE(c->plan()->bytes_sent_per_gpu, 1.5 * e.bytes_per_call);
        QVERIFY(c->stepLine().startsWith(QStringLiteral("Step 1 of 6")));
        view->stepForward();
        view->stepForward();
        QCOMPARE(c->position(), 2.0);
        QVERIFY(c->stepLine().startsWith(QStringLiteral("Step 3 of 6")));
        view->stepBack();
        QCOMPARE(c->position(), 1.0);
        view->togglePlay();
        QVERIFY(view->playing());
        QTRY_VERIFY(c->position() > 1.05);
        view->togglePlay();
        QVERIFY(!view->playing());
        view->rewind();
        QCOMPARE(c->position(), 0.0);
        // The figures: the ring's bytes against the textbook's 2·S·n, and the other algorithms.
        const QStringList lines = c->figureLines();
        QVERIFY(lines.at(0).contains(QStringLiteral("2·S·n")));
        QCOMPARE(int(c->alternatives().size()), 3); // ring, tree, hierarchical all run an all-reduce
        // Half the data parallelism: the tab follows the same row, now a group of 2 (2 steps).
        w.model()->edit([](Scenario& s) { s.parallel.dp = 2; s.training.global_batch = 8; });
        w.model()->flush();
        QCOMPARE(c->choice().ranks, 2);
        QCOMPARE(c->stepCount(), 2);
        // In Chinese, and on a slide.
        w.setLanguage(QStringLiteral("zh"));
        QVERIFY(c->headline().contains(QStringLiteral("环")));
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("collective.png"));
        QCOMPARE(w.exportChartTo(ChartKind::Collective, file, QSize(1280, 720), 1), QString());
        QVERIFY(QFileInfo(file).size() > 1000);
        // A send/recv has no step-by-step form: the tab stays as it was.
        CommEntry p2p = e;
        p2p.collective = Collective::SendRecv;
        QVERIFY(!view->showEntry(p2p, QStringLiteral("PP")));
        QCOMPARE(c->choice().ranks, 2);
    }

    void memoryOverTheStep()
    {
        // The memory-over-time tab on lesson 6's pipeline (Llama-2 7B, PP 4, 8 microbatches of
        // one sequence, 1F1B): each rank's curve peaks at the memory table's total for its stage;
        // rank 0 holds at most p = 4 microbatches' activations. GPipe beside it holds all 8: its
        // activations (peak − floor, where each curve starts: the model states and buffers, before
        // the first forward) are twice 1F1B's, 8/4.
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(scenario(R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-a100-80g",
            "parallel":{"tp":1,"pp":4,"dp":1,"zero":0,"schedule":"1f1b"},
            "training":{"seq_len":4096,"micro_batch":1,"global_batch":8,"recompute":"selective"}})"));
        w.model()->flush();
        MemoryTimeChart* chart = w.memoryTimeChart();
        const Estimate& e = w.model()->estimate();
        QCOMPARE(int(chart->lanes().size()), 4);
        const auto peak = [](const std::vector<MemoryPoint>& lane) {
            double most = 0;
            for (const MemoryPoint& p : lane)
                most = std::max(most, p.bytes);
            return most;
        };
        for (std::size_t r = 0; r < 4; ++r)
            QVERIFY(std::abs(peak(chart->lanes()[r]) - e.memory.stages[r].total()) < 1.0);
        QCOMPARE(e.timeline.timeline.peak_inflight.front(), 4.0);
        QVERIFY(chart->headline().contains(QStringLiteral("at most 4 microbatches")));
        QVERIFY(chart->compareLane().empty());
        chart->setCompare(ScheduleKind::GPipe);
        QVERIFY(!chart->compareLane().empty());
        const double floor = e.memory.stages[0].total() - e.memory.stages[0].activations;
        QCOMPARE(chart->lanes()[0].front().bytes, floor);
        const double ratio = (peak(chart->compareLane()) - chart->compareLane().front().bytes) / (peak(chart->lanes()[0]) - floor);
        QVERIFY2(std::abs(ratio - 2.0) < 1e-6, qPrintable(QString::number(ratio)));
        QVERIFY(chart->headline().contains(QStringLiteral("GPipe: 8")));
        // The timeline's playback cursor reaches this chart too; the chart exports for a slide.
        chart->setCursorTime(0.5);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("memory-time.png"));
        QCOMPARE(w.exportChartTo(ChartKind::MemoryTime, file, QSize(1280, 720), 1), QString());
        QVERIFY(QFileInfo(file).size() > 1000);
        // The comparison is a second evaluation: while the tab is hidden a new scenario (16
        // microbatches) leaves it as it was; an export catches it up — GPipe now holds all 16,
        // four times 1F1B's 4.
        const double gpipe_8 = peak(chart->compareLane());
        QVERIFY(!chart->isVisible());
        w.model()->setScenario(scenario(R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-a100-80g",
            "parallel":{"tp":1,"pp":4,"dp":1,"zero":0,"schedule":"1f1b"},
            "training":{"seq_len":4096,"micro_batch":1,"global_batch":16,"recompute":"selective"}})"));
        w.model()->flush();
        QCOMPARE(peak(chart->compareLane()), gpipe_8);
        QCOMPARE(w.exportChartTo(ChartKind::MemoryTime, file, QSize(1280, 720), 1), QString());
        const Estimate& e16 = w.model()->estimate();
        const double floor16 = e16.memory.stages[0].total() - e16.memory.stages[0].activations;
        const double ratio16 = (peak(chart->compareLane()) - chart->compareLane().front().bytes) / (peak(chart->lanes()[0]) - floor16);
        QVERIFY2(std::abs(ratio16 - 4.0) < 1e-6, qPrintable(QString::number(ratio16)));
    }

    void advisorWalksTheProcedure()
    {
        // Tools → Advisor on the README's scenario (Llama-2 70B, 512 A100 80GB): tst_decision
        // derives its outcome (TP 8 · DP 64, ZeRO-1). A button applies it; a TP slider does not
        // re-run the procedure (it reads the model, cluster, GPUs and batch), a longer sequence does.
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(seventyB());
        AdvisorDialog* d = w.showAdvisor();
        QVERIFY(d->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!d->running() && !d->result().steps.empty(), 20000);
        QCOMPARE(int(d->result().steps.size()), 4);
        QVERIFY2(d->text().contains(QStringLiteral("TP 8 inside a node is enough")), qPrintable(d->text()));
        QVERIFY(d->text().contains(QStringLiteral("Against the strategy search")));
        d->applyLayout();
        w.model()->flush();
        QCOMPARE(w.model()->scenario().parallel.tp, 8);
        QCOMPARE(w.model()->scenario().parallel.dp, 64);
        QCOMPARE(w.model()->scenario().parallel.pp, 1);
        w.model()->edit([](Scenario& sc) { sc.parallel.tp = 4; sc.parallel.dp = 128; });
        QVERIFY(!d->running());
        w.model()->edit([](Scenario& sc) { sc.training.seq_len = 8192; });
        QVERIFY(d->running());
        QTRY_VERIFY_WITH_TIMEOUT(!d->running(), 20000);
        QCOMPARE(d->result().scenario.training.seq_len, 8192LL);
        w.setLanguage(QStringLiteral("zh"));
        QTRY_VERIFY(d->text().contains(QStringLiteral("放得下吗"))); // LanguageChange is posted
        QVERIFY(w.showAdvisor() == d); // one window
    }

    void exercisePredictThenReveal()
    {
        // Case 10, step 2 is an exercise: the charts and numbers stay hidden until the estimate
        // is revealed. 190 GiB is 2·P·n (P = 3.08 GiB, n = 32, 197 GiB) within the exercise's 5 %:
        // the "multiplied by DP" mistake. The answers export as CSV for the teacher.
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.loadLesson(QStringLiteral("10-ring-allreduce"), 1);
        ExercisePanel* ex = w.exercisePanel();
        QVERIFY(ex->pending());
        QVERIFY(!w.centralWidget()->isEnabled());
        QVERIFY(w.centralWidget()->graphicsEffect() != nullptr);
        QVERIFY(w.statusLabel()->text().contains(QStringLiteral("Predict first")));
        QVERIFY(!ex->reveal()); // nothing typed yet
        QVERIFY(ex->pending());
        ex->answerBox()->setText(QStringLiteral("190"));
        QVERIFY(ex->reveal());
        QVERIFY(!ex->pending());
        QVERIFY(w.centralWidget()->isEnabled());
        QVERIFY(w.centralWidget()->graphicsEffect() == nullptr);
        QVERIFY(!w.statusLabel()->text().contains(QStringLiteral("Predict first")));
        QVERIFY2(ex->resultText().contains(QStringLiteral("You multiplied by DP")), qPrintable(ex->resultText()));
        QVERIFY(ex->resultText().contains(QStringLiteral("2·31/32")));
        QCOMPARE(int(ex->records().size()), 1);
        QVERIFY(!ex->records().front().correct);
        // GPipe's bubble in Chinese: 27 % is 3/11 within 5 %.
        w.setLanguage(QStringLiteral("zh"));
        w.loadLesson(QStringLiteral("6-pipeline-schedules"), 0);
        QVERIFY(ex->pending());
        ex->answerBox()->setText(QStringLiteral("27"));
        QVERIFY(ex->reveal());
        QVERIFY2(ex->resultText().contains(QStringLiteral("答对了")), qPrintable(ex->resultText()));
        QCOMPARE(int(ex->records().size()), 2);
        // A step without an exercise: no panel, nothing hidden.
        w.loadLesson(QStringLiteral("6-pipeline-schedules"), 1);
        QVERIFY(!ex->pending());
        QVERIFY(!ex->isVisible());
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("answers.csv"));
        QCOMPARE(w.exportExerciseResults(file), QString());
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith(QStringLiteral("time,lesson,step,quantity,unit,estimate,engine")));
        QVERIFY2(lines[1].contains(QStringLiteral(",10-ring-allreduce,2,dp_gib_sent,GiB,190,5.96")), qPrintable(lines[1]));
        QVERIFY(lines[1].contains(QStringLiteral(",wrong,")));
        QVERIFY2(lines[2].contains(QStringLiteral(",6-pipeline-schedules,1,bubble_formula,%,27,27.27")), qPrintable(lines[2]));
        QVERIFY(lines[2].contains(QStringLiteral(",right,")));
    }

    void communicationWhatIfs()
    {
        // The panel's what-ifs of the communication module, each moving the step: FP8 gradients
        // halve the DP reduction's bytes (tst_communication derives them), no overlap exposes it,
        // one bucket for everything exposes it too.
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(sevenB());
        w.model()->flush();
        const auto dpBytes = [&] {
            double bytes = 0;
            for (const CommEntry& c : w.model()->estimate().communication)
                if (c.group == Group::Dp && c.purpose == Purpose::Gradients)
                    bytes += c.bytes_per_gpu_per_step;
            return bytes;
        };
        const double bf16 = dpBytes();
        const double step = w.model()->estimate().time.step_s;
        auto* comm = w.panel()->findChild<QComboBox*>(QStringLiteral("panel.gradComm"));
        QVERIFY(comm);
        const int fp8 = comm->findData(QStringLiteral("fp8"));
        comm->setCurrentIndex(fp8);
        emit comm->activated(fp8);
        w.model()->flush();
        QCOMPARE(w.model()->scenario().training.grad_comm, GradComm::Fp8);
        QVERIFY(std::abs(dpBytes() - bf16 / 2) < 1e-6 * bf16);
        auto* overlap = w.panel()->findChild<QCheckBox*>(QStringLiteral("panel.overlapDp"));
        QVERIFY(overlap && overlap->isChecked());
        overlap->setChecked(false);
        w.model()->flush();
        QVERIFY(!w.model()->scenario().parallel.overlap_grad_reduce);
        QVERIFY(w.model()->estimate().time.step_s > step);
        auto* bucket = w.panel()->findChild<QSpinBox*>(QStringLiteral("panel.gradBucket"));
        QVERIFY(bucket);
        QCOMPARE(bucket->value(), 0); // Megatron's default
        bucket->setValue(500);
        w.model()->flush();
        QCOMPARE(w.model()->scenario().parallel.grad_bucket_mparams, 500.0);
        QVERIFY(w.panel()->findChild<QCheckBox*>(QStringLiteral("panel.overlapTp")));
    }

    void svgOutlineReportsBadInput()
    {
        // Text inside a transformed group keeps its group; the path has the text's fill.
        const QByteArray svg = "<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 200 50\">"
                               "<g transform=\"rotate(-90)\"><text fill=\"#d55e00\" x=\"5\" y=\"20\" font-family=\"Noto Sans\" "
                               "font-size=\"12\" font-weight=\"700\" xml:space=\"preserve\">GiB 显存</text></g></svg>";
        QString error;
        const QByteArray out = outlineSvgText(svg, &error);
        QVERIFY(error.isEmpty());
        QVERIFY(out.contains("<g transform=\"rotate(-90)\"><path fill=\"#d55e00\""));
        QVERIFY(!out.contains("font-size"));
        QVERIFY(out.contains(" d=\"M"));
        // Broken XML: an error with its place, and nothing to write.
        QVERIFY(outlineSvgText("<svg><text>open", &error).isEmpty());
        QVERIFY2(error.startsWith(QStringLiteral("SVG line 1")), qPrintable(error));
    }
};

QTEST_MAIN(TstViews)
#include "tst_views.moc"
