// Issue 35 (classroom round 3), the window's layout on a projector, offscreen: the revealed
// exercise feedback and the A/B comparison read whole at 1280×720, the right dock keeps its width
// between lesson steps, the first start and presenter mode fill a projector's screen, and a
// timeline export leaves the live chart as it was. The panel and lesson behaviour is
// tst_classroom_round3. Every knob label keeps its height at 1024×768 through every lesson step,
// and the knob form's optional rows come back in place (ui/optional_rows.h).

#include "classroom_scenarios.h"
#include "controllers/course_controller.h"
#include "controllers/export_controller.h"
#include "controllers/presenter_controller.h"
#include "exercise_panel.h"
#include "gantt_plottable.h"
#include "lessons/lessons.h"
#include "main_window.h"
#include "models/scenario_model.h"
#include "optional_rows.h"
#include "status_line.h"
#include "timeline_chart.h"
#include "comm_chart.h"
#include "memory_chart.h"

#include <QCheckBox>
#include <QDockWidget>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QtTest>

#include <qcustomplot.h>

#include <algorithm>

using namespace parascope;
using namespace parascope::ui;
using parascope::test::classroom::sevenB;

class TstClassroomLayout : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ParaScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("ParaScopeLayout"));
    }

    // §13: exporting the timeline for a slide leaves the live chart as it was (fonts of the axes,
    // the ticks, the title and the legend, and where the legend is), and the microbatch numbers
    // on the bars are drawn at the chart's tick size, never smaller.
    void timelineExportLeavesTheLiveChart()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("zh"));
        w.resize(1280, 720);
        w.show();
        QCoreApplication::processEvents();
        QCustomPlot* plot = w.timelineChart()->plot();
        const auto state = [&] {
            QStringList s;
            for (QCPAxis* a : {plot->xAxis, plot->yAxis})
                s << a->labelFont().toString() << a->tickLabelFont().toString() << a->label();
            s << plot->legend->font().toString();
            for (int i = 0; i < plot->plotLayout()->elementCount(); ++i)
                if (auto* t = qobject_cast<QCPTextElement*>(plot->plotLayout()->elementAt(i)))
                    s << t->font().toString() << t->text();
            s << QString::number(plot->plotLayout()->rowCount()) << QString::number(plot->plotLayout()->columnCount());
            return s;
        };
        const QStringList before = state();
        QTemporaryDir dir;
        QCOMPARE(w.exports()->exportChartTo(ChartKind::Timeline, dir.filePath(QStringLiteral("t.png")),
                                            QSize(1920, 1080), 1, true),
                 QString());
        QCoreApplication::processEvents();
        const QStringList after = state();
        for (int i = 0; i < before.size(); ++i)
            QVERIFY2(i < after.size() && before[i] == after[i],
                     qPrintable(QStringLiteral("%1: %2 → %3").arg(i).arg(before[i], after.value(i))));
        QCOMPARE(after.size(), before.size());
        QCOMPARE(w.timelineChart()->gantt()->labelFont().pixelSize() > 0
                     ? w.timelineChart()->gantt()->labelFont().pixelSize()
                     : QFontInfo(w.timelineChart()->gantt()->labelFont()).pixelSize(),
                 QFontInfo(plot->xAxis->tickLabelFont()).pixelSize());
    }

    // §7, §12: at 1280×720 the exercise's feedback fits its panel without scrolling, and the
    // A/B comparison is readable (PARASCOPE_SHOT_DIR=dir keeps pictures to look at).
    void feedbackAndComparisonFitAt720()
    {
        const QString shots = qEnvironmentVariable("PARASCOPE_SHOT_DIR");
        for (const char* lang : {"zh", "en"}) {
            MainWindow w;
            w.setLanguage(QLatin1String(lang));
            w.resize(1280, 720);
            w.show();
            w.course()->loadLesson(QStringLiteral("6-pipeline-schedules"), 0);
            auto* answer = w.findChild<QLineEdit*>(QStringLiteral("exercise.answer"));
            QVERIFY(answer);
            answer->setText(QStringLiteral("0.27")); // a fraction typed into the percent box
            QVERIFY(w.course()->exercise()->reveal());
            QCoreApplication::processEvents();
            QVERIFY(w.course()->exercise()->resultText().contains(
                lang == std::string("zh") ? QStringLiteral("百分数") : QStringLiteral("percent")));
            auto* scroll = w.course()->exercise()->findChild<QScrollArea*>();
            QVERIFY(scroll);
            if (!shots.isEmpty())
                w.grab().save(shots + QStringLiteral("/exercise-revealed-%1.png").arg(QLatin1String(lang)));
            QVERIFY2(!scroll->verticalScrollBar()->isVisible(), lang);
            w.model()->setScenario(sevenB());
            w.model()->pin();
            w.model()->edit([](Scenario& s) {
                s.parallel.pp = 2;
                s.parallel.dp = 4;
            });
            w.model()->flush();
            QCoreApplication::processEvents();
            if (!shots.isEmpty())
                w.grab().save(shots + QStringLiteral("/compare-%1.png").arg(QLatin1String(lang)));
        }
    }

    // §17: the right dock keeps its width through a lesson's steps (with and without an
    // exercise) at 1280×720 and at 1024×768, where the window is too narrow for every size hint.
    void rightDockKeepsItsWidth()
    {
        for (const QSize size : {QSize(1280, 720), QSize(1024, 768)}) {
            MainWindow w;
            w.setLanguage(QStringLiteral("zh"));
            w.resize(size);
            w.show();
            QDockWidget* right = w.findChild<QDockWidget*>(QStringLiteral("rightDock"));
            w.course()->loadLesson(QStringLiteral("1-13b-ddp-vs-tp"), 0); // the window settles first
            QCoreApplication::processEvents();
            std::vector<int> widths;
            for (const char* id : {"6-pipeline-schedules", "2-llama70b-512", "10-ring-allreduce"}) {
                const Lesson* l = findLesson(id);
                for (std::size_t i = 0; i < l->steps.size(); ++i) {
                    w.course()->loadLesson(QString::fromStdString(l->id), int(i));
                    QCoreApplication::processEvents();
                    widths.push_back(right->width());
                }
            }
            QVERIFY2(*std::max_element(widths.begin(), widths.end()) == *std::min_element(widths.begin(), widths.end()),
                     qPrintable(QStringLiteral("%1 … %2")
                                    .arg(*std::min_element(widths.begin(), widths.end()))
                                    .arg(*std::max_element(widths.begin(), widths.end()))));
        }
    }

    // Every knob's name stays readable at 1024×768 through every lesson step, whichever optional
    // rows (FP8 recipe, CP exchange, MoE dispatch, recomputed modules) the step's scenario hides:
    // Qt 6.4's form layout squeezed EP's (lesson 14 step 2) or CP's (lesson 13 step 1) label to
    // zero height while rows of the form were hidden (ui/optional_rows.h).
    void everyKnobLabelIsReadable()
    {
        for (const Lesson& l : lessons()) {
            for (std::size_t i = 0; i < l.steps.size(); ++i) {
                MainWindow w(nullptr, MainWindow::Session::Headless); // as --lesson ID --step N opens it
                w.setLanguage(QStringLiteral("en"));
                w.course()->loadLesson(QString::fromStdString(l.id), int(i));
                w.resize(1024, 768);
                w.show();
                QCoreApplication::processEvents();
                for (const QLabel* label : w.findChildren<QLabel*>(QRegularExpression(QStringLiteral("\\.label$")))) {
                    if (!label->isVisibleTo(&w))
                        continue;
                    QVERIFY2(label->height() >= label->sizeHint().height(),
                             qPrintable(QStringLiteral("%1 step %2: %3 is %4 px high")
                                            .arg(QString::fromStdString(l.id))
                                            .arg(i + 1)
                                            .arg(label->objectName())
                                            .arg(label->height())));
                }
            }
        }
    }

    // A row taken out of the form comes back at its own place, whatever else was taken or put
    // back meanwhile, and a row across both columns (a check box) as well as a labelled one.
    void optionalRowsComeBackInPlace()
    {
        QWidget box;
        auto* form = new QFormLayout(&box);
        std::vector<QWidget*> fields;
        for (int i = 0; i < 6; ++i) {
            QWidget* f = i == 2 ? static_cast<QWidget*>(new QCheckBox) : new QLineEdit;
            f->setObjectName(QString::number(i));
            i == 2 ? form->addRow(f) : form->addRow(QStringLiteral("row %1").arg(i), f);
            fields.push_back(f);
        }
        OptionalRows optional(form);
        for (int i : {1, 2, 4})
            optional.add(fields[std::size_t(i)]);
        const auto order = [form] {
            QString o;
            for (int r = 0; r < form->rowCount(); ++r) {
                QLayoutItem* f = form->itemAt(r, QFormLayout::FieldRole);
                o += (f ? f : form->itemAt(r, QFormLayout::SpanningRole))->widget()->objectName();
            }
            return o;
        };
        optional.setShown(fields[1], false);
        optional.setShown(fields[4], false);
        QCOMPARE(order(), QStringLiteral("0235"));
        optional.setShown(fields[2], false);
        QCOMPARE(order(), QStringLiteral("035"));
        optional.setShown(fields[4], true);
        optional.setShown(fields[2], true);
        QCOMPARE(order(), QStringLiteral("02345"));
        optional.setShown(fields[1], true);
        optional.setShown(fields[1], true); // twice: nothing more
        QCOMPARE(order(), QStringLiteral("012345"));
        QCOMPARE(form->labelForField(fields[1])->property("text").toString(), QStringLiteral("row 1"));
    }

    // §17: on a projector-sized screen the first start fills the available screen, and presenter
    // mode covers the whole screen, by geometry as well as by state (no window manager needed).
    void fillsAProjectorScreen()
    {
        QSettings().clear(); // a first start: no saved geometry
        MainWindow w(nullptr, MainWindow::Session::Desktop);
        const QScreen* screen = w.screen();
        QVERIFY(screen);
        if (screen->availableGeometry().width() > 1366 && screen->availableGeometry().height() > 800)
            QSKIP("the test screen is larger than a projector");
        QCOMPARE(w.geometry().size(), screen->availableGeometry().size());
        w.show();
        w.presenter()->setOn(true);
        QCoreApplication::processEvents();
        QCOMPARE(w.geometry().size(), screen->geometry().size());
        w.presenter()->setOn(false);
        QSettings().clear();
    }

    // The status line in presenter mode at 1024×768 was cut mid-figure ("峰值显存 50.5 / 80.0
    // GiB（|"); it now keeps the figures that fit whole, from the left, ends with " …" and never
    // runs past the label. Each shown figure is one of the full line's, or its figure without the
    // stage in parentheses.
    // GPT-OSS-120B at 1024×768: the expert DP row's first line, "专家 DP ReduceScatter · 环形
    // 46.7 GB/s", ran past the chart's right edge ("GB/" cut). A row's name now spreads over the
    // lines it needs, every line inside the chart, in both languages and at both sizes.
    void commRowsStayInsideTheChart()
    {
        const Scenario oss = test::classroom::scenario(R"({"schema":"parascope.scenario/1","model":"gpt-oss-120b",
            "cluster":"dgx-h100","parallel":{"tp":1,"pp":4,"dp":16,"ep":8,"zero":1},
            "training":{"seq_len":4096,"micro_batch":1,"global_batch":512,"recompute":"selective"}})");
        for (const char* lang : {"zh", "en"})
            for (const QSize size : {QSize(1024, 768), QSize(1280, 720)}) {
                MainWindow w;
                w.setLanguage(QLatin1String(lang));
                w.resize(size);
                w.show();
                QVERIFY(QTest::qWaitForWindowExposed(&w));
                w.model()->setScenario(oss);
                w.model()->flush();
                QApplication::processEvents();
                QCustomPlot* plot = w.commChart()->plot();
                plot->replot();
                const QRectF inside(plot->axisRect()->rect());
                int labels = 0;
                for (int i = 0; i < plot->itemCount(); ++i)
                    if (auto* t = qobject_cast<QCPItemText*>(plot->item(i));
                        t && t->visible() && !t->text().isEmpty()) {
                        ++labels;
                        const QString line
                            = QStringLiteral("%1 %2×%3: ").arg(QLatin1String(lang)).arg(size.width()).arg(size.height())
                            + t->text();
                        QVERIFY2(textItemRect(t).right() <= inside.right(), qPrintable(line));
                        QVERIFY2(t->text().contains(QStringLiteral("GB/s")), qPrintable(line)); // not elided away
                    }
                QVERIFY(labels >= 1); // as many rows as the height holds; the others under the axis
            }
    }

    void statusLineKeepsWholeFigures()
    {
        for (const char* lang : {"zh", "en"}) {
            MainWindow w(nullptr, MainWindow::Session::Headless);
            w.setLanguage(QLatin1String(lang));
            w.resize(1024, 768);
            w.show();
            w.presenter()->setOn(true);
            w.course()->loadLesson(QStringLiteral("15-capstone-1024-a100"), 2);
            w.model()->flush();
            QCoreApplication::processEvents();
            const StatusLabel* status = w.findChild<StatusLabel*>();
            QVERIFY(status);
            const QString shown = status->text(), full = status->fullText();
            QTextDocument doc;
            doc.setDefaultFont(status->font());
            doc.setDocumentMargin(0);
            doc.setHtml(shown);
            QVERIFY2(doc.idealWidth() <= status->width(), qPrintable(shown));
            if (shown == full)
                continue; // it fits whole (a larger test screen)
            QVERIFY2(shown.endsWith(QStringLiteral(" …")), qPrintable(shown));
            const QStringList parts = shown.chopped(2).split(QStringLiteral(" · "));
            const QStringList whole = full.split(QStringLiteral(" · "));
            for (qsizetype i = 0; i < parts.size(); ++i)
                QVERIFY2(parts[i] == whole[i] || (i == parts.size() - 1 && whole[i].startsWith(parts[i])),
                         qPrintable(parts[i]));
            w.presenter()->setOn(false);
        }
    }
};

QTEST_MAIN(TstClassroomLayout)
#include "tst_classroom_layout.moc"
