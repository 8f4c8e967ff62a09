#pragma once
// Test helper: run a program to the end and keep what it said (the CLI suites run parascope-cli
// and /bin/sh this way).

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace parascope::test {

struct ProcessRun {
    int code = -1; // exit code; -2 when it crashed, -1 when it did not finish in time
    QByteArray out, err;
};

inline ProcessRun runProcess(const QString& program, const QStringList& args,
                             const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
                             int timeout_ms = 120000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    ProcessRun r;
    if (!p.waitForFinished(timeout_ms)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace parascope::test
