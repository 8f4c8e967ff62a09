#include "controllers/files_controller.h"

#include "autosave.h"
#include "dialogs/recovery_dialog.h"
#include "format.h"
#include "io/scenario_json.h"
#include "models/scenario_model.h"
#include "save_file.h"

#include <QAction>
#include <QFileDialog>
#include <QMainWindow>
#include <QMenu>
#include <QGuiApplication>
#include <QScreen>
#include <QSettings>

namespace parascope::ui {

namespace {
constexpr int kMaxRecentFiles = 8;

QByteArray scenarioFile(const Scenario& s) { return QByteArray::fromStdString(scenarioToJson(s).dump(2) + "\n"); }
} // namespace

FilesController::FilesController(const WindowContext& context)
    : WindowPart(context.window)
    , context_(context)
{ }

void FilesController::addOpenActions(QMenu* menu)
{
    open_ = menu->addAction(QString(), QKeySequence::Open, this, [this] {
        const QString f = QFileDialog::getOpenFileName(context_.window, tr("Open scenario"), QString(),
                                                       tr("ParaScope scenarios (*.parascope.json *.json)"));
        if (!f.isEmpty())
            openScenario(f);
    });
    recent_menu_ = menu->addMenu(QString());
    updateRecentMenu();
}

void FilesController::addSaveActions(QMenu* menu)
{
    save_ = menu->addAction(QString(), QKeySequence::Save, this, [this] {
        if (current_file_.isEmpty())
            save_as_->trigger();
        else
            saveScenario(current_file_);
    });
    save_as_ = menu->addAction(QString(), QKeySequence::SaveAs, this, [this] {
        QString f = QFileDialog::getSaveFileName(context_.window, tr("Save scenario"), current_file_,
                                                 tr("ParaScope scenarios (*.parascope.json)"));
        if (f.isEmpty())
            return;
        if (!f.endsWith(QLatin1String(".json")))
            f += QStringLiteral(".parascope.json");
        saveScenario(f);
    });
}

void FilesController::retranslate()
{
    open_->setText(tr("&Open…"));
    recent_menu_->setTitle(tr("Open &recent"));
    save_->setText(tr("&Save"));
    save_as_->setText(tr("Save &as…"));
}

QString FilesController::openScenario(const QString& file)
{
    if (const QString error = loadScenario(file); !error.isEmpty())
        return error;
    current_file_ = file;
    rememberRecent(file);
    return {};
}

QString FilesController::loadScenario(const QString& file)
{
    std::vector<InputError> errors;
    const auto sc = readScenarioFile(file.toStdString(), errors);
    if (!sc) {
        const QString text = errorsText(errors);
        context_.showError(tr("Open scenario"), tr("%1 is not a valid scenario:\n\n%2").arg(file, text.trimmed()));
        return text.trimmed();
    }
    context_.model->setScenario(*sc);
    emit scenarioOpened();
    return {};
}

QString FilesController::saveScenario(const QString& file)
{
    const QString e = writeFileAtomically(file, scenarioFile(context_.model->scenario()));
    if (!e.isEmpty()) {
        context_.showError(tr("Save scenario"),
                           tr("Could not save %1: %2\nThe previous file is unchanged.").arg(file, e));
        return e;
    }
    current_file_ = file;
    rememberRecent(file);
    context_.showMessage(tr("Saved %1").arg(file), 3000);
    return {};
}

void FilesController::forgetCurrentFile() { current_file_.clear(); }

void FilesController::rememberRecent(const QString& file)
{
    recent_.removeAll(file);
    recent_.prepend(file);
    while (recent_.size() > kMaxRecentFiles)
        recent_.removeLast();
    if (!context_.headless)
        QSettings().setValue(QStringLiteral("recentFiles"), recent_);
    updateRecentMenu();
}

void FilesController::updateRecentMenu()
{
    recent_menu_->clear();
    for (const QString& f : recent_)
        recent_menu_->addAction(f, this, [this, f] { openScenario(f); });
    recent_menu_->setEnabled(!recent_.isEmpty());
}

void FilesController::restoreSession(QSettings& s)
{
    QMainWindow* w = context_.window;
    if (!w->restoreGeometry(s.value(QStringLiteral("geometry")).toByteArray())) {
        // First start: most of the screen, the charts need room; a projector-sized screen (up to
        // 1366 × 800) all of it, by geometry, so that it fills the screen without a window manager
        // too (a lecture PC's kiosk session: 1178 × 662 of 1280 × 720 before).
        const QScreen* screen = QGuiApplication::primaryScreen();
        const QRect avail = screen ? screen->availableGeometry() : QRect(0, 0, 1600, 1000);
        if (avail.width() <= 1366 || avail.height() <= 800)
            w->setGeometry(avail);
        else
            w->resize(avail.size() * 0.92);
    }
    w->restoreState(s.value(QStringLiteral("windowState")).toByteArray());
    // Trimmed on read: a settings file edited by hand (or by another program) with 200,000
    // entries must not build 200,000 menu items. The trimmed list is written back.
    const QStringList recent = s.value(QStringLiteral("recentFiles")).toStringList();
    recent_.clear();
    for (const QString& f : recent) {
        if (recent_.size() >= kMaxRecentFiles)
            break;
        if (!f.isEmpty() && f.size() <= 4096 && !recent_.contains(f))
            recent_.append(f);
    }
    if (recent_ != recent)
        s.setValue(QStringLiteral("recentFiles"), recent_);
    updateRecentMenu();
    const QString last = s.value(QStringLiteral("lastScenario")).toString();
    if (last.isEmpty())
        return;
    std::vector<InputError> errors;
    if (auto j = parseJsonText(last.toStdString(), errors))
        if (auto sc = readScenario(*j, errors))
            context_.model->setScenario(*sc);
}

void FilesController::endSession()
{
    if (autosave_)
        autosave_->finish();
    if (context_.headless)
        return;
    QSettings s;
    s.setValue(QStringLiteral("geometry"), context_.window->saveGeometry());
    s.setValue(QStringLiteral("windowState"), context_.window->saveState());
    s.setValue(QStringLiteral("lastScenario"),
               QString::fromStdString(scenarioToJson(context_.model->scenario()).dump()));
}

QString FilesController::startAutosave(const QString& dir)
{
    if (!autosave_) {
        autosave_ = new Autosave(this, dir);
        const auto save = [this] { autosave_->schedule(scenarioFile(context_.model->scenario())); };
        connect(context_.model, &ScenarioModel::scenarioChanged, this, save);
        save(); // what is open now (a file given on the command line) counts too
    }
    return autosave_->recoverableFile();
}

void FilesController::offerRecovery()
{
    // Newest first; each answer removes that one. Restoring one ends the questions (the others
    // stay, unanswered, for the next start); closing the dialog answers nothing.
    while (autosave_ && !autosave_->recoverableFile().isEmpty()) {
        const QString file = autosave_->recoverableFile();
        const int left = int(autosave_->recoverableFiles().size()) - 1;
        const RecoveryAnswer answer = askRecovery(context_.window, file, left);
        if (answer == RecoveryAnswer::Restore) {
            recoverAutosave();
            return;
        }
        if (answer == RecoveryAnswer::Later)
            return; // everything stays
        autosave_->discardRecoverable(file);
    }
}

QString FilesController::recoverAutosave()
{
    if (!autosave_ || autosave_->recoverableFile().isEmpty())
        return tr("There is no scenario to recover.");
    const QString file = autosave_->recoverableFile();
    if (const QString error = loadScenario(file); !error.isEmpty())
        return error;
    // Restored, not saved: Save asks where, and the recovered copy is no recent file.
    current_file_.clear();
    autosave_->discardRecoverable(file);
    context_.showMessage(tr("Restored the scenario from the last session"), 5000);
    return {};
}

} // namespace parascope::ui
