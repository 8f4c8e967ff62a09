#pragma once
// Crash recovery. Every running ParaScope is a session with its own id: a moment after each change
// it writes the scenario being edited, atomically, to <id>.parascope.json in the app's data folder,
// and holds <id>.lock while it runs. A clean exit removes both.
//
// At start, every scenario file whose lock nobody holds (its session was killed or crashed, or
// ended before anyone answered for it) is recoverable: this session takes its lock, so that no
// other running copy offers it too, and keeps it until the user answers. Restore or Discard removes
// it; a session that ends (or crashes) before answering leaves it for the next start. So a second
// crash while the Recover dialog is open loses nothing, and two copies running at once each
// autosave their own scenario.

#include <QByteArray>
#include <QLockFile>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <map>
#include <memory>

namespace parascope::ui {

class Autosave : public QObject {
    Q_OBJECT
public:
    // dir: where the sessions live; empty = QStandardPaths::AppLocalDataLocation.
    explicit Autosave(QObject* parent = nullptr, const QString& dir = QString(), int delay_ms = 1000);
    ~Autosave() override;

    bool active() const { return lock_ != nullptr; }
    QString folder() const { return dir_; }
    QString autosaveFile() const; // this session's own
    // The scenarios earlier sessions left unanswered, newest first.
    QStringList recoverableFiles() const { return recoverable_; }
    QString recoverableFile() const { return recoverable_.isEmpty() ? QString() : recoverable_.front(); }
    // The user answered for `file` (restored or discarded): it is removed and not offered again.
    void discardRecoverable(const QString& file);

    // Writes `json` after the delay (coalescing changes); writeNow() writes it at once.
    void schedule(const QByteArray& json);
    void writeNow();
    // Clean exit: this session leaves nothing to recover; unanswered scenarios stay for next time.
    void finish();

private:
    QString dir_;
    QString id_;
    std::unique_ptr<QLockFile> lock_;
    QStringList recoverable_;
    std::map<QString, std::unique_ptr<QLockFile>> adopted_; // recoverable file → its lock, held
    QByteArray pending_;
    QTimer timer_;
};

} // namespace parascope::ui
