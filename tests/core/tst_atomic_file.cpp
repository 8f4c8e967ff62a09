// writeFileAtomically() (core/io/atomic_file.h), the one "write a file atomically" of the CLI and
// the probe: what each kind of target looks like afterwards. Every case here failed with the
// earlier TARGET.parascope-tmp + rename implementation: devices and FIFOs were replaced by regular
// files, links by files, 0600 files became 0644, a planted link at the fixed temporary name was
// written through, and the file-size limit killed the process with SIGXFSZ.

#include "io/atomic_file.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>
#include <string>
#include <chrono>
#include <thread>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using parascope::writeFileAtomically;

namespace {

std::string slurp(const std::string& file)
{
    std::ifstream f(file, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

void put(const std::string& file, const std::string& text, mode_t mode = 0644)
{
    std::ofstream(file, std::ios::binary) << text;
    ::chmod(file.c_str(), mode);
}

struct stat lstatOf(const std::string& file)
{
    struct stat st { };
    ::lstat(file.c_str(), &st);
    return st;
}

QStringList entries(const QTemporaryDir& dir)
{
    return QDir(dir.path())
        .entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}

} // namespace

class TstAtomicFile : public QObject {
    Q_OBJECT

private slots:
    void newFileGetsTheUmaskMode()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("new.json")).toStdString();
        const mode_t old = ::umask(027);
        const std::string error = writeFileAtomically(file, "hello\n");
        ::umask(old);
        QCOMPARE(error, std::string());
        QCOMPARE(slurp(file), std::string("hello\n"));
        QCOMPARE(int(lstatOf(file).st_mode & 07777), 0640); // 0666 & ~027, as open(2) would give
        QCOMPARE(entries(dir), QStringList{QStringLiteral("new.json")});
    }

