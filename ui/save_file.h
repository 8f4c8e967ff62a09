#pragma once
// Saving without ever losing the previous file: QSaveFile writes a temporary file next to the
// target and renames it over the target only when everything was written. commitSaveFile() adds
// the check QSaveFile lacks: a full disk or the file-size limit can cut a buffered write short
// without Qt reporting an error, so the bytes on disk are compared with the bytes written first.

#include <QByteArray>
#include <QString>

class QSaveFile;

namespace parascope::ui {

// Flushes, checks, commits; on failure discards the temporary file. Returns the error, "" on success.
QString commitSaveFile(QSaveFile& file);

// Writes `bytes` to `file` atomically. Returns the error, "" on success.
QString writeFileAtomically(const QString& file, const QByteArray& bytes);

} // namespace parascope::ui
