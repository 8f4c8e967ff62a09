#include "main_window.h"

#include "about.h"
#include "collectives_view.h"
#include "comm_chart.h"
#include "compare_table.h"
#include "controllers/compare_controller.h"
#include "controllers/course_controller.h"
#include "controllers/export_controller.h"
#include "controllers/files_controller.h"
#include "controllers/history_controller.h"
#include "controllers/import_controller.h"
#include "controllers/language_controller.h"
#include "controllers/presenter_controller.h"
#include "diagnostics_panel.h"
#include "exercise_panel.h"
#include "fixed_width_hint.h"
#include "format.h"
#include "language.h"
#include "layer_ops_view.h"
#include "textbook_view.h"
#include "lessons/lessons.h"
#include "memory_chart.h"
#include "memory_time_chart.h"
#include "models/scenario_model.h"
#include "pages/explorer_page.h"
#include "scenario_panel.h"
#include "search_view.h"
#include "status_line.h"
#include "sweep_view.h"
#include "timeline_chart.h"
#include "walls_view.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QMenuBar>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextBrowser>

namespace parascope::ui {

MainWindow::MainWindow(QWidget* parent, Session session)
    : QMainWindow(parent)
    , session_(session)
    , model_(new ScenarioModel(this))
    , language_(new LanguageController(this))
{
    setObjectName(QStringLiteral("ParaScopeMainWindow"));
    // The default scenario: the course's second lesson (Llama-2 70B on 512 GPUs).
    if (const Lesson* l = findLesson("2-llama70b-512"); l && !l->steps.empty())
        model_->setScenario(l->steps.front().scenario);
    buildPages();
    buildControllers();
    buildMenus();
    if (session_ == Session::Desktop)
        restoreSession();
    else
        language_->install(chineseUi());
    retranslate();
}

MainWindow::~MainWindow() = default;

namespace {

QDockWidget* dock(QMainWindow* window, const char* name, QWidget* content, Qt::DockWidgetArea area)
{
    auto* d = new QDockWidget(window);
    d->setObjectName(QString::fromLatin1(name));
    d->setWidget(content);
    d->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    window->addDockWidget(area, d);
    return d;
}

template <class View> View* page(QTabWidget* tabs, MainWindow::Tab tab)
{
    return static_cast<View*>(tabs->widget(int(tab)));
}

} // namespace

void MainWindow::buildPages()
{
    panel_ = new ScenarioPanel(model_);
    auto* scroll = new QScrollArea;
    scroll->setWidget(panel_);
    scroll->setWidgetResizable(true);
    // Labels and values side by side, or the value under its label on a narrow panel: the
    // panel sets the area's width (ScenarioPanel::fitScrollArea) and never scrolls sideways.
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    panel_dock_ = dock(this, "scenarioDock", scroll, Qt::LeftDockWidgetArea);
    explorer_ = new ExplorerPage(model_);
    tabs_ = new QTabWidget;
    for (QWidget* page : std::initializer_list<QWidget*>{explorer_, new SweepView(model_), new SearchView(model_),
                                                         new CollectivesView(model_), new MemoryTimeChart(model_),
                                                         new LayerOpsView(model_), new TextbookView(model_)})
        tabs_->addTab(page, QString());
    setCentralWidget(tabs_);
    diagnostics_ = new DiagnosticsPanel(model_);

    connect(diagnostics_, &DiagnosticsPanel::stageActivated, memoryChart(), &MemoryChart::highlightStage);
    connect(diagnostics_, &DiagnosticsPanel::stageActivated, timelineChart(), &TimelineChart::highlightStage);
    connect(diagnostics_, &DiagnosticsPanel::knobActivated, panel_, &ScenarioPanel::highlightKnob);
    connect(timelineChart(), &TimelineChart::cursorMoved, memoryTimeChart(), &MemoryTimeChart::setCursorTime);
    connect(panel_, &ScenarioPanel::sweepRequested, this, [this](const QString& path) { showSweep(path); });
    connect(commChart(), &CommChart::entryActivated, this, &MainWindow::watchCollective);
    connect(model_, &ScenarioModel::scenarioChanged, this, &MainWindow::updateTitle);
}

void MainWindow::buildControllers()
{
    const WindowContext context{this, model_, session_ == Session::Headless};
    files_ = new FilesController(context);
    new HistoryController(context); // found by findChild, retranslated with the other parts
    import_ = new ImportController(context, panel_);
    course_ = new CourseController(context, panel_, {tabs_, diagnostics_}, diagnostics_->adviceView());
    status_ = new StatusLabel(model_, [this] { return course_->pending(); });
    statusBar()->addWidget(status_, 1);
    compare_ = new CompareController(context);
    auto* right = new FixedWidthHint<QSplitter>(264, Qt::Vertical); // the dock never follows a step's text
    for (QWidget* w :
         std::initializer_list<QWidget*>{diagnostics_, compare_->table(), course_->lessonText(), course_->tasks()})
        right->addWidget(w);
    right_dock_ = dock(this, "rightDock", right, Qt::RightDockWidgetArea);
    right_dock_->setMinimumWidth(196);
    presenter_ = new PresenterController(context, explorer_, {panel_dock_, right_dock_},
                                         [this](const ChartTheme& t) { applyTheme(t); });
    export_ = new ExportController(context,
                                   {[this](ChartKind k) { return chartFor(k); }, timelineChart(), sweepView(), course_,
                                    [this] { return presenter_->theme(); }});
    connect(files_, &FilesController::scenarioOpened, course_, &CourseController::leaveLesson);
    connect(course_, &CourseController::lessonLoaded, files_, &FilesController::forgetCurrentFile);
    connect(course_, &CourseController::pendingChanged, status_, &StatusLabel::refresh);
    import_->acceptDrops({[this](const QString& f) { return files_->openScenario(f); },
                          [this](const QString& f) { compare_->compareWithTrace(f); }});
    connect(language_, &LanguageController::chosen, this, [this](const QString& lang) { setLanguage(lang); });
    connect(presenter_, &PresenterController::explorerWanted, this, [this] { showTab(Tab::Explorer); });
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(QString());
    files_->addOpenActions(file);
    import_->addFileActions(file);
    file->addSeparator();
    files_->addSaveActions(file);
    file->addSeparator();
    export_->addFileActions(file);
    file->addSeparator();
    QAction* quit = file->addAction(QString(), QKeySequence::Quit, this, &QWidget::close);
    QMenu* view = menuBar()->addMenu(QString());
    language_->addViewActions(view);
    presenter_->addActions(view);
    QAction* grid = view->addAction(QString(), this, [this](bool on) { timelineChart()->setSlotGrid(on); });
    grid->setCheckable(true);
    grid->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
    view->addActions({panel_dock_->toggleViewAction(), right_dock_->toggleViewAction()});
    QMenu* scenario = menuBar()->addMenu(QString());
    findChild<HistoryController*>()->addScenarioActions(scenario);
    compare_->addScenarioActions(scenario);
    QAction* play = scenario->addAction(QString(), timelineChart(), &TimelineChart::togglePlayback);
    play->setShortcut(QKeySequence(Qt::Key_Space));
    course_->addScenarioActions(scenario);
    QMenu* tools = menuBar()->addMenu(QString());
    import_->addToolsActions(tools);
    compare_->addToolsActions(tools);
    course_->addToolsActions(tools);
    QMenu* help = menuBar()->addMenu(QString());
    QAction* about = help->addAction(QString(), this, [this] { showAbout(this); });
    texts_ = {{file->menuAction(), QT_TR_NOOP("&File")},
              {quit, QT_TR_NOOP("&Quit")},
              {view->menuAction(), QT_TR_NOOP("&View")},
              {grid, QT_TR_NOOP("Timeline as a slot &grid")},
              {scenario->menuAction(), QT_TR_NOOP("&Scenario")},
              {play, QT_TR_NOOP("&Play the timeline")},
              {tools->menuAction(), QT_TR_NOOP("&Tools")},
              {help->menuAction(), QT_TR_NOOP("&Help")},
              {about, QT_TR_NOOP("&About ParaScope")}};
}

void MainWindow::retranslate()
{
    for (const auto& [action, text] : texts_)
        action->setText(tr(text));
    panel_dock_->setWindowTitle(tr("Scenario"));
    right_dock_->setWindowTitle(tr("What breaks"));
    panel_dock_->toggleViewAction()->setText(tr("Scenario panel"));
    right_dock_->toggleViewAction()->setText(tr("What breaks and lesson"));
    const char* tabs[]
        = {QT_TR_NOOP("Explorer"),         QT_TR_NOOP("Sweep"),     QT_TR_NOOP("Search"),  QT_TR_NOOP("Collectives"),
           QT_TR_NOOP("Memory over time"), QT_TR_NOOP("Layer ops"), QT_TR_NOOP("Textbook")};
    for (int i = 0; i < tabs_->count(); ++i)
        tabs_->setTabText(i, tr(tabs[i]));
    panel_->retranslate();
    explorer_->retranslate();
    sweepView()->retranslate();
    searchView()->retranslate();
    memoryTimeChart()->retranslate();
    layerOpsView()->retranslate();
    diagnostics_->retranslate();
    collectivesView()->follow(); // the row's name in the new language
    for (WindowPart* part : findChildren<WindowPart*>(Qt::FindDirectChildrenOnly))
        part->retranslate(); // the controllers and the language menu
    status_->refresh();
    updateTitle();
}

void MainWindow::applyTheme(const ChartTheme& theme)
{
    explorer_->setTheme(theme);
    sweepView()->setTheme(theme);
    searchView()->setTheme(theme);
    collectivesView()->chart()->setTheme(theme);
    memoryTimeChart()->setTheme(theme);
}

ChartView* MainWindow::chartFor(ChartKind which) const
{
    switch (which) {
    case ChartKind::Memory: return memoryChart();
    case ChartKind::Timeline:
    case ChartKind::Slots: return timelineChart();
    case ChartKind::Communication: return commChart();
    case ChartKind::Sweep: return sweepView();
    case ChartKind::Search: return searchView();
    case ChartKind::Walls: return explorer_->wallsChart();
    case ChartKind::Collective: return collectivesView()->chart();
    case ChartKind::MemoryTime: return memoryTimeChart();
    }
    return memoryChart();
}

void MainWindow::setLanguage(const QString& lang, Remember remember)
{
    const bool zh = lang.startsWith(QLatin1String("zh"));
    uiLanguageStorage() = zh ? QStringLiteral("zh") : QStringLiteral("en");
    language_->install(zh);
    retranslate(); // also runs on QEvent::LanguageChange
    if (session_ == Session::Desktop && remember == Remember::Yes)
        QSettings().setValue(QStringLiteral("language"), uiLanguage());
}

void MainWindow::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange && !texts_.empty())
        retranslate();
    QMainWindow::changeEvent(e);
}

