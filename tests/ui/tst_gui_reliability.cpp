// The app when things go wrong: crash recovery across repeated crashes and several running copies,
// saves and exports to links, devices and over the file-size limit, the export pixel budget, and a
// settings file with 200,000 recent files. Each case here failed before its fix (issue
// "Reliability, round 2").

#include "autosave.h"
#include "chart_export.h"
#include "io/scenario_json.h"
#include "main_window.h"
#include "controllers/export_controller.h"
#include "controllers/files_controller.h"
#include "scenario_fixture.h"
#include "models/scenario_model.h"
#include "models/search_table_model.h"
#include "search_view.h"

#include <QDirIterator>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace parascope;
using namespace parascope::ui;

namespace {

Scenario sevenB(int pp, int dp)
{
    return test::scenarioFromJson(R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-a100-80g",
        "parallel":{"tp":1,"pp":)" + std::to_string(pp)
                                  + R"(,"dp":)" + std::to_string(dp)
                                  + R"(},"training":{"seq_len":4096,"micro_batch":1,"global_batch":)"
                                  + std::to_string(8 * dp) + "}}");
}

QStringList sessionFiles(const QString& dir)
{
    return QDir(dir).entryList({QStringLiteral("session-*.parascope.json")}, QDir::Files, QDir::Name);
}

// Every session file under `root`, with its folder.
QStringList sessionFilesUnder(const QString& root)
{
    QStringList out;
    QDirIterator it(root, {QStringLiteral("session-*.parascope.json")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        out << it.next();
    return out;
}

// Runs the app on `file` with XDG_DATA_HOME = `data_root`, waits until it has autosaved a new
// session file, and kills it with SIGKILL (no destructor, no clean exit). Returns that file.
QString runAndKill(const QString& data_root, const QString& config_dir, const QString& file)
{
    const QStringList before = sessionFilesUnder(data_root);
    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), data_root);
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), config_dir);
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    app.setProcessEnvironment(env);
    app.start(QStringLiteral(PARASCOPE_GUI), file.isEmpty() ? QStringList{} : QStringList{file});
    if (!app.waitForStarted(30000))
        return {};
    QString written;
    for (int i = 0; i < 300 && written.isEmpty(); ++i) {
        QTest::qWait(100);
        for (const QString& f : sessionFilesUnder(data_root))
            if (!before.contains(f))
                written = f;
    }
    app.kill();
    app.waitForFinished(30000);
    return written;
}

} // namespace

