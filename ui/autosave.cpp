#include "autosave.h"

#include "save_file.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QUuid>

#include <algorithm>

namespace parascope::ui {

namespace {

const QString kSuffix = QStringLiteral(".parascope.json");

QString lockFor(const QString& dir, const QString& id) { return dir + QLatin1Char('/') + id + QStringLiteral(".lock"); }

std::unique_ptr<QLockFile> makeLock(const QString& path)
{
    auto lock = std::make_unique<QLockFile>(path);
    // Stale only when its process is gone, never by age: a session may run for days.
    lock->setStaleLockTime(0);
    return lock;
}

} // namespace

Autosave::Autosave(QObject* parent, const QString& dir, int delay_ms)
    : QObject(parent)
    , dir_(dir.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) : dir)
{
    timer_.setSingleShot(true);
    timer_.setInterval(delay_ms);
    connect(&timer_, &QTimer::timeout, this, &Autosave::writeNow);
    if (dir_.isEmpty() || !QDir().mkpath(dir_))
        return; // nowhere to write: no autosave, nothing to recover
    id_ = QStringLiteral("session-") + QUuid::createUuid().toString(QUuid::Id128);
    auto own = makeLock(lockFor(dir_, id_));
    if (!own->tryLock(0))
        return;
    lock_ = std::move(own);

    // Every other session's scenario whose lock nobody holds: its owner is gone.
    QFileInfoList candidates = QDir(dir_).entryInfoList({QStringLiteral("session-*") + kSuffix}, QDir::Files);
    std::sort(candidates.begin(), candidates.end(),
              [](const QFileInfo& a, const QFileInfo& b) { return a.lastModified() > b.lastModified(); });
    for (const QFileInfo& f : candidates) {
        const QString id = f.fileName().chopped(kSuffix.size());
        if (id == id_)
            continue;
        auto lock = makeLock(lockFor(dir_, id));
        if (!lock->tryLock(0))
            continue; // a running copy owns it (or another copy has just adopted it)
        recoverable_.append(f.absoluteFilePath());
        adopted_[f.absoluteFilePath()] = std::move(lock);
    }
}

Autosave::~Autosave()
{
    // A change still waiting is written; the locks are released with their objects. Only a
    // session that never got here (killed, crashed) leaves its lock behind.
    if (timer_.isActive())
        writeNow();
}

QString Autosave::autosaveFile() const { return id_.isEmpty() ? QString() : dir_ + QLatin1Char('/') + id_ + kSuffix; }

void Autosave::discardRecoverable(const QString& file)
{
    if (!recoverable_.contains(file))
        return;
    QFile::remove(file);
    recoverable_.removeAll(file);
    if (auto it = adopted_.find(file); it != adopted_.end()) {
        it->second->unlock(); // removes the lock file
        adopted_.erase(it);
    }
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
    lock_->unlock(); // removes this session's lock
    lock_.reset();
    // Scenarios nobody answered for stay on disk; released, they are offered again next start.
    adopted_.clear();
    recoverable_.clear();
}

} // namespace parascope::ui
