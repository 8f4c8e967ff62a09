// The desktop app's files and command line (from tst_gui), offscreen: hostile files are refused
// clearly, a failed save keeps the old file, save → open is identical, exports have the asked
// size, About and --version name the version and the git revision (--help and --version also
// without a display), and the headless export and --screenshot work, refuse what names nothing
// and leave the settings alone.

#include "about.h"
#include "chart_export.h"
#include "gui_scenarios.h"
#include "hostile_files.h"
#include "io/scenario_json.h"
#include "main_window.h"
#include "controllers/export_controller.h"
#include "controllers/files_controller.h"
#include "models/scenario_model.h"
#include "scenario_panel.h"
#include "parascope/version.h"

#include <QDirIterator>
#include <QProcess>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#ifdef Q_OS_LINUX
#include <sys/resource.h>
#endif

using namespace parascope;
using namespace parascope::ui;
using parascope::test::gui::sevenB;

class TstGuiFiles : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ParaScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("ParaScopeGuiFilesTest"));
        QSettings().clear();
    }

    void hostileFilesAreRefusedClearly()
    {
        // Opening any hostile file leaves the current scenario as it was, and says what is wrong.
        QTemporaryDir dir;
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.model()->setScenario(sevenB());
        const std::string before = scenarioToJson(w.model()->scenario()).dump();
        for (const parascope::test::HostileFile& f : parascope::test::hostileFiles(dir)) {
            const QString error = w.files()->openScenario(f.path);
            QVERIFY2(error.contains(f.expected, Qt::CaseInsensitive),
                     qPrintable(f.name + QStringLiteral(": ") + error));
            QCOMPARE(scenarioToJson(w.model()->scenario()).dump(), before);
        }
        // And the app keeps working.
        w.panel()->spinBox(QStringLiteral("parallel.pp"))->setValue(4);
        w.model()->flush();
        QCOMPARE(w.model()->scenario().parallel.pp, 4);
    }

    void aboutShowsVersionAndRevision()
    {
        // Help → About: project(VERSION), the git revision the build came from (when built from
        // git), the libraries and the licence; in the chosen language.
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        QString html = aboutHtml();
        QVERIFY2(html.contains(QStringLiteral("ParaScope ") + QLatin1String(parascope::kVersion)), qPrintable(html));
        if (*parascope::kGitRevision)
            QVERIFY(html.contains(QStringLiteral("git revision ") + QLatin1String(parascope::kGitRevision)));
        QVERIFY(html.contains(QStringLiteral("Qt ") + QLatin1String(qVersion())));
        QVERIFY(html.contains(QStringLiteral("GNU General Public License")));
        w.setLanguage(QStringLiteral("zh"));
        html = aboutHtml();
        QVERIFY2(html.contains(QStringLiteral("GNU 通用公共许可证")), qPrintable(html));
        QVERIFY(html.contains(QLatin1String(parascope::kVersion)));
        w.setLanguage(QStringLiteral("en"));
    }

    void versionOnTheCommandLine()
    {
        // Without a display and without QT_QPA_PLATFORM (a terminal over ssh, a package check):
        // --version and --help answer instead of aborting for want of a platform plugin.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* var : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
            env.remove(QString::fromLatin1(var));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(PARASCOPE_GUI), {QStringLiteral("--version")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(p.readAllStandardOutput()).trimmed(),
                 QStringLiteral("ParaScope ") + QString::fromStdString(parascope::versionText()));
        p.start(QStringLiteral(PARASCOPE_GUI), {QStringLiteral("--help")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QString::fromUtf8(p.readAllStandardOutput()).contains(QStringLiteral("--screenshot")));
    }

#ifdef Q_OS_LINUX
    void failedSaveKeepsTheOldFile()
    {
        // A save that fails half-way (here: the file-size limit, which binds root too) leaves the
        // previous file byte for byte: QSaveFile writes a temporary file and renames it only on
        // success.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("kept.parascope.json"));
        MainWindow w;
        w.model()->setScenario(sevenB());
        QCOMPARE(w.files()->saveScenario(file), QString());
        QFile before(file);
        QVERIFY(before.open(QIODevice::ReadOnly));
        const QByteArray old = before.readAll();
        before.close();
        Scenario changed = sevenB();
        changed.name = std::string(4096, 'x'); // larger than the limit below
        w.model()->setScenario(changed);
        rlimit saved{};
        getrlimit(RLIMIT_FSIZE, &saved);
        const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit small = saved;
        small.rlim_cur = 1024;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        const QString error = w.files()->saveScenario(file);
        setrlimit(RLIMIT_FSIZE, &saved);
        std::signal(SIGXFSZ, old_handler);
        QVERIFY2(error.contains(QStringLiteral("reached the disk")), qPrintable(error));
        QFile after(file);
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), old);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1); // no temporary file left
    }
