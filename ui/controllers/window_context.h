#pragma once
// What every controller of the main window shares: the window (dialogs' parent, status bar), the
// scenario model, and whether this is a headless run (--export, --screenshot), which never
// shows a dialog and never touches the user's settings.

#include <QString>

#include <QMainWindow>

namespace parascope::ui {

class ScenarioModel;

struct WindowContext {
    QMainWindow* window = nullptr;
    ScenarioModel* model = nullptr;
    bool headless = false;

    // A failure: its first line in the status bar, the whole text in a message box when the
    // window is on screen.
    void showError(const QString& title, const QString& text) const;
    // A passing note in the status bar for `ms` milliseconds.
    void showMessage(const QString& text, int ms) const;
};

} // namespace parascope::ui
