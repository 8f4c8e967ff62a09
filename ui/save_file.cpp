#include "save_file.h"

#include "io/atomic_file.h"

#include <QCoreApplication>
#include <QSaveFile>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <csignal>
#include <unistd.h>
#endif

namespace parascope::ui {

QString commitSaveFile(QSaveFile& f)
{
    const qint64 written = f.pos();
    bool flushed = f.flush();
#ifdef Q_OS_UNIX
    // The bytes reach the disk before the rename makes them the file (as the CLI's writer does),
    // whatever QSaveFile::commit() does itself.
    if (flushed && f.handle() >= 0 && ::fsync(f.handle()) != 0 && errno != EINVAL)
        flushed = false;
#endif
    const qint64 on_disk = f.size();
    if (!flushed || f.error() != QFileDevice::NoError || on_disk != written) {
        // Qt's own message for a short write is "Unknown error": say what happened.
        const QString why = on_disk != written
            ? QCoreApplication::translate("SaveFile",
                                          "only %1 of %2 bytes reached the disk (disk full or file too large?)")
                  .arg(on_disk)
                  .arg(written)
            : f.errorString();
        f.cancelWriting();
        return why;
    }
    if (!f.commit())
        return f.errorString();
    return {};
}

QString writeFileAtomically(const QString& file, const QByteArray& bytes)
{
    switch (outputTargetKind(file.toStdString())) {
    case OutputTarget::Directory: return QCoreApplication::translate("SaveFile", "%1 is a folder").arg(file);
    case OutputTarget::Special: // QSaveFile would rename a temporary file over the device
        return QString::fromStdString(parascope::writeFileAtomically(file.toStdString(), bytes.toStdString()));
    case OutputTarget::Missing:
    case OutputTarget::Regular: break;
    }
#ifdef Q_OS_UNIX
    // Past the file-size limit the write fails (and is reported) instead of SIGXFSZ ending the app.
    std::signal(SIGXFSZ, SIG_IGN);
#endif
    QSaveFile f(file);
    if (!f.open(QIODevice::WriteOnly))
        return f.errorString();
    if (f.write(bytes) != bytes.size()) {
        const QString e = f.errorString();
        f.cancelWriting();
        return e;
    }
    return commitSaveFile(f);
}

} // namespace parascope::ui
