#pragma once
// The main window is wiring: the scenario panel on the left, the tabs in the centre (the Explorer
// page with the walls, memory, communication and timeline charts; sweep, search, collectives,
// memory over time, layer ops), "What breaks" and the lesson on the right, the key figures in the
// status bar. The menus are built here from the controllers' actions, and each controller
// (ui/controllers/) owns its part: files, imports, exports, the course, compare, presenter mode.

#include "chart_kind.h"
#include "chart_style.h"

#include <QMainWindow>

#include <optional>
#include <utility>
#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QTabWidget;

namespace parascope::ui {

class ChartView;
class CollectivesView;
class CommChart;
class CompareController;
class CourseController;
class DiagnosticsPanel;
class ExplorerPage;
class ExportController;
class FilesController;
class ImportController;
class LayerOpsView;
class MemoryChart;
class MemoryTimeChart;
class PresenterController;
class ScenarioModel;
class ScenarioPanel;
class SearchView;
class SweepView;
class TimelineChart;
class WallsStrip;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // Desktop: reads and writes the user's settings (language, recent files, geometry, last
    // scenario). Headless (--export, --screenshot): touches none of them, so an export never
    // changes what the desktop app shows next time.
    enum class Session { Desktop, Headless };
    explicit MainWindow(QWidget* parent = nullptr, Session session = Session::Desktop);
    ~MainWindow() override;
    // The tabs of the centre, in order (names: kTabNames below).
    enum class Tab { Explorer, Sweep, Search, Collectives, MemoryTime, LayerOps, Textbook };
    void showTab(Tab tab);

    ScenarioModel* model() const { return model_; }
    ScenarioPanel* panel() const { return panel_; }
    DiagnosticsPanel* diagnosticsPanel() const { return diagnostics_; }
    QLabel* statusLabel() const;
    // The pages of the centre.
    ExplorerPage* explorer() const { return explorer_; }
    MemoryChart* memoryChart() const;
    TimelineChart* timelineChart() const;
    CommChart* commChart() const;
    WallsStrip* wallsStrip() const;
    SweepView* sweepView() const;
    SearchView* searchView() const;
    CollectivesView* collectivesView() const;
    MemoryTimeChart* memoryTimeChart() const;
    LayerOpsView* layerOpsView() const;
    // What the menus do, by part (controllers/): errors (with JSON paths) are returned and shown.
    FilesController* files() const { return files_; }
    ImportController* imports() const { return import_; }
    ExportController* exports() const { return export_; }
    CourseController* course() const { return course_; }
    CompareController* compare() const { return compare_; }
    PresenterController* presenter() const { return presenter_; }

    // "en" or "zh" (zh_CN); switches every label at run time. The language menu remembers the
    // choice for the next start; a command line's --lang is for this run only (remember =
    // false), so a run started in English never leaves the next one in English.
    enum class Remember { Yes, No };
    void setLanguage(const QString& lang, Remember remember = Remember::Yes);
    QString language() const;
    // A row of the communication chart: that collective, one call, in the Collectives tab.
    void watchCollective(int entry);
    void showSweep(const QString& path, bool wait = false); // wait: draw before returning (export)

protected:
    void changeEvent(QEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

private:
    void buildPages();
    void buildControllers();
    void buildMenus();
    void restoreSession();
    void applyTheme(const ChartTheme& theme);
    ChartView* chartFor(ChartKind which) const;
    void retranslate();
    void updateTitle();

    Session session_ = Session::Desktop;
    ScenarioModel* model_;
    ScenarioPanel* panel_ = nullptr;
    QTabWidget* tabs_ = nullptr; // the pages, in Tab's order
    ExplorerPage* explorer_ = nullptr;
    DiagnosticsPanel* diagnostics_ = nullptr;
    QDockWidget* panel_dock_ = nullptr;
    QDockWidget* right_dock_ = nullptr;
    class StatusLabel* status_ = nullptr;
    class LanguageController* language_;
    FilesController* files_ = nullptr;
    ImportController* import_ = nullptr;
    ExportController* export_ = nullptr;
    CourseController* course_ = nullptr;
    CompareController* compare_ = nullptr;
    PresenterController* presenter_ = nullptr;
    // The window's own menus and actions with their source texts, retranslated in one loop.
    std::vector<std::pair<QAction*, const char*>> texts_;
};

inline constexpr EnumName<MainWindow::Tab> kTabNames[]
    = {{MainWindow::Tab::Explorer, "explorer"},      {MainWindow::Tab::Sweep, "sweep"},
       {MainWindow::Tab::Search, "search"},          {MainWindow::Tab::Collectives, "collectives"},
       {MainWindow::Tab::MemoryTime, "memory-time"}, {MainWindow::Tab::LayerOps, "layer-ops"},
       {MainWindow::Tab::Textbook, "textbook"}};
constexpr std::span<const EnumName<MainWindow::Tab>> enumNames(MainWindow::Tab) { return kTabNames; }
inline const char* toString(MainWindow::Tab t) { return nameOf(t); }

} // namespace parascope::ui
