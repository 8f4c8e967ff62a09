#pragma once
// Presenter mode and the maximised chart: what the main window does in front of a class.
//
// A projector is 1280×720 or 1024×768 and the students sit at the back: presenter mode makes the
// window full screen on the screen it is on, fonts 18 points and lines thick, and folds the side
// panels away so the charts get the room (View → Scenario panel / What breaks bring them back).
// One chart can fill the Explorer (double-click it, or Ctrl+1 memory, Ctrl+2 communication,
// Ctrl+3 timeline). Esc steps back: first the maximised chart, then presenter mode.

#include "chart_kind.h"
#include "chart_style.h"
#include "controllers/window_context.h"
#include "controllers/window_part.h"

#include <QFont>
#include <QObject>

#include <functional>
#include <optional>
#include <vector>

class QAction;
class QDockWidget;
class QMenu;

namespace parascope::ui {

class ExplorerPage;

class PresenterController : public WindowPart {
    Q_OBJECT
public:
    // applyTheme: gives every chart of the window the theme (fonts and lines for the room).
    PresenterController(const WindowContext& context, ExplorerPage* explorer, std::vector<QDockWidget*> docks,
                        std::function<void(const ChartTheme&)> applyTheme);
    void addActions(QMenu* view_menu); // View → Presenter mode (F11)
    void retranslate() override;

    void setOn(bool on);
    bool on() const { return on_; }
    // One chart of the Explorer fills the tab; nullopt: all charts. The Explorer tab is shown.
    void maximise(std::optional<ChartKind> which);
    std::optional<ChartKind> maximised() const;
    const ChartTheme& theme() const { return theme_; } // what the charts are drawn with now

signals:
    void explorerWanted(); // a chart was maximised: its tab comes to the front

private:
    void toggle(ChartKind kind); // maximised already: all charts again
    void leaveOneStep(); // Esc: a maximised chart first, then presenter mode
    WindowContext context_;
    ExplorerPage* explorer_;
    std::vector<QDockWidget*> docks_;
    std::function<void(const ChartTheme&)> apply_theme_;
    QAction* action_ = nullptr;
    bool on_ = false;
    ChartTheme theme_;
    struct Before {
        std::vector<bool> docks;
        bool maximised = false;
        QFont font;
    } before_;
};

} // namespace parascope::ui
