#pragma once
// The main window: scenario panel on the left, the memory, communication and timeline charts in
// the centre, "What breaks" and the lesson text on the right, key figures in the status bar.
// Files, export, language, presenter mode and compare live in the menus.

#include "chart_kind.h"
#include "chart_style.h"

#include <QFont>
#include <QMainWindow>
#include <QPointer>
#include <QStringList>

#include <optional>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QTextBrowser;
class QTranslator;

namespace parascope {
struct Scenario;
}

namespace parascope::ui {

class ChartView;
class CommChart;
class TraceDialog;
class DiagnosticsPanel;
class MemoryChart;
class ScenarioModel;
class ScenarioPanel;
class SearchView;
class SweepView;
class TimelineChart;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // Desktop: reads and writes the user's settings (language, recent files, geometry, last
    // scenario). Headless (--export, --screenshot): touches none of them, so an export never
    // changes what the desktop app shows next time.
    enum class Session { Desktop, Headless };
    explicit MainWindow(QWidget* parent = nullptr, Session session = Session::Desktop);
    // The tabs of the centre: Explorer (charts), Sweep, Search, Collectives, memory over the step
    // (names: kTabNames below).
    enum class Tab { Explorer, Sweep, Search, Collectives, MemoryTime };
    void showTab(Tab tab);
    ~MainWindow() override;

    ScenarioModel* model() const { return model_; }
    ScenarioPanel* panel() const { return panel_; }
    MemoryChart* memoryChart() const { return memory_; }
    TimelineChart* timelineChart() const { return timeline_; }
    CommChart* commChart() const { return comm_; }
    SweepView* sweepView() const { return sweep_; }
    SearchView* searchView() const { return search_; }
    class CollectivesView* collectivesView() const { return collectives_; }
    class MemoryTimeChart* memoryTimeChart() const { return memory_time_; }
    // A row of the communication chart: that collective, one call, in the Collectives tab.
    void watchCollective(int entry);
    void showSweep(const QString& path, bool wait = false); // wait: draw before returning (export)
    DiagnosticsPanel* diagnosticsPanel() const { return diagnostics_; }
    class CompareTable* compareTable() const { return compare_; }
    QLabel* statusLabel() const { return status_; }

    // "en" or "zh" (zh_CN); switches every label at run time. The language menu remembers the
    // choice for the next start; a command line's --lang is for this run only (remember =
    // false), so a run started in English never leaves the next one in English.
    enum class Remember { Yes, No };
    void setLanguage(const QString& lang, Remember remember = Remember::Yes);
    QString language() const;
    // Presenter mode (main_window_presenter.cpp): full screen, 18-point fonts, thick lines, the
    // side panels folded away; Esc leaves it.
    void setPresenterMode(bool on);
    bool presenterMode() const { return presenter_; }
    // One chart of the Explorer fills the tab (double-click a chart, or Ctrl+1/2/3); again, or
    // Esc, brings the others back. nullopt: all charts.
    void maximiseChart(std::optional<ChartKind> which);
    std::optional<ChartKind> maximisedChart() const { return maximised_; }

    // File operations; the error (with JSON paths) is returned and shown, never thrown.
    QString openScenario(const QString& file);
    QString saveScenario(const QString& file);
    // context: the scenario's title line above the chart (contextLine), on by default.
    QString exportChartTo(ChartKind which, const QString& file, QSize size, double scale, bool context = true);
    void loadLesson(const QString& id, int step = 0);
    // Calibration: import a parascope.hardware-profile/1 file, or run parascope-probe here.
    // With ask = false the profile is applied without the dialog (tests, scripts).
    QString importProfile(const QString& file, bool ask = true);
    // A Hugging Face config.json (File → Import model…, or dropped on the window): the model is
    // read (io/hf_config_import.h) and shown in the custom-model editor; OK makes it the
    // scenario's. A multimodal config asks whether to take its language model alone. With ask =
    // false the model is applied without dialogs (tests, scripts), a multimodal one text only.
    QString importModel(const QString& file, bool ask = true);
    // A file dropped on the window: a profiler trace is compared with the scenario
    // (compareWithTrace), a Hugging Face config.json imported as a model (importModel), anything
    // else opened as a scenario.
    QString openDropped(const QString& file);
    QString calibrateFromThisMachine(bool ask = true);
    // Tools → Compare with a measured trace: a PyTorch profiler trace (Kineto's Chrome JSON,
    // io/kineto_trace.h) read on a worker, then shown beside the simulated step in a dialog that
    // follows the scenario's edits. device −1: the trace's one GPU (several: the user is asked).
    void compareWithTrace(const QString& file, int device = -1);
    TraceDialog* traceDialog() const;
    // Tools → Advisor: the course's decision procedure on the scenario (dialogs/advisor_dialog.h),
    // one window that follows the scenario.
    class AdvisorDialog* showAdvisor();
    // Predict, then reveal: a lesson step that is an exercise (exercise_panel.h) hides the charts
    // and numbers until the estimate is revealed; the answers export as CSV for the teacher.
    class ExercisePanel* exercisePanel() const { return exercise_; }
    QString exportExerciseResults(const QString& file);
    class WallsStrip* wallsStrip() const { return walls_strip_; }

