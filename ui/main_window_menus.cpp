#include "main_window.h"
#include "walls_view.h"
#include "dialogs/export_dialog.h"
#include "dialogs/probe_launcher.h"
#include "format.h"

#include "about.h"
#include "autosave.h"
#include "save_file.h"

#include "dialogs/calibration_dialog.h"
#include "chart_export.h"
#include "comm_chart.h"
#include "exercise_panel.h"
#include "memory_time_chart.h"
#include "compare_table.h"
#include "diagnostics_panel.h"
#include "estimate/diagnostics.h"
#include "hardware/hardware_profile.h"
#include "io/report_json.h"
#include "io/scenario_json.h"
#include "io/timeline_json.h"
#include "language.h"
#include "lessons/lessons.h"
#include "memory_chart.h"
#include "models/scenario_model.h"
#include "scenario_panel.h"
#include "search_view.h"
#include "sweep_view.h"
#include "timeline_chart.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QFileDialog>

#include <functional>
#include <QFormLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QProgressDialog>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QStatusBar>
#include <QTextBrowser>
#include <QLibraryInfo>
#include <QPushButton>
#include <QTranslator>
#include <QVBoxLayout>

// The main window's menus and actions, and the texts of everything in the window for the current
// language (main_window.cpp wires the views together).

namespace parascope::ui {

void MainWindow::buildMenus()
{
    file_menu_ = menuBar()->addMenu(QString());
    open_ = file_menu_->addAction(QString(), QKeySequence::Open, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Open scenario"), QString(),
                                                       tr("ParaScope scenarios (*.parascope.json *.json)"));
        if (!f.isEmpty())
            openScenario(f);
    });
    recent_menu_ = file_menu_->addMenu(QString());
    import_model_ = file_menu_->addAction(QString(), this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Import model"), QString(),
                                                       tr("Hugging Face config (config.json *.json)"));
        if (!f.isEmpty())
            importModel(f);
    });
    file_menu_->addSeparator();
    save_ = file_menu_->addAction(QString(), QKeySequence::Save, this, [this] {
        if (current_file_.isEmpty())
            save_as_->trigger();
        else
            saveScenario(current_file_);
    });
    save_as_ = file_menu_->addAction(QString(), QKeySequence::SaveAs, this, [this] {
        QString f = QFileDialog::getSaveFileName(this, tr("Save scenario"), current_file_,
                                                 tr("ParaScope scenarios (*.parascope.json)"));
        if (f.isEmpty())
            return;
        if (!f.endsWith(QLatin1String(".json")))
            f += QStringLiteral(".parascope.json");
        saveScenario(f);
    });
    file_menu_->addSeparator();
    export_menu_ = file_menu_->addMenu(QString());
    export_memory_ = export_menu_->addAction(QString(), this, [this] { exportChartDialog(ChartKind::Memory); });
    export_timeline_ = export_menu_->addAction(QString(), this, [this] { exportChartDialog(ChartKind::Timeline); });
    export_comm_ = export_menu_->addAction(QString(), this, [this] { exportChartDialog(ChartKind::Communication); });
    export_sweep_ = export_menu_->addAction(QString(), this, [this] { exportChartDialog(ChartKind::Sweep); });
    export_search_ = export_menu_->addAction(QString(), this, [this] { exportChartDialog(ChartKind::Search); });
    export_slots_ = export_menu_->addAction(QString(), this, [this] { exportChartDialog(ChartKind::Slots); });
    export_walls_ = export_menu_->addAction(QString(), this, [this] { exportChartDialog(ChartKind::Walls); });
    export_collective_ = export_menu_->addAction(QString(), this, [this] { exportChartDialog(ChartKind::Collective); });
    export_memory_time_
        = export_menu_->addAction(QString(), this, [this] { exportChartDialog(ChartKind::MemoryTime); });
    copy_chart_ = file_menu_->addAction(QString(), QKeySequence::Copy, this, [this] {
        QGuiApplication::clipboard()->setPixmap(memory_->plot()->toPixmap(0, 0, 2.0));
        statusBar()->showMessage(tr("Memory chart copied to the clipboard"), 3000);
    });
    // Ask for a file (the extension added when it is missing), write it, say what failed.
    const auto exportTo = [this](const QString& title, const QString& filter, const QString& ext,
                                 const std::function<QString(const QString&)>& write) {
        QString f = QFileDialog::getSaveFileName(this, title, QString(), filter);
        if (f.isEmpty())
            return;
        if (!f.endsWith(ext))
            f += ext;
        if (const QString e = write(f); !e.isEmpty())
            showError(title, tr("Could not write %1: %2").arg(f, e));
    };
    export_report_ = file_menu_->addAction(QString(), this, [this, exportTo] {
        exportTo(tr("Export report"), tr("JSON (*.json)"), QStringLiteral(".json"), [this](const QString& f) {
            const std::string lang = chineseUi() ? "zh" : "en";
            return writeFileAtomically(
                f, QByteArray::fromStdString(reportToJson(model_->scenario(), model_->estimate(), lang).dump(2)));
        });
    });
    export_exercises_ = file_menu_->addAction(QString(), this, [this, exportTo] {
        exportTo(tr("Export exercise results"), tr("CSV (*.csv)"), QStringLiteral(".csv"),
                 [this](const QString& f) { return exportExerciseResults(f); });
    });
    export_trace_ = file_menu_->addAction(QString(), this, [this, exportTo] {
        exportTo(tr("Export Chrome trace"), tr("Trace (*.json)"), QStringLiteral(".json"), [this](const QString& f) {
            return writeFileAtomically(
                f,
                QByteArray::fromStdString(
                    timelineToChromeTrace(model_->scenario(), model_->estimate(), {.comm_lanes = true}).dump()));
        });
    });
    file_menu_->addSeparator();
    quit_ = file_menu_->addAction(QString(), QKeySequence::Quit, this, &QWidget::close);

    view_menu_ = menuBar()->addMenu(QString());
    language_menu_ = view_menu_->addMenu(QString());
    english_
        = language_menu_->addAction(QStringLiteral("English"), this, [this] { setLanguage(QStringLiteral("en")); });
    chinese_ = language_menu_->addAction(QStringLiteral("中文"), this, [this] { setLanguage(QStringLiteral("zh")); });
    english_->setCheckable(true);
    chinese_->setCheckable(true);
    presenter_action_ = view_menu_->addAction(QString(), this, [this](bool on) { setPresenterMode(on); });
    presenter_action_->setCheckable(true);
    presenter_action_->setShortcut(QKeySequence(Qt::Key_F11));
    slot_grid_ = view_menu_->addAction(QString(), this, [this](bool on) { timeline_->setSlotGrid(on); });
    slot_grid_->setCheckable(true);
    slot_grid_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
    toggle_panel_ = panel_dock_->toggleViewAction();
    toggle_right_ = right_dock_->toggleViewAction();
    view_menu_->addAction(toggle_panel_);
    view_menu_->addAction(toggle_right_);

    scenario_menu_ = menuBar()->addMenu(QString());
    pin_ = scenario_menu_->addAction(QString(), this, [this] { model_->pin(); });
    pin_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    unpin_ = scenario_menu_->addAction(QString(), this, [this] { model_->unpin(); });
    play_ = scenario_menu_->addAction(QString(), timeline_, &TimelineChart::togglePlayback);
    play_->setShortcut(QKeySequence(Qt::Key_Space));
    next_step_ = scenario_menu_->addAction(QString(), this, [this] {
        if (const Lesson* l = findLesson(lesson_id_.toStdString()); l && !l->steps.empty())
            loadLesson(lesson_id_, (lesson_step_ + 1) % int(l->steps.size()));
    });
    next_step_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Right));

    tools_menu_ = menuBar()->addMenu(QString());
    calibrate_ = tools_menu_->addAction(QString(), this, [this] { calibrateFromThisMachine(true); });
    import_profile_ = tools_menu_->addAction(QString(), this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Import hardware profile"), QString(),
                                                       tr("Hardware profiles (*.json)"));
        if (!f.isEmpty())
            importProfile(f, true);
    });

    compare_trace_ = tools_menu_->addAction(QString(), this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Compare with a measured trace"), QString(),
                                                       tr("PyTorch profiler traces (*.json)"));
        if (!f.isEmpty())
            compareWithTrace(f);
    });
    advisor_action_ = tools_menu_->addAction(QString(), this, [this] { showAdvisor(); });
    advisor_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));

    help_menu_ = menuBar()->addMenu(QString());
    about_ = help_menu_->addAction(QString(), this, [this] { showAbout(this); });
    connect(model_, &ScenarioModel::pinChanged, this, [this] { unpin_->setEnabled(model_->hasPin()); });
    unpin_->setEnabled(false);
}

