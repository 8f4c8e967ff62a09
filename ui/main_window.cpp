#include "main_window.h"

#include "about.h"
#include "autosave.h"
#include "save_file.h"

#include "calibration_dialog.h"
#include "chart_export.h"
#include "comm_chart.h"
#include "diagnostics_panel.h"
#include "estimate/diagnostics.h"
#include "hardware/hardware_profile.h"
#include "io/report_json.h"
#include "io/scenario_json.h"
#include "io/timeline_json.h"
#include "language.h"
#include "lessons/lessons.h"
#include "memory_chart.h"
#include "scenario_model.h"
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

namespace parascope::ui {

namespace {

QString str(const std::string& s) { return QString::fromStdString(s); }

QString seconds(double s)
{
    if (s >= 1)
        return QString::number(s, 'f', 2) + QStringLiteral(" s");
    return QString::number(s * 1e3, 'f', 1) + QStringLiteral(" ms");
}

QString signedPct(double now, double before)
{
    if (before == 0)
        return QString();
    const double p = (now / before - 1) * 100;
    return (p >= 0 ? QStringLiteral("+") : QString()) + QString::number(p, 'f', 1) + QStringLiteral(" %");
}


Scenario defaultScenario()
{
    std::vector<InputError> errors;
    const auto j = parseJsonText(findPreset("lessons", "2-llama70b-512")->json["steps"][0]["scenario"].dump(), errors);
    return readScenario(*j, errors).value_or(Scenario{});
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , model_(new ScenarioModel(this))
    , translator_(new QTranslator(this))
    , qt_translator_(new QTranslator(this))
{
    setObjectName(QStringLiteral("ParaScopeMainWindow"));
    setAcceptDrops(true);
    model_->setScenario(defaultScenario());

    panel_ = new ScenarioPanel(model_);
    auto* scroll = new QScrollArea;
    scroll->setWidget(panel_);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(430);
    panel_dock_ = new QDockWidget(this);
    panel_dock_->setObjectName(QStringLiteral("scenarioDock"));
    panel_dock_->setWidget(scroll);
    panel_dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::LeftDockWidgetArea, panel_dock_);

    memory_ = new MemoryChart(model_);
    comm_ = new CommChart(model_);
    timeline_ = new TimelineChart(model_);
    memory_->setMinimumSize(360, 260);
    comm_->setMinimumSize(300, 260);
    timeline_->setMinimumSize(500, 280);
    auto* top = new QSplitter(Qt::Horizontal);
    top->addWidget(memory_);
    top->addWidget(comm_);
    top->setStretchFactor(0, 1);
    top->setStretchFactor(1, 1);
    auto* centre = new QSplitter(Qt::Vertical);
    centre->addWidget(top);
    centre->addWidget(timeline_);
    centre->setStretchFactor(0, 1);
    centre->setStretchFactor(1, 1);
    sweep_ = new SweepView(model_);
    tabs_ = new QTabWidget;
    tabs_->addTab(centre, QString());
    tabs_->addTab(sweep_, QString());
    search_ = new SearchView(model_);
    tabs_->addTab(search_, QString());
    setCentralWidget(tabs_);

    diagnostics_ = new DiagnosticsPanel(model_);
    lesson_text_ = new QTextBrowser;
    lesson_text_->setOpenExternalLinks(false);
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(diagnostics_);
    right->addWidget(lesson_text_);
    right_dock_ = new QDockWidget(this);
    right_dock_->setObjectName(QStringLiteral("rightDock"));
    right_dock_->setWidget(right);
    right_dock_->setMinimumWidth(320);
    right_dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::RightDockWidgetArea, right_dock_);

    status_ = new QLabel;
    status_->setTextFormat(Qt::RichText);
    statusBar()->addWidget(status_, 1);

