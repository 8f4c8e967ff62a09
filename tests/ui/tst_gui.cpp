// The desktop app, offscreen: sliders drive every chart and the "What breaks" list, an invalid
// TP is diagnosed, the language switches at run time, the diagnostics model passes
// QAbstractItemModelTester, compare shows deltas, lessons load, the window fits the classroom's
// screens, and the zh_CN translation is complete. Files, exports and the executable's command
// line are tst_gui_files; calibration, imports, trace comparison and the Sweep and Search tabs
// are tst_gui_tools.

#include "chart_export.h"
#include "comm_chart.h"
#include "models/diagnostics_model.h"
#include "models/knobs.h"
#include "diagnostics_panel.h"
#include "types/knobs.h"
#include "gui_scenarios.h"
#include "io/scenario_json.h"
#include "lessons/lessons.h"
#include "main_window.h"
#include "estimate/display_names.h"
#include "format.h"
#include "status_line.h"
#include "controllers/course_controller.h"
#include "controllers/export_controller.h"
#include "controllers/presenter_controller.h"
#include "walls_view.h"
#include "memory_chart.h"
#include "models/scenario_model.h"
#include "scenario_fixture.h"
#include "scenario_panel.h"

#include <QMenu>
#include <QToolButton>
#include "timeline_chart.h"

#include <qcustomplot.h>

#include <QAbstractItemModelTester>

#include <QComboBox>
#include <QMenuBar>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>

#include <QtTest>

using namespace parascope;
using namespace parascope::ui;
using parascope::test::gui::scenario;
using parascope::test::gui::sevenB;

namespace {

bool hasCode(DiagnosticsModel* m, const QString& code)
{
    for (int i = 0; i < m->rowCount(); ++i)
        if (m->index(i).data(DiagnosticsModel::CodeRole).toString() == code)
            return true;
    return false;
}

} // namespace

