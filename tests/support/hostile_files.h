#pragma once
// Files a student might hand ParaScope by accident or on purpose, written into a temporary folder,
// each with a fragment the error message must contain. tst_cli_input opens them with parascope-cli
// and tst_gui_files with the desktop app: both must refuse each one with a clear message and keep working.

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>
#include <QTemporaryDir>

#include <vector>

namespace parascope::test {

struct HostileFile {
    QString name; // test row
    QString path;
    QString expected; // a fragment of the error message
};

inline QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(bytes);
    return path;
}

// A scenario with one `parallel` member replaced by `value` (raw JSON text).
inline QByteArray scenarioWith(const QByteArray& parallel_member)
{
    return R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-a100-80g","parallel":{)"
        + parallel_member + "}}";
}

inline std::vector<HostileFile> hostileFiles(const QTemporaryDir& dir)
{
    std::vector<HostileFile> out;
    const auto add = [&](const char* name, const QByteArray& bytes, const char* expected) {
        out.push_back({QString::fromUtf8(name),
                       writeFile(dir, QString::fromUtf8(name) + QStringLiteral(".parascope.json"), bytes),
                       QString::fromUtf8(expected)});
    };
    add("empty", QByteArray(), "empty");
    QByteArray binary;
    for (int i = 0; i < 4096; ++i)
        binary.append(char((i * 7919 + 13) % 256));
    add("binary", binary, "not valid JSON");
    add("invalid UTF-8", "{\"schema\":\"parascope.scenario/1\",\"name\":\"caf\xe9\xff\"}", "UTF-8");
    add("100 MB", QByteArray(100 << 20, ' '), "limit");
    add("deeply nested", QByteArray(200000, '['), "nest");
    add("huge number", scenarioWith(R"("tp": 1e400)"), "1e400 is too large");
    add("huge integer", scenarioWith(R"("tp": 123456789012345678901234567890)"), "parallel.tp");
    add("negative count", scenarioWith(R"("dp": -8)"), "parallel.dp");
    add("zero count", scenarioWith(R"("pp": 0)"), "parallel.pp");
    add("wrong type", scenarioWith(R"("tp": "eight")"), "parallel.tp");
    add("wrong container",
        R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-a100-80g","parallel":[8]})", "parallel");
    add("not a scenario", R"([1, 2, 3])", "object");
    out.push_back({QStringLiteral("directory"), dir.filePath(QStringLiteral("folder.parascope.json")),
                   QStringLiteral("directory")});
    QDir(dir.path()).mkdir(QStringLiteral("folder.parascope.json"));
    out.push_back({QStringLiteral("missing"), dir.filePath(QStringLiteral("missing.parascope.json")),
                   QStringLiteral("no such file")});
#ifdef Q_OS_LINUX
    out.push_back({QStringLiteral("device"), QStringLiteral("/dev/zero"), QStringLiteral("not a regular file")});
#endif
    return out;
}

// An unreadable file (mode 000). Root reads it anyway, so callers skip it when running as root.
inline QString unreadableFile(const QTemporaryDir& dir)
{
    const QString path = writeFile(dir, QStringLiteral("locked.parascope.json"), scenarioWith(R"("tp": 1)"));
    QFile::setPermissions(path, QFileDevice::Permissions());
    return path;
}

} // namespace parascope::test