    void existingFileKeepsItsPermissions()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("report.txt")).toStdString();
        put(file, "old", 0600);
        QCOMPARE(writeFileAtomically(file, "new contents"), std::string());
        QCOMPARE(slurp(file), std::string("new contents"));
        QCOMPARE(int(lstatOf(file).st_mode & 07777), 0600); // a 0600 report stays 0600
        put(file, "old", 0640);
        QCOMPARE(writeFileAtomically(file, "again"), std::string());
        QCOMPARE(int(lstatOf(file).st_mode & 07777), 0640);
        QCOMPARE(entries(dir), QStringList{QStringLiteral("report.txt")});
    }

    void symlinkIsKeptAndItsTargetWritten()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("real")));
        const std::string target = dir.filePath(QStringLiteral("real/out.json")).toStdString();
        const std::string link = dir.filePath(QStringLiteral("link.json")).toStdString();
        const std::string link2 = dir.filePath(QStringLiteral("link2.json")).toStdString();
        put(target, "old", 0600);
        QCOMPARE(::symlink("real/out.json", link.c_str()), 0); // relative, resolved from the link's folder
        QCOMPARE(::symlink("link.json", link2.c_str()), 0); // a chain of two
        QCOMPARE(writeFileAtomically(link2, "through two links"), std::string());
        QVERIFY(S_ISLNK(lstatOf(link).st_mode));
        QVERIFY(S_ISLNK(lstatOf(link2).st_mode));
        QCOMPARE(slurp(target), std::string("through two links"));
        QCOMPARE(int(lstatOf(target).st_mode & 07777), 0600);
        QCOMPARE(QDir(dir.filePath(QStringLiteral("real"))).entryList(QDir::Files | QDir::Hidden),
                 QStringList{QStringLiteral("out.json")});

        // A dangling link: the file it names is created, the link stays a link.
        const std::string dangling = dir.filePath(QStringLiteral("dangling.json")).toStdString();
        QCOMPARE(::symlink("real/created.json", dangling.c_str()), 0);
        QCOMPARE(writeFileAtomically(dangling, "created"), std::string());
        QVERIFY(S_ISLNK(lstatOf(dangling).st_mode));
        QCOMPARE(slurp(dir.filePath(QStringLiteral("real/created.json")).toStdString()), std::string("created"));

        // A loop of links is an error, not a hang.
        const std::string a = dir.filePath(QStringLiteral("a")).toStdString(),
                          b = dir.filePath(QStringLiteral("b")).toStdString();
        QCOMPARE(::symlink("b", a.c_str()), 0);
        QCOMPARE(::symlink("a", b.c_str()), 0);
        QVERIFY(writeFileAtomically(a, "x").find("symbolic links") != std::string::npos);
    }

    void plantedLinkAtATemporaryNameIsNotFollowed()
    {
        // Someone who can write the folder plants links where a temporary file might go (the old
        // fixed name, and a guess at the new pattern): the victim file is never written.
        QTemporaryDir dir;
        const std::string victim = dir.filePath(QStringLiteral("victim")).toStdString();
        put(victim, "precious");
        const std::string file = dir.filePath(QStringLiteral("out.json")).toStdString();
        QCOMPARE(::symlink(victim.c_str(), (file + ".parascope-tmp").c_str()), 0);
        QCOMPARE(::symlink(victim.c_str(), dir.filePath(QStringLiteral(".out.json.tmp-XXXXXX")).toStdString().c_str()),
                 0);
        QCOMPARE(writeFileAtomically(file, "report"), std::string());
        QCOMPARE(slurp(victim), std::string("precious"));
        QCOMPARE(slurp(file), std::string("report"));
        QCOMPARE(entries(dir).size(), 4); // victim, out.json and the two planted links: no debris
    }

    void characterDeviceIsWrittenThroughNotReplaced()
    {
        QTemporaryDir dir;
        const std::string null_dev = dir.filePath(QStringLiteral("null")).toStdString();
        const std::string full_dev = dir.filePath(QStringLiteral("full")).toStdString();
        // Private copies of /dev/null (1,3) and /dev/full (1,7): a regression here must not
        // replace the machine's own.
        if (::mknod(null_dev.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0
            || ::mknod(full_dev.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0)
            QSKIP("mknod is not permitted here (needs CAP_MKNOD)");
        QCOMPARE(writeFileAtomically(null_dev, "discarded"), std::string());
        QVERIFY(S_ISCHR(lstatOf(null_dev).st_mode));
        // /dev/full answers every write with ENOSPC: reported, the device left as it is.
        const std::string error = writeFileAtomically(full_dev, "x");
        QVERIFY2(error.find("disk is full") != std::string::npos, error.c_str());
        QVERIFY(S_ISCHR(lstatOf(full_dev).st_mode));
        QCOMPARE(entries(dir), (QStringList{QStringLiteral("full"), QStringLiteral("null")}));
    }

    void fifoIsWrittenThroughOrRefusedWithoutAReader()
    {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath(QStringLiteral("pipe")).toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        // Nobody reads: refused at once, not a hang, and the FIFO stays.
        const std::string error = writeFileAtomically(fifo, "lost");
        QVERIFY2(error.find("no process is reading") != std::string::npos, error.c_str());
        QVERIFY(S_ISFIFO(lstatOf(fifo).st_mode));
        // A reader: it receives every byte (more than a pipe buffer holds).
        const std::string payload(300000, 'p');
        std::string received;
        const int rfd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
        QVERIFY(rfd >= 0);
        ::fcntl(rfd, F_SETFL, ::fcntl(rfd, F_GETFL) & ~O_NONBLOCK);
        // Until every byte has arrived: a read before the writer opens the FIFO sees end-of-file
        // (no writer yet), which is not the end (quitting then left the writer blocked on a full
        // pipe under load). A deadline keeps a broken writer from hanging the test.
        std::thread reader([&] {
            char buf[65536];
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
            while (received.size() < payload.size() && std::chrono::steady_clock::now() < deadline) {
                const ssize_t n = ::read(rfd, buf, sizeof buf);
                if (n > 0)
                    received.append(buf, std::size_t(n));
                else if (n < 0)
                    break;
                else
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        });
        const std::string written = writeFileAtomically(fifo, payload);
        reader.join();
        ::close(rfd);
        QCOMPARE(written, std::string());
        QCOMPARE(received.size(), payload.size());
        QVERIFY(S_ISFIFO(lstatOf(fifo).st_mode));
        QCOMPARE(entries(dir), QStringList{QStringLiteral("pipe")});
    }

    void folderIsRefused()
    {
        QTemporaryDir dir;
        const std::string error = writeFileAtomically(dir.path().toStdString(), "x");
        QVERIFY2(error.find("folder") != std::string::npos, error.c_str());
        QVERIFY(QFileInfo(dir.path()).isDir());
    }

    void fileSizeLimitIsAnErrorNotASignal()
    {
        // RLIMIT_FSIZE binds root too. Before: SIGXFSZ killed this process (signal 25) and left
        // out.json.parascope-tmp. Now: an error naming the limit, the old file byte for byte, no
        // temporary file.
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("out.json")).toStdString();
        put(file, "the old report");
        rlimit saved{};
        QCOMPARE(::getrlimit(RLIMIT_FSIZE, &saved), 0);
        rlimit small = saved;
        small.rlim_cur = 4096;
        QCOMPARE(::setrlimit(RLIMIT_FSIZE, &small), 0);
        const std::string error = writeFileAtomically(file, std::string(100000, 'x'));
        ::setrlimit(RLIMIT_FSIZE, &saved);
        QVERIFY2(error.find("file-size limit") != std::string::npos, error.c_str());
        QCOMPARE(slurp(file), std::string("the old report"));
        QCOMPARE(entries(dir), QStringList{QStringLiteral("out.json")});
    }

    void unwritableFileIsRefusedLikeARedirection()
    {
        if (::geteuid() == 0)
            QSKIP("root may write any file");
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("ro.json")).toStdString();
        put(file, "read-only", 0444);
        QVERIFY(!writeFileAtomically(file, "x").empty());
        QCOMPARE(slurp(file), std::string("read-only"));
    }

    void missingFolderIsAnError()
    {
        const std::string error = writeFileAtomically("/nonexistent-folder-parascope/x.json", "x");
        QVERIFY2(error.find("/nonexistent-folder-parascope/x.json") != std::string::npos, error.c_str());
    }
};

QTEST_GUILESS_MAIN(TstAtomicFile)
#include "tst_atomic_file.moc"
