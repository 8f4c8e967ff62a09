// The views that take one mechanism apart (from tst_views), offscreen: the Collectives tab plays
// a row of the communication chart step by step and follows it as the scenario changes; the
// memory-over-time tab peaks at the memory table's totals and compares 1F1B with GPipe; the
// Advisor walks the decision procedure and applies its layout; an exercise hides the estimate
// until a prediction is revealed and exports the answers; the panel's communication what-ifs
// move the step.

#include "collectives_view.h"
#include "comm_chart.h"
#include "io/scenario_json.h"
#include "format.h"
#include "language.h"
#include "dialogs/advisor_dialog.h"
#include "dialogs/class_answers_dialog.h"
#include "exercise_panel.h"
#include "main_window.h"
#include "controllers/course_controller.h"
#include "controllers/export_controller.h"
#include "scenario_panel.h"
#include "memory_time_chart.h"
#include "models/scenario_model.h"
#include "views_scenarios.h"
#include "textbook_view.h"
#include "estimate/textbook.h"

#include <QTextBrowser>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTimer>

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace parascope;
using namespace parascope::ui;
using parascope::test::views::scenario;
using parascope::test::views::sevenB;
using parascope::test::views::seventyB;

namespace {

// Lesson 6's pipeline: Llama-2 7B, PP 4, 1F1B, micro batch 1, `global_batch` microbatches.
Scenario lessonSixPipeline(int global_batch)
{
    return scenario(R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-a100-80g",
            "parallel":{"tp":1,"pp":4,"dp":1,"zero":0,"schedule":"1f1b"},
            "training":{"seq_len":4096,"micro_batch":1,"global_batch":)"
                    + std::to_string(global_batch) + R"(,"recompute":"selective"}})");
}

} // namespace