    connect(diagnostics_, &DiagnosticsPanel::stageActivated, memory_, &MemoryChart::highlightStage);
    connect(diagnostics_, &DiagnosticsPanel::stageActivated, timeline_, &TimelineChart::highlightStage);
    connect(diagnostics_, &DiagnosticsPanel::knobActivated, panel_, &ScenarioPanel::highlightKnob);
    connect(panel_, &ScenarioPanel::lessonChosen, this, [this](const QString& id) { loadLesson(id, 0); });
    connect(panel_, &ScenarioPanel::sweepRequested, this, &MainWindow::showSweep);
    connect(model_, &ScenarioModel::estimateChanged, this, &MainWindow::updateStatus);
    connect(model_, &ScenarioModel::scenarioChanged, this, &MainWindow::updateTitle);

    buildMenus();
    restoreSession();
    retranslate();
    updateStatus();
}

MainWindow::~MainWindow() = default;

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
    copy_chart_ = file_menu_->addAction(QString(), QKeySequence::Copy, this, [this] {
        QGuiApplication::clipboard()->setPixmap(memory_->plot()->toPixmap(0, 0, 2.0));
        statusBar()->showMessage(tr("Memory chart copied to the clipboard"), 3000);
    });
    export_report_ = file_menu_->addAction(QString(), this, [this] {
        QString f = QFileDialog::getSaveFileName(this, tr("Export report"), QString(), tr("JSON (*.json)"));
        if (f.isEmpty())
            return;
        if (!f.endsWith(QLatin1String(".json")))
            f += QStringLiteral(".json");
        const std::string lang = chineseUi() ? "zh" : "en";
        const QString e = writeFileAtomically(f, QByteArray::fromStdString(reportToJson(model_->scenario(), model_->estimate(), lang).dump(2)));
        if (!e.isEmpty())
            showError(tr("Export report"), tr("Could not write %1: %2").arg(f, e));
    });
    export_trace_ = file_menu_->addAction(QString(), this, [this] {
        QString f = QFileDialog::getSaveFileName(this, tr("Export Chrome trace"), QString(), tr("Trace (*.json)"));
        if (f.isEmpty())
            return;
        if (!f.endsWith(QLatin1String(".json")))
            f += QStringLiteral(".json");
        const QString e = writeFileAtomically(f, QByteArray::fromStdString(timelineToChromeTrace(model_->scenario(), model_->estimate()).dump()));
        if (!e.isEmpty())
            showError(tr("Export Chrome trace"), tr("Could not write %1: %2").arg(f, e));
    });
    file_menu_->addSeparator();
    quit_ = file_menu_->addAction(QString(), QKeySequence::Quit, this, &QWidget::close);

    view_menu_ = menuBar()->addMenu(QString());
    language_menu_ = view_menu_->addMenu(QString());
    english_ = language_menu_->addAction(QStringLiteral("English"), this, [this] { setLanguage(QStringLiteral("en")); });
    chinese_ = language_menu_->addAction(QStringLiteral("中文"), this, [this] { setLanguage(QStringLiteral("zh")); });
    english_->setCheckable(true);
    chinese_->setCheckable(true);
    presenter_action_ = view_menu_->addAction(QString(), this, [this](bool on) { setPresenterMode(on); });
    presenter_action_->setCheckable(true);
    presenter_action_->setShortcut(QKeySequence(Qt::Key_F11));
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
    export_search_->setText(tr("Search (Pareto) chart…"));
    sweep_->retranslate();
    search_->retranslate();
    copy_chart_->setText(tr("&Copy memory chart"));
    export_report_->setText(tr("Export report (JSON)…"));
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
    help_menu_->setTitle(tr("&Help"));
    about_->setText(tr("&About ParaScope"));
    panel_dock_->setWindowTitle(tr("Scenario"));
    right_dock_->setWindowTitle(tr("What breaks"));
    english_->setChecked(!chineseUi());
    chinese_->setChecked(chineseUi());
    panel_->retranslate();
    memory_->retranslate();
    timeline_->retranslate();
    comm_->retranslate();
    diagnostics_->retranslate();
    if (const Lesson* l = findLesson(lesson_id_.toStdString())) {
        QString html = QStringLiteral("<h3>%1</h3><p>%2</p>").arg(inUi(l->title).toHtmlEscaped(), inUi(l->text).toHtmlEscaped());
        if (l->steps.size() > 1)
            html += tr("<p><i>Step %1 of %2: %3 — Scenario → Next lesson step (Ctrl+→)</i></p>")
                        .arg(lesson_step_ + 1)
                        .arg(l->steps.size())
                        .arg(inUi(l->steps[std::size_t(lesson_step_)].label).toHtmlEscaped());
        lesson_text_->setHtml(html);
    } else {
        lesson_text_->setHtml(tr("<p>Pick a lesson in the scenario panel to read what it shows.</p>"));
    }
    updateRecentMenu();
    updateStatus();
    updateTitle();
}

