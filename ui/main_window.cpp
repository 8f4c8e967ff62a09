#include "main_window.h"
#include "status_line.h"
#include "dialogs/export_dialog.h"
#include "dialogs/recovery_dialog.h"
#include "dialogs/probe_launcher.h"
#include "format.h"

#include "about.h"
#include "autosave.h"
#include "save_file.h"

#include "dialogs/calibration_dialog.h"
#include "chart_export.h"
#include "collectives_view.h"
#include "comm_chart.h"
#include "exercise_panel.h"
#include "compare_table.h"
#include "diagnostics_panel.h"
#include "estimate/diagnostics.h"
#include "hardware/hardware_profile.h"
#include "io/hf_config_import.h"
#include "io/report_json.h"
#include "io/scenario_json.h"
#include "io/timeline_json.h"
#include "language.h"
#include "lessons/lessons.h"
#include "memory_chart.h"
#include "memory_time_chart.h"
#include "models/scenario_model.h"
#include "scenario_panel.h"
#include "search_view.h"
#include "sweep_view.h"
#include "timeline_chart.h"
#include "walls_view.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDialog>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QStatusBar>
#include <QTextBrowser>
#include <QLibraryInfo>
#include <QTranslator>
#include <QScopeGuard>
#include <QVBoxLayout>

namespace parascope::ui {

MainWindow::MainWindow(QWidget* parent, Session session)
    : QMainWindow(parent)
    , model_(new ScenarioModel(this))
    , translator_(new QTranslator(this))
    , qt_translator_(new QTranslator(this))
{
    session_ = session;
    setObjectName(QStringLiteral("ParaScopeMainWindow"));
    setAcceptDrops(true);
    // The default scenario: the course's second lesson (Llama-2 70B on 512 GPUs).
    if (const Lesson* l = findLesson("2-llama70b-512"); l && !l->steps.empty())
        model_->setScenario(l->steps.front().scenario);

    panel_ = new ScenarioPanel(model_);
    auto* scroll = new QScrollArea;
    scroll->setWidget(panel_);
    scroll->setWidgetResizable(true);
    // Every control stays reachable on a 1024-pixel projector: the panel scrolls both ways rather
    // than widening the window.
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    scroll->setMinimumWidth(260);
    panel_dock_ = new QDockWidget(this);
    panel_dock_->setObjectName(QStringLiteral("scenarioDock"));
    panel_dock_->setWidget(scroll);
    panel_dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::LeftDockWidgetArea, panel_dock_);

    memory_ = new MemoryChart(model_);
    comm_ = new CommChart(model_);
    timeline_ = new TimelineChart(model_);
    memory_->setMinimumSize(240, 160);
    comm_->setMinimumSize(200, 160);
    timeline_->setMinimumSize(400, 180);
    auto* top = new QSplitter(Qt::Horizontal);
    top->addWidget(memory_);
    top->addWidget(comm_);
    top->setStretchFactor(0, 1);
    top->setStretchFactor(1, 1);
    top->setSizes({1000, 1000}); // memory and communication share the width equally
    auto* centre = new QSplitter(Qt::Vertical);
    centre->addWidget(top);
    centre->addWidget(timeline_);
    centre->setStretchFactor(0, 1);
    centre->setStretchFactor(1, 1);
    // The four walls, a strip above the charts (the chart for slides stays off screen).
    walls_strip_ = new WallsStrip(model_);
    walls_chart_ = new WallsChart(model_, this);
    walls_chart_->hide();
    auto* explorer = new QWidget;
    auto* explorer_layout = new QVBoxLayout(explorer);
    explorer_layout->setContentsMargins(0, 0, 0, 0);
    explorer_layout->setSpacing(0);
    explorer_layout->addWidget(walls_strip_);
    explorer_layout->addWidget(centre, 1);
    sweep_ = new SweepView(model_);
    tabs_ = new QTabWidget;
    explorer_ = explorer;
    tabs_->addTab(explorer, QString());
    tabs_->addTab(sweep_, QString());
    search_ = new SearchView(model_);
    tabs_->addTab(search_, QString());
    collectives_ = new CollectivesView(model_);
    tabs_->addTab(collectives_, QString());
    memory_time_ = new MemoryTimeChart(model_);
    tabs_->addTab(memory_time_, QString());
    followCollective();
    setCentralWidget(tabs_);

