#include "main_window.h"

#include "comm_chart.h"
#include "memory_chart.h"
#include "timeline_chart.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QShortcut>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>

// Presenter mode and the maximised chart: what the main window does in front of a class.
//
// A projector is 1280×720 or 1024×768 and the students sit at the back: presenter mode makes the
// window full screen on the screen it is on, fonts 18 points and lines thick, and folds the side
// panels away so the charts get the room (View → Scenario panel / What breaks bring them back).
// One chart can fill the Explorer (double-click it, or Ctrl+1 memory, Ctrl+2 communication,
// Ctrl+3 timeline). Esc steps back: first the maximised chart, then presenter mode.

namespace parascope::ui {

namespace {
constexpr int kPresenterPt = 18;
} // namespace

void MainWindow::buildPresenterShortcuts()
{
    auto* esc = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(esc, &QShortcut::activated, this, &MainWindow::leaveOneStep);
    const std::pair<ChartKind, Qt::Key> keys[]
        = {{ChartKind::Memory, Qt::Key_1}, {ChartKind::Communication, Qt::Key_2}, {ChartKind::Timeline, Qt::Key_3}};
    for (const auto& [kind, key] : keys) {
        auto* s = new QShortcut(QKeySequence(Qt::CTRL | key), this);
        connect(s, &QShortcut::activated, this,
                [this, k = kind] { maximiseChart(maximised_ == k ? std::nullopt : std::optional(k)); });
    }
    for (ChartKind kind : {ChartKind::Memory, ChartKind::Communication, ChartKind::Timeline})
        connect(chartFor(kind), &ChartView::doubleClicked, this,
                [this, kind] { maximiseChart(maximised_ == kind ? std::nullopt : std::optional(kind)); });
}

void MainWindow::setPresenterMode(bool on)
{
    presenter_action_->setChecked(on);
    if (on == presenter_)
        return;
    presenter_ = on;
    if (on) {
        before_presenter_
            = {panel_dock_->isVisible() || session_ == Session::Headless,
               right_dock_->isVisible() || session_ == Session::Headless, isMaximized(), QApplication::font()};
        panel_dock_->hide();
        right_dock_->hide();
        QFont f = before_presenter_.font;
        f.setPointSize(kPresenterPt);
        QApplication::setFont(f);
    } else {
        QApplication::setFont(before_presenter_.font);
        panel_dock_->setVisible(before_presenter_.panel);
        right_dock_->setVisible(before_presenter_.right);
        maximiseChart(std::nullopt);
    }
    // The status bar keeps the height it had at the old font unless told (QStatusBar lays out
    // once): make room for a line of the new one.
    statusBar()->setMinimumHeight(on ? QFontMetrics(QApplication::font()).height() + 10 : 0);
    theme_.font_pt = on ? kPresenterPt : 10;
    theme_.high_contrast = on;
    applyTheme();
    // A headless screenshot has no screen to fill: it lays presenter mode out at the asked size.
    if (session_ == Session::Headless)
        return;
    if (on)
        showFullScreen();
    else if (before_presenter_.maximised)
        showMaximized();
    else
        showNormal();
}

void MainWindow::maximiseChart(std::optional<ChartKind> which)
{
    if (which && *which != ChartKind::Memory && *which != ChartKind::Communication && *which != ChartKind::Timeline)
        which.reset(); // the sweep and the search have a tab of their own
    maximised_ = which;
    if (which)
        showTab(Tab::Explorer);
    memory_->setVisible(!which || *which == ChartKind::Memory);
    comm_->setVisible(!which || *which == ChartKind::Communication);
    timeline_->setVisible(!which || *which == ChartKind::Timeline);
    // The memory and communication charts share the upper splitter; it goes when neither shows.
    memory_->parentWidget()->setVisible(!which || *which != ChartKind::Timeline);
}

void MainWindow::leaveOneStep()
{
    if (maximised_)
        maximiseChart(std::nullopt);
    else if (presenter_)
        setPresenterMode(false);
}

} // namespace parascope::ui
