// The charts in front of a class (from tst_classroom), offscreen: they speak the UI language and
// show what a slide needs. The communication chart gives each row's bytes and calls, the
// timeline's title both bubble figures, the memory bars their totals and OOM on the bar; "What
// breaks" offers evaluated fixes and folds when nothing breaks; playback pauses and scrubs with
// the memory following; A and B are compared by name; slides carry their context line and a
// Chinese font.

#include "chart_export.h"
#include "classroom_scenarios.h"
#include "comm_chart.h"
#include "compare_table.h"
#include "format.h"
#include "gantt_plottable.h"
#include "diagnostics_panel.h"
#include "io/error_bands.h"
#include "io/scenario_json.h"
#include "main_window.h"
#include "controllers/compare_controller.h"
#include "controllers/export_controller.h"
#include "estimate/memory_over_time.h"
#include "memory/memory_verdict.h"
#include "memory_chart.h"
#include "memory_time_chart.h"
#include "pdf_text.h"
#include "playback_bar.h"
#include "models/scenario_model.h"
#include "timeline_chart.h"

#include <qcustomplot.h>

#include <QListView>
#include <QListWidget>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

using namespace parascope;
using namespace parascope::ui;
using parascope::test::classroom::scenario;
using parascope::test::classroom::sevenB;