    // Crash recovery (interactive sessions only; see autosave.h). Starts autosaving the scenario
    // to `dir` (default: the app's data folder) and returns the scenario file a killed or
    // crashed session left behind, "" if none. offerRecovery() asks whether to restore it;
    // recoverAutosave() restores it without asking.
    QString startAutosave(const QString& dir = QString());
    void offerRecovery();
    QString recoverAutosave();

protected:
    void changeEvent(QEvent* e) override;
    void closeEvent(QCloseEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void buildMenus();
    void buildPresenterShortcuts();
    void retranslate();
    void updateStatus();
    void updateTitle();
    void updateRecentMenu();
    void rememberRecent(const QString& file);
    void showError(const QString& title, const QString& text);
    void exportChartDialog(ChartKind which);
    void restoreSession();
    // Reads a scenario file into the model (the error, with JSON paths, is shown and returned);
    // openScenario() also makes it the current and a recent file.
    QString loadScenario(const QString& file);
    void applyTheme();
    ChartView* chartFor(ChartKind which) const;
    QString applyProfile(const QString& file, bool ask);
    void updateTraceComparison();
    QPointer<TraceDialog> trace_dialog_;
    QPointer<class AdvisorDialog> advisor_;

    ScenarioModel* model_;
    ScenarioPanel* panel_;
    MemoryChart* memory_;
    TimelineChart* timeline_;
    CommChart* comm_;
    class WallsStrip* walls_strip_;
    class WallsChart* walls_chart_; // not on screen: the four walls for --export walls
    SweepView* sweep_;
    SearchView* search_;
    class CollectivesView* collectives_;
    class MemoryTimeChart* memory_time_;
    class ExercisePanel* exercise_;
    void hideForExercise(bool pending); // blur the charts, hide the numbers and the step's text
    void followCollective(); // the Collectives tab keeps showing its row as the scenario changes
    bool collective_shown_ = false;
    class QTabWidget* tabs_;
    DiagnosticsPanel* diagnostics_;
    class CompareTable* compare_;
    QTextBrowser* lesson_text_;
    QDockWidget* panel_dock_;
    QDockWidget* right_dock_;
    QLabel* status_;
    QTranslator* translator_;
    QTranslator* qt_translator_; // Qt's own strings (standard buttons, file dialogs), when installed
    void installTranslators(bool zh);
    QString current_file_;
    Session session_ = Session::Desktop;
    QWidget* explorer_ = nullptr; // the Explorer tab: memory, communication and timeline
    QString lesson_id_;
    int lesson_step_ = 0;
    static constexpr int kMaxRecentFiles = 8;
    QStringList recent_;
    bool presenter_ = false;
    std::optional<ChartKind> maximised_;
    struct BeforePresenter {
        bool panel = true, right = true, maximised = false;
        QFont font;
    } before_presenter_;
    void leaveOneStep(); // Esc: a maximised chart first, then presenter mode
    ChartTheme theme_;
    class Autosave* autosave_ = nullptr;

    QMenu* file_menu_ = nullptr;
    QMenu* recent_menu_ = nullptr;
    QMenu* export_menu_ = nullptr;
    QMenu* view_menu_ = nullptr;
    QAction* export_slots_ = nullptr;
    QAction* export_walls_ = nullptr;
    QAction* export_collective_ = nullptr;
    QAction* export_memory_time_ = nullptr;
    QAction* slot_grid_ = nullptr;
    QMenu* language_menu_ = nullptr;
    QMenu* scenario_menu_ = nullptr;
    QMenu* help_menu_ = nullptr;
    QAction* open_ = nullptr;
    QAction* import_model_ = nullptr;
    QAction* save_ = nullptr;
    QAction* save_as_ = nullptr;
    QAction* export_memory_ = nullptr;
    QAction* export_timeline_ = nullptr;
    QAction* export_comm_ = nullptr;
    QAction* export_sweep_ = nullptr;
    QAction* export_search_ = nullptr;
    QAction* copy_chart_ = nullptr;
    QAction* export_report_ = nullptr;
    QAction* export_exercises_ = nullptr;
    QAction* export_trace_ = nullptr;
    QAction* quit_ = nullptr;
    QAction* english_ = nullptr;
    QAction* chinese_ = nullptr;
    QAction* presenter_action_ = nullptr;
    QAction* toggle_panel_ = nullptr;
    QAction* toggle_right_ = nullptr;
    QAction* pin_ = nullptr;
    QAction* unpin_ = nullptr;
    QAction* play_ = nullptr;
    QAction* next_step_ = nullptr;
    QAction* about_ = nullptr;
    QMenu* tools_menu_ = nullptr;
    QAction* calibrate_ = nullptr;
    QAction* import_profile_ = nullptr;
    QAction* compare_trace_ = nullptr;
    QAction* advisor_action_ = nullptr;
};

inline constexpr EnumName<MainWindow::Tab> kTabNames[] = {{MainWindow::Tab::Explorer, "explorer"},
                                                          {MainWindow::Tab::Sweep, "sweep"},
                                                          {MainWindow::Tab::Search, "search"},
                                                          {MainWindow::Tab::Collectives, "collectives"},
                                                          {MainWindow::Tab::MemoryTime, "memory-time"}};
constexpr std::span<const EnumName<MainWindow::Tab>> enumNames(MainWindow::Tab) { return kTabNames; }
inline const char* toString(MainWindow::Tab t) { return nameOf(t); }

} // namespace parascope::ui