void MainWindow::setLanguage(const QString& lang)
{
    const bool zh = lang.startsWith(QLatin1String("zh"));
    uiLanguageStorage() = zh ? QStringLiteral("zh") : QStringLiteral("en");
    installTranslators(zh);
    retranslate(); // also runs on QEvent::LanguageChange
    QSettings().setValue(QStringLiteral("language"), uiLanguage());
}

QString MainWindow::language() const
{
    return uiLanguage();
}

void MainWindow::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange && file_menu_)
        retranslate();
    QMainWindow::changeEvent(e);
}

void MainWindow::setPresenterMode(bool on)
{
    presenter_ = on;
    presenter_action_->setChecked(on);
    QFont f = QApplication::font();
    f.setPointSize(on ? 18 : 10);
    QApplication::setFont(f);
    theme_.font_pt = on ? 18 : 10;
    theme_.high_contrast = on;
    applyTheme();
    if (on)
        showFullScreen();
    else
        showNormal();
}

void MainWindow::applyTheme()
{
    memory_->setTheme(theme_);
    timeline_->setTheme(theme_);
    comm_->setTheme(theme_);
    sweep_->setTheme(theme_);
    search_->setTheme(theme_);
}

void MainWindow::updateStatus()
{
    const Estimate& e = model_->estimate();
    const double gib = double(1ull << 30);
    QString text = tr("Step %1 · %2 tokens/s · MFU %3 % · peak %4 / %5 GiB (stage %6)")
                       .arg(seconds(e.time.step_s))
                       .arg(e.throughput.tokens_per_s, 0, 'f', 0)
                       .arg(e.throughput.mfu * 100, 0, 'f', 1)
                       .arg(e.memory.peak_bytes / gib, 0, 'f', 1)
                       .arg(e.memory.capacity_bytes / gib, 0, 'f', 1)
                       .arg(e.memory.peak_stage);
    if (!model_->scenario().cluster.calibration.empty())
        text = tr("<b>calibrated</b> · ") + text;
    if (!e.memory.fits)
        text = QStringLiteral("<span style='color:#D55E00'><b>") + tr("OUT OF MEMORY") + QStringLiteral("</b></span> · ") + text;
    if (const Estimate* a = model_->pinnedEstimate())
        text += tr(" · vs A: step %1, tokens/s %2, peak %3")
                    .arg(signedPct(e.time.step_s, a->time.step_s), signedPct(e.throughput.tokens_per_s, a->throughput.tokens_per_s),
                         signedPct(e.memory.peak_bytes, a->memory.peak_bytes));
    status_->setText(text);
}

void MainWindow::updateTitle()
{
    const QString name = str(model_->scenario().name);
    setWindowTitle((name.isEmpty() ? str(model_->scenario().model.name) : name) + QStringLiteral(" — ParaScope"));
}

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
        QString text;
        for (const InputError& e : errors)
            text += str(e.text()) + QLatin1Char('\n');
        showError(tr("Open scenario"), tr("%1 is not a valid scenario:\n\n%2").arg(file, text.trimmed()));
        return text.trimmed();
    }
    lesson_id_.clear();
    model_->setScenario(*sc);
    return {};
}

