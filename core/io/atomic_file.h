#pragma once
// Writing an output file (--out of the CLI and the probe) so that a failed write never costs the
// old one, and so that what the target *is* survives the write:
//   - a regular file (or a new one): the bytes go to a temporary file with an unguessable name,
//     created exclusively (mkstemp: O_CREAT|O_EXCL, never through a link planted there) in the
//     target's folder; it gets the old file's permission bits (and owner, where allowed), is
//     written in full, fsync'd, and only then renamed over the target (the folder is fsync'd
//     too). On any failure the temporary file is removed and the target is untouched.
//   - a symbolic link: followed; the link stays and the file it points to receives the bytes.
//   - a character device, FIFO or socket (/dev/null, /dev/stdout, a pipe): written through, as a
//     shell redirection does, never replaced. A FIFO with no reader is refused.
//   - "-", /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: the descriptor this process
//     already has, written directly (not the pipe or file it leads to, which a rename would
//     replace behind the shell's back).
//   - a directory: refused.
// A full disk, the file-size limit (SIGXFSZ is ignored while writing, so the write fails with
// EFBIG instead of killing the process) or any other short write is an error with the reason.
// The GUI writes through QSaveFile, with the same checks (ui/save_file.cpp), and uses
// outputTargetKind() below for the targets QSaveFile would replace.

#include <string>

namespace parascope {

enum class OutputTarget { Missing, Regular, Special, Directory };

// What `file` is, after following symbolic links; `resolved` receives the path written to.
OutputTarget outputTargetKind(const std::string& file, std::string* resolved = nullptr);

// Returns the error ("" on success); on failure the target is untouched and no temporary file
// is left behind.
std::string writeFileAtomically(const std::string& file, const std::string& bytes);

} // namespace parascope