    diagnostics_ = new DiagnosticsPanel(model_);
    lesson_text_ = new QTextBrowser;
    lesson_text_->setOpenExternalLinks(false);
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(diagnostics_);
    compare_ = new CompareTable(model_);
    right->addWidget(compare_);
    right->addWidget(lesson_text_);
    exercise_ = new ExercisePanel;
    right->addWidget(exercise_);
    connect(exercise_, &ExercisePanel::pendingChanged, this, &MainWindow::hideForExercise);
    right_dock_ = new QDockWidget(this);
    right_dock_->setObjectName(QStringLiteral("rightDock"));
    right_dock_->setWidget(right);
    right_dock_->setMinimumWidth(200);
    right_dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::RightDockWidgetArea, right_dock_);

    status_ = new QLabel;
    status_->setTextFormat(Qt::RichText);
    // The key figures never widen the window: on a narrow screen the line is cut, its tooltip whole.
    status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    status_->setMinimumWidth(1);
    statusBar()->addWidget(status_, 1);

    connect(diagnostics_, &DiagnosticsPanel::stageActivated, memory_, &MemoryChart::highlightStage);
    connect(timeline_, &TimelineChart::cursorMoved, memory_, &MemoryChart::setCursorTime);
    connect(timeline_, &TimelineChart::cursorMoved, memory_time_, &MemoryTimeChart::setCursorTime);
    connect(diagnostics_, &DiagnosticsPanel::stageActivated, timeline_, &TimelineChart::highlightStage);
    connect(diagnostics_, &DiagnosticsPanel::knobActivated, panel_, &ScenarioPanel::highlightKnob);
    connect(panel_, &ScenarioPanel::lessonChosen, this, [this](const QString& id) { loadLesson(id, 0); });
    connect(panel_, &ScenarioPanel::sweepRequested, this, [this](const QString& path) { showSweep(path); });
    connect(model_, &ScenarioModel::estimateChanged, this, &MainWindow::updateStatus);
    connect(model_, &ScenarioModel::estimateChanged, this, &MainWindow::updateTraceComparison);
    connect(model_, &ScenarioModel::estimateChanged, this, &MainWindow::followCollective);
    connect(comm_, &CommChart::entryActivated, this, &MainWindow::watchCollective);
    connect(model_, &ScenarioModel::scenarioChanged, this, &MainWindow::updateTitle);

    buildMenus();
    buildPresenterShortcuts();
    if (session_ == Session::Desktop)
        restoreSession();
    else
        installTranslators(chineseUi());
    retranslate();
    updateStatus();
}

MainWindow::~MainWindow() = default;

void MainWindow::setLanguage(const QString& lang, Remember remember)
{
    const bool zh = lang.startsWith(QLatin1String("zh"));
    uiLanguageStorage() = zh ? QStringLiteral("zh") : QStringLiteral("en");
    installTranslators(zh);
    retranslate(); // also runs on QEvent::LanguageChange
    if (session_ == Session::Desktop && remember == Remember::Yes)
        QSettings().setValue(QStringLiteral("language"), uiLanguage());
}

void MainWindow::showTab(Tab tab)
{
    switch (tab) {
    case Tab::Explorer: tabs_->setCurrentWidget(explorer_); break;
    case Tab::Sweep: tabs_->setCurrentWidget(sweep_); break;
    case Tab::Search: tabs_->setCurrentWidget(search_); break;
    case Tab::Collectives: tabs_->setCurrentWidget(collectives_); break;
    case Tab::MemoryTime: tabs_->setCurrentWidget(memory_time_); break;
    }
}

QString MainWindow::language() const { return uiLanguage(); }

void MainWindow::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange && file_menu_)
        retranslate();
    QMainWindow::changeEvent(e);
}

void MainWindow::applyTheme()
{
    memory_->setTheme(theme_);
    timeline_->setTheme(theme_);
    comm_->setTheme(theme_);
    sweep_->setTheme(theme_);
    search_->setTheme(theme_);
    walls_chart_->setTheme(theme_);
    collectives_->chart()->setTheme(theme_);
    memory_time_->setTheme(theme_);
}

void MainWindow::updateStatus()
{
    const QString text = exercise_->pending()
        ? tr("Predict first: the numbers are hidden until you reveal your estimate.")
        : statusLine(model_->scenario(), model_->estimate(), model_->pinnedEstimate());
    status_->setText(text);
    status_->setToolTip(text);
}

void MainWindow::updateTitle() { setWindowTitle(scenarioName(model_->scenario()) + QStringLiteral(" — ParaScope")); }

