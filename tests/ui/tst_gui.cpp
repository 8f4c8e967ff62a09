// The desktop app, offscreen: sliders drive every chart and the "What breaks" list, an invalid
// TP is diagnosed, the language switches at run time, save → open is identical, exports have
// the asked size, the diagnostics model passes QAbstractItemModelTester, compare shows deltas,
// the headless export of the executable works, and the zh_CN translation is complete.

#include "about.h"
#include "dialogs/calibration_dialog.h"
#include "chart_export.h"
#include "comm_chart.h"
#include "models/diagnostics_model.h"
#include "models/knobs.h"
#include "diagnostics_panel.h"
#include "types/knobs.h"
#include "hostile_files.h"
#include "io/scenario_json.h"
#include "model/parameter_count.h"
#include "lessons/lessons.h"
#include "main_window.h"
#include "dialogs/trace_dialog.h"
#include "walls_view.h"
#include "memory_chart.h"
#include "models/scenario_model.h"
#include "scenario_fixture.h"
#include "scenario_panel.h"
#include "models/search_table_model.h"
#include "search_view.h"
#include "sweep_view.h"
#include "parascope/version.h"

#include <QMenu>
#include <QTableWidget>
#include <QToolButton>
#include "timeline_chart.h"

#include <qcustomplot.h>

#include <QAbstractItemModelTester>

#include <set>

#include <csignal>
#ifdef Q_OS_LINUX
#include <sys/resource.h>
#endif
#include <QComboBox>
#include <QMenuBar>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QDirIterator>
#include "model/parameter_count.h"

#include <QtTest>
#include <QUrl>
#include <QDropEvent>
#include <QMimeData>

using namespace parascope;
using namespace parascope::ui;

