#pragma once
// Scenario files: File → Open, Open recent, Save, Save as; the scenario of the last session and
// the recent files (the user's settings, desktop sessions only); crash recovery (autosave.h):
// the scenario is saved a second after each change while the app runs, and a session that was
// killed leaves its file to be offered at the next start. Errors come back with JSON paths and
// are shown, never thrown.

#include "controllers/window_context.h"
#include "controllers/window_part.h"

#include <QObject>
#include <QStringList>

class QAction;
class QMenu;
class QSettings;

namespace parascope::ui {

class Autosave;

class FilesController : public WindowPart {
    Q_OBJECT
public:
    explicit FilesController(const WindowContext& context);
    void addOpenActions(QMenu* menu); // Open…, Open recent
    void addSaveActions(QMenu* menu); // Save, Save as…
    void retranslate() override;

    QString openScenario(const QString& file); // also the current and a recent file
    QString saveScenario(const QString& file);
    void forgetCurrentFile(); // the scenario is no file's (a lesson's step, a recovered one)

    // Desktop sessions: the window's geometry and docks, the recent files and the last scenario
    // from the settings; endSession() writes them back (desktop) and ends the autosave, a clean
    // exit with nothing to recover next time.
    void restoreSession(QSettings& settings);
    void endSession();

    QString startAutosave(const QString& dir = QString()); // the file a crashed session left, or ""
    void offerRecovery();
    QString recoverAutosave();

signals:
    void scenarioOpened(); // a file's scenario replaced the model's (no lesson any more)

private:
    QString loadScenario(const QString& file);
    void rememberRecent(const QString& file);
    void updateRecentMenu();
    WindowContext context_;
    QString current_file_;
    QStringList recent_;
    Autosave* autosave_ = nullptr;
    QAction* open_ = nullptr;
    QMenu* recent_menu_ = nullptr;
    QAction* save_ = nullptr;
    QAction* save_as_ = nullptr;
};

} // namespace parascope::ui
