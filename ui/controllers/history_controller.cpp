#include "controllers/history_controller.h"

#include "models/scenario_model.h"

#include <QAction>
#include <QMenu>

namespace parascope::ui {

HistoryController::HistoryController(const WindowContext& context)
    : WindowPart(context.window)
    , context_(context)
{
    connect(context_.model, &ScenarioModel::historyChanged, this, &HistoryController::update);
}

void HistoryController::addScenarioActions(QMenu* menu)
{
    undo_ = menu->addAction(QString(), context_.model, &ScenarioModel::undo);
    undo_->setShortcuts(QKeySequence::Undo);
    redo_ = menu->addAction(QString(), context_.model, &ScenarioModel::redo);
    // Ctrl+Shift+Z everywhere, and the platform's own (Ctrl+Y on some desktops).
    QList<QKeySequence> redo_keys{QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)};
    for (const QKeySequence& k : QKeySequence::keyBindings(QKeySequence::Redo))
        if (!redo_keys.contains(k))
            redo_keys.push_back(k);
    redo_->setShortcuts(redo_keys);
    menu->addSeparator();
    update();
}

void HistoryController::retranslate()
{
    if (!undo_)
        return;
    undo_->setText(tr("&Undo scenario change"));
    redo_->setText(tr("&Redo scenario change"));
    undo_->setToolTip(tr("Go back to the scenario before the last change (a slider drag is one change)"));
    redo_->setToolTip(tr("Apply the change undone last once more"));
}

void HistoryController::update()
{
    if (!undo_)
        return;
    undo_->setEnabled(context_.model->canUndo());
    redo_->setEnabled(context_.model->canRedo());
}

} // namespace parascope::ui