void MainWindow::updateTitle() { setWindowTitle(scenarioName(model_->scenario()) + QStringLiteral(" — ParaScope")); }

void MainWindow::restoreSession()
{
    QSettings s;
    files_->restoreSession(s);
    const QString lang = s.value(QStringLiteral("language"), QLocale::system().name()).toString();
    uiLanguageStorage() = lang.startsWith(QLatin1String("zh")) ? QStringLiteral("zh") : QStringLiteral("en");
    language_->install(chineseUi());
}

void MainWindow::closeEvent(QCloseEvent* e)
{
    files_->endSession();
    QMainWindow::closeEvent(e);
}

void MainWindow::watchCollective(int entry)
{
    if (QString why; collectivesView()->showCommEntry(entry, &why))
        showTab(Tab::Collectives);
    else if (!why.isEmpty())
        statusBar()->showMessage(why, 5000);
}

void MainWindow::showSweep(const QString& path, bool wait)
{
    showTab(Tab::Sweep);
    sweepView()->runSweep(path, {}, wait);
}

// The pages by tab, and what the controllers do for the window's callers (the app, the tests).
void MainWindow::showTab(Tab tab) { tabs_->setCurrentIndex(int(tab)); }
SweepView* MainWindow::sweepView() const { return page<SweepView>(tabs_, Tab::Sweep); }
SearchView* MainWindow::searchView() const { return page<SearchView>(tabs_, Tab::Search); }
CollectivesView* MainWindow::collectivesView() const { return page<CollectivesView>(tabs_, Tab::Collectives); }
MemoryTimeChart* MainWindow::memoryTimeChart() const { return page<MemoryTimeChart>(tabs_, Tab::MemoryTime); }
LayerOpsView* MainWindow::layerOpsView() const { return page<LayerOpsView>(tabs_, Tab::LayerOps); }
MemoryChart* MainWindow::memoryChart() const { return explorer_->memory(); }
TimelineChart* MainWindow::timelineChart() const { return explorer_->timeline(); }
CommChart* MainWindow::commChart() const { return explorer_->comm(); }
WallsStrip* MainWindow::wallsStrip() const { return explorer_->wallsStrip(); }
QLabel* MainWindow::statusLabel() const { return status_; }
QString MainWindow::language() const { return uiLanguage(); }

} // namespace parascope::ui
