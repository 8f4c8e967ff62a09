#pragma once
// Crash recovery. A moment after each change the scenario being edited is written, atomically, to
// the app's data folder; a lock file marks the running session. When ParaScope was killed or
// crashed, the next start finds the stale lock, keeps the last autosave aside as
// recovered.parascope.json and offers it back. A clean exit removes both. A second ParaScope
// running at the same time does not autosave (the first owns the session).

#include <QByteArray>
#include <QLockFile>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>

namespace parascope::ui {

class Autosave : public QObject {
    Q_OBJECT
public:
    // dir: where the session lives; empty = QStandardPaths::AppLocalDataLocation.
    explicit Autosave(QObject* parent = nullptr, const QString& dir = QString(), int delay_ms = 1000);
    ~Autosave() override;

    bool active() const { return lock_ != nullptr; }
    QString folder() const { return dir_; }
    QString autosaveFile() const;
    // The scenario a crashed session left behind ("" when the last session ended cleanly).
    QString recoverableFile() const { return recoverable_; }
    void discardRecoverable();

    // Writes `json` after the delay (coalescing changes); writeNow() writes it at once.
    void schedule(const QByteArray& json);
    void writeNow();
    // Clean exit: no recovery next time.
    void finish();

private:
    QString dir_;
    std::unique_ptr<QLockFile> lock_;
    QString recoverable_;
    QByteArray pending_;
    QTimer timer_;
};

} // namespace parascope::ui
