// The desktop app's tools (from tst_gui), offscreen: calibration from a profile file and from
// this machine (parascope-probe, or a stand-in for it), a Hugging Face config imported or dropped
// on the window, a measured trace compared with the step, and the Sweep and Search tabs: they run
// off the GUI thread, follow the scenario, export, and apply a row.

#include "chart_export.h"
#include "dialogs/calibration_dialog.h"
#include "dialogs/trace_dialog.h"
#include "gui_scenarios.h"
#include "io/scenario_json.h"
#include "main_window.h"
#include "controllers/compare_controller.h"
#include "controllers/export_controller.h"
#include "controllers/import_controller.h"
#include "model/parameter_count.h"
#include "models/scenario_model.h"
#include "models/search_table_model.h"
#include "scenario_panel.h"
#include "search_view.h"
#include "sweep_view.h"

#include <qcustomplot.h>

#include <QAbstractItemModelTester>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include <set>

using namespace parascope;
using namespace parascope::ui;
using parascope::test::gui::scenario;
using parascope::test::gui::sevenB;

class TstGuiTools : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ParaScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("ParaScopeGuiToolsTest"));
        QSettings().clear();
    }

    void calibrationFromAProfile()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(sevenB());
        const double before = w.model()->estimate().time.compute_s;
        QVERIFY(
            w.imports()->importProfile(QStringLiteral(PARASCOPE_TEST_DATA "/profile-a100-80g.json"), false).isEmpty());
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
        const QString error
            = w.imports()->importProfile(QStringLiteral(PARASCOPE_TEST_DATA "/bad-profile.json"), false);
        QVERIFY2(error.contains(QStringLiteral("devices[0].gemm[0]")), qPrintable(error));
    }

    // File → Import model… and a config.json dropped on the window (issue 16): the model becomes
    // the scenario's (in a session without a window shown, without the editor); errors name the field.
    void importModelFromAHuggingFaceConfig()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(sevenB());
        QVERIFY(
            w.imports()->importModel(QStringLiteral(PARASCOPE_TEST_DATA "/hf/qwen3-30b-a3b.json"), false).isEmpty());
        QCOMPARE(w.model()->scenario().model.name, std::string("qwen3-30b-a3b"));
        QCOMPARE(w.model()->scenario().model.id, std::string("custom"));
        QCOMPARE(w.model()->scenario().model.moe->experts, 128);
        QCOMPARE(countParameters(w.model()->scenario().model, Explain::NumbersOnly).total, std::int64_t(30532122624));
        // A multimodal config without asking: its language model alone (34 layers of Gemma 3 4B).
        QVERIFY(
            w.imports()->importModel(QStringLiteral(PARASCOPE_TEST_DATA "/hf/gemma-3-4b-it.json"), false).isEmpty());
        QCOMPARE(w.model()->scenario().model.layers, 34);
        // Dropped on the window: a config.json is imported, not opened as a scenario.
        QVERIFY(w.imports()->openDropped(QStringLiteral(PARASCOPE_TEST_DATA "/hf/gemma-2-9b.json")).isEmpty());
        QCOMPARE(w.model()->scenario().model.name, std::string("gemma-2-9b"));
        QVERIFY(w.model()->scenario().model.post_norms);
        // Not a config: the error names the missing field, and the model stays.
        const QString error
            = w.imports()->importModel(QStringLiteral(PARASCOPE_TEST_DATA "/profile-a100-80g.json"), false);
        QVERIFY2(error.contains(QStringLiteral("architectures")), qPrintable(error));
        QCOMPARE(w.model()->scenario().model.name, std::string("gemma-2-9b"));
    }

    // File → Import Megatron-LM launch script… and a script dropped on the window (issue 37): the
    // scenario its launcher line describes, and the summary of every flag.
    void importMegatronLaunchScript()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(sevenB());
        const QString script = QStringLiteral(PARASCOPE_TEST_DATA "/megatron/llama3_8b_fp8_mock.sh");
        QVERIFY(droppedKind(script) == DroppedKind::LaunchScript);
        QVERIFY(w.imports()->openDropped(script).isEmpty());
        // tst_launch_scripts derives these: FP8 from the quoted "--fp8-format hybrid", TP 2 · DP 8.
        QCOMPARE(w.model()->scenario().training.precision, Precision::Fp8);
        QCOMPARE(w.model()->scenario().parallel.tp, 2);
        QCOMPARE(w.model()->scenario().parallel.dp, 8);
        // The chosen cluster (A100) has no FP8: the import's default (H100) instead, and said so.
        QCOMPARE(w.model()->scenario().cluster.id, std::string("dgx-h100"));
        QVERIFY(w.imports()->lastImportSummary().contains(QStringLiteral("FP8 needs a GPU with FP8")));
        QVERIFY(w.imports()->lastImportSummary().contains(QStringLiteral("--fp8-param-gather: FP8 parameter")));
        // The DeepSeek-V3 sbatch script does not say its GPUs or vocabulary: without asking they are
        // given, else the error names them.
        const QString sbatch = QStringLiteral(PARASCOPE_TEST_DATA "/megatron/deepseek_v3_sbatch.sh");
        const QString error = w.imports()->importLaunchScript(sbatch, false);
        QVERIFY2(error.contains(QStringLiteral("--gpus")), qPrintable(error));
        w.model()->setScenario(sevenB());
        QVERIFY(w.imports()->importLaunchScript(sbatch, false, 256, 129280).isEmpty());
        QCOMPARE(w.model()->scenario().cluster.id, sevenB().cluster.id); // bf16: the chosen cluster stays
        QCOMPARE(w.model()->scenario().parallel.zero, 3);
        QVERIFY(w.model()->scenario().model.mla.has_value());
    }

    void compareWithAMeasuredTrace()
    {
        // Tools → Compare with a measured trace: read on a worker, then a dialog beside the
        // window with the step taken apart on both sides, following the scenario's edits.
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(sevenB());
        w.compare()->compareWithTrace(QStringLiteral(PARASCOPE_TEST_DATA "/traces/kineto_three_steps.json"));
        QTRY_VERIFY(w.compare()->traceDialog() != nullptr);
        TraceDialog* d = w.compare()->traceDialog();
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
        QVERIFY(w.compare()->traceDialog()->comparison().row("step")->simulated_s > before);
        // Dropped on the window, a trace is compared, not opened as a scenario.
        const std::string name = w.model()->scenario().name;
        w.compare()->traceDialog()->close();
        QTRY_VERIFY(w.compare()->traceDialog() == nullptr);
        QVERIFY(w.imports()->openDropped(QStringLiteral(PARASCOPE_TEST_DATA "/traces/kineto_no_steps.json")).isEmpty());
        QTRY_VERIFY(w.compare()->traceDialog() != nullptr);
        QCOMPARE(w.model()->scenario().name, name);
        QCOMPARE(w.compare()->traceDialog()->comparison().row("step")->measured_s, 0.7e-3);
    }

    void calibrateFromThisMachine()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        const QString result = w.imports()->calibrateFromThisMachine(false);
