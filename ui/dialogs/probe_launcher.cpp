#include "dialogs/probe_launcher.h"

#include "util/json_reader.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QProgressDialog>
#include <QStandardPaths>

namespace parascope::ui {

namespace {
QString findProbe()
{
    QString exe = qEnvironmentVariable("PARASCOPE_PROBE");
    if (!exe.isEmpty())
        return exe;
    const QString dir = QCoreApplication::applicationDirPath();
    exe = QStandardPaths::findExecutable(
        QStringLiteral("parascope-probe"),
        {dir, dir + QStringLiteral("/../probe"), dir + QStringLiteral("/../app/probe")});
    if (exe.isEmpty())
        exe = QStandardPaths::findExecutable(QStringLiteral("parascope-probe"));
    return exe;
}
} // namespace

ProbeRun runProbe(QWidget* parent, bool event_loop, const QByteArray& scenario_json)
{
    ProbeRun run;
    const QString exe = findProbe();
    if (exe.isEmpty()) {
        run.error = QCoreApplication::translate(
            "MainWindow", "parascope-probe is not installed: it is built only where the CUDA Toolkit is found.");
        return run;
    }
    run.dir = std::make_shared<QTemporaryDir>();
    const QString out = run.dir->filePath(QStringLiteral("profile.json"));
    QProcess probe;
    probe.setProcessChannelMode(QProcess::SeparateChannels);
    QProgressDialog progress(
        QCoreApplication::translate("MainWindow", "Measuring this machine (parascope-probe --quick)…"),
        QCoreApplication::translate("MainWindow", "Cancel"), 0, 0, parent);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0);
    QObject::connect(&probe, &QProcess::readyReadStandardError, &progress, [&] {
        const QString line
            = QString::fromLocal8Bit(probe.readAllStandardError()).trimmed().section(QLatin1Char('\n'), -1);
        if (!line.isEmpty())
            progress.setLabelText(line);
    });
    QObject::connect(&progress, &QProgressDialog::canceled, &probe, &QProcess::kill);
    QStringList args = {QStringLiteral("--quick"), QStringLiteral("--out"), out};
    if (!scenario_json.isEmpty()) {
        const QString scenario = run.dir->filePath(QStringLiteral("scenario.parascope.json"));
        QFile f(scenario);
        if (f.open(QIODevice::WriteOnly) && f.write(scenario_json) == scenario_json.size())
            args << QStringLiteral("--scenario") << scenario;
    }
    probe.start(exe, args);
    if (!probe.waitForStarted(10000)) {
        run.error
            = QCoreApplication::translate("MainWindow", "parascope-probe did not start: %1").arg(probe.errorString());
        return run;
    }
    if (event_loop) {
        QEventLoop loop;
        QObject::connect(&probe, &QProcess::finished, &loop, &QEventLoop::quit);
        loop.exec();
    } else {
        probe.waitForFinished(600000);
    }
    progress.close();
    if (probe.exitStatus() != QProcess::NormalExit) {
        run.error = QCoreApplication::translate("MainWindow", "parascope-probe was stopped or crashed");
        return run;
    }
    if (probe.exitCode() == 2) {
        std::vector<InputError> errors;
        QString reason;
        if (const auto j = readJsonFile(out.toStdString(), errors); j && j->contains("error"))
            reason = QString::fromStdString((*j)["error"].value("message", ""));
        run.error = QCoreApplication::translate("MainWindow", "No usable GPU on this machine: %1").arg(reason);
        return run;
    }
    if (probe.exitCode() != 0 && probe.exitCode() != 3) {
        run.error
            = QCoreApplication::translate("MainWindow", "parascope-probe failed (exit code %1)").arg(probe.exitCode());
        return run;
    }
    run.profile_file = out;
    return run;
}

} // namespace parascope::ui
