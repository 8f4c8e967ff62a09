// parascope-cli against what a hostile or unlucky user does (issue "Reliability, round 2"): --out
// to devices, links, 0600 files and past the file-size limit; layouts that cannot exist; files that
// asked for unbounded work; searches with nothing to find; measured files with zeros and wrong
// types. Each case failed before its fix.

#include "process_runner.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

class TstCliReliability : public QObject {
    Q_OBJECT

    using Run = parascope::test::ProcessRun;
    static Run run(const QStringList& args) { return parascope::test::runProcess(QStringLiteral(PARASCOPE_CLI), args); }
    // The CLI through /bin/sh, for a ulimit; $CLI names it.
    static Run shell(const QString& script)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("CLI"), QStringLiteral(PARASCOPE_CLI));
        return parascope::test::runProcess(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), script}, env);
    }
    static QString data(const char* name) { return QStringLiteral(PARASCOPE_TEST_DATA "/") + QString::fromUtf8(name); }
    static QString defaultScenario()
    {
        return QStringLiteral(PARASCOPE_SOURCE_DIR "/resources/scenarios/default.parascope.json");
    }
    static QStringList entries(const QString& dir)
    {
        return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
    }
    static mode_t modeOf(const QString& file)
    {
        struct stat st { };
        ::lstat(file.toLocal8Bit().constData(), &st);
        return st.st_mode;
    }