QString MainWindow::openScenario(const QString& file)
{
    if (const QString error = loadScenario(file); !error.isEmpty())
        return error;
    current_file_ = file;
    rememberRecent(file);
    retranslate();
    return {};
}

QString MainWindow::loadScenario(const QString& file)
{
    std::vector<InputError> errors;
    const auto sc = readScenarioFile(file.toStdString(), errors);
    if (!sc) {
        const QString text = errorsText(errors);
        showError(tr("Open scenario"), tr("%1 is not a valid scenario:\n\n%2").arg(file, text.trimmed()));
        return text.trimmed();
    }
    lesson_id_.clear();
    panel_->showLesson(QString());
    exercise_->setStep(nullptr, -1);
    model_->setScenario(*sc);
    return {};
}

QString MainWindow::saveScenario(const QString& file)
{
    const QString e
        = writeFileAtomically(file, QByteArray::fromStdString(scenarioToJson(model_->scenario()).dump(2) + "\n"));
    if (!e.isEmpty()) {
        showError(tr("Save scenario"), tr("Could not save %1: %2\nThe previous file is unchanged.").arg(file, e));
        return e;
    }
    current_file_ = file;
    rememberRecent(file);
    statusBar()->showMessage(tr("Saved %1").arg(file), 3000);
    return {};
}

QString MainWindow::startAutosave(const QString& dir)
{
    if (!autosave_) {
        autosave_ = new Autosave(this, dir);
        const auto save = [this] {
            autosave_->schedule(QByteArray::fromStdString(scenarioToJson(model_->scenario()).dump(2) + "\n"));
        };
        connect(model_, &ScenarioModel::scenarioChanged, this, save);
        save(); // what is open now (a file given on the command line) counts too
    }
    return autosave_->recoverableFile();
}

void MainWindow::offerRecovery()
{
    // Newest first; each answer removes that one. Restoring one ends the questions (the others
    // stay, unanswered, for the next start); closing the dialog answers nothing.
    while (autosave_ && !autosave_->recoverableFile().isEmpty()) {
        const QString file = autosave_->recoverableFile();
        const int left = int(autosave_->recoverableFiles().size()) - 1;
        const RecoveryAnswer answer = askRecovery(this, file, left);
        if (answer == RecoveryAnswer::Restore) {
            recoverAutosave();
            return;
        }
        if (answer == RecoveryAnswer::Later)
            return; // everything stays
        autosave_->discardRecoverable(file);
    }
}

QString MainWindow::recoverAutosave()
{
    if (!autosave_ || autosave_->recoverableFile().isEmpty())
        return tr("There is no scenario to recover.");
    const QString file = autosave_->recoverableFile();
    if (const QString error = loadScenario(file); !error.isEmpty())
        return error;
    // Restored, not saved: Save asks where, and the recovered copy is no recent file.
    current_file_.clear();
    retranslate();
    autosave_->discardRecoverable(file);
    statusBar()->showMessage(tr("Restored the scenario from the last session"), 5000);
    return {};
}

void MainWindow::showSweep(const QString& path, bool wait)
{
    tabs_->setCurrentWidget(sweep_);
    sweep_->runSweep(path, {}, wait);
}

void MainWindow::loadLesson(const QString& id, int step)
{
    const Lesson* l = findLesson(id.toStdString());
    if (!l || l->steps.empty())
        return;
    lesson_id_ = id;
    panel_->showLesson(id);
    lesson_step_ = std::clamp(step, 0, int(l->steps.size()) - 1);
    model_->setScenario(l->steps[std::size_t(lesson_step_)].scenario);
    current_file_.clear();
    exercise_->setStep(l, lesson_step_);
    retranslate();
}

QString MainWindow::applyProfile(const QString& file, bool ask)
{
    std::vector<InputError> errors;
    const auto profile = readHardwareProfileFile(file.toStdString(), errors);
    if (!profile) {
        const QString text = errorsText(errors);
        showError(tr("Hardware profile"), tr("%1 is not a valid hardware profile:\n\n%2").arg(file, text.trimmed()));
        return text.trimmed();
    }
    if (profile->status == "no_gpu") {
        const QString why = tr("The profile says there is no usable GPU here; nothing to calibrate.");
        showError(tr("Hardware profile"), why);
        return why;
    }
    CalibrationDialog dialog(model_->scenario().cluster, *profile, this);
    if (ask && dialog.exec() != QDialog::Accepted)
        return tr("cancelled");
    const ClusterSpec calibrated = dialog.calibrated();
    model_->edit([&](Scenario& s) { s.cluster = calibrated; });
    model_->flush();
    statusBar()->showMessage(tr("Calibrated from %1").arg(file), 5000);
    return {};
}