QString MainWindow::saveScenario(const QString& file)
{
    const QString e = writeFileAtomically(file, QByteArray::fromStdString(scenarioToJson(model_->scenario()).dump(2) + "\n"));
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
        QMessageBox box(QMessageBox::Question, tr("Recover scenario"),
                        tr("ParaScope did not close properly on %1. Restore the scenario it was working on?")
                            .arg(QLocale().toString(QFileInfo(file).lastModified(), QLocale::ShortFormat)),
                        QMessageBox::NoButton, this);
        if (left > 0)
            box.setInformativeText(tr("Other unsaved scenarios, kept until you answer for each: %1").arg(left));
        QPushButton* restore = box.addButton(tr("Restore"), QMessageBox::AcceptRole);
        QPushButton* discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
        box.addButton(tr("Later"), QMessageBox::RejectRole);
        box.setDefaultButton(restore);
        box.exec();
        if (box.clickedButton() == restore) {
            recoverAutosave();
            return;
        }
        if (box.clickedButton() != discard)
            return; // later: everything stays
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

void MainWindow::showSweep(const QString& path)
{
    tabs_->setCurrentWidget(sweep_);
    sweep_->runSweep(path);
}

ChartView* MainWindow::chartFor(ChartKind which) const
{
    switch (which) {
    case ChartKind::Memory: return memory_;
    case ChartKind::Timeline: return timeline_;
    case ChartKind::Communication: return comm_;
    case ChartKind::Sweep: return sweep_;
    case ChartKind::Search: return search_;
    }
    return memory_;
}

QString MainWindow::exportChartTo(ChartKind which, const QString& file, QSize size, double scale)
{
    ChartView* view = chartFor(which);
    model_->flush();
    return exportChart(view->plot(), {file, size, scale}, [view](const ChartTheme& t) { view->setTheme(t); }, theme_);
}

void MainWindow::exportChartDialog(ChartKind which)
{
    QDialog d(this);
    d.setWindowTitle(tr("Export chart"));
    auto* form = new QFormLayout(&d);
    auto* size = new QComboBox;
    size->addItem(tr("1920 × 1080 (16:9)"), QSize(1920, 1080));
    size->addItem(tr("1280 × 720 (16:9)"), QSize(1280, 720));
    size->addItem(tr("1024 × 768 (4:3)"), QSize(1024, 768));
    auto* scale = new QDoubleSpinBox;
    scale->setRange(1, 3);
    scale->setSingleStep(1);
    scale->setValue(2);
    form->addRow(tr("Size"), size);
    form->addRow(tr("PNG scale"), scale);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &d, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &d, &QDialog::reject);
    if (d.exec() != QDialog::Accepted)
        return;
    const QString f = QFileDialog::getSaveFileName(this, tr("Export chart"), QString::fromLatin1(toString(which)),
                                                   tr("PNG image (*.png);;SVG vector image (*.svg);;PDF (*.pdf)"));
    if (f.isEmpty())
        return;
    const QString error = exportChartTo(which, f, size->currentData().toSize(), scale->value());
    if (!error.isEmpty())
        showError(tr("Export chart"), tr("Could not export %1: %2").arg(withExtension(f), error));
    else
        statusBar()->showMessage(tr("Exported %1").arg(withExtension(f)), 3000);
}

void MainWindow::loadLesson(const QString& id, int step)
{
    const Lesson* l = findLesson(id.toStdString());
    if (!l || l->steps.empty())
        return;
    lesson_id_ = id;
    lesson_step_ = std::clamp(step, 0, int(l->steps.size()) - 1);
    model_->setScenario(l->steps[std::size_t(lesson_step_)].scenario);
    current_file_.clear();
    retranslate();
}

