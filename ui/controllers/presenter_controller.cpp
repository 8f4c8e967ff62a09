#include "controllers/presenter_controller.h"

#include "pages/explorer_page.h"

#include <QAction>
#include <QApplication>
#include <QScreen>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QShortcut>
#include <QStatusBar>

namespace parascope::ui {

namespace {
constexpr int kPresenterPt = 18;
} // namespace

PresenterController::PresenterController(const WindowContext& context, ExplorerPage* explorer,
                                         std::vector<QDockWidget*> docks,
                                         std::function<void(const ChartTheme&)> applyTheme)
    : WindowPart(context.window)
    , context_(context)
    , explorer_(explorer)
    , docks_(std::move(docks))
    , apply_theme_(std::move(applyTheme))
{
    auto* esc = new QShortcut(QKeySequence(Qt::Key_Escape), context_.window);
    connect(esc, &QShortcut::activated, this, &PresenterController::leaveOneStep);
    const std::pair<ChartKind, Qt::Key> keys[]
        = {{ChartKind::Memory, Qt::Key_1}, {ChartKind::Communication, Qt::Key_2}, {ChartKind::Timeline, Qt::Key_3}};
    for (const auto& [kind, key] : keys) {
        auto* s = new QShortcut(QKeySequence(Qt::CTRL | key), context_.window);
        connect(s, &QShortcut::activated, this, [this, k = kind] { toggle(k); });
    }
    connect(explorer_, &ExplorerPage::chartDoubleClicked, this, &PresenterController::toggle);
}

void PresenterController::addActions(QMenu* view_menu)
{
    action_ = view_menu->addAction(QString(), this, [this](bool on) { setOn(on); });
    action_->setCheckable(true);
    action_->setShortcut(QKeySequence(Qt::Key_F11));
}

void PresenterController::retranslate() { action_->setText(tr("&Presenter mode")); }

void PresenterController::setOn(bool on)
{
    action_->setChecked(on);
    if (on == on_)
        return;
    on_ = on;
    QMainWindow* w = context_.window;
    if (on) {
        before_ = {{}, w->isMaximized(), QApplication::font()};
        for (QDockWidget* d : docks_) {
            before_.docks.push_back(d->isVisible() || context_.headless);
            d->hide();
        }
        QFont f = before_.font;
        f.setPointSize(kPresenterPt);
        QApplication::setFont(f);
    } else {
        QApplication::setFont(before_.font);
        for (std::size_t i = 0; i < docks_.size(); ++i)
            docks_[i]->setVisible(before_.docks[i]);
        maximise(std::nullopt);
    }
    // The status bar keeps the height it had at the old font unless told (QStatusBar lays out
    // once): make room for a line of the new one.
    w->statusBar()->setMinimumHeight(on ? QFontMetrics(QApplication::font()).height() + 10 : 0);
    theme_.font_pt = on ? kPresenterPt : 10;
    theme_.high_contrast = on;
    apply_theme_(theme_);
    // A headless screenshot has no screen to fill: it lays presenter mode out at the asked size.
    if (context_.headless)
        return;
    if (on) {
        // Without a window manager full screen is only a state: cover the screen by hand first.
        if (const QScreen* screen = w->screen())
            w->setGeometry(screen->geometry());
        w->showFullScreen();
    } else if (before_.maximised)
        w->showMaximized();
    else
        w->showNormal();
}

void PresenterController::maximise(std::optional<ChartKind> which)
{
    explorer_->maximise(which);
    if (explorer_->maximised())
        emit explorerWanted();
}

std::optional<ChartKind> PresenterController::maximised() const { return explorer_->maximised(); }

void PresenterController::toggle(ChartKind kind)
{
    maximise(explorer_->maximised() == kind ? std::nullopt : std::optional(kind));
}

void PresenterController::leaveOneStep()
{
    if (explorer_->maximised())
        maximise(std::nullopt);
    else if (on_)
        setOn(false);
}

} // namespace parascope::ui