void MainWindow::retranslate()
{
    file_menu_->setTitle(tr("&File"));
    open_->setText(tr("&Open…"));
    recent_menu_->setTitle(tr("Open &recent"));
    import_model_->setText(tr("&Import model (Hugging Face config.json)…"));
    import_model_->setToolTip(
        tr("Llama, Mistral, Mixtral, Qwen2/3 dense and MoE, DeepSeek-V2/V3, GPT-2, GPT-OSS and Gemma 1/2/3 "
           "configs; the model opens in the custom-model editor"));
    save_->setText(tr("&Save"));
    save_as_->setText(tr("Save &as…"));
    export_menu_->setTitle(tr("&Export chart"));
    export_memory_->setText(tr("Memory chart…"));
    export_timeline_->setText(tr("Timeline chart…"));
    export_comm_->setText(tr("Communication chart…"));
    export_sweep_->setText(tr("Sweep chart…"));
    tabs_->setTabText(0, tr("Explorer"));
    tabs_->setTabText(1, tr("Sweep"));
    tabs_->setTabText(2, tr("Search"));
    tabs_->setTabText(3, tr("Collectives"));
    tabs_->setTabText(4, tr("Memory over time"));
    export_search_->setText(tr("Search (Pareto) chart…"));
    export_slots_->setText(tr("Slot grid of the schedule…"));
    export_walls_->setText(tr("The four walls…"));
    export_collective_->setText(tr("The collective at this step…"));
    export_memory_time_->setText(tr("Memory over the step…"));
    slot_grid_->setText(tr("Timeline as a slot &grid"));
    sweep_->retranslate();
    search_->retranslate();
    copy_chart_->setText(tr("&Copy memory chart"));
    export_report_->setText(tr("Export report (JSON)…"));
    export_exercises_->setText(tr("Export exercise results (CSV)…"));
    export_trace_->setText(tr("Export Chrome trace…"));
    quit_->setText(tr("&Quit"));
    view_menu_->setTitle(tr("&View"));
    language_menu_->setTitle(tr("&Language"));
    presenter_action_->setText(tr("&Presenter mode"));
    toggle_panel_->setText(tr("Scenario panel"));
    toggle_right_->setText(tr("What breaks and lesson"));
    scenario_menu_->setTitle(tr("&Scenario"));
    pin_->setText(tr("&Pin as A (compare)"));
    unpin_->setText(tr("&Clear pin"));
    play_->setText(tr("&Play the timeline"));
    next_step_->setText(tr("&Next lesson step"));
    tools_menu_->setTitle(tr("&Tools"));
    calibrate_->setText(tr("&Calibrate from this machine…"));
    import_profile_->setText(tr("&Import profile…"));
    compare_trace_->setText(tr("Compare with a &measured trace (PyTorch profiler)…"));
    compare_trace_->setToolTip(
        tr("A Chrome trace from torch.profiler beside the simulated step of this scenario: step time, "
           "GEMMs, attention, communication, idle"));
    advisor_action_->setText(tr("&Advisor: the decision procedure…"));
    advisor_action_->setToolTip(
        tr("Does it fit with DP? Then ZeRO; TP inside a node, PP across nodes; communication; bubble — "
           "step by step, beside the strategy search's best"));
    help_menu_->setTitle(tr("&Help"));
    about_->setText(tr("&About ParaScope"));
    panel_dock_->setWindowTitle(tr("Scenario"));
    right_dock_->setWindowTitle(tr("What breaks"));
    english_->setChecked(!chineseUi());
    chinese_->setChecked(chineseUi());
    panel_->retranslate();
    updateTraceComparison();
    walls_strip_->refresh();
    walls_chart_->refresh();
    memory_->retranslate();
    timeline_->retranslate();
    comm_->retranslate();
    memory_time_->retranslate();
    exercise_->retranslate();
    diagnostics_->retranslate();
    compare_->retranslate();
    if (const Lesson* l = findLesson(lesson_id_.toStdString())) {
        QString html
            = QStringLiteral("<h3>%1</h3><p>%2</p>").arg(inUi(l->title).toHtmlEscaped(), inUi(l->text).toHtmlEscaped());
        if (l->steps.size() > 1)
            html += tr("<p><i>Step %1 of %2: %3 — Scenario → Next lesson step (Ctrl+→)</i></p>")
                        .arg(lesson_step_ + 1)
                        .arg(l->steps.size())
                        .arg(inUi(l->steps[std::size_t(lesson_step_)].label).toHtmlEscaped());
        // What this step shows, with the engine's numbers (each one a claim tst_lessons checks).
        if (exercise_->pending())
            html += QStringLiteral("<p><i>%1</i></p>")
                        .arg(tr("Exercise: predict the number asked below, then Reveal. The charts and this step's "
                                "text stay hidden until you do.")
                                 .toHtmlEscaped());
        else if (std::size_t(lesson_step_) < l->steps.size())
            html += QStringLiteral("<p>%1</p>").arg(inUi(l->steps[std::size_t(lesson_step_)].text).toHtmlEscaped());
        lesson_text_->setHtml(html);
    } else {
        lesson_text_->setHtml(tr("<p>Pick a lesson in the scenario panel to read what it shows.</p>"));
    }
    updateRecentMenu();
    updateStatus();
    updateTitle();
    followCollective(); // the row's name in the new language
}

} // namespace parascope::ui
