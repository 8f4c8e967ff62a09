// What a lecturer tripped over in the third classroom round (issue 35), offscreen: knobs that
// stay readable on a 1024×768 projector, a wheel that never turns an unfocused knob, undo and
// redo of every scenario change, a lesson step restored in one action, a lesson list in course
// order, an exercise that hides the "what breaks" panel too, a title that names what is on
// screen, an invalid layout without figures, file types that the export dialog honours, the
// Simplified Chinese glyphs, "what breaks" by severity, sizes typed with their unit, presenter
// mode's memory chart (labels that never overlap) and the A/B table as CSV.

#include "classroom_scenarios.h"
#include "comm_chart.h"
#include "exercise_panel.h"
#include "format.h"
#include "controllers/course_controller.h"
#include "diagnostics_panel.h"
#include "dialogs/export_dialog.h"
#include "chart_export.h"
#include "controllers/compare_controller.h"
#include "controllers/presenter_controller.h"
#include "memory_chart.h"
#include "controllers/export_controller.h"
#include "gantt_plottable.h"
#include "timeline_chart.h"
#include "lessons/lessons.h"
#include "main_window.h"
#include "models/knobs.h"
#include "models/scenario_model.h"
#include "scenario_panel.h"
#include "walls_view.h"

#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QGraphicsEffect>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <qcustomplot.h>

using namespace parascope;
using namespace parascope::ui;
using parascope::test::classroom::scenario;
using parascope::test::classroom::sevenB;

namespace {

// The action in the window's menus whose text (without '&') is `text`.
QAction* action(const MainWindow& w, const QString& text)
{
    for (QAction* a : w.menuBar()->findChildren<QAction*>())
        if (a->text().remove(QLatin1Char('&')) == text)
            return a;
    return nullptr;
}

// Whether `widget` is wholly inside the scroll area's visible viewport.
bool visibleIn(const QScrollArea* area, const QWidget* widget)
{
    const QRect r(widget->mapTo(area->viewport(), QPoint(0, 0)), widget->size());
    return area->viewport()->rect().adjusted(0, -100000, 0, 100000).contains(r);
}

} // namespace

namespace {

// No row caption of the communication chart runs over a bar (zh at 1024×768 did).
void commCaptionsClearTheirBars(QCustomPlot* plot, const QString& at)
{
    plot->replot();
    std::vector<QRectF> bars;
    for (int p = 0; p < plot->plottableCount(); ++p) {
        auto* b = qobject_cast<QCPBars*>(plot->plottable(p));
        if (!b || !b->visible())
            continue;
        for (int i = 0; i < b->dataCount(); ++i) {
            const QPointF top = b->dataPixelPosition(i); // the group's offset included
            const double key = b->data()->at(i)->key, half = b->width() / 2;
            const double y0 = plot->yAxis->coordToPixel(key - half), y1 = plot->yAxis->coordToPixel(key + half);
            const double shift = top.y() - plot->yAxis->coordToPixel(key);
            bars.emplace_back(QPointF(plot->xAxis->coordToPixel(0), std::min(y0, y1) + shift),
                              QPointF(top.x(), std::max(y0, y1) + shift));
        }
    }
    QVERIFY2(!bars.empty(), qPrintable(at));
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->visible() && !t->text().isEmpty())
            for (const QRectF& bar : bars)
                QVERIFY2(!textItemRect(t).adjusted(1, 1, -1, -1).intersects(bar),
                         qPrintable(at + QStringLiteral(": ") + t->text()));
}

} // namespace