namespace {

Scenario scenario(const std::string& json)
{
    std::vector<InputError> errors;
    const auto j = parseJsonText(json, errors);
    return readScenario(*j, errors).value();
}

// Llama-2 7B, PP 4, 8 microbatches: valid and fits.
Scenario sevenB()
{
    return scenario(R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-a100-80g",
        "parallel":{"tp":1,"pp":4,"dp":1},"training":{"seq_len":4096,"micro_batch":1,"global_batch":8}})");
}

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
        w.model()->setScenario(scenario(R"({"schema":"parascope.scenario/1","model":"llama2-13b","cluster":"dgx-a100-80g",
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
        w.model()->setScenario(scenario(R"({"schema":"parascope.scenario/1","model":"llama2-13b","cluster":"dgx-a100-80g",
            "parallel":{"tp":16,"pp":1,"dp":4},"training":{"global_batch":64}})"));
        w.model()->flush();
        QVERIFY(hasCode(w.diagnosticsPanel()->diagnostics(), QStringLiteral("heads_not_divisible_by_tp")));
        QTRY_VERIFY(w.statusLabel()->text().contains(QStringLiteral("INVALID")));
        QVERIFY(!w.statusLabel()->text().contains(QStringLiteral("tokens/s")));
        for (ChartView* chart : std::initializer_list<ChartView*>{w.memoryChart(), w.commChart(), w.timelineChart()}) {
            QVERIFY2(chart->invalidText().contains(QStringLiteral("Invalid configuration")), qPrintable(chart->invalidText()));
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

    void hostileFilesAreRefusedClearly()
    {
        // Opening any hostile file leaves the current scenario as it was, and says what is wrong.
        QTemporaryDir dir;
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(sevenB());
        const std::string before = scenarioToJson(w.model()->scenario()).dump();
        for (const parascope::test::HostileFile& f : parascope::test::hostileFiles(dir)) {
            const QString error = w.openScenario(f.path);
            QVERIFY2(error.contains(f.expected, Qt::CaseInsensitive), qPrintable(f.name + QStringLiteral(": ") + error));
            QCOMPARE(scenarioToJson(w.model()->scenario()).dump(), before);
        }
        // And the app keeps working.
        w.panel()->spinBox(QStringLiteral("parallel.pp"))->setValue(4);
        w.model()->flush();
        QCOMPARE(w.model()->scenario().parallel.pp, 4);
    }

    void aboutShowsVersionAndRevision()
    {
        // Help → About: project(VERSION), the git revision the build came from (when built from
        // git), the libraries and the licence; in the chosen language.
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        QString html = aboutHtml();
        QVERIFY2(html.contains(QStringLiteral("ParaScope ") + QLatin1String(parascope::kVersion)), qPrintable(html));
        if (*parascope::kGitRevision)
            QVERIFY(html.contains(QStringLiteral("git revision ") + QLatin1String(parascope::kGitRevision)));
        QVERIFY(html.contains(QStringLiteral("Qt ") + QLatin1String(qVersion())));
        QVERIFY(html.contains(QStringLiteral("GNU General Public License")));
        w.setLanguage(QStringLiteral("zh"));
        html = aboutHtml();
        QVERIFY2(html.contains(QStringLiteral("GNU 通用公共许可证")), qPrintable(html));
        QVERIFY(html.contains(QLatin1String(parascope::kVersion)));
        w.setLanguage(QStringLiteral("en"));
    }

    void versionOnTheCommandLine()
    {
        // Without a display and without QT_QPA_PLATFORM (a terminal over ssh, a package check):
        // --version and --help answer instead of aborting for want of a platform plugin.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* var : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
            env.remove(QString::fromLatin1(var));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(PARASCOPE_GUI), {QStringLiteral("--version")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(p.readAllStandardOutput()).trimmed(),
                 QStringLiteral("ParaScope ") + QString::fromStdString(parascope::versionText()));
        p.start(QStringLiteral(PARASCOPE_GUI), {QStringLiteral("--help")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QString::fromUtf8(p.readAllStandardOutput()).contains(QStringLiteral("--screenshot")));
    }

#ifdef Q_OS_LINUX
    void failedSaveKeepsTheOldFile()
    {
        // A save that fails half-way (here: the file-size limit, which binds root too) leaves the
        // previous file byte for byte: QSaveFile writes a temporary file and renames it only on
        // success.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("kept.parascope.json"));
        MainWindow w;
        w.model()->setScenario(sevenB());
        QCOMPARE(w.saveScenario(file), QString());
        QFile before(file);
        QVERIFY(before.open(QIODevice::ReadOnly));
        const QByteArray old = before.readAll();
        before.close();
        Scenario changed = sevenB();
        changed.name = std::string(4096, 'x'); // larger than the limit below
        w.model()->setScenario(changed);
        rlimit saved{};
        getrlimit(RLIMIT_FSIZE, &saved);
        const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit small = saved;
        small.rlim_cur = 1024;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        const QString error = w.saveScenario(file);
        setrlimit(RLIMIT_FSIZE, &saved);
        std::signal(SIGXFSZ, old_handler);
        QVERIFY2(error.contains(QStringLiteral("reached the disk")), qPrintable(error));
        QFile after(file);
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), old);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1); // no temporary file left
    }
#endif

    void saveOpenRoundTrip()
    {
        QTemporaryDir dir;
        MainWindow a;
        Scenario s = sevenB();
        s.model.layers = 30; // a custom model must survive too
        s.model.id = "custom";
        s.name = "round trip";
        a.model()->setScenario(s);
        const QString file = dir.filePath(QStringLiteral("x.parascope.json"));
        QVERIFY(a.saveScenario(file).isEmpty());
        MainWindow b;
        QVERIFY(b.openScenario(file).isEmpty());
        QCOMPARE(scenarioToJson(b.model()->scenario()), scenarioToJson(a.model()->scenario()));
        QCOMPARE(b.model()->estimate().time.step_s, a.model()->estimate().time.step_s);

        // A failed save keeps the old file; a bad file names the JSON path.
        QVERIFY(!a.saveScenario(dir.filePath(QStringLiteral("missing/dir/x.json"))).isEmpty());
        QFile bad(dir.filePath(QStringLiteral("bad.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-a100-80g","parallel":{"tp":0}})");
        bad.close();
        const QString error = b.openScenario(bad.fileName());
        QVERIFY2(error.contains(QStringLiteral("parallel.tp")), qPrintable(error));
        QCOMPARE(scenarioToJson(b.model()->scenario()), scenarioToJson(a.model()->scenario())); // unchanged
    }

    void exportsHaveTheAskedSize()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.model()->setScenario(sevenB());
        for (const ChartKind which : {ChartKind::Memory, ChartKind::Timeline, ChartKind::Communication}) {
            const QString png = dir.filePath(QString::fromLatin1(toString(which))); // no extension: .png is added
            QVERIFY(w.exportChartTo(which, png, QSize(1280, 720), 2).isEmpty());
            QImage img(png + QStringLiteral(".png"));
            QCOMPARE(img.size(), QSize(2560, 1440));
        }
        const QString svg = dir.filePath(QStringLiteral("m.svg"));
        QVERIFY(w.exportChartTo(ChartKind::Memory, svg, QSize(1024, 768), 1).isEmpty());
        QFile s(svg);
        QVERIFY(s.open(QIODevice::ReadOnly));
        const QByteArray svgText = s.readAll();
        QVERIFY(svgText.contains("<svg"));
        QVERIFY(svgText.contains("1024"));
        const QString pdf = dir.filePath(QStringLiteral("t.pdf"));
        QVERIFY(w.exportChartTo(ChartKind::Timeline, pdf, QSize(1920, 1080), 1).isEmpty());
        QFile p(pdf);
        QVERIFY(p.open(QIODevice::ReadOnly));
        QVERIFY(p.read(4) == "%PDF");
        QVERIFY(!w.exportChartTo(ChartKind::Memory, dir.filePath(QStringLiteral("no/such/x.png")), QSize(800, 600), 1).isEmpty());
        QVERIFY(!w.exportChartTo(ChartKind::Memory, dir.filePath(QStringLiteral("x.png")), QSize(5, 5), 1).isEmpty());
    }

    void diagnosticsModelIsSound()
    {
        MainWindow w;
        w.model()->setScenario(scenario(R"({"schema":"parascope.scenario/1","model":"llama2-13b","cluster":"dgx-a100-80g",
            "parallel":{"tp":16,"pp":64,"dp":1},"training":{"global_batch":30}})"));
        DiagnosticsModel* m = w.diagnosticsPanel()->diagnostics();
        QAbstractItemModelTester tester(m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(m->rowCount() >= 3);
        // Reset with the tester watching: the course's default scenario has nothing to report.
        std::vector<InputError> errors;
        w.model()->setScenario(*readScenarioFile(PARASCOPE_SOURCE_DIR "/resources/scenarios/default.parascope.json", errors));
        QCOMPARE(m->rowCount(), 0);
        for (const char* role : {"code", "stage", "knob", "severity", "suggestion", "message"})
            QVERIFY(m->roleNames().values().contains(QByteArray(role)));
    }

    void clickingADiagnosticHighlights()
    {
        MainWindow w;
        w.model()->setScenario(scenario(R"({"schema":"parascope.scenario/1","model":"llama2-13b","cluster":"dgx-a100-80g",
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
        QCOMPARE(int(readLessons(errors).size()), 10);
        QVERIFY2(errors.empty(), errors.empty() ? "" : errors.front().text().c_str());
        MainWindow w;
        for (const Lesson& l : lessons()) {
            QVERIFY2(!l.steps.empty(), l.id.c_str());
            QVERIFY(!l.title.en.empty() && !l.title.zh.empty() && !l.text.en.empty() && !l.text.zh.empty());
            w.loadLesson(QString::fromStdString(l.id), 0);
            QCOMPARE(scenarioToJson(w.model()->scenario()), scenarioToJson(l.steps.front().scenario));
            // The panel's lesson combo shows the lesson loaded (it said "(none)").
            QCOMPARE(w.panel()->findChild<QComboBox*>()->currentData().toString(), QString::fromStdString(l.id));
        }
        // Case 1: DDP runs out of memory, TP 8 × DP 8 fits.
        w.loadLesson(QStringLiteral("1-13b-ddp-vs-tp"), 0);
        QVERIFY(!w.model()->estimate().memory.fits);
        w.loadLesson(QStringLiteral("1-13b-ddp-vs-tp"), 1);
        QVERIFY(w.model()->estimate().memory.fits);
        // What breaks if PP = 16: microbatches < PP.
        w.loadLesson(QStringLiteral("4-what-breaks-pp16"), 0);
        QVERIFY(hasCode(w.diagnosticsPanel()->diagnostics(), QStringLiteral("microbatches_lt_pp")));
    }

    void presenterMode()
    {
        MainWindow w;
        w.setPresenterMode(true);
        QVERIFY(QApplication::font().pointSize() >= 18);
        QVERIFY(w.memoryChart()->plot()->xAxis->labelFont().pointSize() >= 18);
        w.setPresenterMode(false);
        QVERIFY(QApplication::font().pointSize() < 18);
    }

    void headlessExport()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("memory.png"));
        QProcess p;
        p.start(QStringLiteral(PARASCOPE_GUI),
                {QStringLiteral(PARASCOPE_SOURCE_DIR "/resources/scenarios/default.parascope.json"), QStringLiteral("--export"),
                 QStringLiteral("memory"), QStringLiteral("--out"), out, QStringLiteral("--size"), QStringLiteral("1280x720"),
                 QStringLiteral("--lang"), QStringLiteral("zh")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(QImage(out).size(), QSize(1280, 720));
        p.start(QStringLiteral(PARASCOPE_GUI), {QStringLiteral("/nonexistent.json"), QStringLiteral("--export"),
                                                QStringLiteral("memory"), QStringLiteral("--out"), out});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
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
                         qPrintable(QStringLiteral("%1: %2×%3").arg(QLatin1String(lang)).arg(min.width()).arg(min.height())));
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
        const QtMessageHandler previous = qInstallMessageHandler(
            [](QtMsgType, const QMessageLogContext&, const QString& m) { messages << m; });
        {
            MainWindow w;
            w.showTab(MainWindow::Tab::Sweep);
        }
        qInstallMessageHandler(previous);
        QVERIFY2(messages.filter(QStringLiteral("couldn't take")).isEmpty(), qPrintable(messages.join(QLatin1Char('\n'))));
    }

    void screenshotAndRefusalsLeaveSettingsAlone()
    {
        // Headless runs get their own configuration folder, so the settings file they must not
        // write is one this test can watch.
        QTemporaryDir dir, config;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), config.path());
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        const auto run = [&](const QStringList& args) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(PARASCOPE_GUI), args);
            return p.waitForFinished(120000) ? p.exitCode() : -1;
        };
        const QString scenario = QStringLiteral(PARASCOPE_SOURCE_DIR "/resources/scenarios/default.parascope.json");
        // --screenshot renders the whole window at the screen size, in either language and tab.
        for (const char* size : {"1280x720", "1024x768"}) {
            const QString png = dir.filePath(QStringLiteral("shot-%1.png").arg(QLatin1String(size)));
            QCOMPARE(run({scenario, QStringLiteral("--screenshot"), png, QStringLiteral("--window-size"), QLatin1String(size),
                          QStringLiteral("--lang"), QStringLiteral("zh"), QStringLiteral("--tab"), QStringLiteral("sweep")}),
                     0);
            const QStringList wh = QString::fromLatin1(size).split(QLatin1Char('x'));
            QCOMPARE(QImage(png).size(), QSize(wh[0].toInt(), wh[1].toInt()));
        }
        // A value that names nothing is refused with exit 2, never replaced by a default.
        const QString out = dir.filePath(QStringLiteral("x.png"));
        QCOMPARE(run({scenario, QStringLiteral("--export"), QStringLiteral("memory"), QStringLiteral("--out"),
                      dir.filePath(QStringLiteral("x.jpg"))}), 2);
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("x.jpg.png"))));
        QCOMPARE(run({scenario, QStringLiteral("--export"), QStringLiteral("memory"), QStringLiteral("--out"), out,
                      QStringLiteral("--lang"), QStringLiteral("fr")}), 2);
        QCOMPARE(run({scenario, QStringLiteral("--export"), QStringLiteral("sweep"), QStringLiteral("--out"), out,
                      QStringLiteral("--sweep"), QStringLiteral("nonsense.knob")}), 2);
        QCOMPARE(run({scenario, QStringLiteral("--screenshot"), out, QStringLiteral("--tab"), QStringLiteral("gantt")}), 2);
        // An export in Chinese neither switches the desktop app's language nor adds a recent file.
        QCOMPARE(run({scenario, QStringLiteral("--export"), QStringLiteral("memory"), QStringLiteral("--out"), out,
                      QStringLiteral("--lang"), QStringLiteral("zh")}), 0);
        QDirIterator it(config.path(), QDir::Files, QDirIterator::Subdirectories);
        QVERIFY2(!it.hasNext(), qPrintable(it.hasNext() ? it.next() : QString()));
    }

    void calibrationFromAProfile()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(sevenB());
        const double before = w.model()->estimate().time.compute_s;
        QVERIFY(w.importProfile(QStringLiteral(PARASCOPE_TEST_DATA "/profile-a100-80g.json"), false).isEmpty());
        QVERIFY(!w.model()->scenario().cluster.calibration.empty());
        QVERIFY(w.statusLabel()->text().contains(QStringLiteral("calibrated")));
        QVERIFY(w.model()->estimate().time.compute_s > before); // measured GEMM 262 < 0.869·312 TFLOP/s
        // The dialog shows datasheet next to measured.
        std::vector<InputError> errors;
        const auto profile = readHardwareProfileFile(PARASCOPE_TEST_DATA "/profile-a100-80g.json", errors);
        CalibrationDialog d(sevenB().cluster, *profile);
        QCOMPARE(d.table()->rowCount(), 6);
        QCOMPARE(d.table()->item(0, 1)->text().trimmed(), QStringLiteral("0.869"));
        QCOMPARE(d.table()->item(0, 2)->text().trimmed(), QString::number(d.calibrated().gpu.gemm_efficiency, 'g', 4));
        QVERIFY(d.calibrated().gpu.gemm_efficiency < 0.869);
        // A bad profile names the JSON path and changes nothing.
        const QString error = w.importProfile(QStringLiteral(PARASCOPE_TEST_DATA "/bad-profile.json"), false);
        QVERIFY2(error.contains(QStringLiteral("devices[0].gemm[0]")), qPrintable(error));
    }

    // File → Import model… and a config.json dropped on the window (issue 16): the model becomes
    // the scenario's (in a session without a window shown, without the editor); errors name the field.
    void importModelFromAHuggingFaceConfig()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(sevenB());
        QVERIFY(w.importModel(QStringLiteral(PARASCOPE_TEST_DATA "/hf/qwen3-30b-a3b.json"), false).isEmpty());
        QCOMPARE(w.model()->scenario().model.name, std::string("qwen3-30b-a3b"));
        QCOMPARE(w.model()->scenario().model.id, std::string("custom"));
        QCOMPARE(w.model()->scenario().model.moe->experts, 128);
        QCOMPARE(countParameters(w.model()->scenario().model, Explain::NumbersOnly).total, std::int64_t(30532122624));
        // A multimodal config without asking: its language model alone (34 layers of Gemma 3 4B).
        QVERIFY(w.importModel(QStringLiteral(PARASCOPE_TEST_DATA "/hf/gemma-3-4b-it.json"), false).isEmpty());
        QCOMPARE(w.model()->scenario().model.layers, 34);
        // Dropped on the window: a config.json is imported, not opened as a scenario.
        QVERIFY(w.openDropped(QStringLiteral(PARASCOPE_TEST_DATA "/hf/gemma-2-9b.json")).isEmpty());
        QCOMPARE(w.model()->scenario().model.name, std::string("gemma-2-9b"));
        QVERIFY(w.model()->scenario().model.post_norms);
        // Not a config: the error names the missing field, and the model stays.
        const QString error = w.importModel(QStringLiteral(PARASCOPE_TEST_DATA "/profile-a100-80g.json"), false);
        QVERIFY2(error.contains(QStringLiteral("architectures")), qPrintable(error));
        QCOMPARE(w.model()->scenario().model.name, std::string("gemma-2-9b"));
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
        QVERIFY(strip->gauges()[0].tooltip.contains(QStringLiteral("walls.memory")) || strip->gauges()[0].tooltip.contains(QStringLiteral("peak")));
        const double before = strip->gauges()[0].share;
        w.model()->edit([](Scenario& s) { s.training.micro_batch *= 2; s.training.global_batch *= 2; });
        w.model()->flush();
        QVERIFY(strip->gauges()[0].share > before);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("walls.png"));
        QCOMPARE(w.exportChartTo(ChartKind::Walls, file, QSize(1280, 720), 1), QString());
        QVERIFY(QFileInfo(file).size() > 1000);
    }

    void compareWithAMeasuredTrace()
    {
        // Tools → Compare with a measured trace: read on a worker, then a dialog beside the
        // window with the step taken apart on both sides, following the scenario's edits.
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(sevenB());
        w.compareWithTrace(QStringLiteral(PARASCOPE_TEST_DATA "/traces/kineto_three_steps.json"));
        QTRY_VERIFY(w.traceDialog() != nullptr);
        TraceDialog* d = w.traceDialog();
        const TraceComparison& c = d->comparison();
        // The hand-made trace's median step is 10 ms (tst_trace_import derives every row).
        QCOMPARE(c.row("step")->measured_s, 10e-3);
        QCOMPARE(c.row("step")->simulated_s, w.model()->estimate().time.step_s);
        QCOMPARE(d->table()->rowCount(), int(c.rows.size()));
        QCOMPARE(d->table()->item(0, 2)->text(), QStringLiteral("10.00"));
        // Seven parts of the step, a stacked bar each side.
        QCOMPARE(d->plot()->plottableCount(), 7);
        // An edit re-evaluates, and the simulated side follows.
        const double before = c.row("step")->simulated_s;
        w.model()->edit([](Scenario& s) { s.training.global_batch *= 2; });
        w.model()->flush();
        QVERIFY(w.traceDialog()->comparison().row("step")->simulated_s > before);
        // Dropped on the window, a trace is compared, not opened as a scenario.
        const std::string name = w.model()->scenario().name;
        w.traceDialog()->close();
        QTRY_VERIFY(w.traceDialog() == nullptr);
        QVERIFY(w.openDropped(QStringLiteral(PARASCOPE_TEST_DATA "/traces/kineto_no_steps.json")).isEmpty());
        QTRY_VERIFY(w.traceDialog() != nullptr);
        QCOMPARE(w.model()->scenario().name, name);
        QCOMPARE(w.traceDialog()->comparison().row("step")->measured_s, 0.7e-3);
    }

    void calibrateFromThisMachine()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        const QString result = w.calibrateFromThisMachine(false);