class TstGuiReliability : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ParaScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("ParaScopeReliabilityTest"));
        QSettings().clear();
    }

    void crashRecoveryAfterKill()
    {
        QTemporaryDir dir;
        const QString data = dir.filePath(QStringLiteral("data"));
        const QString file = dir.filePath(QStringLiteral("edited.parascope.json"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(scenarioToJson(sevenB(4, 2)).dump()));
        f.close();
        const QString autosave = runAndKill(data, dir.filePath(QStringLiteral("config")), file);
        QVERIFY2(!autosave.isEmpty(), "the running app never autosaved");

        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        QCOMPARE(w.files()->startAutosave(QFileInfo(autosave).absolutePath()), autosave);
        QCOMPARE(w.files()->recoverAutosave(), QString());
        QCOMPARE(w.model()->scenario().parallel.pp, 4);
        QCOMPARE(w.model()->scenario().parallel.dp, 2);
        QVERIFY(!QFile::exists(autosave)); // restored once, not again
    }

    void secondCrashWhileTheRecoverDialogIsOpenLosesNothing()
    {
        // Crash 1 leaves scenario A. Start 2 shows the Recover dialog and, while it waits for an
        // answer, autosaves its own scenario B; then it crashes too. Before: start 2 had renamed A
        // to recovered.parascope.json and start 3 replaced it with B, so A was lost. Now start 3
        // offers both, newest first, and A is byte for byte what crash 1 left.
        QTemporaryDir dir;
        const QString data = dir.filePath(QStringLiteral("data"));
        const QString config = dir.filePath(QStringLiteral("config"));
        const QString file = dir.filePath(QStringLiteral("a.parascope.json"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(scenarioToJson(sevenB(4, 2)).dump()));
        f.close();
        const QString a = runAndKill(data, config, file);
        QVERIFY2(!a.isEmpty(), "run 1 never autosaved");
        QFile af(a);
        QVERIFY(af.open(QIODevice::ReadOnly));
        const QByteArray a_bytes = af.readAll();
        af.close();
        QTest::qWait(1100); // distinct modification times: newest first is well defined
        const QString b = runAndKill(data, config, QString()); // its Recover dialog is open when it dies
        QVERIFY2(!b.isEmpty(), "run 2 never autosaved its own scenario");
        QVERIFY(a != b);

        const QString session_dir = QFileInfo(a).absolutePath();
        QCOMPARE(QFileInfo(b).absolutePath(), session_dir);
        Autosave third(nullptr, session_dir);
        QCOMPARE(third.recoverableFiles(), (QStringList{b, a}));
        QFile again(a);
        QVERIFY(again.open(QIODevice::ReadOnly));
        QCOMPARE(again.readAll(), a_bytes);
        // While this session holds them, another running copy does not offer them a second time.
        Autosave fourth(nullptr, session_dir);
        QVERIFY(fourth.recoverableFiles().isEmpty());
        // Answering for one removes it; the other stays for the next start.
        third.discardRecoverable(b);
        QVERIFY(!QFile::exists(b));
        third.finish();
        Autosave fifth(nullptr, session_dir);
        QCOMPARE(fifth.recoverableFiles(), QStringList{a});
    }

    void cleanExitLeavesNothingToRecover()
    {
        QTemporaryDir dir;
        {
            MainWindow w;
            QCOMPARE(w.files()->startAutosave(dir.path()), QString());
            w.model()->setScenario(sevenB(4, 1));
            w.close(); // a clean exit
        }
        QVERIFY(sessionFiles(dir.path()).isEmpty());
        MainWindow again;
        QCOMPARE(again.files()->startAutosave(dir.path()), QString());
        QVERIFY(!again.files()->recoverAutosave().isEmpty()); // "nothing to recover", as an error
    }

    void eachRunningCopyAutosavesItsOwn()
    {
        // Before: the second copy found the first one's lock and silently never autosaved.
        QTemporaryDir dir;
        MainWindow first, second;
        QCOMPARE(first.files()->startAutosave(dir.path()), QString());
        QCOMPARE(second.files()->startAutosave(dir.path()), QString()); // the first is alive: nothing to recover
        first.model()->setScenario(sevenB(4, 1));
        second.model()->setScenario(sevenB(2, 2));
        QTRY_COMPARE_WITH_TIMEOUT(sessionFiles(dir.path()).size(), 2, 5000);
        std::set<int> pps;
        for (const QString& f : sessionFiles(dir.path())) {
            std::vector<InputError> errors;
            const auto sc = readScenarioFile(QDir(dir.path()).filePath(f).toStdString(), errors);
            QVERIFY(sc);
            pps.insert(sc->parallel.pp);
        }
        QCOMPARE(pps, (std::set<int>{2, 4}));
    }

    void saveKeepsLinksAndPermissionsAndNeverReplacesADevice()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.model()->setScenario(sevenB(4, 1));
        // A link: kept, its target written; the target's 0600 kept.
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("real")));
        const QString target = dir.filePath(QStringLiteral("real/s.parascope.json"));
        QFile t(target);
        QVERIFY(t.open(QIODevice::WriteOnly));
        t.write("old");
        t.close();
        QVERIFY(QFile::setPermissions(target, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        const QString link = dir.filePath(QStringLiteral("link.parascope.json"));
        QVERIFY(QFile::link(QStringLiteral("real/s.parascope.json"), link));
        QCOMPARE(w.files()->saveScenario(link), QString());
        QVERIFY(QFileInfo(link).isSymLink());
        std::vector<InputError> errors;
        QVERIFY(readScenarioFile(target.toStdString(), errors));
        struct stat kept { };
        QCOMPARE(::stat(target.toLocal8Bit().constData(), &kept), 0);
        QCOMPARE(int(kept.st_mode & 07777), 0600);
        // A device (a private /dev/null): written through, still a device. Before, QSaveFile
        // renamed a temporary file over it, so an export to /dev/null as root replaced /dev/null.
        const QString dev = dir.filePath(QStringLiteral("null.png"));
        const QByteArray dev_path = dev.toLocal8Bit();
        if (::mknod(dev_path.constData(), S_IFCHR | 0666, makedev(1, 3)) != 0)
            QSKIP("mknod is not permitted here (needs CAP_MKNOD)");
        QCOMPARE(w.exports()->exportChartTo(ChartKind::Memory, dev, QSize(640, 360), 1), QString());
        struct stat st { };
        QCOMPARE(::lstat(dev_path.constData(), &st), 0);
        QVERIFY(S_ISCHR(st.st_mode));
        QCOMPARE(w.files()->saveScenario(dev), QString());
        QCOMPARE(::lstat(dev_path.constData(), &st), 0);
        QVERIFY(S_ISCHR(st.st_mode));
        QVERIFY(!w.files()->saveScenario(dir.path()).isEmpty()); // a folder: refused
    }

    void exportPixelBudgetIsCheckedFirst()
    {
        // 10000×10000 at 3× (900 megapixels) rendered for minutes; nan failed deep in the
        // painter and inf was accepted. Now each is refused before anything is drawn.
        QCOMPARE(checkExportSize(QSize(1920, 1080), 3), QString());
        QCOMPARE(checkExportSize(QSize(3840, 2160), 2), QString());
        QVERIFY(checkExportSize(QSize(10000, 10000), 3).contains(QStringLiteral("megapixel")));
        QVERIFY(!checkExportSize(QSize(1920, 1080), qQNaN()).isEmpty());
        QVERIFY(!checkExportSize(QSize(1920, 1080), qInf()).isEmpty());
        QVERIFY(!checkExportSize(QSize(1920, 1080), 0.5).isEmpty());
        QCOMPARE(checkExportSize(QSize(10000, 10000), 3, false), QString()); // SVG/PDF: vector, the sides only
        QVERIFY(!checkExportSize(QSize(10001, 100), 1, false).isEmpty());

        QTemporaryDir dir;
        for (const char* scale : {"3", "nan", "inf"}) {
            QProcess p;
            p.start(QStringLiteral(PARASCOPE_GUI),
                    {QStringLiteral(PARASCOPE_SOURCE_DIR "/resources/scenarios/default.parascope.json"),
                     QStringLiteral("--export"), QStringLiteral("memory"), QStringLiteral("--out"),
                     dir.filePath(QStringLiteral("big.png")), QStringLiteral("--size"), QStringLiteral("10000x10000"),
                     QStringLiteral("--scale"), QString::fromLatin1(scale)});
            QVERIFY(p.waitForFinished(60000));
            QCOMPARE(p.exitCode(), 2);
            const QByteArray err = p.readAllStandardError();
            QVERIFY2(err.contains("megapixel") || err.contains("scale"), err.constData());
        }
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("big.png"))));
    }

    void emptySearchSaysWhichRuleAndWhereALayoutExists()
    {
        // 5,128 = 8·641 GPUs and a batch of 2,520: before, the Search tab said only "0 valid".
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(test::scenarioFromJson(R"({"schema":"parascope.scenario/1","model":"megatron-gpt-530b",
            "cluster":"dgx-a100-80g","parallel":{"tp":8,"pp":1,"dp":641},"training":{"seq_len":2048,"global_batch":2520}})"));
        w.searchView()->runSearch(false);
        QVERIFY(w.searchView()->result().top.empty());
        const QString summary = w.searchView()->summary();
        QVERIFY2(summary.contains(QStringLiteral("641")) && summary.contains(QStringLiteral("2520")),
                 qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("5120, 5376")), qPrintable(summary));
    }

    void hugeRecentFileListIsTrimmedOnRead()
    {
        // Written as text, the way another program (or a hand edit) would leave it: QSettings
        // itself takes minutes to serialise 200,000 entries under the sanitizers.
        const QString ini = QSettings().fileName();
        QVERIFY(QDir().mkpath(QFileInfo(ini).absolutePath()));
        QFile f(ini);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("[General]\nrecentFiles=");
        for (int i = 0; i < 200000; ++i)
            f.write((i ? ", /tmp/recent-" : "/tmp/recent-") + QByteArray::number(i) + ".parascope.json");
        f.write("\n");
        f.close();
        QCOMPARE(QSettings().value(QStringLiteral("recentFiles")).toStringList().size(), 200000);
        MainWindow w;
        // The Open recent menu holds at most 8, and the settings were trimmed for the next start.
        QMenu* recent = nullptr;
        for (QAction* a : w.menuBar()->actions())
            if (a->menu())
                for (QAction* b : a->menu()->actions())
                    if (b->menu() && b->menu()->actions().size() <= 8 && b->menu()->actions().value(0)
                        && b->menu()->actions().value(0)->text().startsWith(QStringLiteral("/tmp/recent-")))
                        recent = b->menu();
        QVERIFY(recent);
        QCOMPARE(recent->actions().size(), 8);
        QCOMPARE(QSettings().value(QStringLiteral("recentFiles")).toStringList().size(), 8);
        QSettings().remove(QStringLiteral("recentFiles"));
    }
};

QTEST_MAIN(TstGuiReliability)
#include "tst_gui_reliability.moc"