class TstViewsTeaching : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { uiLanguageStorage() = QStringLiteral("en"); }

    // The Textbook tab shows the engine's rows (core/estimate/textbook.h) for the scenario on
    // screen, follows a slider once shown, and speaks Chinese.
    void textbookTabFollowsTheScenario()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        w.showTab(MainWindow::Tab::Textbook);
        auto* view = w.findChild<TextbookView*>();
        QVERIFY(view);
        const auto rowsNow = [&] { return textbookRows(w.model()->scenario(), w.model()->estimate()); };
        const auto shown = [&](const QString& what) { return view->text()->toPlainText().contains(what); };
        QTRY_VERIFY(shown(QStringLiteral("2P + 2P + 12P = 16P bytes")));
        QVERIFY(shown(QString::fromStdString(textbookValue(rowsNow()[0].engine, TextbookUnit::GiB, "en"))));
        w.model()->edit([](Scenario& s) { s.parallel.tp = 4; });
        w.model()->flush();
        QTRY_VERIFY(shown(QStringLiteral("TP 4")));
        QVERIFY(shown(QString::fromStdString(textbookValue(rowsNow()[0].engine, TextbookUnit::GiB, "en"))));
        w.setLanguage(QStringLiteral("zh"));
        QTRY_VERIFY(view->text()->toPlainText().contains(QStringLiteral("教材未计入")));
        w.setLanguage(QStringLiteral("en"));
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
        // Ring, double binary tree, hierarchical, flat ring and binomial tree all run an
        // all-reduce (no NVLS on this A100 cluster); the row plays what the engine runs, and says so.
        QCOMPARE(int(c->alternatives().size()), 5);
        QVERIFY(lines.join(QLatin1Char('\n')).contains(QStringLiteral("The engine (the communication chart) runs")));
        // Half the data parallelism: the tab follows the same row, now a group of 2 (2 steps).
        w.model()->edit([](Scenario& s) {
            s.parallel.dp = 2;
            s.training.global_batch = 8;
        });
        w.model()->flush();
        QCOMPARE(c->choice().ranks, 2);
        QCOMPARE(c->stepCount(), 2);
        // In Chinese, and on a slide.
        w.setLanguage(QStringLiteral("zh"));
        QVERIFY(c->headline().contains(QStringLiteral("环")));
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("collective.png"));
        QCOMPARE(w.exports()->exportChartTo(ChartKind::Collective, file, QSize(1280, 720), 1), QString());
        QVERIFY(QFileInfo(file).size() > 1000);
        // A send/recv has no step-by-step form: the tab stays as it was.
        CommEntry p2p = e;
        p2p.collective = Collective::SendRecv;
        QVERIFY(!view->showEntry(p2p, QStringLiteral("PP")));
        QCOMPARE(c->choice().ranks, 2);
    }

    // The explainer follows its row as the engine charges it: opened on Qwen3-30B-A3B's EP 16
    // all-to-all (two nodes) under DeepEP it compares with DeepEP's time a call; switched to the
    // all-to-all dispatcher (the same bytes) it compares with the exchange's own — it kept DeepEP's.
    void explainerFollowsTheRowsCharge()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(test::views::scenario(R"({"schema":"parascope.scenario/1","model":"qwen3-30b-a3b",
            "cluster":"dgx-h100","parallel":{"tp":1,"pp":1,"dp":16,"ep":16,"moe_dispatcher":"deepep"},
            "training":{"seq_len":4096,"micro_batch":1,"global_batch":64,"recompute":"full"}})"));
        w.model()->flush();
        const auto epRow = [&w] {
            const auto& comm = w.model()->estimate().communication;
            for (std::size_t i = 0; i < comm.size(); ++i)
                if (comm[i].group == Group::Ep && comm[i].collective == Collective::AllToAll)
                    return int(i);
            return -1;
        };
        QString why;
        QVERIFY(w.collectivesView()->showCommEntry(epRow(), &why));
        const CollectiveChart* c = w.collectivesView()->chart();
        const auto perCall = [&w, &epRow] {
            const CommEntry& e = w.model()->estimate().communication[std::size_t(epRow())];
            return e.time_s / e.calls_per_step;
        };
        QCOMPARE(c->plan()->engine_algorithm, CollectiveAlgorithm::DeepEp);
        QCOMPARE(c->plan()->engine_time_s, perCall());
        QVERIFY(c->plan()->time_s > 1.2 * c->plan()->engine_time_s);
        w.model()->edit([](Scenario& s) { s.parallel.moe_dispatcher = MoeDispatcher::AllToAll; });
        w.model()->flush();
        QCOMPARE(c->plan()->engine_algorithm, CollectiveAlgorithm::Pairwise);
        QVERIFY(std::abs(c->plan()->engine_time_s - perCall()) <= 1e-9 * perCall());
        QVERIFY(std::abs(c->plan()->time_s - perCall()) <= 1e-9 * perCall());
        QVERIFY(c->figureLines().join(QLatin1Char(' ')).contains(QStringLiteral("runs this collective by")));
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
        w.model()->setScenario(lessonSixPipeline(8));
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
        const double ratio
            = (peak(chart->compareLane()) - chart->compareLane().front().bytes) / (peak(chart->lanes()[0]) - floor);
        QVERIFY2(std::abs(ratio - 2.0) < 1e-6, qPrintable(QString::number(ratio)));
        QVERIFY(chart->headline().contains(QStringLiteral("GPipe: 8")));
        // The timeline's playback cursor reaches this chart too; the chart exports for a slide.
        chart->setCursorTime(0.5);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("memory-time.png"));
        QCOMPARE(w.exports()->exportChartTo(ChartKind::MemoryTime, file, QSize(1280, 720), 1), QString());
        QVERIFY(QFileInfo(file).size() > 1000);
        // The comparison is a second evaluation: while the tab is hidden a new scenario (16
        // microbatches) leaves it as it was; an export catches it up — GPipe now holds all 16,
        // four times 1F1B's 4.
        const double gpipe_8 = peak(chart->compareLane());
        QVERIFY(!chart->isVisible());
        w.model()->setScenario(lessonSixPipeline(16));
        w.model()->flush();
        QCOMPARE(peak(chart->compareLane()), gpipe_8);
        QCOMPARE(w.exports()->exportChartTo(ChartKind::MemoryTime, file, QSize(1280, 720), 1), QString());
        const Estimate& e16 = w.model()->estimate();
        const double floor16 = e16.memory.stages[0].total() - e16.memory.stages[0].activations;
        const double ratio16
            = (peak(chart->compareLane()) - chart->compareLane().front().bytes) / (peak(chart->lanes()[0]) - floor16);
        QVERIFY2(std::abs(ratio16 - 4.0) < 1e-6, qPrintable(QString::number(ratio16)));
    }

    void memoryManagementView()
    {
        // Show: allocated vs reserved on the same pipeline: the peak stage's two curves, the
        // reserve (0.05 of its activations under the caching allocator) in the headline, and the
        // allocator combo editing the scenario: expandable segments keep 4 MiB, and the peak the
        // memory table shows drops by as much as the headline's reserve did.
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(lessonSixPipeline(8));
        w.model()->flush();
        MemoryTimeChart* chart = w.memoryTimeChart();
        auto* mode = chart->findChild<QComboBox*>(QStringLiteral("memoryTime.mode"));
        auto* allocator = chart->findChild<QComboBox*>(QStringLiteral("memoryTime.allocator"));
        QVERIFY(mode && allocator);
        mode->setCurrentIndex(1);
        QVERIFY(chart->allocatorViewShown());
        const AllocatorView& a = chart->allocatorView();
        const StageMemory& st = w.model()->estimate().memory.stages[std::size_t(a.rank)];
        QVERIFY(std::abs(a.reserve_bytes - 0.05 * st.activations) < 1);
        QVERIFY(std::abs(a.reserved_peak - w.model()->estimate().memory.peak_bytes) < 1);
        QVERIFY2(chart->headline().contains(QStringLiteral("reserved %1 GiB").arg(gib(a.reserved_peak, 1))),
                 qPrintable(chart->headline()));
        const double caching_peak = w.model()->estimate().memory.peak_bytes;
        const double caching_reserve = a.reserve_bytes;
        allocator->setCurrentIndex(1);
        emit allocator->activated(1);
        w.model()->flush();
        QCOMPARE(w.model()->scenario().overheads.allocator, AllocatorKind::Expandable);
        QCOMPARE(chart->allocatorView().reserve_bytes, 4.0 * (1 << 20));
        QVERIFY(chart->headline().contains(QStringLiteral("4\u00a0MiB of it fragmentation")));
        QVERIFY(std::abs(caching_peak - w.model()->estimate().memory.peak_bytes - (caching_reserve - 4.0 * (1 << 20)))
                < 1);
        // Undo brings the caching allocator back, and the combo follows the scenario.
        w.model()->undo();
        w.model()->flush();
        QCOMPARE(allocator->currentIndex(), 0);
        mode->setCurrentIndex(0);
        QVERIFY(chart->headline().contains(QStringLiteral("at most 4 microbatches")));
    }

    void advisorWalksTheProcedure()
    {
        // Tools → Advisor on the README's scenario (Llama-2 70B, 512 A100 80GB): tst_decision
        // derives its outcome (TP 8 · DP 64, ZeRO-1). A button applies it; a TP slider does not
        // re-run the procedure (it reads the model, cluster, GPUs and batch), a longer sequence does.
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(seventyB());
        AdvisorDialog* d = w.course()->showAdvisor();
        QVERIFY(d->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!d->running() && !d->result().steps.empty(), 20000);
        QCOMPARE(int(d->result().steps.size()), 4);
        QVERIFY2(d->text().contains(QStringLiteral("TP 8 inside a node is enough")), qPrintable(d->text()));
        QVERIFY(d->text().contains(QStringLiteral("Against the strategy search")));
        // The report card on top grades the layout on screen (TP 8 · PP 8 · DP 8, the default)
        // and follows a slider without re-running the procedure.
        QVERIFY2(d->text().contains(QStringLiteral("Report card")), qPrintable(d->text()));
        QTRY_VERIFY(d->text().contains(QStringLiteral("for your PP 8")));
        // PARASCOPE_SHOT_DIR=dir keeps a picture of the window to look at (docs/screenshots).
        if (const QString dir = qEnvironmentVariable("PARASCOPE_SHOT_DIR"); !dir.isEmpty())
            d->grab().save(dir + QStringLiteral("/advisor-en.png"));
        d->applyLayout();
        w.model()->flush();
        QTRY_VERIFY(!d->text().contains(QStringLiteral("for your PP 8")));
        w.model()->flush();
        QCOMPARE(w.model()->scenario().parallel.tp, 8);
        QCOMPARE(w.model()->scenario().parallel.dp, 64);
        QCOMPARE(w.model()->scenario().parallel.pp, 1);
        w.model()->edit([](Scenario& sc) {
            sc.parallel.tp = 4;
            sc.parallel.dp = 128;
        });
        QVERIFY(!d->running());
        w.model()->edit([](Scenario& sc) { sc.training.seq_len = 8192; });
        QVERIFY(d->running());
        QTRY_VERIFY_WITH_TIMEOUT(!d->running(), 20000);
        QCOMPARE(d->result().scenario.training.seq_len, 8192LL);
        w.setLanguage(QStringLiteral("zh"));
        QTRY_VERIFY(d->text().contains(QStringLiteral("放得下吗"))); // LanguageChange is posted
        if (const QString dir = qEnvironmentVariable("PARASCOPE_SHOT_DIR"); !dir.isEmpty()) {
            w.model()->setScenario(seventyB()); // the card of the lesson's layout again
            w.model()->flush();
            QTRY_VERIFY_WITH_TIMEOUT(!d->running(), 20000);
            QTRY_VERIFY(d->text().contains(QStringLiteral("布局成绩单")));
            d->grab().save(dir + QStringLiteral("/advisor-zh.png"));
        }
        QVERIFY(w.course()->showAdvisor() == d); // one window
    }

    // Tools → Class answers…: the fixture's answers (tests/data/class/answers.csv, hand-binned in
    // tst_class_answers) as a histogram per exercise; a bad line is named, the rest still shown.
    void classAnswersHistogram()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        QCOMPARE(w.course()->showClassAnswers({QStringLiteral(PARASCOPE_TEST_DATA "/class/answers.csv")}), QString());
        ClassAnswersDialog* d = w.course()->classAnswersDialog();
        QVERIFY(d);
        QCOMPARE(d->findChild<QComboBox*>(QStringLiteral("classAnswers.exercise"))->count(), 2);
        const QString first = d->summary(); // lesson 11, step 2
        QVERIFY2(first.contains(QStringLiteral("1 right")) && first.contains(QStringLiteral("1 You averaged")),
                 qPrintable(first));
        d->findChild<QComboBox*>(QStringLiteral("classAnswers.exercise"))->setCurrentIndex(1);
        QVERIFY(d->summary().contains(QStringLiteral("2 You kept DP 64's volume")));
        QCOMPARE(d->plot()->plottableCount(), 1);
        QCOMPARE(static_cast<QCPBars*>(d->plot()->plottable(0))->data()->size(), 3); // right, the mistake, 1.5–3×
        d->close();
        // A line that is not an answer is reported with its file and line.
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.csv"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("time,lesson,step,quantity,unit,estimate\nx,11-faults-stragglers,2,step_s,s,abc\n");
        f.close();
        QTimer::singleShot(0, [] {
            for (QWidget* top : QApplication::topLevelWidgets())
                if (auto* box = qobject_cast<QMessageBox*>(top))
                    box->accept();
        });
        const QString problems = w.course()->showClassAnswers({bad});
        QVERIFY2(problems.contains(QStringLiteral("bad.csv:2")), qPrintable(problems));
    }

    void exercisePredictThenReveal()
    {
        // Case 10, step 2 is an exercise: the charts and numbers stay hidden until the estimate
        // is revealed. 190 GiB is 2·P·n (P = 3.08 GiB, n = 32, 197 GiB) within the exercise's 5 %:
        // the "multiplied by DP" mistake. The answers export as CSV for the teacher.
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.course()->loadLesson(QStringLiteral("10-ring-allreduce"), 1);
        ExercisePanel* ex = w.course()->exercise();
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
        w.course()->loadLesson(QStringLiteral("6-pipeline-schedules"), 0);
        QVERIFY(ex->pending());
        ex->answerBox()->setText(QStringLiteral("27"));
        QVERIFY(ex->reveal());
        QVERIFY2(ex->resultText().contains(QStringLiteral("答对了")), qPrintable(ex->resultText()));
        QCOMPARE(int(ex->records().size()), 2);
        // A step without an exercise: no panel, nothing hidden.
        w.course()->loadLesson(QStringLiteral("6-pipeline-schedules"), 1);
        QVERIFY(!ex->pending());
        QVERIFY(!ex->isVisible());
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("answers.csv"));
        QCOMPARE(w.course()->exportExerciseResults(file), QString());
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith(QStringLiteral("time,lesson,step,quantity,unit,estimate,engine")));
        QVERIFY2(lines[1].contains(QStringLiteral(",10-ring-allreduce,2,dp_gib_sent,GiB,190,5.96")),
                 qPrintable(lines[1]));
        QVERIFY(lines[1].contains(QStringLiteral(",wrong,")));
        QVERIFY2(lines[2].contains(QStringLiteral(",6-pipeline-schedules,1,bubble_formula,%,27,27.27")),
                 qPrintable(lines[2]));
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
        auto* bucket = w.panel()->findChild<QDoubleSpinBox*>(QStringLiteral("panel.gradBucket"));
        QVERIFY(bucket);
        QCOMPARE(bucket->value(), 0.0); // Megatron's default
        bucket->setValue(500);
        w.model()->flush();
        QCOMPARE(w.model()->scenario().parallel.grad_bucket_mparams, 500.0);
        // Typed as a plain parameter count (Megatron's --ddp-bucket-size): 536870912 = 536.87 M,
        // shown as such, never cut to "5368 M".
        bucket->selectAll();
        QTest::keyClicks(bucket, QStringLiteral("536870912"));
        QTest::keyClick(bucket, Qt::Key_Return);
        w.model()->flush();
        QVERIFY(std::abs(w.model()->scenario().parallel.grad_bucket_mparams - 536.870912) < 1e-9);
        QCOMPARE(bucket->text(), QStringLiteral("536.871 M"));
        QVERIFY(w.panel()->findChild<QCheckBox*>(QStringLiteral("panel.overlapTp")));
    }
};

QTEST_MAIN(TstViewsTeaching)
#include "tst_views_teaching.moc"