#ifdef PARASCOPE_PROBE
        // The probe was built: the app must find it next to itself in the build tree. Here (no
        // GPU, no driver) it exits 2 and says why; on a GPU machine the profile is applied.
        QVERIFY2(!result.contains(QStringLiteral("not installed")), qPrintable(result));
        QVERIFY2(result.contains(QStringLiteral("No usable GPU"))
                     || (result.isEmpty() && !w.model()->scenario().cluster.calibration.empty()),
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
                "printf "
                "'{\"schema\":\"parascope.hardware-profile/"
                "1\",\"status\":\"no_gpu\",\"error\":{\"message\":\"stand-in: no GPU\"}}' > \"$3\"\n"
                "exit 2\n");
        f.close();
        QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
        qputenv("PARASCOPE_PROBE", fake.toLocal8Bit());
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        const QString result = w.imports()->calibrateFromThisMachine(false);
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
        QVERIFY(w.exports()->exportChartTo(ChartKind::Sweep, png, QSize(1280, 720), 1).isEmpty());
        QCOMPARE(QImage(png).size(), QSize(1280, 720));
    }

    // Qwen3-235B at PP 32 swept over PP: 1 … 16 are out of memory, and each ✗ value was labelled
    // whatever the room, "8 GPUs" under it on the lowest axis ("8 块 GPU16 块 GPU32 块 GPU" at
    // 1280×720 in zh), while PP 32, the one valid value, had no label. No two labels of an axis
    // touch now, and valid values are labelled first.
    void sweepLabelsNeverTouch()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("zh"));
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.model()->setScenario(scenario(R"({"schema":"parascope.scenario/1","model":"qwen3-235b-a22b",
            "cluster":"dgx-h100","overheads":{"allocator":"expandable_segments"},"parallel":{"tp":2,"pp":32,"dp":4,
            "ep":8,"etp":1,"vpp":3,"schedule":"interleaved","sequence_parallel":true,"zero":1,
            "account_for_embedding_in_pipeline_split":true,"account_for_loss_in_pipeline_split":true},
            "training":{"seq_len":4096,"micro_batch":1,"global_batch":2048,"recompute":"selective",
            "recompute_modules":["moe_act","layernorm"]}})"));
        w.model()->flush();
        w.showTab(MainWindow::Tab::Sweep);
        w.sweepView()->runSweep(QStringLiteral("parallel.pp"), {1, 2, 4, 8, 16, 32, 47, 64, 94}, true);
        int invalid = 0;
        for (const SweepPoint& p : w.sweepView()->result().points)
            invalid += p.valid ? 0 : 1;
        QCOMPARE(invalid, 8); // PP 32 alone is valid (the Model Zoo's layout)
        QCustomPlot* plot = w.sweepView()->plot();
        plot->replot();
        QCPAxis* lowest = nullptr;
        for (QCPAxisRect* r : plot->axisRects())
            lowest = r->axis(QCPAxis::atBottom);
        const QFontMetrics fm(lowest->tickLabelFont());
        const auto ticks = lowest->ticker().dynamicCast<QCPAxisTickerText>()->ticks();
        QVERIFY(ticks.size() >= 3);
        QVERIFY2(ticks.contains(5.0), "the one valid value, PP 32, is labelled");
        double right = -1e9;
        for (auto it = ticks.cbegin(); it != ticks.cend(); ++it) {
            double half = 0;
            for (const QString& line : it.value().split(QLatin1Char('\n')))
                half = std::max(half, fm.horizontalAdvance(line) / 2.0);
            const double centre = lowest->coordToPixel(it.key());
            QVERIFY2(centre - half > right, qPrintable(it.value()));
            right = centre + half;
        }
        w.setLanguage(QStringLiteral("en")); // the language is a setting: the tests after read English
    }

    // A sweep whose every value is out of memory (Llama-2 70B on one GPU per stage, PP 1 … 4)
    // drew an empty chart: the peaks were dropped with the invalid points, the step chart stood
    // over an axis of 10⁻⁶ s. The peak each value would need is drawn (✕, named in the legend), a
    // value the knob refuses stays a gap, and the step and ratio charts say that nothing runs.
    void sweepOutOfMemoryStillShowsThePeak()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.model()->setScenario(scenario(R"({"schema":"parascope.scenario/1","model":"llama2-70b",
            "cluster":"dgx-a100-80g","parallel":{"tp":1,"pp":1,"dp":1},
            "training":{"seq_len":4096,"micro_batch":1,"global_batch":8}})"));
        w.model()->flush();
        w.showTab(MainWindow::Tab::Sweep);
        w.sweepView()->runSweep(QStringLiteral("parallel.pp"), {0, 1, 2, 4}, true);
        const SweepResult& r = w.sweepView()->result();
        QCOMPARE(int(r.points.size()), 4);
        QCustomPlot* plot = w.sweepView()->plot();
        const auto graphNamed = [plot](const QString& name) -> QCPGraph* {
            for (int i = 0; i < plot->graphCount(); ++i)
                if (plot->graph(i)->name() == name)
                    return plot->graph(i);
            return nullptr;
        };
        QCPGraph* peak = graphNamed(QStringLiteral("Peak memory per GPU (GiB)"));
        QCPGraph* over = graphNamed(QStringLiteral("Out of memory: the peak it would need (GiB)"));
        QVERIFY(peak && over);
        QVERIFY(std::isnan(peak->data()->at(0)->value)); // PP 0: refused, no layout ran
        QVERIFY(std::isnan(over->data()->at(0)->value));
        for (int i = 1; i < 4; ++i) {
            const SweepPoint& p = r.points[std::size_t(i)];
            QVERIFY(!p.valid && p.peak_bytes > p.capacity_bytes);
            QCOMPARE(peak->data()->at(i)->value, p.peak_bytes / double(1ull << 30));
            QCOMPARE(over->data()->at(i)->value, p.peak_bytes / double(1ull << 30));
        }
        QVERIFY(plot->legend->hasItemWithPlottable(over));
        int notes = 0;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(plot->item(i));
                t && t->text().startsWith(QStringLiteral("No value runs")))
                ++notes;
        QCOMPARE(notes, 2); // the step chart and the ratio chart
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
        // Each row's step says how sure it is (issue 36 §1): its layout's band, as the status bar's.
        const QString how_sure = v->table()->data(v->table()->index(0, 2), Qt::ToolTipRole).toString();
        QVERIFY2(how_sure.contains(QStringLiteral("±")) && how_sure.contains(QStringLiteral("reference runs")),
                 qPrintable(how_sure));
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
        QTRY_VERIFY_WITH_TIMEOUT(
            !w.sweepView()->isSweeping() && w.sweepView()->result().points.front().step_s > 1.5 * doubled, 20000);
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
        QVERIFY(w.exports()->exportChartTo(ChartKind::Search, png, QSize(1280, 720), 1).isEmpty());
        QCOMPARE(QImage(png).size(), QSize(1280, 720));
    }
};

QTEST_MAIN(TstGuiTools)
#include "tst_gui_tools.moc"