#endif

    void saveOpenRoundTrip()
    {
        QTemporaryDir dir;
        MainWindow a;
        Scenario s = sevenB();
        s.model.layers = 30; // a custom model must survive too
        s.model.id = "custom";
        s.name = "round trip";
        a.model()->setScenario(s);
        const QString file = dir.filePath(QStringLiteral("x.parascope.json"));
        QVERIFY(a.files()->saveScenario(file).isEmpty());
        MainWindow b;
        QVERIFY(b.files()->openScenario(file).isEmpty());
        QCOMPARE(scenarioToJson(b.model()->scenario()), scenarioToJson(a.model()->scenario()));
        QCOMPARE(b.model()->estimate().time.step_s, a.model()->estimate().time.step_s);

        // A failed save keeps the old file; a bad file names the JSON path.
        QVERIFY(!a.files()->saveScenario(dir.filePath(QStringLiteral("missing/dir/x.json"))).isEmpty());
        QFile bad(dir.filePath(QStringLiteral("bad.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(
            R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-a100-80g","parallel":{"tp":0}})");
        bad.close();
        const QString error = b.files()->openScenario(bad.fileName());
        QVERIFY2(error.contains(QStringLiteral("parallel.tp")), qPrintable(error));
        QCOMPARE(scenarioToJson(b.model()->scenario()), scenarioToJson(a.model()->scenario())); // unchanged
    }

    void exportsHaveTheAskedSize()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.model()->setScenario(sevenB());
        for (const ChartKind which : {ChartKind::Memory, ChartKind::Timeline, ChartKind::Communication}) {
            const QString png = dir.filePath(QString::fromLatin1(toString(which))); // no extension: .png is added
            QVERIFY(w.exports()->exportChartTo(which, png, QSize(1280, 720), 2).isEmpty());
            QImage img(png + QStringLiteral(".png"));
            QCOMPARE(img.size(), QSize(2560, 1440));
        }
        const QString svg = dir.filePath(QStringLiteral("m.svg"));
        QVERIFY(w.exports()->exportChartTo(ChartKind::Memory, svg, QSize(1024, 768), 1).isEmpty());
        QFile s(svg);
        QVERIFY(s.open(QIODevice::ReadOnly));
        const QByteArray svgText = s.readAll();
        QVERIFY(svgText.contains("<svg"));
        QVERIFY(svgText.contains("1024"));
        const QString pdf = dir.filePath(QStringLiteral("t.pdf"));
        QVERIFY(w.exports()->exportChartTo(ChartKind::Timeline, pdf, QSize(1920, 1080), 1).isEmpty());
        QFile p(pdf);
        QVERIFY(p.open(QIODevice::ReadOnly));
        QVERIFY(p.read(4) == "%PDF");
        QVERIFY(
            !w.exports()
                 ->exportChartTo(ChartKind::Memory, dir.filePath(QStringLiteral("no/such/x.png")), QSize(800, 600), 1)
                 .isEmpty());
        QVERIFY(!w.exports()
                     ->exportChartTo(ChartKind::Memory, dir.filePath(QStringLiteral("x.png")), QSize(5, 5), 1)
                     .isEmpty());
    }

    void headlessExport()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("memory.png"));
        QProcess p;
        p.start(QStringLiteral(PARASCOPE_GUI),
                {QStringLiteral(PARASCOPE_SOURCE_DIR "/resources/scenarios/default.parascope.json"),
                 QStringLiteral("--export"), QStringLiteral("memory"), QStringLiteral("--out"), out,
                 QStringLiteral("--size"), QStringLiteral("1280x720"), QStringLiteral("--lang"), QStringLiteral("zh")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(QImage(out).size(), QSize(1280, 720));
        p.start(QStringLiteral(PARASCOPE_GUI),
                {QStringLiteral("/nonexistent.json"), QStringLiteral("--export"), QStringLiteral("memory"),
                 QStringLiteral("--out"), out});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
    }

    void screenshotAndRefusalsLeaveSettingsAlone()
    {
        // Headless runs get their own configuration folder, so the settings file they must not
        // write is one this test can watch.
        QTemporaryDir dir, config;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), config.path());
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        const auto run = [&](const QStringList& args) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(PARASCOPE_GUI), args);
            return p.waitForFinished(120000) ? p.exitCode() : -1;
        };
        const QString scenario = QStringLiteral(PARASCOPE_SOURCE_DIR "/resources/scenarios/default.parascope.json");
        // --screenshot renders the whole window at the screen size, in either language and tab.
        for (const char* size : {"1280x720", "1024x768"}) {
            const QString png = dir.filePath(QStringLiteral("shot-%1.png").arg(QLatin1String(size)));
            QCOMPARE(run({scenario, QStringLiteral("--screenshot"), png, QStringLiteral("--window-size"),
                          QLatin1String(size), QStringLiteral("--lang"), QStringLiteral("zh"), QStringLiteral("--tab"),
                          QStringLiteral("sweep")}),
                     0);
            const QStringList wh = QString::fromLatin1(size).split(QLatin1Char('x'));
            QCOMPARE(QImage(png).size(), QSize(wh[0].toInt(), wh[1].toInt()));
        }
        // --dialog advisor: the Advisor, worked out, drawn over the middle of the same window.
        const QString plain = dir.filePath(QStringLiteral("plain.png")),
                      advisor = dir.filePath(QStringLiteral("adv.png"));
        QCOMPARE(run({scenario, QStringLiteral("--screenshot"), plain, QStringLiteral("--window-size"),
                      QStringLiteral("1024x768")}),
                 0);
        QCOMPARE(run({scenario, QStringLiteral("--screenshot"), advisor, QStringLiteral("--window-size"),
                      QStringLiteral("1024x768"), QStringLiteral("--dialog"), QStringLiteral("advisor")}),
                 0);
        const QRect middle(312, 284, 400, 200);
        QCOMPARE(QImage(advisor).size(), QSize(1024, 768));
        QVERIFY(QImage(advisor).copy(middle) != QImage(plain).copy(middle));
        QCOMPARE(QImage(advisor).pixel(2, 760), QImage(plain).pixel(2, 760)); // the status bar's corner stays
        // A value that names nothing is refused with exit 2, never replaced by a default.
        const QString out = dir.filePath(QStringLiteral("x.png"));
        QCOMPARE(
            run({scenario, QStringLiteral("--screenshot"), out, QStringLiteral("--dialog"), QStringLiteral("about")}),
            2);
        QCOMPARE(run({scenario, QStringLiteral("--export"), QStringLiteral("memory"), QStringLiteral("--out"),
                      dir.filePath(QStringLiteral("x.jpg"))}),
                 2);
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("x.jpg.png"))));
        QCOMPARE(run({scenario, QStringLiteral("--export"), QStringLiteral("memory"), QStringLiteral("--out"), out,
                      QStringLiteral("--lang"), QStringLiteral("fr")}),
                 2);
        QCOMPARE(run({scenario, QStringLiteral("--export"), QStringLiteral("sweep"), QStringLiteral("--out"), out,
                      QStringLiteral("--sweep"), QStringLiteral("nonsense.knob")}),
                 2);
        QCOMPARE(run({scenario, QStringLiteral("--screenshot"), out, QStringLiteral("--tab"), QStringLiteral("gantt")}),
                 2);
        // An export in Chinese neither switches the desktop app's language nor adds a recent file.
        QCOMPARE(run({scenario, QStringLiteral("--export"), QStringLiteral("memory"), QStringLiteral("--out"), out,
                      QStringLiteral("--lang"), QStringLiteral("zh")}),
                 0);
        QDirIterator it(config.path(), QDir::Files, QDirIterator::Subdirectories);
        QVERIFY2(!it.hasNext(), qPrintable(it.hasNext() ? it.next() : QString()));
    }
};

QTEST_MAIN(TstGuiFiles)
#include "tst_gui_files.moc"