class TstClassroomCharts : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ParaScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("ParaScopeClassroomCharts"));
        QSettings().clear();
    }

    void communicationSpeaksTheUiLanguageWithBytesAndCalls()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("zh"));
        w.model()->setScenario(sevenB());
        w.resize(1280, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.model()->flush();
        const QStringList rows = w.commChart()->rowTexts();
        QVERIFY(!rows.isEmpty());
        const QString all = rows.join(QLatin1Char('\n'));
        // The course's spelling of the collectives and Chinese purposes and links, never the
        // report's codes (reduce_scatter, activations, network).
        for (const char* code :
             {"reduce_scatter", "all_gather", "all_reduce", "activations", "gradients", "network", "send_recv"})
            QVERIFY2(!all.contains(QLatin1String(code)), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("ReduceScatter")) || all.contains(QStringLiteral("AllReduce")),
                 qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("激活")) || all.contains(QStringLiteral("梯度")), qPrintable(all));
        // Each row says its bytes per GPU and its calls per step.
        for (const QString& row : rows)
            QVERIFY2((row.contains(QStringLiteral("GiB")) || row.contains(QStringLiteral("MiB"))
                      || row.contains(QStringLiteral("KiB")))
                         && row.contains(QStringLiteral("次")),
                     qPrintable(row));
        // A lower chart sums what does not fit into one last row ("the other k") instead of
        // overlapping labels; one too low even for that says how many more there are.
        const int entries = w.commChart()->entryCount();
        bool summed = false, counted = false;
        for (int h = 600; h >= 140; h -= 20) {
            w.commChart()->setFixedHeight(h);
            QApplication::processEvents();
            const QStringList shown = w.commChart()->rowTexts();
            QVERIFY(!shown.isEmpty() && shown.size() <= entries);
            if (shown.size() == entries)
                continue;
            if (shown.constLast().contains(QStringLiteral("其余"))) {
                summed = true;
                QVERIFY(shown.size() >= 3);
            } else {
                counted = true;
                QVERIFY2(w.commChart()->plot()->xAxis->label().contains(QStringLiteral("另有")),
                         qPrintable(w.commChart()->plot()->xAxis->label()));
            }
        }
        QVERIFY(summed && counted);
    }

    void timelineTitleLabelsBothBubbleFigures()
    {
        // PP 4, 8 microbatches: the textbook's (p−1)/(m+p−1) = 3/11 = 27.3 %; the simulation
        // gives its own figure. Both appear, labelled, with one decimal each.
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(sevenB());
        w.model()->flush();
        const Estimate& e = w.model()->estimate();
        QCOMPARE(e.microbatches, 8LL);
        const QString title = w.timelineChart()->title().simplified(); // wrapped to the chart's width
        QVERIFY2(title.contains(QStringLiteral("simulated %1 %").arg(e.time.bubble_fraction * 100, 0, 'f', 1)),
                 qPrintable(title));
        QVERIFY2(title.contains(QStringLiteral("(p−1)/(m+p−1) = 27.3 %")), qPrintable(title));
        QVERIFY2(title.startsWith(QStringLiteral("1F1B")), qPrintable(title));
    }

    void memoryBarsCarryTheirTotalsAndOomOnTheBar()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.model()->setScenario(sevenB());
        w.model()->flush();
        QApplication::processEvents();
        const QStringList labels = w.memoryChart()->barLabels();
        QCOMPARE(labels.size(), 4); // one per stage
        const double stage0 = w.model()->estimate().memory.stages[0].total() / double(1ull << 30);
        QCOMPARE(labels.first(), QString::number(stage0, 'f', 1));
        // Llama-2 70B on one stage of one GPU does not fit: the bar says so itself.
        w.model()->setScenario(
            scenario(R"({"schema":"parascope.scenario/1","model":"llama2-70b","cluster":"dgx-a100-80g",
            "parallel":{"tp":1,"pp":1,"dp":1},"training":{"seq_len":4096,"micro_batch":1,"global_batch":1}})"));
        w.model()->flush();
        QApplication::processEvents();
        QVERIFY2(w.memoryChart()->barLabels().join(QLatin1Char(' ')).contains(QStringLiteral("OOM")),
                 qPrintable(w.memoryChart()->barLabels().join(QLatin1Char(' '))));
    }

    // "What if PP = 32?": 32 stage numbers under a chart a projector gives 250 pixels ran into one
    // another ("0123456789101112…"); they are thinned to what the axis holds, 0 always shown.
    void stageNumbersDoNotRunTogether()
    {
        for (const QSize size : {QSize(1280, 720), QSize(1024, 768)}) {
            MainWindow w;
            w.setLanguage(QStringLiteral("zh"));
            w.resize(size);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.model()->setScenario(
                scenario(R"({"schema":"parascope.scenario/1","model":"llama2-70b","cluster":"dgx-h100",
                "parallel":{"tp":8,"pp":32,"dp":1},"training":{"seq_len":4096,"micro_batch":1,"global_batch":64}})"));
            w.model()->flush();
            QApplication::processEvents();
            QCustomPlot* plot = w.memoryChart()->plot();
            plot->replot();
            QApplication::processEvents();
            auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
            QVERIFY(ticker);
            const QMap<double, QString> ticks = ticker->ticks();
            QVERIFY2(ticks.size() >= 2 && ticks.size() < 32, qPrintable(QString::number(ticks.size())));
            QCOMPARE(ticks.firstKey(), 0.0);
            const QFontMetrics fm(plot->xAxis->tickLabelFont());
            double right = -1e9; // the right edge of the label before
            for (auto it = ticks.cbegin(); it != ticks.cend(); ++it) {
                const double centre = plot->xAxis->coordToPixel(it.key());
                const double half = fm.horizontalAdvance(it.value()) / 2.0;
                QVERIFY2(centre - half > right,
                         qPrintable(QStringLiteral("%1×%2: stage %3 touches the one before")
                                        .arg(size.width())
                                        .arg(size.height())
                                        .arg(it.value())));
                right = centre + half;
            }
        }
    }

    // DeepSeek-V3 on PP 16 with 9 stages over capacity: the turned "OOM" marks, a line high and
    // closer than a line apart, ran into one another (the totals' two lines over every bar), and
    // the capacity label sat over the first bars under their red frames. Now no text touches
    // another, the bars over capacity keep their frames and one label counts them, and the
    // capacity label is on the dashed line's free stretch, clear of every bar.
    void memoryMarksStayApartOnThinOomBars()
    {
        const Scenario dsv3 = scenario(R"({"schema":"parascope.scenario/1","model":"deepseek-v3",
            "cluster":"dgx-h100","parallel":{"tp":1,"pp":16,"dp":128,"ep":64,"moe_dispatcher":"deepep"},
            "training":{"seq_len":4096,"micro_batch":1,"global_batch":15360,"precision":"fp8",
            "grad_dtype":"fp32","recompute":"selective"}})");
        for (const char* lang : {"zh", "en"})
            for (const QSize size : {QSize(1280, 720), QSize(1024, 768)}) {
                const QString at
                    = QStringLiteral("%1 %2×%3").arg(QLatin1String(lang)).arg(size.width()).arg(size.height());
                MainWindow w;
                w.setLanguage(QLatin1String(lang));
                w.resize(size);
                w.show();
                QVERIFY(QTest::qWaitForWindowExposed(&w));
                w.model()->setScenario(dsv3);
                w.model()->flush();
                QApplication::processEvents();
                QCustomPlot* plot = w.memoryChart()->plot();
                plot->replot();
                const MemoryReport& m = w.model()->estimate().memory;
                int over = 0, frames = 0;
                std::vector<QRectF> bars;
                for (const StageMemory& st : m.stages) {
                    over += memoryVerdict(st.total(), m.capacity_bytes) == MemoryVerdict::OutOfMemory ? 1 : 0;
                    const double x0 = plot->xAxis->coordToPixel(st.stage - 0.35);
                    const double x1 = plot->xAxis->coordToPixel(st.stage + 0.35);
                    bars.emplace_back(QPointF(x0, plot->yAxis->coordToPixel(st.total() / double(1ull << 30))),
                                      QPointF(x1, plot->yAxis->coordToPixel(0)));
                }
                QVERIFY2(over >= 2, qPrintable(at));
                std::vector<QRectF> rects;
                QStringList texts;
                for (int i = 0; i < plot->itemCount(); ++i) {
                    frames += qobject_cast<QCPItemRect*>(plot->item(i)) && plot->item(i)->visible() ? 1 : 0;
                    if (auto* t = qobject_cast<QCPItemText*>(plot->item(i));
                        t && t->visible() && !t->text().isEmpty()) {
                        rects.push_back(textItemRect(t));
                        texts << t->text();
                        if (t->text().endsWith(QStringLiteral("GiB"))) // the capacity label
                            for (const QRectF& bar : bars)
                                QVERIFY2(!rects.back().adjusted(1, 1, -1, -1).intersects(bar),
                                         qPrintable(at + texts.last()));
                    }
                }
                QCOMPARE(frames, over); // the highlight rectangle is hidden: each frame marks a stage
                QVERIFY2(texts.join(QLatin1Char(' ')).contains(QStringLiteral("GiB")), qPrintable(at));
                for (std::size_t i = 0; i < rects.size(); ++i)
                    for (std::size_t j = i + 1; j < rects.size(); ++j)
                        QVERIFY2(!rects[i].intersects(rects[j]),
                                 qPrintable(at + QStringLiteral(": %1 / %2").arg(texts[int(i)], texts[int(j)])));
            }
    }

    // A step too long to keep whole (16,384 microbatches) is drawn as its first microbatches, a
    // step of their own: the timeline's axis ends with them, and the memory over time did not —
    // drawn on the whole step, its curves fell to the floor at a fraction of it and stayed there.
    // Both axes and the playback now end where the drawn ops do, and the memory says so.
    void longStepDrawnAsTheTimelineDrawsIt()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.model()->setScenario(
            scenario(R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-a100-80g",
            "parallel":{"tp":1,"pp":4,"dp":1,"schedule":"1f1b"},
            "training":{"seq_len":4096,"micro_batch":1,"global_batch":16384,"recompute":"selective"}})"));
        w.model()->flush();
        QApplication::processEvents();
        const Estimate& e = w.model()->estimate();
        QVERIFY(e.timeline.simulated && timelineIsPartial(e));
        double last_op = 0;
        for (const TimedOp& op : e.timeline.timeline.ops)
            last_op = std::max(last_op, op.end_s);
        QCOMPARE(shownTimelineSeconds(e), last_op);
        QVERIFY2(last_op < e.time.step_s / 2, qPrintable(QStringLiteral("%1 of %2 s").arg(last_op).arg(e.time.step_s)));
        QCOMPARE(w.timelineChart()->plot()->xAxis->range().upper, last_op);
        MemoryTimeChart* memory = w.memoryTimeChart();
        memory->refresh();
        QCOMPARE(memory->plot()->xAxis->range().upper, last_op);
        const QString shown = QString::number(e.timeline.microbatches_shown);
        QVERIFY2(memory->headline().contains(QStringLiteral("drawn: the first %1 of 16384 microbatches").arg(shown)),
                 qPrintable(memory->headline()));
        // The playback runs over the drawn part: at its end the cursor is at the last op.
        w.timelineChart()->playback()->seek(1e9);
        QCOMPARE(w.timelineChart()->playback()->time(), last_op);
    }

    void whatBreaksOffersEvaluatedFixesAndFoldsWhenNothingBreaks()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        DiagnosticsPanel* panel = w.diagnosticsPanel();
        // Nothing breaks: one line, no empty list.
        w.model()->setScenario(sevenB());
        w.model()->flush();
        if (w.model()->estimate().diagnostics.empty()) {
            QVERIFY(panel->view()->isHidden());
            QVERIFY(panel->maximumHeight() < 120);
        }
        // Llama-2 70B on 16 GPUs with plain DDP does not fit: the panel lists changes the engine
        // evaluated; applying the first makes it fit.
        w.model()->setScenario(
            scenario(R"({"schema":"parascope.scenario/1","model":"llama2-70b","cluster":"dgx-a100-80g",
            "parallel":{"tp":1,"pp":1,"dp":16},"training":{"seq_len":4096,"micro_batch":1,"global_batch":64}})"));
        w.model()->flush();
        QVERIFY(!w.model()->estimate().memory.fits);
        QVERIFY(!panel->view()->isHidden());
        QTRY_VERIFY_WITH_TIMEOUT(!panel->adviceRunning() && !panel->advice().empty(), 20000);
        QCOMPARE(panel->adviceView()->count(), int(panel->advice().size()));
        QVERIFY(panel->advice().front().fits);
        panel->applyAdvice(0);
        w.model()->flush();
        QVERIFY(w.model()->estimate().memory.fits);
    }

    void playbackPausesScrubsAndTheMemoryFollows()
    {
        MainWindow w;
        w.model()->setScenario(sevenB());
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.model()->flush();
        PlaybackBar* bar = w.timelineChart()->playback();
        QVERIFY(!bar->active());
        QVERIFY(w.memoryChart()->cursorBytes().empty());
        // Space plays, Space again pauses: the cursor stays where it was (it used to vanish).
        QTest::keyClick(&w, Qt::Key_Space);
        QVERIFY(bar->active() && bar->playing());
        QTest::qWait(120);
        QTest::keyClick(&w, Qt::Key_Space);
        QVERIFY(bar->active() && !bar->playing());
        const double paused_at = bar->time();
        QVERIFY(paused_at > 0);
        QTest::qWait(100);
        QCOMPARE(bar->time(), paused_at);
        // Scrub to the middle of the step: each stage's memory at that instant, between the
        // model states (the floor) and the table's total, as memory_over_time computes it.
        const Estimate& e = w.model()->estimate();
        const double mid = e.time.step_s / 2;
        bar->seek(mid);
        const std::vector<double> now = w.memoryChart()->cursorBytes();
        const auto lanes = memoryOverStep(e);
        QCOMPARE(now.size(), e.memory.stages.size());
        for (std::size_t s = 0; s < now.size(); ++s) {
            QCOMPARE(now[s], memoryAt(lanes[s], mid));
            QVERIFY(now[s] <= e.memory.stages[s].total() + 1);
            QVERIFY(now[s] >= e.memory.stages[s].total() - e.memory.stages[s].activations - 1);
        }
        // At t = 0 the first forward has just started on rank 0: the floor and one of its 4 units
        // (1F1B on PP 4: rank 0 holds at most 4 microbatches); stop takes the cursor away.
        bar->seek(0);
        const StageMemory& s0 = e.memory.stages[0];
        QCOMPARE(w.memoryChart()->cursorBytes()[0], s0.total() - s0.activations + s0.activations / 4);
        bar->stop();
        QVERIFY(!bar->active());
        QVERIFY(w.memoryChart()->cursorBytes().empty());
    }

    void compareShowsAAndBByNameEachReadable()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        Scenario a = sevenB();
        a.name = "PP 4";
        w.model()->setScenario(a);
        w.model()->flush();
        w.model()->pin();
        Scenario b = a;
        b.name = "PP 2";
        b.parallel.pp = 2;
        b.parallel.dp = 4;
        w.model()->setScenario(b);
        w.model()->flush();
        // Two Gantts on one time axis: A's 4 ranks, a blank row, B's 2 ranks, each row named.
        const QString title = w.timelineChart()->title().simplified(); // wrapped to the chart's width
        // Each side by what it is, not by its file's name (both would say the same after an edit).
        QVERIFY2(title.contains(QStringLiteral("A: TP 2 · PP 4 · DP 2"))
                     && title.contains(QStringLiteral("B: TP 2 · PP 2 · DP 4")),
                 qPrintable(title));
        QCOMPARE(w.timelineChart()->gantt()->rows(), 4 + 1 + 2);
        auto ticker = w.timelineChart()->plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().value(0), QStringLiteral("A · rank 0"));
        QCOMPARE(ticker->ticks().value(5), QStringLiteral("B · rank 0"));
        // The tooltip of an op says whose it is.
        QVERIFY(w.timelineChart()->tooltipFor(0).startsWith(QStringLiteral("A · ")));
        // Memory: A's totals as named bars beside B's stacks.
        bool named = false;
        for (int i = 0; i < w.memoryChart()->plot()->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(w.memoryChart()->plot()->legend->item(i)))
                named = named || item->plottable()->name() == QStringLiteral("A: TP 2 · PP 4 · DP 2 · 1F1B (total)");
        QVERIFY(named);
        // The delta table: A and B by name, B vs A.
        CompareTable* table = w.compare()->table();
        QVERIFY(!table->isHidden());
        w.resize(1024, 768);
        w.show();
        QTest::qWait(300);
        const QString text = table->text();
        QVERIFY2(text.contains(QStringLiteral("Scenario\tTP 2 · PP 4 · DP 2\tTP 2 · PP 2 · DP 4")), qPrintable(text));
        // Each step time with its band, as the status bar quotes it (issue 36 §1).
        const QString band = QString::fromStdString(bandText(bandFor(builtInBands(), w.model()->scenario()), true).en);
        QVERIFY2(text.contains(seconds(w.model()->pinnedEstimate()->time.step_s) + QLatin1Char(' ') + band)
                     && text.contains(seconds(w.model()->estimate().time.step_s) + QLatin1Char(' ') + band),
                 qPrintable(text));
        // The band's line break is the cell's display only: text() has the header and one line a row.
        QCOMPARE(text.count(QLatin1Char('\n')), table->rowCount());
        QVERIFY(
            text.contains(signedPercent(w.model()->estimate().time.step_s, w.model()->pinnedEstimate()->time.step_s)));
        // Unpinned: one Gantt, no table.
        w.model()->unpin();
        w.model()->flush();
        QCOMPARE(w.timelineChart()->gantt()->rows(), 2);
        QVERIFY(table->isHidden());
    }

    void slidesCarryTheirContextAndAChineseFont()
    {
        // The title line names the model, GPUs, layout, batch and schedule.
        Scenario sc = sevenB();
        QCOMPARE(contextLine(sc, 16),
                 QStringLiteral("Llama-2 7B · 16 × %1 · TP 2 · PP 4 · DP 2 · CP 1 · EP 1 · ZeRO-0 · "
                                "micro batch 1 · global batch 16 · 1F1B")
                     .arg(QString::fromStdString(sc.cluster.gpu.name)));
        MainWindow w;
        w.setLanguage(QStringLiteral("zh"));
        w.model()->setScenario(sc);
        QVERIFY(contextLine(sc, 16).contains(QStringLiteral("全局批大小 16")));
        // A Chinese PDF embeds the Simplified Chinese font (fontconfig alone picked Noto Sans CJK
        // JP), and the chart's layout is the same after the export as before.
        QTemporaryDir dir;
        const int rows = w.timelineChart()->plot()->plotLayout()->rowCount();
        const QString pdf = dir.filePath(QStringLiteral("timeline.pdf"));
        QCOMPARE(w.exports()->exportChartTo(ChartKind::Timeline, pdf, QSize(1280, 720), 1), QString());
        QCOMPARE(w.timelineChart()->plot()->plotLayout()->rowCount(), rows);
        if (!simplifiedChineseFamily().isEmpty()) {
            QFile f(pdf);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            QVERIFY2(bytes.contains("CJKsc") || bytes.contains("CJK SC") || bytes.contains("SansSC"),
                     "no Simplified Chinese font in the PDF");
            QVERIFY(!bytes.contains("CJKjp"));
            // Its text layer gives back what was drawn: every character of the context line
            // (digits included), 大 not the Kangxi radical ⼤, spaces not tabs.
            const QString mapped = pdfMappedText(bytes);
            for (const QChar c : contextLine(sc, 16))
                QVERIFY2(c == QLatin1Char(' ') || mapped.contains(c), qPrintable(QString(c)));
            QVERIFY(mapped.contains(QStringLiteral("大")));
            for (const QChar c : mapped)
                QVERIFY2(c != QLatin1Char('\t') && (c.unicode() < 0x2E80 || c.unicode() > 0x2FDF),
                         qPrintable(QString::number(c.unicode(), 16)));
        }
    }

    void pdfTextLayerRepairKeepsTheFileWhole()
    {
        // Qt's map as it wrote it: glyph 1 read as a tab, glyphs 2–3 as the Kangxi radicals ⼤⼩,
        // glyph 4 as "7" through a counting range. Repaired: space, 大小, 7; the objects after
        // the map move by the bytes it grew, and so do the cross-reference table and startxref.
        const QByteArray cmap = "/CIDInit /ProcSet findresource begin\n/CMapName /Adobe-Identity-UCS def\n"
                                "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n2 beginbfrange\n"
                                "<0001> <0003> [<0009> <2F24> <2F29> ]\n<0004> <0004> <0037>\nendbfrange\nendcmap\n";
        const QByteArray head = "%PDF-1.4\n",
                         obj1
            = "1 0 obj\n<< /Length " + QByteArray::number(cmap.size()) + " >>\nstream\n" + cmap + "endstream\nendobj\n",
                         obj2 = "2 0 obj\n<< /Type /Catalog >>\nendobj\n";
        const auto entry
            = [](qsizetype at) -> QByteArray { return QByteArray::number(at).rightJustified(10, '0') + " 00000 n \n"; };
        const qsizetype xref = head.size() + obj1.size() + obj2.size();
        const QByteArray pdf = head + obj1 + obj2 + "xref\n0 3\n0000000000 65535 f \n" + entry(head.size())
            + entry(head.size() + obj1.size()) + "trailer\n<< /Size 3 /Root 2 0 R >>\nstartxref\n"
            + QByteArray::number(xref) + "\n%%EOF\n";
        QCOMPARE(readToUnicode(cmap).text.at(3), QStringLiteral("\u2F29"));
        QString why;
        const QByteArray fixed = repairPdfTextLayer(pdf, &why);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QCOMPARE(pdfMappedText(fixed), QStringLiteral(" 大小7"));
        const qsizetype obj2_at = fixed.indexOf("2 0 obj"), xref_at = fixed.indexOf("xref\n");
        QVERIFY(fixed.contains(QByteArray(entry(head.size()) + entry(obj2_at))));
        QVERIFY(fixed.endsWith(QByteArray("startxref\n" + QByteArray::number(xref_at) + "\n%%EOF\n")));
        const qsizetype length_at = fixed.indexOf("/Length ") + 8;
        const qsizetype data_at = fixed.indexOf("stream\n") + 7;
        QCOMPARE(fixed.mid(length_at, fixed.indexOf(' ', length_at) - length_at).toLongLong(),
                 fixed.indexOf("endstream") - data_at);
        // Not laid out as Qt writes it: left alone, and said why.
        const QByteArray broken = QByteArray(pdf).replace("startxref\n", "startxref\n9");
        QCOMPARE(repairPdfTextLayer(broken, &why), broken);
        QVERIFY(why.contains(QStringLiteral("startxref")));
    }
};

QTEST_MAIN(TstClassroomCharts)
#include "tst_classroom_charts.moc"
