// parascope-cli's exit codes and what it does with its input (from tst_cli): 0 for a scenario
// evaluated even when it does not fit, 2 for bad input with the JSON path on stderr and for usage
// errors, --help and --version, bounded work on huge scenarios (tests/data/bounded-*), hostile
// files refused clearly, --set moving a knob as the sweep does, and every scenario in tests/data
// answering.

#include "cli_run.h"
#include "hostile_files.h"
#include "parascope/version.h"

#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <utility>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

using parascope::test::data;
using parascope::test::defaultScenario;
using parascope::test::run;
using parascope::test::Run;

class TstCliInput : public QObject {
    Q_OBJECT

private slots:
    void outOfMemoryStillExitsZero()
    {
        // Evaluated but does not fit: exit 0, "fits": false, an out_of_memory diagnostic.
        const Run r = run({QStringLiteral("evaluate"), data("cli-ddp-13b-oom.parascope.json"),
                           QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["memory"]["fits"].get<bool>(), false);
        bool oom = false;
        for (const auto& d : j["diagnostics"])
            oom = oom || (d["code"] == "out_of_memory" && d["severity"] == "error" && d["stage"] == 0);
        QVERIFY(oom);
    }

    void badInputNamesThePath()
    {
        const Run r = run({QStringLiteral("evaluate"), data("cli-bad-tp.parascope.json")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains("parallel.tp: must be an integer in 1"), r.err.constData());
        QVERIFY2(r.err.contains("got 0"), r.err.constData());
        QVERIFY2(r.err.contains("parallel.colour: unknown key"), r.err.constData());
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("stderrContains");
        QTest::newRow("no command") << QStringList{} << QByteArray("missing command");
        QTest::newRow("unknown command") << QStringList{QStringLiteral("frobnicate")} << QByteArray("unknown command");
        QTest::newRow("missing file") << QStringList{QStringLiteral("evaluate"), QStringLiteral("/nonexistent.json")}
                                      << QByteArray("no such file");
        QTest::newRow("directory") << QStringList{QStringLiteral("evaluate"), QStringLiteral(PARASCOPE_TEST_DATA)}
                                   << QByteArray("is a directory");
        QTest::newRow("no file") << QStringList{QStringLiteral("evaluate")} << QByteArray("exactly one scenario FILE");
        QTest::newRow("bad format") << QStringList{QStringLiteral("evaluate"), defaultScenario(),
                                                   QStringLiteral("--format"), QStringLiteral("xml")}
                                    << QByteArray("--format needs json or text");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("evaluate"), QStringLiteral("--fast")}
                                        << QByteArray("unknown option --fast");
        QTest::newRow("bad preset kind") << QStringList{QStringLiteral("presets"), QStringLiteral("tpus")}
                                         << QByteArray("unknown preset kind");
    }

    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, stderrContains);
        const Run r = run(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(stderrContains), r.err.constData());
    }

    void boundedWork_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* f : {"bounded-gpus-1e6", "bounded-microbatches-1e6", "bounded-pp-1e4", "bounded-seq-1e7",
                              "bounded-pp-1e5-vpp-1024", "bounded-pp-128"})
            QTest::newRow(f) << data(f) + QStringLiteral(".parascope.json");
    }

    void boundedWork()
    {
        // 10⁶ GPUs, 10⁶ microbatches, PP 10⁴, seq 10⁷: every command answers, and what it writes
        // stays bounded (the times are in the README, from bench_gui and these commands).
        QFETCH(QString, file);
        Run r = run({QStringLiteral("evaluate"), file, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json report = nlohmann::json::parse(r.out.toStdString());
        std::size_t with_terms = 0;
        for (const auto& st : report["memory"]["stages"])
            with_terms += st.contains("terms") ? 1 : 0;
        QVERIFY(with_terms <= 65); // kExplainedStages + the peak stage
        QCOMPARE(report["memory"]["explained_stages"].get<std::size_t>(), with_terms);
        // One entry per pipeline stage (about 260 bytes each without terms), plus the rest.
        QVERIFY(r.out.size() < 8'000'000 + 300 * qsizetype(report["memory"]["stages"].size()));

        r = run({QStringLiteral("timeline"), file});
        QCOMPARE(r.code, 0);
        const nlohmann::json timeline = nlohmann::json::parse(r.out.toStdString());
        QVERIFY(timeline["ops"].size() <= 50000 + 64); // kMaxRecordedOps: a prefix, extrapolated
        double last_op = 0;
        for (const auto& op : timeline["ops"])
            last_op = std::max(last_op, op["end_s"].get<double>());
        if (timeline["microbatches_shown"].get<long long>() < timeline["microbatches_total"].get<long long>()) {
            QVERIFY(timeline["timeline_note"].get<std::string>().find("simulated") != std::string::npos);
            // The drawn ops end where "drawn_s" says, before the step (the charts' time axis).
            if (!timeline["ops"].empty())
                QCOMPARE(timeline["drawn_s"].get<double>(), last_op);
            QVERIFY(timeline["drawn_s"].get<double>() <= timeline["step_s"].get<double>());
        }
        // One step time for one scenario, whether or not the timeline was asked for.
        QCOMPARE(timeline["step_s"].get<double>(), report["time"]["step_s"].get<double>());
        r = run({QStringLiteral("timeline"), file, QStringLiteral("--format"), QStringLiteral("chrome-trace")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.size() < 30'000'000);

        r = run({QStringLiteral("sweep"), file, QStringLiteral("--param"), QStringLiteral("parallel.pp"),
                 QStringLiteral("--values"), QStringLiteral("1,2,4,8,16,10000")});
        QCOMPARE(r.code, 0);
        r = run({QStringLiteral("search"), file, QStringLiteral("--top"), QStringLiteral("3"),
                 QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        QVERIFY(nlohmann::json::parse(r.out.toStdString()).contains("top"));
    }

    void hostileFilesAreRefusedClearly()
    {
        // Every hostile file: exit code 2 (bad input), a message that names the problem, quickly,
        // for the scenario and for the two measurement inputs.
        QTemporaryDir dir;
        for (const parascope::test::HostileFile& f : parascope::test::hostileFiles(dir)) {
            const Run r = run({QStringLiteral("evaluate"), f.path});
            const QString why = f.name + QStringLiteral(": ") + QString::fromUtf8(r.err);
            QVERIFY2(r.code == 2, qPrintable(why));
            QVERIFY2(QString::fromUtf8(r.err).contains(f.expected, Qt::CaseInsensitive), qPrintable(why));
            const Run p = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--profile"), f.path});
            QVERIFY2(p.code == 2 && !p.err.isEmpty(),
                     qPrintable(f.name + QStringLiteral(" as --profile: ") + QString::fromUtf8(p.err)));
            const Run n = run({QStringLiteral("profile"), QStringLiteral("import-nccl-tests"), f.path});
            QVERIFY2(n.code == 2 && !n.err.isEmpty(),
                     qPrintable(f.name + QStringLiteral(" as an nccl-tests log: ") + QString::fromUtf8(n.err)));
        }
        // A file without read permission. Root reads it anyway, so as root the CLI runs as "nobody"
        // (runuser), from a folder open to it.
        QFile::setPermissions(dir.path(),
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                  | QFileDevice::ReadOther | QFileDevice::ExeOther);
        const QString locked = parascope::test::unreadableFile(dir);
        Run r;
#ifdef Q_OS_UNIX
        if (geteuid() == 0) {
            if (QStandardPaths::findExecutable(QStringLiteral("runuser")).isEmpty())
                QSKIP("running as root without runuser: a mode-000 file is readable to root");
            // A copy of the CLI next to the file: the build folder itself may be closed to nobody.
            const QString cli = dir.filePath(QStringLiteral("parascope-cli"));
            QVERIFY(QFile::copy(QStringLiteral(PARASCOPE_CLI), cli));
            QVERIFY(QFile::setPermissions(cli,
                                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                              | QFileDevice::ReadOther | QFileDevice::ExeOther));
            r = parascope::test::runProcess(QStringLiteral("runuser"),
                                            {QStringLiteral("-u"), QStringLiteral("nobody"), QStringLiteral("--"), cli,
                                             QStringLiteral("evaluate"), locked});
        } else
#endif
        {
            r = run({QStringLiteral("evaluate"), locked});
        }
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("cannot be read") && r.err.toLower().contains("permission denied"), r.err.constData());
    }

    void versionAndHelp()
    {
        Run r = run({QStringLiteral("--version")});
        QCOMPARE(r.code, 0);
        // project(VERSION), then the git revision when built from git.
        QCOMPARE(r.out.trimmed(), QByteArray("parascope-cli ") + QByteArray::fromStdString(parascope::versionText()));
        if (*parascope::kGitRevision)
            QVERIFY(r.out.contains(QByteArray(" (git ") + parascope::kGitRevision + ')'));
        r = run({QStringLiteral("--help")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("usage:"));
        // Every subcommand answers --help (and -h) with the usage, exit 0, nothing on stderr.
        for (const char* cmd : {"evaluate", "timeline", "sweep", "search", "validate", "profile", "presets", "model",
                                "compare-trace", "collective"})
            for (const char* flag : {"--help", "-h"}) {
                r = run({QString::fromLatin1(cmd), QString::fromLatin1(flag)});
                QVERIFY2(r.code == 0 && r.out.contains("usage:") && r.err.isEmpty(), cmd);
            }
    }

    void setMovesAKnobAsTheSweepDoes_data()
    {
        // One value per knob of types/knobs.h, each different from the default scenario's.
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("value");
        const std::pair<const char*, const char*> rows[] = {{"training.seq_len", "2048"},
                                                            {"training.micro_batch", "2"},
                                                            {"training.global_batch", "1024"},
                                                            {"parallel.tp", "4"},
                                                            {"parallel.pp", "4"},
                                                            {"parallel.vpp", "2"},
                                                            {"parallel.dp", "32"},
                                                            {"parallel.cp", "2"},
                                                            {"parallel.ep", "1"},
                                                            {"parallel.zero", "0"},
                                                            {"training.recompute", "2"},
                                                            {"parallel.schedule", "2"},
                                                            {"gpus", "1024"}};
        for (const auto& [path, value] : rows)
            QTest::newRow(path) << QString::fromLatin1(path) << QString::fromLatin1(value);
    }

    void setMovesAKnobAsTheSweepDoes()
    {
        // `evaluate --set PATH=V` and the sweep's point at V are the same scenario, number for
        // number (the app's slider calls the same rule; tst_knobs and tst_gui check that side).
        QFETCH(QString, path);
        QFETCH(QString, value);
        const Run e = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--set"),
                           path + QLatin1Char('=') + value, QStringLiteral("--format"), QStringLiteral("json"),
                           QStringLiteral("--no-explain")});
        QCOMPARE(e.code, 0);
        const Run w = run({QStringLiteral("sweep"), defaultScenario(), QStringLiteral("--param"), path,
                           QStringLiteral("--values"), value, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(w.code, 0);
        const nlohmann::json report = nlohmann::json::parse(e.out.toStdString());
        const nlohmann::json point = nlohmann::json::parse(w.out.toStdString())["points"][0];
        QCOMPARE(point["step_s"].get<double>(), report["time"]["step_s"].get<double>());
        QCOMPARE(point["tokens_per_s"].get<double>(), report["throughput"]["tokens_per_s"].get<double>());
        QCOMPARE(point["mfu"].get<double>(), report["throughput"]["mfu"].get<double>());
        // (The report rounds bytes to whole bytes; the sweep keeps the engine's double.)
        QVERIFY(std::abs(point["peak_bytes"].get<double>() - report["memory"]["peak_bytes"].get<double>()) <= 0.5);
        QCOMPARE(point["diagnostics"].size(), report["diagnostics"].size());
    }

    // An enum knob's sweep values by name, as --set takes them: the same points as by position;
    // a name that is not one of its values is a usage error that says so.
    void sweepTakesEnumValuesByName()
    {
        const auto enumSweep = [&](const char* values) {
            return run({QStringLiteral("sweep"), defaultScenario(), QStringLiteral("--param"),
                        QStringLiteral("training.recompute"), QStringLiteral("--values"), QString::fromLatin1(values),
                        QStringLiteral("--format"), QStringLiteral("csv")});
        };
        const Run named = enumSweep("none,selective,full"), numbered = enumSweep("0,1,2");
        QCOMPARE(named.code, 0);
        QCOMPARE(named.out, numbered.out);
        const Run r = enumSweep("none,sometimes");
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("value names") && r.err.contains("sometimes"), r.err.constData());
    }

    void setRefusesWhatNoKnobCanDo()
    {
        for (const char* bad : {"parallel.pp", "model.hidden=1", "parallel.zero=7", "parallel.tp=two"}) {
            const Run r = run(
                {QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--set"), QString::fromLatin1(bad)});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("--set"), r.err.constData());
        }
    }

    // Issue 36 §1: each sweep point carries the band of the layout it ran, the one `evaluate --set`
    // quotes for that layout; a CP sweep leaves the dense class for long context (CP > 1).
    void sweepPointsSayHowSure()
    {
        const QStringList sweep_args{QStringLiteral("sweep"),    defaultScenario(),
                                     QStringLiteral("--param"),  QStringLiteral("parallel.cp"),
                                     QStringLiteral("--values"), QStringLiteral("1,2"),
                                     QStringLiteral("--format"), QStringLiteral("json")};
        Run r = run(sweep_args);
        QCOMPARE(r.code, 0);
        const nlohmann::json points = nlohmann::json::parse(r.out.toStdString())["points"];
        for (const nlohmann::json& p : points) {
            const Run e = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--set"),
                               QStringLiteral("parallel.cp=%1").arg(p["value"].get<long long>()),
                               QStringLiteral("--format"), QStringLiteral("json")});
            QCOMPARE(e.code, 0);
            const nlohmann::json u = nlohmann::json::parse(e.out.toStdString())["uncertainty"];
            QCOMPARE(p["step_band"], u); // one band, one JSON form
        }
        QCOMPARE(points[0]["step_band"]["class"].get<std::string>(), std::string("dense"));
        // Search rows too: CP layouts are long-context, ZeRO-3 ones FSDP, the others dense (JSON,
        // and the text's column with its note).
        r = run({QStringLiteral("search"), defaultScenario(), QStringLiteral("--top"), QStringLiteral("40"),
                 QStringLiteral("--closed-form"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json search = nlohmann::json::parse(r.out.toStdString()); // outlives the loop
        for (const nlohmann::json& row : search["top"])
            QCOMPARE(row["step_band"]["class"].get<std::string>(),
                     std::string(row["parallel"].value("cp", 1) > 1          ? "long_context"
                                     : row["parallel"].value("zero", 0) == 3 ? "fsdp"
                                                                             : "dense"));
        QVERIFY(!search["top"].empty());
        r = run({QStringLiteral("search"), defaultScenario(), QStringLiteral("--top"), QStringLiteral("3"),
                 QStringLiteral("--closed-form")});
        QVERIFY2(r.out.contains("± step (tokens/s and MFU alike): ±"), r.out.constData());
        QCOMPARE(points[1]["step_band"]["class"].get<std::string>(), std::string("long_context"));
        // The text says it in a column and names what the column means, once per class.
        r = run(sweep_args.mid(0, 6));
        QVERIFY2(r.out.contains("± step"), r.out.constData());
        QVERIFY(r.out.contains("(dense: the mean error of") && r.out.contains("(long context: the mean error of"));
    }

    // Every scenario in tests/data answers: 0 for valid files, 2 for the deliberately bad ones.
    // import-megatron says what it did with every flag: in text on stderr beside the scenario,
    // and with --format json as one report (the scenario, the notes, the summary).
    void megatronImportSummarisesEveryFlag()
    {
        Run r
            = run({QStringLiteral("model"), QStringLiteral("import-megatron"), data("megatron/llama3_8b_fp8_mock.sh")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("arguments of line 70: torchrun") && r.err.contains("used (24)")
                     && r.err.contains("line 36: --fp8-param-gather: FP8 parameter all-gather")
                     && r.err.contains("not understood (0)"),
                 r.err.constData());
        QCOMPARE(nlohmann::json::parse(r.out.toStdString())["training"]["precision"].get<std::string>(),
                 std::string("fp8"));
        r = run({QStringLiteral("model"), QStringLiteral("import-megatron"), data("megatron/llama3_8b_fp8_mock.sh"),
                 QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["schema"].get<std::string>(), std::string("parascope.megatron-import/1"));
        QCOMPARE(j["scenario"]["model"]["vocab"].get<int>(), 128256);
        QCOMPARE(j["summary"]["used"].size(), std::size_t(24));
        QVERIFY(j["summary"]["ignored"].size() == 8 && j["summary"]["not_understood"].empty());
    }

    // DeepSeek-V3's count says what the MTP module adds: 671,026,419,200 without it (the card's
    // 671B), 11,610,068,224 in it, 682,636,487,424 together (tst_model_import derives both).
    void mtpModuleIsLabelled()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("ds3.parascope.json"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"schema": "parascope.scenario/1", "model": "deepseek-v3", "cluster": "dgx-h100",
                    "parallel": {"tp": 8, "pp": 16, "dp": 8, "ep": 8}, "training": {"global_batch": 1024}})");
        f.close();
        Run r = run({QStringLiteral("evaluate"), file});
        QVERIFY2(r.out.contains("682.636 B params with the MTP module (671.026 B without, MTP 11.610 B)"),
                 r.out.left(400).constData());
        r = run({QStringLiteral("evaluate"), file, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(nlohmann::json::parse(r.out.toStdString())["model"]["mtp_params"].get<std::int64_t>(),
                 std::int64_t(11610068224));
    }

    void everyExampleAnswers()
    {
        const QDir dir(QStringLiteral(PARASCOPE_TEST_DATA));
        const QStringList files = dir.entryList({QStringLiteral("*.parascope.json")}, QDir::Files);
        QVERIFY(files.size() >= 3);
        for (const QString& f : files) {
            const Run r = run(
                {QStringLiteral("evaluate"), dir.filePath(f), QStringLiteral("--format"), QStringLiteral("json")});
            const bool bad = f.contains(QStringLiteral("bad"));
            QVERIFY2(r.code == (bad ? 2 : 0), qPrintable(f + QStringLiteral(": ") + QString::fromUtf8(r.err)));
        }
    }
};

QTEST_GUILESS_MAIN(TstCliInput)
#include "tst_cli_input.moc"