QString MainWindow::applyProfile(const QString& file, bool ask)
{
    std::vector<InputError> errors;
    const auto profile = readHardwareProfileFile(file.toStdString(), errors);
    if (!profile) {
        QString text;
        for (const InputError& e : errors)
            text += str(e.text()) + QLatin1Char('\n');
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

QString MainWindow::importProfile(const QString& file, bool ask)
{
    return applyProfile(file, ask);
}

QString MainWindow::calibrateFromThisMachine(bool ask)
{
    // $PARASCOPE_PROBE when set; else the probe next to the app when installed, in ../probe in
    // the build tree, or on PATH.
    const QString dir = QCoreApplication::applicationDirPath();
    QString exe = qEnvironmentVariable("PARASCOPE_PROBE");
    if (exe.isEmpty())
        exe = QStandardPaths::findExecutable(QStringLiteral("parascope-probe"), {dir, dir + QStringLiteral("/../probe"),
                                                                                 dir + QStringLiteral("/../app/probe")});
    if (exe.isEmpty())
        exe = QStandardPaths::findExecutable(QStringLiteral("parascope-probe"));
    if (exe.isEmpty()) {
        const QString why = tr("parascope-probe is not installed: it is built only where the CUDA Toolkit is found.");
        showError(tr("Calibrate"), why);
        return why;
    }
    QTemporaryDir tmp;
    const QString out = tmp.filePath(QStringLiteral("profile.json"));
    QProcess probe;
    probe.setProcessChannelMode(QProcess::SeparateChannels);
    QProgressDialog progress(tr("Measuring this machine (parascope-probe --quick)…"), tr("Cancel"), 0, 0, this);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0);
    connect(&probe, &QProcess::readyReadStandardError, this, [&] {
        const QString line = QString::fromLocal8Bit(probe.readAllStandardError()).trimmed().section(QLatin1Char('\n'), -1);
        if (!line.isEmpty())
            progress.setLabelText(line);
    });
    connect(&progress, &QProgressDialog::canceled, &probe, &QProcess::kill);
    probe.start(exe, {QStringLiteral("--quick"), QStringLiteral("--out"), out});
    if (!probe.waitForStarted(10000)) {
        const QString why = tr("parascope-probe did not start: %1").arg(probe.errorString());
        showError(tr("Calibrate"), why);
        return why;
    }
    if (ask && isVisible()) {
        QEventLoop loop;
        connect(&probe, &QProcess::finished, &loop, &QEventLoop::quit);
        loop.exec();
    } else {
        probe.waitForFinished(600000);
    }
    progress.close();
    if (probe.exitStatus() != QProcess::NormalExit) {
        const QString why = tr("parascope-probe was stopped or crashed");
        showError(tr("Calibrate"), why);
        return why;
    }
    if (probe.exitCode() == 2) {
        std::vector<InputError> errors;
        QString reason;
        if (const auto j = readJsonFile(out.toStdString(), errors); j && j->contains("error"))
            reason = QString::fromStdString((*j)["error"].value("message", ""));
        const QString why = tr("No usable GPU on this machine: %1").arg(reason);
        showError(tr("Calibrate"), why);
        return why;
    }
    if (probe.exitCode() != 0 && probe.exitCode() != 3) {
        const QString why = tr("parascope-probe failed (exit code %1)").arg(probe.exitCode());
        showError(tr("Calibrate"), why);
        return why;
    }
    return applyProfile(out, ask);
}

void MainWindow::rememberRecent(const QString& file)
{
    recent_.removeAll(file);
    recent_.prepend(file);
    while (recent_.size() > kMaxRecentFiles)
        recent_.removeLast();
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
    if (!zh)
        return;
    if (translator_->load(QStringLiteral(":/i18n/parascope_zh_CN.qm")))
        QApplication::installTranslator(translator_);
    // Qt's standard buttons and dialogs (package qt6-translations-l10n); English without it.
    if (qt_translator_->load(QStringLiteral("qtbase_zh_CN"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(qt_translator_);
}

void MainWindow::closeEvent(QCloseEvent* e)
{
    if (autosave_)
        autosave_->finish(); // a clean exit: nothing to recover next time
    QSettings s;
    s.setValue(QStringLiteral("geometry"), saveGeometry());
    s.setValue(QStringLiteral("windowState"), saveState());
    s.setValue(QStringLiteral("lastScenario"), QString::fromStdString(scenarioToJson(model_->scenario()).dump()));
    QMainWindow::closeEvent(e);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e)
{
    if (e->mimeData()->hasUrls())
        e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e)
{
    const auto urls = e->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile())
        openScenario(urls.front().toLocalFile());
}

} // namespace parascope::ui
