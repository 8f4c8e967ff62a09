#pragma once
// Saving without ever losing the previous file, with the same guarantees as the CLI's --out
// (core/io/atomic_file.h): QSaveFile writes a temporary file next to the target (created
// exclusively, with the old file's permissions; a symbolic link is followed and kept) and renames
// it over the target only when everything was written and fsync'd. What QSaveFile would get
// wrong is routed around it: a device, FIFO or socket (/dev/null) is written through by the core
// helper instead of being replaced, and a folder is refused. commitSaveFile() adds the check
// QSaveFile lacks: a full disk or the file-size limit can cut a buffered write short without Qt
// reporting an error, so the bytes on disk are compared with the bytes written first.

#include <QByteArray>
#include <QString>

class QSaveFile;

namespace parascope::ui {

// Flushes, checks, commits; on failure discards the temporary file. Returns the error, "" on success.
QString commitSaveFile(QSaveFile& file);

// Writes `bytes` to `file` atomically. Returns the error, "" on success.
QString writeFileAtomically(const QString& file, const QByteArray& bytes);

} // namespace parascope::ui
