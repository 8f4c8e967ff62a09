#include "save_file.h"

#include <QCoreApplication>
#include <QSaveFile>

namespace parascope::ui {

QString commitSaveFile(QSaveFile& f)
{
    const qint64 written = f.pos();
    const bool flushed = f.flush();
    const qint64 on_disk = f.size();
    if (!flushed || f.error() != QFileDevice::NoError || on_disk != written) {
        // Qt's own message for a short write is "Unknown error": say what happened.
        const QString why = on_disk != written
            ? QCoreApplication::translate("SaveFile", "only %1 of %2 bytes reached the disk (disk full or file too large?)")
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
