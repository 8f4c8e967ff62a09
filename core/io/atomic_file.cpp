#include "io/atomic_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <iostream>
#include <optional>
#include <cstring>
#include <filesystem>

#ifndef _WIN32
#include <csignal>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#else
#include <fstream>
#include <random>
#endif

namespace parascope {

namespace {

std::string failure(const std::string& file, const std::string& why) { return "cannot write " + file + ": " + why; }

} // namespace

#ifndef _WIN32

namespace {

std::string errnoText(int e)
{
    if (e == ENOSPC || e == EDQUOT)
        return std::string(std::strerror(e)) + " (the disk is full)";
    if (e == EFBIG)
        return std::string(std::strerror(e)) + " (over the file-size limit, ulimit -f)";
    return std::strerror(e);
}

// Follows symbolic links (at most 40, like the kernel) to the path that receives the bytes; a
// dangling link resolves to the file it names, which the write then creates.
std::string resolveLinks(const std::string& file, std::string& error)
{
    namespace fs = std::filesystem;
    fs::path p(file);
    for (int hop = 0; hop < 40; ++hop) {
        struct stat st { };
        if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
            return p.string();
        std::string target(4096, '\0');
        const ssize_t n = ::readlink(p.c_str(), target.data(), target.size());
        if (n < 0 || std::size_t(n) >= target.size()) {
            error = n < 0 ? errnoText(errno) : "the symbolic link's target is too long";
            return {};
        }
        target.resize(std::size_t(n));
        const fs::path next(target);
        p = next.is_absolute() ? next : p.parent_path() / next;
    }
    error = "too many levels of symbolic links";
    return {};
}

// Writes every byte to `fd`, retrying interrupted and partial writes. Returns errno, 0 on success.
int writeAll(int fd, const std::string& bytes)
{
    const char* p = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : EIO;
        p += n;
        left -= std::size_t(n);
    }
    return 0;
}

// While it lives, SIGXFSZ is ignored: a write past the file-size limit then fails with EFBIG,
// which is reported, instead of the signal killing the process with a half-written file.
class IgnoreFileSizeSignal {
public:
    IgnoreFileSizeSignal()
    {
        struct sigaction ignore { };
        ignore.sa_handler = SIG_IGN;
        sigemptyset(&ignore.sa_mask);
        installed_ = ::sigaction(SIGXFSZ, &ignore, &old_) == 0;
    }
    ~IgnoreFileSizeSignal()
    {
        if (installed_)
            ::sigaction(SIGXFSZ, &old_, nullptr);
    }
    IgnoreFileSizeSignal(const IgnoreFileSizeSignal&) = delete;
    IgnoreFileSizeSignal& operator=(const IgnoreFileSizeSignal&) = delete;

private:
    struct sigaction old_ { };
    bool installed_ = false;
};

// A character device, FIFO or socket: written through as `> target` would, never replaced.
std::string writeThrough(const std::string& file, const std::string& path, const struct stat& st,
                         const std::string& bytes)
{
    if (S_ISBLK(st.st_mode))
        return failure(file, "it is a block device; ParaScope does not write to disks directly");
    // O_NONBLOCK: a FIFO nobody reads is refused (ENXIO) instead of hanging here.
    const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        const int e = errno;
        if (e == ENXIO)
            return failure(file,
                           S_ISFIFO(st.st_mode) ? "no process is reading from this FIFO"
                                                : "it is a socket; write to a file or a pipe");
        return failure(file, errnoText(e));
    }
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0)
        (void)::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    const IgnoreFileSizeSignal no_sigxfsz;
    const int e = writeAll(fd, bytes);
    const int closed = ::close(fd);
    if (e != 0)
        return failure(file, errnoText(e));
    if (closed != 0 && errno != EINTR)
        return failure(file, errnoText(errno));
    return {};
}

mode_t currentUmask()
{
    const mode_t u = ::umask(022);
    ::umask(u);
    return u;
}

// A regular file, or a new one: temporary file, fsync, rename.
std::string replaceAtomically(const std::string& file, const std::string& path, const struct stat* existing,
                              const std::string& bytes)
{
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    // mkstemp: six random characters, O_CREAT | O_EXCL with mode 0600, so a link or file someone
    // planted under the name makes it pick another instead of writing through it.
    std::string tmpl = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
    const int fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
    if (fd < 0)
        return failure(file, "cannot create a temporary file in " + dir.string() + ": " + errnoText(errno));
    const auto give_up = [&](const std::string& why) {
        ::close(fd);
        ::unlink(tmpl.c_str());
        return failure(file, why);
    };
    // The old file's permission bits (a 0600 report stays 0600) and, where allowed, its owner;
    // a new file gets what open(2) would give it: 0666 less the umask.
    const mode_t mode = existing ? (existing->st_mode & 07777) : (0666 & ~currentUmask());
    if (existing)
        (void)::fchown(fd, existing->st_uid, existing->st_gid); // only root may; not an error otherwise
    if (::fchmod(fd, mode) != 0)
        return give_up("cannot set the permissions: " + errnoText(errno));
    {
        const IgnoreFileSizeSignal no_sigxfsz;
        if (const int e = writeAll(fd, bytes); e != 0)
            return give_up(errnoText(e));
    }
    if (::fsync(fd) != 0)
        return give_up("fsync: " + errnoText(errno));
    if (::close(fd) != 0) {
        const int e = errno;
        ::unlink(tmpl.c_str());
        return failure(file, errnoText(e));
    }
    if (::rename(tmpl.c_str(), path.c_str()) != 0) {
        const int e = errno;
        ::unlink(tmpl.c_str());
        return failure(file, errnoText(e));
    }
    // The rename itself reaches the disk with the folder (best effort: not every file system
    // lets a folder be opened for fsync).
    if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
        (void)::fsync(dfd);
        ::close(dfd);
    }
    return {};
}

} // namespace

