#include "autosave.h"

#include "save_file.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>

namespace parascope::ui {

Autosave::Autosave(QObject* parent, const QString& dir, int delay_ms)
    : QObject(parent)
    , dir_(dir.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) : dir)
{
    timer_.setSingleShot(true);
    timer_.setInterval(delay_ms);
    connect(&timer_, &QTimer::timeout, this, &Autosave::writeNow);
    if (dir_.isEmpty() || !QDir().mkpath(dir_))
        return; // nowhere to write: no autosave, nothing to recover
    const QString lock_path = dir_ + QStringLiteral("/session.lock");
    const bool left_behind = QFile::exists(lock_path);
    auto lock = std::make_unique<QLockFile>(lock_path);
    // Another ParaScope holds a live lock: leave its session alone. A lock whose process is gone
    // is stale; QLockFile removes it and this session takes over.
    if (!lock->tryLock(0))
        return;
    lock_ = std::move(lock);
    const QString last = autosaveFile();
    if (left_behind && QFile::exists(last)) {
        // Kept aside, so that this session's autosaves cannot overwrite it before the user answers.
        recoverable_ = dir_ + QStringLiteral("/recovered.parascope.json");
        QFile::remove(recoverable_);
        if (!QFile::rename(last, recoverable_))
            recoverable_.clear();
    }
    QFile::remove(last);
}

Autosave::~Autosave()
{
    // A change still waiting is written; the lock is released with lock_. Only a session that
    // never got here (killed, crashed) leaves its lock behind, and so is offered back.
    if (timer_.isActive())
        writeNow();
}

QString Autosave::autosaveFile() const
{
    return dir_ + QStringLiteral("/autosave.parascope.json");
}

void Autosave::discardRecoverable()
{
    if (!recoverable_.isEmpty())
        QFile::remove(recoverable_);
    recoverable_.clear();
}

void Autosave::schedule(const QByteArray& json)
{
    if (!active())
        return;
    pending_ = json;
    timer_.start();
}

void Autosave::writeNow()
{
    timer_.stop();
    if (!active() || pending_.isEmpty())
        return;
    // A failed autosave keeps the previous one; nothing to tell the user.
    (void)writeFileAtomically(autosaveFile(), pending_);
    pending_.clear();
}

void Autosave::finish()
{
    timer_.stop();
    pending_.clear();
    if (!active())
        return;
    QFile::remove(autosaveFile());
    lock_->unlock(); // removes session.lock
    lock_.reset();
}

} // namespace parascope::ui