class TstGui : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ParaScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("ParaScopeTest"));
        QSettings().clear();
    }

    void fp8CpAndRecomputeRowsOnlyWhereTheyApply()
    {
        // The recipe combo (its items are the Fp8Recipe names) shows only with FP8 precision and
        // edits training.fp8_recipe; the CP exchange combo only with CP > 1.
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        Scenario s = sevenB();
        s.training.precision = Precision::Bf16;
        w.model()->setScenario(s);
        // The panel's combo that offers `item`.
        const auto comboWith = [&](const char* item) -> QComboBox* {
            for (QComboBox* c : w.panel()->findChildren<QComboBox*>())
                if (c->findData(QString::fromLatin1(item)) >= 0)
                    return c;
            return nullptr;
        };
        QComboBox* recipe = comboWith("mxfp8");
        QVERIFY(recipe);
        QVERIFY(!recipe->isVisibleTo(w.panel()));
        s.training.precision = Precision::Fp8;
        w.model()->setScenario(s);
        QVERIFY(recipe->isVisibleTo(w.panel()));
        recipe->activated(recipe->findData(QStringLiteral("tensorwise")));
        w.model()->flush();
        QCOMPARE(w.model()->scenario().training.fp8_recipe, Fp8Recipe::Tensorwise);

        // The CP exchange row likewise only with CP > 1.
        QComboBox* cp = comboWith("a2a");
        QVERIFY(cp);
        QVERIFY(!cp->isVisibleTo(w.panel()));
        s.parallel.cp = 2;
        w.model()->setScenario(s);
        QVERIFY(cp->isVisibleTo(w.panel()));
        cp->activated(cp->findData(QStringLiteral("a2a")));
        w.model()->flush();
        QCOMPARE(w.model()->scenario().parallel.cp_comm, CpComm::A2a);

        // Which TP overlap runs: only with TP overlap on and TP > 1; it edits parallel.tp_overlap,
        // and the file keeps it (scenario_json_write).
        QComboBox* tp_overlap = comboWith("async_tp");
        QVERIFY(tp_overlap);
        s.parallel.tp = 2;
        s.parallel.tp_comm_overlap = false;
        w.model()->setScenario(s);
        QVERIFY(!tp_overlap->isVisibleTo(w.panel()));
        s.parallel.tp_comm_overlap = true;
        w.model()->setScenario(s);
        QVERIFY(tp_overlap->isVisibleTo(w.panel()));
        QCOMPARE(tp_overlap->currentData().toString(), QStringLiteral("userbuffers"));
        tp_overlap->activated(tp_overlap->findData(QStringLiteral("async_tp")));
        w.model()->flush();
        QCOMPARE(w.model()->scenario().parallel.tp_overlap, TpOverlap::AsyncTp);
        s = w.model()->scenario();

        // The activation layout only with TP > 1 and SP; batch first adds SP's copies to the step.
        QComboBox* layout = comboWith("bsh");
        QVERIFY(layout);
        s.parallel.sequence_parallel = false;
        w.model()->setScenario(s);
        QVERIFY(!layout->isVisibleTo(w.panel()));
        s.parallel.sequence_parallel = true;
        w.model()->setScenario(s);
        QVERIFY(layout->isVisibleTo(w.panel()));
        QCOMPARE(layout->currentData().toString(), QStringLiteral("sbh"));
        w.model()->flush();
        const double in_place = w.model()->estimate().time.step_s;
        layout->activated(layout->findData(QStringLiteral("bsh")));
        w.model()->flush();
        QCOMPARE(w.model()->scenario().parallel.activation_layout, ActivationLayout::Bsh);
        QVERIFY(w.model()->estimate().time.step_s > in_place);
        s = w.model()->scenario();

        // Selective recompute's modules: a button whose menu holds one check box per module
        // (its data the module's bit), shown only with selective recompute.
        QToolButton* modules = nullptr;
        for (QToolButton* b : w.panel()->findChildren<QToolButton*>())
            if (b->menu() && b->menu()->actions().size() == qsizetype(std::size(kRecomputeModuleNames)))
                modules = b;
        QVERIFY(modules);
        s.training.recompute = Recompute::None;
        w.model()->setScenario(s);
        QVERIFY(!modules->isVisibleTo(w.panel()));
        s.training.recompute = Recompute::Selective;
        s.training.recompute_modules = unsigned(RecomputeModule::CoreAttn);
        w.model()->setScenario(s);
        QVERIFY(modules->isVisibleTo(w.panel()));
        QAction* every_other = nullptr;
        for (QAction* a : modules->menu()->actions())
            if (a->data().toUInt() == unsigned(RecomputeModule::EveryOtherMm))
                every_other = a;
        QVERIFY(every_other && !every_other->isChecked());
        every_other->setChecked(true);
        w.model()->flush();
        QCOMPARE(w.model()->scenario().training.recompute_modules,
                 unsigned(RecomputeModule::CoreAttn) | unsigned(RecomputeModule::EveryOtherMm));
        QVERIFY(modules->text().contains(every_other->text()));

        // The attention kernel row: flash with cuDNN or FA2, or none. On the H100 preset FA2
        // (PyTorch SDPA) reaches 0.343 of the peak against cuDNN's 0.51: the step grows.
        QComboBox* kernel = comboWith("fa2");
        QVERIFY(kernel && kernel->isVisibleTo(w.panel()));
        s = sevenB();
        s.cluster = scenario(R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-h100"})").cluster;
        w.model()->setScenario(s);
        w.model()->flush();
        const double cudnn_step = w.model()->estimate().time.step_s;
        kernel->activated(kernel->findData(QStringLiteral("fa2")));
        w.model()->flush();
        QCOMPARE(w.model()->scenario().training.attention_kernel, AttentionKernel::Fa2);
        QVERIFY(w.model()->estimate().time.step_s > cudnn_step);
        kernel->activated(kernel->findData(QStringLiteral("none")));
        w.model()->flush();
        QVERIFY(!w.model()->scenario().training.flash_attention);
        s.training.flash_attention = true;
        s.training.attention_kernel = AttentionKernel::Cudnn;
        w.model()->setScenario(s);
        QCOMPARE(kernel->currentData().toString(), QStringLiteral("cudnn"));
    }

    void ppSliderDrivesEveryChart()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.model()->setScenario(sevenB());
        QCOMPARE(w.timelineChart()->rowCount(), 4);
        QCOMPARE(w.memoryChart()->barCount(), 4);
        QVERIFY(!hasCode(w.diagnosticsPanel()->diagnostics(), QStringLiteral("microbatches_lt_pp")));

        // Move the PP slider to 16 (Llama-2 7B has 32 layers; 8 microbatches < 16 stages).
        QSlider* pp = w.panel()->slider(QStringLiteral("parallel.pp"));
        QVERIFY(pp);
        const auto values = findKnob(QStringLiteral("parallel.pp"))->values(w.model()->scenario());
        const auto it = std::find(values.begin(), values.end(), 16LL);
        QVERIFY(it != values.end());
        pp->setValue(int(it - values.begin()));
        w.model()->flush();
        QCOMPARE(w.model()->scenario().parallel.pp, 16);
        QCOMPARE(w.timelineChart()->rowCount(), 16);
        QCOMPARE(w.memoryChart()->barCount(), 16);
        QVERIFY(hasCode(w.diagnosticsPanel()->diagnostics(), QStringLiteral("microbatches_lt_pp")));
        QVERIFY(hasCode(w.diagnosticsPanel()->diagnostics(), QStringLiteral("large_bubble")));
        QVERIFY(w.statusLabel()->text().contains(QStringLiteral("MFU")));
    }

    void everySliderMovesItsKnobAsSweepAndSetDo()
    {
        // Each slider of the panel, moved to each value it offers on the default scenario, gives
        // the scenario that the core's knob rule (the one `sweep` and `--set` use) gives.
        MainWindow w;
        const Scenario base = test::scenarioFromFile("../../resources/scenarios/default.parascope.json");
        for (const parascope::ui::Knob& k : parascope::ui::knobs()) {
            w.model()->setScenario(base);
            w.model()->flush();
            QSlider* slider = w.panel()->slider(QString::fromLatin1(k.path));
            QVERIFY2(slider, k.path);
            const std::vector<long long> values = k.values(base);
            const int index = int(values.size() / 2);
            slider->setValue(index);
            w.model()->flush();
            Scenario expected = base;
            std::string why;
            QVERIFY2(parascope::applyKnob(expected, k.path, values[std::size_t(index)], why), why.c_str());
            QCOMPARE(QString::fromStdString(scenarioToJson(w.model()->scenario()).dump()),
                     QString::fromStdString(scenarioToJson(expected).dump()));
        }
    }

    void typedValuesSnapToValidOnes()
    {
        MainWindow w;
        w.model()->setScenario(sevenB());
        // 5 is not a valid PP for 32 layers (not a divisor, not a power of two): snaps to 4.
        w.panel()->spinBox(QStringLiteral("parallel.pp"))->setValue(5);
        w.model()->flush();
        QCOMPARE(w.model()->scenario().parallel.pp, 4);
        QTRY_COMPARE(w.panel()->spinBox(QStringLiteral("parallel.pp"))->value(), 4);
    }

    void invalidTpIsDiagnosed()
    {
        MainWindow w;
        w.model()->setScenario(
            scenario(R"({"schema":"parascope.scenario/1","model":"llama2-13b","cluster":"dgx-a100-80g",
            "parallel":{"tp":8,"pp":1,"dp":8},"training":{"global_batch":64}})"));
        QVERIFY(!hasCode(w.diagnosticsPanel()->diagnostics(), QStringLiteral("heads_not_divisible_by_tp")));
        // The TP slider offers only divisors of the 40 heads: 1, 2, 4, 8 (16 and 32 would not
        // divide them); a typed 16 snaps to a valid value.
        const std::vector<long long> offered = findKnob(QStringLiteral("parallel.tp"))->values(w.model()->scenario());
        QCOMPARE(offered, (std::vector<long long>{1, 2, 4, 8}));
        w.panel()->spinBox(QStringLiteral("parallel.tp"))->setValue(16);
        w.model()->flush();
        QCOMPARE(w.model()->scenario().parallel.tp, 8);
        // A file can still say TP 16: it is diagnosed, the status line says what is wrong instead
        // of quoting a step time and tokens/s, and the charts draw no numbers but the reason.
        w.model()->setScenario(
            scenario(R"({"schema":"parascope.scenario/1","model":"llama2-13b","cluster":"dgx-a100-80g",
            "parallel":{"tp":16,"pp":1,"dp":4},"training":{"global_batch":64}})"));
        w.model()->flush();
        QVERIFY(hasCode(w.diagnosticsPanel()->diagnostics(), QStringLiteral("heads_not_divisible_by_tp")));
        QTRY_VERIFY(w.statusLabel()->text().contains(QStringLiteral("INVALID")));
        QVERIFY(!w.statusLabel()->text().contains(QStringLiteral("tokens/s")));
        for (ChartView* chart : std::initializer_list<ChartView*>{w.memoryChart(), w.commChart(), w.timelineChart()}) {
            QVERIFY2(chart->invalidText().contains(QStringLiteral("Invalid configuration")),
                     qPrintable(chart->invalidText()));
            QVERIFY(!chart->plot()->layer(QStringLiteral("main"))->visible());
        }
        // Back to a valid layout: the data comes back.
        w.model()->setScenario(sevenB());
        w.model()->flush();
        QVERIFY(w.memoryChart()->invalidText().isEmpty());
        QVERIFY(w.memoryChart()->plot()->layer(QStringLiteral("main"))->visible());
    }

    void languageSwitchesAtRunTime()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(sevenB());
        QCOMPARE(w.memoryChart()->plot()->yAxis->label(), QStringLiteral("Memory per GPU (GiB)"));
        QCOMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("&File"));
        w.setLanguage(QStringLiteral("zh"));
        QCOMPARE(w.memoryChart()->plot()->yAxis->label(), QStringLiteral("每块 GPU 显存（GiB）"));
        QCOMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("文件(&F)"));
        // Texts from the core follow too.
        w.panel()->spinBox(QStringLiteral("parallel.pp"))->setValue(16);
        w.model()->flush();
        const QString first = w.diagnosticsPanel()->diagnostics()->index(0).data().toString();
        QVERIFY2(first.contains(QStringLiteral("微批")) || first.contains(QStringLiteral("气泡")), qPrintable(first));
        w.setLanguage(QStringLiteral("en"));
        QCOMPARE(w.memoryChart()->plot()->yAxis->label(), QStringLiteral("Memory per GPU (GiB)"));
    }

    void diagnosticsModelIsSound()
    {
        MainWindow w;
        w.model()->setScenario(
            scenario(R"({"schema":"parascope.scenario/1","model":"llama2-13b","cluster":"dgx-a100-80g",
            "parallel":{"tp":16,"pp":64,"dp":1},"training":{"global_batch":30}})"));
        DiagnosticsModel* m = w.diagnosticsPanel()->diagnostics();
        QAbstractItemModelTester tester(m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(m->rowCount() >= 3);
        // Reset with the tester watching: the course's default scenario has nothing to report.
        std::vector<InputError> errors;
        w.model()->setScenario(
            *readScenarioFile(PARASCOPE_SOURCE_DIR "/resources/scenarios/default.parascope.json", errors));
        QCOMPARE(m->rowCount(), 0);
        for (const char* role : {"code", "stage", "knob", "severity", "suggestion", "message"})
            QVERIFY(m->roleNames().values().contains(QByteArray(role)));
    }

    void clickingADiagnosticHighlights()
    {
        MainWindow w;
        w.model()->setScenario(
            scenario(R"({"schema":"parascope.scenario/1","model":"llama2-13b","cluster":"dgx-a100-80g",
            "parallel":{"tp":1,"pp":1,"dp":64},"training":{"global_batch":512}})"));
        QSignalSpy stage(w.diagnosticsPanel(), &DiagnosticsPanel::stageActivated);
        DiagnosticsModel* m = w.diagnosticsPanel()->diagnostics();
        QVERIFY(hasCode(m, QStringLiteral("out_of_memory")));
        for (int i = 0; i < m->rowCount(); ++i)
            if (m->index(i).data(DiagnosticsModel::CodeRole).toString() == QLatin1String("out_of_memory"))
                emit w.diagnosticsPanel()->view()->clicked(m->index(i));
        QCOMPARE(stage.count(), 1);
        QCOMPARE(stage.first().first().toInt(), 0);
    }

    void hoverExplainsTheNumbers()
    {
        MainWindow w;
        w.model()->setScenario(sevenB());
        const QString act = w.memoryChart()->tooltipFor(3, 0);
        QVERIFY2(act.contains(QStringLiteral("Korthikanti")), qPrintable(act));
        QVERIFY(act.contains(QStringLiteral("activations.per_layer")));
        QVERIFY(w.memoryChart()->tooltipFor(2, 0).contains(QStringLiteral("ZeRO")));
        QVERIFY(w.timelineChart()->tooltipFor(0).contains(QStringLiteral("rank")));
        QVERIFY(w.commChart()->entryCount() > 0);
        QVERIFY(w.commChart()->tooltipFor(0).contains(QStringLiteral("calls")));
    }

    void compareShowsDeltas()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(sevenB());
        w.model()->pin();
        QVERIFY(w.model()->hasPin());
        w.panel()->spinBox(QStringLiteral("parallel.pp"))->setValue(8);
        w.model()->flush();
        QVERIFY2(w.statusLabel()->text().contains(QStringLiteral("vs A")), qPrintable(w.statusLabel()->text()));
        QVERIFY(w.statusLabel()->text().contains(QStringLiteral("%")));
        w.model()->unpin();
        QVERIFY(!w.statusLabel()->text().contains(QStringLiteral("vs A")));
    }

    void lessonsLoad()
    {
        std::vector<InputError> errors;
        // Every lesson file of resources/presets/lessons, numbered 1 … n without a gap.
        QCOMPARE(int(readLessons(errors).size()), std::stoi(readLessons(errors).back().id));
        QVERIFY(readLessons(errors).size() >= 11);
        QVERIFY2(errors.empty(), errors.empty() ? "" : errors.front().text().c_str());
        MainWindow w;
        for (const Lesson& l : lessons()) {
            QVERIFY2(!l.steps.empty(), l.id.c_str());
            QVERIFY(!l.title.en.empty() && !l.title.zh.empty() && !l.text.en.empty() && !l.text.zh.empty());
            w.course()->loadLesson(QString::fromStdString(l.id), 0);
            QCOMPARE(scenarioToJson(w.model()->scenario()), scenarioToJson(l.steps.front().scenario));
            // The panel's lesson combo shows the lesson loaded (it said "(none)").
            QCOMPARE(w.panel()->findChild<QComboBox*>()->currentData().toString(), QString::fromStdString(l.id));
        }
        // Case 1: DDP runs out of memory, TP 8 × DP 8 fits.
        w.course()->loadLesson(QStringLiteral("1-13b-ddp-vs-tp"), 0);
        QVERIFY(!w.model()->estimate().memory.fits);
        w.course()->loadLesson(QStringLiteral("1-13b-ddp-vs-tp"), 1);
        QVERIFY(w.model()->estimate().memory.fits);
        // What breaks if PP = 16: microbatches < PP.
        w.course()->loadLesson(QStringLiteral("4-what-breaks-pp16"), 0);
        QVERIFY(hasCode(w.diagnosticsPanel()->diagnostics(), QStringLiteral("microbatches_lt_pp")));
        // The prose quotes the status bar's digits (lesson 2's 12.066 s once read 12.06 s in the
        // text and 12.07 s on screen), never its {{placeholders}}.
        w.course()->loadLesson(QStringLiteral("2-llama70b-512"), 1);
        w.model()->flush();
        const QString step = QString::fromStdString(formatSeconds(w.model()->estimate().time.step_s));
        const QString text = w.course()->lessonText()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("as well: ") + step + QStringLiteral(", ")), qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("{{")));
        const auto* status = w.findChild<StatusLabel*>();
        QVERIFY(status);
        QVERIFY2(status->text().contains(step), qPrintable(status->text()));
    }

    void presenterMode()
    {
        MainWindow w;
        w.presenter()->setOn(true);
        QVERIFY(QApplication::font().pointSize() >= 18);
        QVERIFY(w.memoryChart()->plot()->xAxis->labelFont().pointSize() >= 18);
        w.presenter()->setOn(false);
        QVERIFY(QApplication::font().pointSize() < 18);
    }

    void windowFitsClassroomScreens()
    {
        // A 1024×768 projector (the smaller of the two classroom sizes) holds the whole window in
        // both languages, on every tab: nothing is off-screen.
        for (const char* lang : {"zh", "en"}) {
            MainWindow w;
            w.setLanguage(QLatin1String(lang));
            for (MainWindow::Tab tab : {MainWindow::Tab::Explorer, MainWindow::Tab::Sweep, MainWindow::Tab::Search}) {
                w.showTab(tab);
                const QSize min = w.minimumSizeHint();
                QVERIFY2(min.width() <= 1024 && min.height() <= 768,
                         qPrintable(
                             QStringLiteral("%1: %2×%3").arg(QLatin1String(lang)).arg(min.width()).arg(min.height())));
            }
        }
    }

    void startsWithoutLayoutWarnings()
    {
        // QCustomPlot warned "QCPLayoutInset::take … couldn't take" on every start and export:
        // the sweep took its legend out of the inset layout twice.
        // (QCustomPlot reports it through qDebug, so the messages are collected here.)
        static QStringList messages;
        messages.clear();
        const QtMessageHandler previous
            = qInstallMessageHandler([](QtMsgType, const QMessageLogContext&, const QString& m) { messages << m; });
        {
            MainWindow w;
            w.showTab(MainWindow::Tab::Sweep);
        }
        qInstallMessageHandler(previous);
        QVERIFY2(messages.filter(QStringLiteral("couldn't take")).isEmpty(),
                 qPrintable(messages.join(QLatin1Char('\n'))));
    }

    void fourWallsFollowTheSliders()
    {
        // The strip above the Explorer shows the Estimate's four walls, each as a share of the
        // value that hits it; a slider that doubles the activations moves the memory gauge; the
        // same four export as a chart for slides.
        MainWindow w;
        w.setLanguage(QStringLiteral("zh"));
        w.model()->setScenario(sevenB());
        w.model()->flush();
        const WallsStrip* strip = w.wallsStrip();
        const Walls& walls = w.model()->estimate().walls;
        QCOMPARE(strip->gauges()[0].name, QStringLiteral("显存墙"));
        QCOMPARE(strip->gauges()[0].share, walls.memory.value / kMemoryWall.hit);
        QCOMPARE(strip->gauges()[3].share, walls.stability.value / kStabilityWall.hit);
        QVERIFY(strip->gauges()[0].tooltip.contains(QStringLiteral("walls.memory"))
                || strip->gauges()[0].tooltip.contains(QStringLiteral("peak")));
        // The efficiency wall reads MFU: it carries the step time's band, as the status bar does.
        QVERIFY(strip->gauges()[2].tooltip.contains(bandTooltip(w.model()->scenario()).toHtmlEscaped()));
        const double before = strip->gauges()[0].share;
        w.model()->edit([](Scenario& s) {
            s.training.micro_batch *= 2;
            s.training.global_batch *= 2;
        });
        w.model()->flush();
        QVERIFY(strip->gauges()[0].share > before);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("walls.png"));
        QCOMPARE(w.exports()->exportChartTo(ChartKind::Walls, file, QSize(1280, 720), 1), QString());
        QVERIFY(QFileInfo(file).size() > 1000);
    }

    void zhTranslationIsComplete()
    {
        QFile ts(QStringLiteral(PARASCOPE_TS_DIR "/parascope_zh_CN.ts"));
        QVERIFY(ts.open(QIODevice::ReadOnly));
        const QByteArray text = ts.readAll();
        QVERIFY(text.contains("<translation>"));
        QVERIFY2(!text.contains("type=\"unfinished\""), "parascope_zh_CN.ts has unfinished entries");
        QVERIFY(!text.contains("type=\"vanished\""));
    }
};

QTEST_MAIN(TstGui)
#include "tst_gui.moc"
