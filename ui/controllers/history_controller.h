#pragma once
// Scenario → Undo / Redo (Ctrl+Z, Ctrl+Shift+Z; Ctrl+Y too): steps back and forth through every
// change of the scenario (ScenarioModel's history), each action saying what it would undo.

#include "controllers/window_part.h"
#include "controllers/window_context.h"

class QAction;
class QMenu;

namespace parascope::ui {

class HistoryController : public WindowPart {
    Q_OBJECT
public:
    explicit HistoryController(const WindowContext& context);
    void addScenarioActions(QMenu* menu);
    void retranslate() override;

private:
    void update(); // enables the actions by what the history holds

    WindowContext context_;
    QAction* undo_ = nullptr;
    QAction* redo_ = nullptr;
};

} // namespace parascope::ui