#ifdef PARASCOPE_PROBE
        // The probe was built: the app must find it next to itself in the build tree. Here (no
        // GPU, no driver) it exits 2 and says why; on a GPU machine the profile is applied.
        QVERIFY2(!result.contains(QStringLiteral("not installed")), qPrintable(result));
        QVERIFY2(result.contains(QStringLiteral("No usable GPU")) || (result.isEmpty() && !w.model()->scenario().cluster.calibration.empty()),
                 qPrintable(result));
#else
        // Not built here: "not installed", unless a parascope-probe is on PATH (an installed package).
        if (QStandardPaths::findExecutable(QStringLiteral("parascope-probe")).isEmpty())
            QVERIFY2(result.contains(QStringLiteral("not installed")), qPrintable(result));
        else
            QVERIFY2(result.contains(QStringLiteral("No usable GPU")) || result.isEmpty(), qPrintable(result));
#endif
    }

    void calibrateRunsTheProbeAndReadsItsAnswer()
    {
        // A stand-in probe ($PARASCOPE_PROBE) answers as the real one does on a machine without a
        // GPU: exit 2 and a no_gpu profile with the reason. The app must run it with --quick --out
        // FILE --scenario FILE (the current scenario, so that its GEMMs are timed) and report that
        // reason; a broken invocation or exit-code handling changes the text.
        QTemporaryDir dir;
        const QString fake = dir.filePath(QStringLiteral("parascope-probe"));
        QFile f(fake);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\n"
                "[ \"$1\" = --quick ] && [ \"$2\" = --out ] && [ \"$4\" = --scenario ] && [ -s \"$5\" ] || exit 9\n"
                "printf '{\"schema\":\"parascope.hardware-profile/1\",\"status\":\"no_gpu\",\"error\":{\"message\":\"stand-in: no GPU\"}}' > \"$3\"\n"
                "exit 2\n");
        f.close();
        QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
        qputenv("PARASCOPE_PROBE", fake.toLocal8Bit());
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        const QString result = w.calibrateFromThisMachine(false);
        qunsetenv("PARASCOPE_PROBE");
        QCOMPARE(result, QStringLiteral("No usable GPU on this machine: stand-in: no GPU"));
    }

    void sweepViewAndExport()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        Scenario s = sevenB();
        s.parallel.pp = 1;
        s.training.global_batch = 16;
        w.model()->setScenario(s);
        // From the knob's context menu in the app; here directly: PP 1 … 64 on 32 layers.
        emit w.panel()->sweepRequested(QStringLiteral("parallel.pp"));
        // The sweep runs on a worker thread and is drawn when it is done.
        QTRY_VERIFY(!w.sweepView()->isSweeping() && !w.sweepView()->result().points.empty()); // values around PP = 1
        w.sweepView()->runSweep(QStringLiteral("parallel.pp"), {1, 2, 4, 8, 16, 32, 64}, true);
        const SweepResult& r = w.sweepView()->result();
        QCOMPARE(r.points.size(), std::size_t(7));
        std::set<std::string> codes;
        for (const BreakingPoint& b : r.breaks)
            codes.insert(b.code);
        QVERIFY(codes.count("out_of_memory") && codes.count("microbatches_lt_pp") && codes.count("pp_exceeds_layers"));
        QVERIFY(w.sweepView()->pointText(0).contains(QStringLiteral("parallel.pp = 1")));
        const QString png = dir.filePath(QStringLiteral("sweep.png"));
        QVERIFY(w.exportChartTo(ChartKind::Sweep, png, QSize(1280, 720), 1).isEmpty());
        QCOMPARE(QImage(png).size(), QSize(1280, 720));
    }

    void searchRunsOffTheGuiThread()
    {
        MainWindow w;
        Scenario s = sevenB();
        s.parallel.pp = 1;
        s.parallel.dp = 8;
        w.model()->setScenario(s);
        SearchView* v = w.searchView();
        v->runSearch(false);
        const double best = v->result().top.front().tokens_per_s;
        const std::size_t enumerated = v->result().enumerated;
        // Interactive: the call returns at once, the GUI thread stays free, the result arrives by
        // signal and equals the one computed in place.
        v->table()->setRows({});
        v->runSearch(true);
        QTRY_VERIFY_WITH_TIMEOUT(!v->isSearching() && v->table()->rowCount() > 0, 60000);
        QCOMPARE(v->result().enumerated, enumerated);
        QCOMPARE(v->result().top.front().tokens_per_s, best);
        // Cancel: the search stops at its next evaluation and says so.
        v->runSearch(true);
        v->cancelSearch();
        QTRY_VERIFY_WITH_TIMEOUT(!v->isSearching(), 60000);
        QVERIFY(v->result().cancelled || v->result().evaluated == v->result().enumerated);
    }

    void sweepFollowsTheScenario()
    {
        // A sweep on screen never shows an older scenario: after a knob moves it says so and runs
        // again over the same values.
        // While its tab is hidden it only remembers that it is stale and sweeps when shown.
        MainWindow w;
        Scenario s = sevenB();
        s.parallel.pp = 1;
        s.training.global_batch = 16;
        w.model()->setScenario(s);
        w.show();
        w.showTab(MainWindow::Tab::Sweep);
        w.sweepView()->runSweep(QStringLiteral("parallel.pp"), {1, 2, 4}, true);
        const double before = w.sweepView()->result().points.front().step_s;
        w.model()->edit([](Scenario& x) { x.training.global_batch = 32; }); // twice the work per step
        w.model()->flush();
        QTRY_VERIFY_WITH_TIMEOUT(!w.sweepView()->isSweeping() && w.sweepView()->result().points.size() == 3
                                     && w.sweepView()->result().points.front().step_s > 1.5 * before,
                                 20000);
        const double doubled = w.sweepView()->result().points.front().step_s;
        w.showTab(MainWindow::Tab::Explorer);
        w.model()->edit([](Scenario& x) { x.training.global_batch = 64; });
        w.model()->flush();
        QTest::qWait(800); // longer than the rest interval: a visible sweep would have run by now
        QCOMPARE(w.sweepView()->result().points.front().step_s, doubled);
        w.showTab(MainWindow::Tab::Sweep);
        QTRY_VERIFY_WITH_TIMEOUT(!w.sweepView()->isSweeping() && w.sweepView()->result().points.front().step_s > 1.5 * doubled,
                                 20000);
    }

    void searchViewAppliesARow()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        Scenario s = sevenB();
        s.parallel.pp = 1;
        s.parallel.dp = 8; // 8 GPUs of one node, 8 sequences per step
        w.model()->setScenario(s);
        SearchView* v = w.searchView();
        QAbstractItemModelTester tester(v->table(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        v->runSearch(false);
        QVERIFY(v->table()->rowCount() > 0);
        QCOMPARE(v->table()->columnCount(), 8);
        QVERIFY(!v->result().pareto.empty());
        // The TP × PP heatmap has one cell per TP and PP value enumerated.
        QVERIFY(!v->result().cells.empty());
        QVERIFY(v->heatmap()->data()->keySize() >= 1 && v->heatmap()->data()->valueSize() >= 1);
        // Apply the best row: the scenario takes its layout and the numbers follow.
        const SearchRow best = *v->table()->row(0);
        v->applyRow(0);
        w.model()->flush();
        QCOMPARE(w.model()->scenario().parallel.tp, best.parallel.tp);
        QCOMPARE(w.model()->scenario().parallel.pp, best.parallel.pp);
        QCOMPARE(w.model()->scenario().training.micro_batch, best.training.micro_batch);
        QCOMPARE(w.model()->estimate().throughput.tokens_per_s, best.tokens_per_s);
        const QString png = dir.filePath(QStringLiteral("pareto.png"));
        QVERIFY(w.exportChartTo(ChartKind::Search, png, QSize(1280, 720), 1).isEmpty());
        QCOMPARE(QImage(png).size(), QSize(1280, 720));
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