class TstClassroomRound3 : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ParaScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("ParaScopeRound3"));
    }

    // §1: at 1024×768 with the "what breaks" panel open, every knob's label and its number box
    // are both inside the scenario panel's visible width, in both languages.
    void knobLabelsAndValuesVisibleAt1024()
    {
        for (const char* lang : {"zh", "en"}) {
            MainWindow w;
            w.setLanguage(QLatin1String(lang));
            w.resize(1024, 768);
            w.show();
            QCoreApplication::processEvents();
            auto* area = w.findChild<QDockWidget*>(QStringLiteral("scenarioDock"))->findChild<QScrollArea*>();
            QVERIFY(area);
            QVERIFY(w.findChild<QDockWidget*>(QStringLiteral("rightDock"))->isVisible());
            int rows = 0;
            for (const Knob& k : knobs()) {
                QSpinBox* spin = w.panel()->spinBox(QString::fromLatin1(k.path));
                QVERIFY(spin);
                QVERIFY2(visibleIn(area, spin),
                         qPrintable(QStringLiteral("%1: %2").arg(QLatin1String(lang), spin->objectName())));
                auto* label = qobject_cast<QLabel*>(static_cast<QWidget*>(
                    w.panel()->findChild<QLabel*>(QString::fromLatin1(k.path) + QStringLiteral(".label"))));
                QVERIFY2(label && visibleIn(area, label), k.path);
                // The number box shows its whole value (TP = 8 is "8", not clipped).
                QVERIFY(spin->width() >= spin->fontMetrics().horizontalAdvance(spin->text()) + 8);
                ++rows;
            }
            QVERIFY(rows >= 6);
            QCOMPARE(area->horizontalScrollBar()->isVisible(), false);
        }
    }

    // §2: the wheel turns a knob only when it has the focus; over an unfocused one it scrolls.
    void wheelNeedsFocus()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.model()->setScenario(sevenB());
        QSlider* pp = w.panel()->slider(QStringLiteral("parallel.pp"));
        QVERIFY(pp && !pp->hasFocus());
        const int before = pp->value();
        const QPoint centre = pp->rect().center();
        QWheelEvent wheel(centre, pp->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(pp, &wheel);
        w.model()->flush();
        QCOMPARE(pp->value(), before);
        QCOMPARE(w.model()->scenario().parallel.pp, 4);
        pp->setFocus();
        QVERIFY(pp->hasFocus());
        QWheelEvent again(centre, pp->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(pp, &again);
        w.model()->flush();
        QVERIFY(pp->value() != before);
        QCOMPARE(pp->focusPolicy(), Qt::StrongFocus);
    }

    // §2: every change is one step back (Ctrl+Z) and forward (Ctrl+Shift+Z); a slider drag is one.
    void undoAndRedoEveryChange()
    {
        MainWindow w;
        w.model()->setScenario(sevenB());
        w.model()->clearHistory();
        QAction* undo = action(w, QStringLiteral("Undo scenario change"));
        QAction* redo = action(w, QStringLiteral("Redo scenario change"));
        QVERIFY(undo && redo);
        QVERIFY(undo->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::Key_Z)));
        QVERIFY(redo->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)));
        QVERIFY(!undo->isEnabled());
        w.model()->edit([](Scenario& s) { s.parallel.zero = 1; });
        w.model()->flush();
        w.model()->edit([](Scenario& s) { s.training.global_batch = 32; });
        w.model()->flush();
        QVERIFY(undo->isEnabled());
        undo->trigger();
        QCOMPARE(w.model()->scenario().training.global_batch, 16LL);
        QCOMPARE(w.model()->scenario().parallel.zero, 1);
        undo->trigger();
        QCOMPARE(w.model()->scenario().parallel.zero, 0);
        QVERIFY(!undo->isEnabled());
        redo->trigger();
        redo->trigger();
        QCOMPARE(w.model()->scenario().training.global_batch, 32LL);
        QVERIFY(!redo->isEnabled());
        // A drag through PP 4 → 2 → 1 is one step; choosing the same value again is none.
        QSlider* pp = w.panel()->slider(QStringLiteral("parallel.pp"));
        emit pp->sliderPressed();
        for (int i = pp->value() - 1; i >= 0; --i) {
            pp->setValue(i);
            QCoreApplication::processEvents();
        }
        emit pp->sliderReleased();
        w.model()->flush();
        QCOMPARE(w.model()->scenario().parallel.pp, 1);
        w.model()->edit([](Scenario& s) { s.parallel.pp = 1; });
        w.model()->flush();
        undo->trigger();
        QCOMPARE(w.model()->scenario().parallel.pp, 4);
    }

    // §2, §14: a lesson step is restored in one action; the lessons are in the course's order;
    // after the last step the action says it goes back to the first, and Ctrl+→ works while the
    // lesson combo box has the focus.
    void lessonStepsRestoreAndAdvance()
    {
        std::vector<int> numbers;
        for (const Lesson& l : lessons())
            numbers.push_back(std::stoi(l.id));
        QVERIFY(std::is_sorted(numbers.begin(), numbers.end()));
        QCOMPARE(numbers.back(), int(numbers.size())); // 1 … n, none missing

        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.resize(1280, 720);
        w.show();
        const Lesson* four = findLesson("4-what-breaks-pp16");
        QVERIFY(four && four->steps.size() >= 2);
        w.course()->loadLesson(QString::fromStdString(four->id), 0);
        const long long pp = w.model()->scenario().parallel.pp;
        w.model()->edit([](Scenario& s) {
            s.parallel.pp = 32;
            s.training.global_batch = 64;
        });
        w.model()->flush();
        QAction* restore = action(w, QStringLiteral("Restore this lesson step"));
        QVERIFY(restore && restore->isEnabled());
        restore->trigger();
        QCOMPARE(w.model()->scenario().parallel.pp, pp);
        // Ctrl+→ with the lesson combo focused goes to the next step.
        auto* combo = w.panel()->findChild<QComboBox*>();
        combo->setFocus();
        QVERIFY(QTest::qWaitForWindowActive(&w) || true);
        QTest::keyClick(combo, Qt::Key_Right, Qt::ControlModifier);
        QCOMPARE(w.model()->scenario().name, four->steps[1].scenario.name);
        w.course()->loadLesson(QString::fromStdString(four->id), int(four->steps.size()) - 1);
        QAction* next = action(w, QStringLiteral("Back to the lesson's first step"));
        QVERIFY(next);
        next->trigger();
        QCOMPARE(w.model()->scenario().name, four->steps[0].scenario.name);
        QVERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("last step")));
    }

    // §6: while an exercise waits for the prediction, the "what breaks" panel (its GiB figures
    // and fixes) is blurred and disabled with the charts.
    void exerciseHidesWhatBreaks()
    {
        MainWindow w;
        for (const Lesson& l : lessons())
            for (std::size_t i = 0; i < l.steps.size(); ++i)
                if (l.steps[i].exercise) {
                    w.course()->loadLesson(QString::fromStdString(l.id), int(i));
                    QVERIFY(w.course()->pending());
                    QVERIFY(w.diagnosticsPanel()->graphicsEffect() != nullptr);
                    QVERIFY(!w.diagnosticsPanel()->isEnabled());
                    return;
                }
        QFAIL("no lesson has an exercise");
    }

    // §8: the title names the model and the layout on screen, not the file's old name.
    void titleFollowsTheScenario()
    {
        MainWindow w;
        w.model()->setScenario(sevenB());
        QVERIFY(w.windowTitle().contains(QStringLiteral("TP 2 · PP 4 · DP 2")));
        w.model()->edit([](Scenario& s) {
            s.parallel.tp = 1;
            s.parallel.dp = 4;
        });
        w.model()->flush();
        QVERIFY2(w.windowTitle().contains(QStringLiteral("TP 1 · PP 4 · DP 4")), qPrintable(w.windowTitle()));
    }

    // §9: an invalid layout shows no wall figures; the gauges say why.
    void invalidLayoutShowsNoWalls()
    {
        MainWindow w;
        Scenario s = sevenB();
        s.parallel.schedule = ScheduleKind::Interleaved;
        s.parallel.vpp = 64; // more virtual stages than layers
        w.model()->setScenario(s);
        const WallsStrip* strip = w.wallsStrip();
        for (const WallGauge& g : strip->gauges()) {
            QCOMPARE(g.reading, QStringLiteral("—"));
            QVERIFY(g.tooltip.contains(QStringLiteral("VPP")));
        }
    }

    // §10: in presenter mode at 1280×720 and 1024×768 the memory chart keeps its bars readable without
    // maximising (the legend goes beside a short chart), shows its totals, and no two of its
    // labels overlap — lesson 1's 80.2 GiB OOM bar under the 80.0 GiB capacity line included.
    void presenterMemoryChartReadable()
    {
        struct Case {
            const char* lesson;
            int step;
        };
        for (const char* lang : {"zh", "en"})
            for (const QSize size : {QSize(1280, 720), QSize(1024, 768)})
                for (const Case c : {Case{"1-13b-ddp-vs-tp", 2}, Case{"2-llama70b-512", 0}}) {
                    const QString at = QStringLiteral("%1 %2×%3 %4")
                                           .arg(QLatin1String(lang))
                                           .arg(size.width())
                                           .arg(size.height())
                                           .arg(QLatin1String(c.lesson));
                    MainWindow w(nullptr, MainWindow::Session::Headless); // presenter mode at the asked size
                    w.setLanguage(QLatin1String(lang));
                    w.resize(size);
                    w.show();
                    w.presenter()->setOn(true);
                    w.course()->loadLesson(QLatin1String(c.lesson), c.step);
                    QCoreApplication::processEvents();
                    w.memoryChart()->plot()->replot();
                    QCoreApplication::processEvents();
                    QCustomPlot* plot = w.memoryChart()->plot();
                    QVERIFY2(plot->axisRect()->height() >= 140,
                             qPrintable(at + QStringLiteral(": %1 px").arg(plot->axisRect()->height())));
                    if (c.step == 2) // lesson 1's 80.2 GiB OOM bar under the 80.0 GiB line
                        QVERIFY(w.memoryChart()->barLabels().join(QLatin1Char(' ')).contains(QStringLiteral("80.2")));
                    std::vector<QRectF> rects;
                    QStringList texts;
                    for (int i = 0; i < plot->itemCount(); ++i)
                        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i));
                            t && t->visible() && !t->text().isEmpty()) {
                            rects.push_back(textItemRect(t));
                            texts << t->text();
                        }
                    QVERIFY(rects.size() >= 2);
                    // The capacity label, when shown, lies wholly inside the plot (not cut at its edge).
                    for (int i = 0; i < plot->itemCount(); ++i)
                        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i));
                            t && t->visible() && t->clipToAxisRect() && t->text().contains(QStringLiteral("GiB")))
                            QVERIFY2(QRectF(plot->axisRect()->rect()).contains(textItemRect(t)), qPrintable(at));
                    for (std::size_t i = 0; i < rects.size(); ++i)
                        for (std::size_t j = i + 1; j < rects.size(); ++j)
                            QVERIFY2(!rects[i].intersects(rects[j]),
                                     qPrintable(at + QStringLiteral(": %1 / %2").arg(texts[int(i)], texts[int(j)])));
                    // The peak total is on the chart: on its bar, or once at the top when the bars
                    // are too thin for their totals (8 stages at 1024×768).
                    double peak = 0;
                    for (const StageMemory& st : w.model()->estimate().memory.stages)
                        peak = std::max(peak, st.total() / kGiB);
                    QVERIFY2(texts.join(QLatin1Char(' ')).contains(QString::number(peak, 'f', 1)),
                             qPrintable(at + QLatin1Char(' ') + texts.join(QLatin1Char('|'))));
                    commCaptionsClearTheirBars(w.commChart()->plot(), at);
                }
    }

    // §12: the A/B table exports as CSV, both sides by what they are.
    void comparisonTableExports()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(sevenB());
        w.model()->pin();
        w.model()->edit([](Scenario& s) {
            s.parallel.pp = 2;
            s.parallel.dp = 4;
        });
        w.model()->flush();
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("compare.csv"));
        QCOMPARE(w.compare()->exportTable(file), QString());
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.startsWith("\xEF\xBB\xBF")); // spreadsheets read UTF-8 Chinese by it
        const QString csv = QString::fromUtf8(bytes.mid(3));
        QVERIFY(csv.contains(QStringLiteral("\"\",\"A\",\"B\",\"B vs A\"\r\n")));
        QVERIFY(csv.contains(QStringLiteral("\"Scenario\",\"TP 2 · PP 4 · DP 2\",\"TP 2 · PP 2 · DP 4\"")));
        QVERIFY(csv.contains(QStringLiteral("\"Step time\"")));
    }

    // §11: a name without a suffix takes the type chosen in the dialog's list.
    void exportTakesTheChosenType()
    {
        QCOMPARE(withChosenType(QStringLiteral("/tmp/slide"), QStringLiteral("PDF (*.pdf)")),
                 QStringLiteral("/tmp/slide.pdf"));
        QCOMPARE(withChosenType(QStringLiteral("/tmp/slide"), QStringLiteral("SVG vector image (*.svg)")),
                 QStringLiteral("/tmp/slide.svg"));
        QCOMPARE(withChosenType(QStringLiteral("/tmp/slide.png"), QStringLiteral("PDF (*.pdf)")),
                 QStringLiteral("/tmp/slide.png"));
    }

    // §15: Han characters are drawn with the Simplified Chinese face whatever the system locale.
    void simplifiedChineseGlyphs()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("zh"));
        const QString sc = simplifiedChineseFamily();
        if (sc.isEmpty())
            QSKIP("no Simplified Chinese font installed (fonts-noto-cjk)");
        QVERIFY(QApplication::font().families().contains(sc));
    }

    // §16: "what breaks" lists errors, then warnings, then notes, and names the GPU count.
    void whatBreaksBySeverity()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        Scenario s = sevenB();
        s.parallel.tp = 1; // SP with TP 1 is a note
        s.parallel.dp = 4;
        s.parallel.sequence_parallel = true;
        s.training.global_batch = 4; // one microbatch for 4 stages: warnings
        w.model()->setScenario(s);
        auto* view = w.diagnosticsPanel()->findChild<QAbstractItemView*>();
        QVERIFY(view && view->model()->rowCount() >= 2);
        const std::vector<Diagnostic>& d = w.model()->estimate().diagnostics;
        QVERIFY(std::any_of(d.begin(), d.end(), [](const Diagnostic& x) { return x.code == "sp_requires_tp"; }));
        QVERIFY(std::any_of(d.begin(), d.end(), [](const Diagnostic& x) { return x.severity == Severity::Warning; }));
        const QString first = view->model()->index(0, 0).data().toString();
        const QString last = view->model()->index(view->model()->rowCount() - 1, 0).data().toString();
        QVERIFY2(!first.contains(QStringLiteral("TP = 1")), qPrintable(first));
        QVERIFY2(last.contains(QStringLiteral("TP = 1")), qPrintable(last));
        QVERIFY(w.diagnosticsPanel()->findChild<QLabel*>()->text().contains(QStringLiteral("16 GPUs")));
    }

    // §17: two times side by side share one unit (the playback readout, a collective's step).
    void oneUnitPerReadout()
    {
        QCOMPARE(secondsLike(0.4647, 1.5) + QStringLiteral(" / ") + seconds(1.5), QStringLiteral("0.46 s / 1.50 s"));
        QCOMPARE(secondsLike(0, 39.7e-6) + QStringLiteral(" → ") + seconds(39.7e-6),
                 QStringLiteral("0.0 µs → 39.7 µs"));
        QCOMPARE(secondsLike(0.0021, 0.0125), QStringLiteral("2.10 ms"));
    }

    // §17: "1 GiB" typed into the collectives tab's size box is 1 GiB, not 1 MiB.
    void sizeTypedWithItsUnit()
    {
        MainWindow w;
        auto* size = w.findChild<QDoubleSpinBox*>(QStringLiteral("collectives.size"));
        QVERIFY(size);
        size->selectAll();
        QTest::keyClicks(size, QStringLiteral("1 GiB"));
        QTest::keyClick(size, Qt::Key_Return);
        QCOMPARE(size->value(), 1024.0);
        QCOMPARE(size->text(), QStringLiteral("1 GiB"));
        size->selectAll();
        QTest::keyClicks(size, QStringLiteral("512KiB"));
        QTest::keyClick(size, Qt::Key_Return);
        QCOMPARE(size->value(), 0.5);
    }
};

QTEST_MAIN(TstClassroomRound3)
#include "tst_classroom_round3.moc"