QString MainWindow::importProfile(const QString& file, bool ask) { return applyProfile(file, ask); }

QString MainWindow::calibrateFromThisMachine(bool ask)
{
    const ProbeRun run
        = runProbe(this, ask && isVisible(), QByteArray::fromStdString(scenarioToJson(model_->scenario()).dump()));
    if (!run.error.isEmpty()) {
        showError(tr("Calibrate"), run.error);
        return run.error;
    }
    return applyProfile(run.profile_file, ask);
}

void MainWindow::rememberRecent(const QString& file)
{
    recent_.removeAll(file);
    recent_.prepend(file);
    while (recent_.size() > kMaxRecentFiles)
        recent_.removeLast();
    if (session_ == Session::Desktop)
        QSettings().setValue(QStringLiteral("recentFiles"), recent_);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    recent_menu_->clear();
    for (const QString& f : recent_)
        recent_menu_->addAction(f, this, [this, f] { openScenario(f); });
    recent_menu_->setEnabled(!recent_.isEmpty());
}

void MainWindow::showError(const QString& title, const QString& text)
{
    statusBar()->showMessage(text.section(QLatin1Char('\n'), 0, 0), 8000);
    if (isVisible())
        QMessageBox::warning(this, title, text);
}

void MainWindow::restoreSession()
{
    QSettings s;
    // Trimmed on read: a settings file edited by hand (or by another program) with 200,000
    // entries must not build 200,000 menu items. The trimmed list is written back.
    const QStringList recent = s.value(QStringLiteral("recentFiles")).toStringList();
    recent_.clear();
    for (const QString& f : recent) {
        if (recent_.size() >= kMaxRecentFiles)
            break;
        if (!f.isEmpty() && f.size() <= 4096 && !recent_.contains(f))
            recent_.append(f);
    }
    if (recent_ != recent)
        s.setValue(QStringLiteral("recentFiles"), recent_);
    if (!restoreGeometry(s.value(QStringLiteral("geometry")).toByteArray())) {
        // First start: most of the screen, the charts need room.
        const QRect screen = QGuiApplication::primaryScreen() ? QGuiApplication::primaryScreen()->availableGeometry()
                                                              : QRect(0, 0, 1600, 1000);
        resize(screen.size() * 0.92);
    }
    restoreState(s.value(QStringLiteral("windowState")).toByteArray());
    const QString last = s.value(QStringLiteral("lastScenario")).toString();
    if (!last.isEmpty()) {
        std::vector<InputError> errors;
        if (auto j = parseJsonText(last.toStdString(), errors))
            if (auto sc = readScenario(*j, errors))
                model_->setScenario(*sc);
    }
    const QString lang = s.value(QStringLiteral("language"), QLocale::system().name()).toString();
    uiLanguageStorage() = lang.startsWith(QLatin1String("zh")) ? QStringLiteral("zh") : QStringLiteral("en");
    installTranslators(chineseUi());
}

void MainWindow::installTranslators(bool zh)
{
    QApplication::removeTranslator(translator_);
    QApplication::removeTranslator(qt_translator_);
    // English too has a translation: its plural forms ("1 node", "2 nodes" from "%n node(s)").
    if (translator_->load(zh ? QStringLiteral(":/i18n/parascope_zh_CN.qm") : QStringLiteral(":/i18n/parascope_en.qm")))
        QApplication::installTranslator(translator_);
    if (!zh)
        return;
    // Qt's standard buttons and dialogs (package qt6-translations-l10n); English without it.
    if (qt_translator_->load(QStringLiteral("qtbase_zh_CN"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(qt_translator_);
}

void MainWindow::closeEvent(QCloseEvent* e)
{
    if (autosave_)
        autosave_->finish(); // a clean exit: nothing to recover next time
    if (session_ != Session::Desktop) {
        QMainWindow::closeEvent(e);
        return;
    }
    QSettings s;
    s.setValue(QStringLiteral("geometry"), saveGeometry());
    s.setValue(QStringLiteral("windowState"), saveState());
    s.setValue(QStringLiteral("lastScenario"), QString::fromStdString(scenarioToJson(model_->scenario()).dump()));
    QMainWindow::closeEvent(e);
}

} // namespace parascope::ui