OutputTarget outputTargetKind(const std::string& file, std::string* resolved)
{
    std::string error;
    const std::string path = resolveLinks(file, error);
    if (resolved)
        *resolved = path.empty() ? file : path;
    struct stat st { };
    if (path.empty() || ::stat(path.c_str(), &st) != 0)
        return OutputTarget::Missing;
    if (S_ISDIR(st.st_mode))
        return OutputTarget::Directory;
    return S_ISREG(st.st_mode) ? OutputTarget::Regular : OutputTarget::Special;
}

// "-", /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N name a descriptor this process
// already has open: written there directly. Followed as links they lead to a pipe that has no
// path, or to the file the shell redirected into, which a rename would replace behind the
// shell's back (and an append, >>, would lose what was there).
std::optional<int> ownDescriptor(const std::string& file)
{
    if (file == "-" || file == "/dev/stdout")
        return 1;
    if (file == "/dev/stderr")
        return 2;
    for (const std::string prefix : {"/dev/fd/", "/proc/self/fd/"}) {
        if (file.rfind(prefix, 0) != 0 || file.size() == prefix.size() || file.size() > prefix.size() + 6)
            continue;
        const std::string n = file.substr(prefix.size());
        if (std::all_of(n.begin(), n.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::stoi(n);
    }
    return std::nullopt;
}

std::string writeFileAtomically(const std::string& file, const std::string& bytes)
{
    if (file.empty())
        return "cannot write: no file name";
    if (const std::optional<int> fd = ownDescriptor(file)) {
        std::cout.flush();
        std::fflush(nullptr);
        const IgnoreFileSizeSignal guard;
        if (const int e = writeAll(*fd, bytes))
            return failure(file, errnoText(e));
        return {};
    }
    std::string error;
    const std::string path = resolveLinks(file, error);
    if (path.empty())
        return failure(file, error);
    struct stat st { };
    if (::stat(path.c_str(), &st) != 0) {
        if (errno != ENOENT)
            return failure(file, errnoText(errno));
        return replaceAtomically(file, path, nullptr, bytes);
    }
    if (S_ISDIR(st.st_mode))
        return failure(file, "it is a folder");
    if (!S_ISREG(st.st_mode))
        return writeThrough(file, path, st, bytes);
    // As `> file` would: a file the user may not write stays as it is, even where the folder
    // would let a rename replace it.
    if (::access(path.c_str(), W_OK) != 0)
        return failure(file, errnoText(errno));
    return replaceAtomically(file, path, &st, bytes);
}

#else // Windows: no devices, links or modes to keep; a uniquely named temporary file, renamed.

OutputTarget outputTargetKind(const std::string& file, std::string* resolved)
{
    namespace fs = std::filesystem;
    if (resolved)
        *resolved = file;
    std::error_code ec;
    const auto st = fs::status(file, ec);
    if (ec || !fs::exists(st))
        return OutputTarget::Missing;
    if (fs::is_directory(st))
        return OutputTarget::Directory;
    return fs::is_regular_file(st) ? OutputTarget::Regular : OutputTarget::Special;
}

std::string writeFileAtomically(const std::string& file, const std::string& bytes)
{
    namespace fs = std::filesystem;
    const fs::path target(file);
    std::random_device rd;
    const fs::path tmp = target.string() + ".tmp-" + std::to_string(rd()) + std::to_string(rd());
    std::error_code ec;
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f)
            return failure(file, "cannot create a temporary file");
        f.write(bytes.data(), std::streamsize(bytes.size()));
        f.flush();
        if (!f) {
            f.close();
            fs::remove(tmp, ec);
            return failure(file, "the write failed (disk full?)");
        }
    }
    if (fs::file_size(tmp, ec) != bytes.size() || ec) {
        fs::remove(tmp, ec);
        return failure(file, "only part of it reached the disk (disk full?)");
    }
    fs::rename(tmp, target, ec);
    if (ec) {
        const std::string why = ec.message();
        fs::remove(tmp, ec);
        return failure(file, why);
    }
    return {};
}

#endif

} // namespace parascope