private slots:
    void outToStandardOutputWritesThere()
    {
        // `--out /dev/stdout` followed the link to a pipe with no path and exited 2; with stdout
        // redirected to a file it renamed a new file over it behind the shell's back (an append,
        // >>, lost what was there). `--out -` is standard output too.
        for (const char* out : {"/dev/stdout", "-"}) {
            Run r = shell(QStringLiteral("\"$CLI\" evaluate '%1' --format json --out %2 | head -c 1")
                              .arg(defaultScenario(), QString::fromUtf8(out)));
            QCOMPARE(r.code, 0);
            QCOMPARE(r.out, QByteArray("{"));
            QTemporaryDir dir;
            const QString file = dir.filePath(QStringLiteral("log.txt"));
            r = shell(
                QStringLiteral(
                    "echo before > '%2'; \"$CLI\" evaluate '%1' --format json --out %3 >> '%2'; echo after >> '%2'")
                    .arg(defaultScenario(), file, QString::fromUtf8(out)));
            QCOMPARE(r.code, 0);
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray all = f.readAll();
            QVERIFY2(all.startsWith("before\n{") && all.endsWith("}\nafter\n"), all.left(200).constData());
        }
    }

    void wholeNumberOptionsAreReadStrictly()
    {
        // `--ranks 1e9` reported "got 1" (atoi stopped at the 'e'); 8x and 99999999999 too.
        for (const char* bad : {"1e9", "8x", "99999999999", ""}) {
            const Run r = run({QStringLiteral("collective"), QStringLiteral("--op"), QStringLiteral("all_reduce"),
                               QStringLiteral("--bytes"), QStringLiteral("1GB"), QStringLiteral("--ranks"),
                               QString::fromUtf8(bad)});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("--ranks needs a whole number in 1…16777216"), r.err.constData());
            if (*bad)
                QVERIFY2(r.err.contains(QByteArray("got \"") + bad + "\""), r.err.constData());
        }
    }

    void outToADeviceWritesThroughIt()
    {
        // Run as root, `--out /dev/null` used to replace /dev/null with a regular file. Private
        // copies of /dev/null and /dev/full keep this machine's own safe from a regression.
        QTemporaryDir dir;
        const QString null_dev = dir.filePath(QStringLiteral("null")), full_dev = dir.filePath(QStringLiteral("full"));
        if (::mknod(null_dev.toLocal8Bit().constData(), S_IFCHR | 0666, makedev(1, 3)) != 0
            || ::mknod(full_dev.toLocal8Bit().constData(), S_IFCHR | 0666, makedev(1, 7)) != 0)
            QSKIP("mknod is not permitted here (needs CAP_MKNOD)");
        Run r = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--out"), null_dev});
        QCOMPARE(r.code, 0);
        QVERIFY(S_ISCHR(modeOf(null_dev)));
        r = run({QStringLiteral("timeline"), defaultScenario(), QStringLiteral("--out"), full_dev});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("disk is full"), r.err.constData());
        QVERIFY(S_ISCHR(modeOf(full_dev)));
        QCOMPARE(entries(dir.path()), (QStringList{QStringLiteral("full"), QStringLiteral("null")}));
    }

    void outToALinkKeepsTheLinkAndToA0600FileKeeps0600()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("reports")));
        const QString target = dir.filePath(QStringLiteral("reports/r.json"));
        QFile t(target);
        QVERIFY(t.open(QIODevice::WriteOnly));
        t.write("old");
        t.close();
        QCOMPARE(::chmod(target.toLocal8Bit().constData(), 0600), 0);
        const QString link = dir.filePath(QStringLiteral("latest.json"));
        QVERIFY(QFile::link(QStringLiteral("reports/r.json"), link));
        const Run r = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--format"),
                           QStringLiteral("json"), QStringLiteral("--out"), link});
        QCOMPARE(r.code, 0);
        QVERIFY(S_ISLNK(modeOf(link)));
        QCOMPARE(int(modeOf(target) & 07777), 0600);
        QFile written(target);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QVERIFY(nlohmann::json::parse(written.readAll().toStdString()).contains("memory"));
        QCOMPARE(entries(dir.filePath(QStringLiteral("reports"))), QStringList{QStringLiteral("r.json")});
    }

    void fileSizeLimitIsExitTwoNotASignal()
    {
        // Before: the CLI died with SIGXFSZ (signal 25) and left latest.json.parascope-tmp.
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("report.json"));
        QFile f(out);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("the previous report");
        f.close();
        const Run r = shell(QStringLiteral("ulimit -f 8; exec \"$CLI\" timeline '%1' --format chrome-trace --out '%2'")
                                .arg(defaultScenario(), out));
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("file-size limit"), r.err.constData());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("the previous report"));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("report.json")});
    }

    void stageLayersThatPlaceTheWrongLayersAreRefused()
    {
        // [0] on a 32-layer model reported "fits" and MFU 4,000 % with exit 0.
        for (const char* file : {"bad-stage_layers-sum.parascope.json", "bad-stage_layers-count.parascope.json"}) {
            const Run r = run({QStringLiteral("evaluate"), data(file)});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("parallel.stage_layers: "), r.err.constData());
        }
    }

    void expertGridThatCannotExistIsAnErrorAndMfuStaysBelowOne()
    {
        // ETP 8 × EP 1 on a stage of tp·cp·dp = 4 GPUs: accepted silently before, MFU up to 167 %.
        for (const char* file : {"diag-ep_invalid-etp.parascope.json", "diag-ep_invalid-grid.parascope.json"}) {
            const Run r
                = run({QStringLiteral("evaluate"), data(file), QStringLiteral("--format"), QStringLiteral("json")});
            QCOMPARE(r.code, 0);
            const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
            bool diagnosed = false;
            for (const auto& d : j["diagnostics"])
                diagnosed = diagnosed || (d["code"] == "ep_invalid" && d["severity"] == "error");
            QVERIFY2(diagnosed, file);
            const double mfu = j["throughput"]["mfu"].get<double>(), hfu = j["throughput"]["hfu"].get<double>();
            QVERIFY2(mfu <= hfu + 1e-12 && hfu <= 1.0, file);
        }
    }

    void fewestGpusIsBoundedAndSaysWhy()
    {
        // Before: up to 8,200 searches (40–100 s), then "Fewest GPUs on which it trains: 0".
        // GPT-3 175B has 2,048 learned positions; seq 4,096 can never work, on any count.
        Run r = run({QStringLiteral("search"), data("diag-seq_exceeds_positions.parascope.json"),
                     QStringLiteral("--fewest-gpus"), QStringLiteral("--closed-form"), QStringLiteral("--format"),
                     QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["fewest_gpus"].get<long long>(), 0LL);
        QCOMPARE(j["fewest_gpus_searched_up_to"].get<long long>(), 0LL);
        QVERIFY(j["fewest_gpus_reason"].get<std::string>().find("2048 learned positions") != std::string::npos);
        QVERIFY(j["no_result"]["reason"].get<std::string>().find("learned positions") != std::string::npos);
        // A scenario that trains: the answer is the fewest whole nodes, and one node fewer fails.
        r = run({QStringLiteral("search"), defaultScenario(), QStringLiteral("--fewest-gpus"),
                 QStringLiteral("--closed-form"), QStringLiteral("--format"), QStringLiteral("json"),
                 QStringLiteral("--top"), QStringLiteral("1")});
        QCOMPARE(r.code, 0);
        j = nlohmann::json::parse(r.out.toStdString());
        const long long fewest = j["fewest_gpus"].get<long long>();
        QVERIFY(fewest > 0 && fewest % 8 == 0);
    }

    void searchWithNoValidLayoutNamesTheRuleAndTheNearestCounts()
    {
        // 5,128 = 8·641 GPUs, global batch 2,520: every DP width is a multiple of 641 and none
        // divides 2,520. Before: "no strategy fits: more GPUs, …", blaming memory.
        const Run r = run({QStringLiteral("search"), data("search-no-layout-5128.parascope.json"),
                           QStringLiteral("--gpus"), QStringLiteral("5128"), QStringLiteral("--closed-form"),
                           QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QVERIFY(j["top"].empty());
        const std::string why = j["no_result"]["reason"].get<std::string>();
        QVERIFY2(why.find("641") != std::string::npos && why.find("2520") != std::string::npos, why.c_str());
        QVERIFY2(why.find("memory") == std::string::npos, why.c_str());
        // 5,120 = 2^10·5: DP 40 (TP 8, PP 16) divides 2,520 = 40·63. Above, the search tries the
        // PP values the knob table offers (divisors of the 105 layers and powers of two), so
        // 5,152 = 2^5·7·23 would need PP 23 and has no layout; 5,376 = TP 8 · PP 16 · DP 42 does,
        // 2,520 = 42·60.
        QCOMPARE(j["no_result"]["nearest_gpus"], nlohmann::json({5120, 5376}));
    }

    void zeroBandwidthInAProfileIsRefused()
    {
        // copy_gbps 0 (a failed probe kernel) put -nan in the text report and null in the JSON.
        const Run r = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--profile"),
                           data("bad-profile-zero-bandwidth.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("devices[0].hbm.copy_gbps: must be a positive number"), r.err.constData());
        QVERIFY(!r.out.contains("nan"));
    }

    void wronglyTypedRunsFileNamesThePath()
    {
        // Before: exit 1 with "internal error: type_error.302".
        const Run r = run({QStringLiteral("validate"), data("runs-wrong-type.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("runs[0].id: must be a string"), r.err.constData());
        QVERIFY2(r.err.contains("runs[0].scenario.model.layers: must be an integer"), r.err.constData());
        QVERIFY2(r.err.contains("runs[1].measured.model_tflops_per_gpu: must be a number"), r.err.constData());
        QVERIFY(!r.err.contains("internal error"));
    }
};

QTEST_GUILESS_MAIN(TstCliReliability)
#include "tst_cli_reliability.moc"
