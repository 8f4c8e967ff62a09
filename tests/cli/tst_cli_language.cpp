// parascope-cli in both languages (from tst_cli): --lang zh gives Chinese, and "Chinese means
// Chinese" over every subcommand, text and JSON, on the default scenario, every lesson step and
// every test scenario that evaluates (tests/support/cli_chinese.h says which Latin words may
// stay); --lang takes en, en_US, zh and zh_CN and nothing else.

#include "cli_chinese.h"
#include "cli_run.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <string>

using parascope::test::data;
using parascope::test::defaultScenario;
using parascope::test::expectChinese;
using parascope::test::run;
using parascope::test::Run;

class TstCliLanguage : public QObject {
    Q_OBJECT

    // Every "name" in a scenario (its own, an inline model's or cluster's), and the ids it uses.
    static void scenarioNames(const nlohmann::json& j, QStringList& out)
    {
        if (j.is_object()) {
            for (const auto& item : j.items()) {
                if ((item.key() == "name" || item.key() == "model" || item.key() == "cluster" || item.key() == "gpu")
                    && item.value().is_string())
                    out << QString::fromStdString(item.value().get<std::string>());
                scenarioNames(item.value(), out);
            }
        } else if (j.is_array()) {
            for (const auto& x : j)
                scenarioNames(x, out);
        }
    }

    // The JSON fields that carry messages, in the asked language.
    static QByteArray jsonMessages(const nlohmann::json& j)
    {
        std::string out;
        const std::function<void(const nlohmann::json&)> walk = [&](const nlohmann::json& x) {
            if (x.is_object()) {
                for (const auto& item : x.items()) {
                    const std::string& k = item.key();
                    if ((k == "message" || k == "suggestion" || k == "reason" || k == "fewest_gpus_reason"
                         || k == "skipped_because" || k == "message_zh" || k == "suggestion_zh")
                        && item.value().is_string())
                        out += item.value().get<std::string>() + "\n";
                    walk(item.value());
                }
            } else if (x.is_array()) {
                for (const auto& e : x)
                    walk(e);
            }
        };
        walk(j);
        return QByteArray::fromStdString(out);
    }

    // The course's scenarios as files: the default one and every lesson step.
    static QStringList courseScenarioFiles(const QTemporaryDir& dir)
    {
        QStringList files{defaultScenario()};
        const QDir lessons(QStringLiteral(PARASCOPE_SOURCE_DIR "/resources/presets/lessons"));
        for (const QString& f : lessons.entryList({QStringLiteral("*.json")}, QDir::Files)) {
            QFile in(lessons.filePath(f));
            if (!in.open(QIODevice::ReadOnly))
                continue;
            const nlohmann::json j = nlohmann::json::parse(in.readAll().toStdString());
            int step = 0;
            for (const auto& st : j["steps"]) {
                const QString path = dir.filePath(f + QStringLiteral(".step%1.parascope.json").arg(step++));
                QFile out(path);
                if (out.open(QIODevice::WriteOnly)) {
                    out.write(QByteArray::fromStdString(st["scenario"].dump(2)));
                    files << path;
                }
            }
        }
        return files;
    }

    static QStringList namesOf(const QString& scenario_file)
    {
        QStringList names;
        QFile f(scenario_file);
        if (f.open(QIODevice::ReadOnly))
            scenarioNames(nlohmann::json::parse(f.readAll().toStdString(), nullptr, false), names);
        return names;
    }

private slots:
    void evaluateDefaultChinese()
    {
        const Run r
            = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--lang"), QStringLiteral("zh")});
        QCOMPARE(r.code, 0);
        QVERIFY(QString::fromUtf8(r.out).contains(QStringLiteral("每块 GPU 显存")));
    }

    void chineseMeansChinese()
    {
        // Every subcommand with --lang zh: headers, labels, enum values, units and messages in
        // Chinese (text, and the messages of the JSON). Scenarios: the default one, every lesson
        // step, and every test scenario that evaluates (each raises its own diagnostics and advice).
        QTemporaryDir dir;
        QStringList scenarios = courseScenarioFiles(dir);
        QVERIFY(scenarios.size() >= 9);
        const QDir data(QStringLiteral(PARASCOPE_TEST_DATA));
        for (const QString& f : data.entryList(
                 {QStringLiteral("diag-*.parascope.json"), QStringLiteral("cli-*.parascope.json")}, QDir::Files))
            if (!f.contains(QStringLiteral("bad")))
                scenarios << data.filePath(f);
        const QString zh = QStringLiteral("zh");
        for (const QString& file : scenarios) {
            const QStringList names = namesOf(file);
            Run r = run({QStringLiteral("evaluate"), file, QStringLiteral("--lang"), zh});
            QCOMPARE(r.code, 0);
            expectChinese(QStringLiteral("evaluate ") + file, r.out, names);
            r = run({QStringLiteral("evaluate"), file, QStringLiteral("--lang"), zh, QStringLiteral("--format"),
                     QStringLiteral("json")});
            QCOMPARE(r.code, 0);
            const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
            if (!j["diagnostics"].empty())
                expectChinese(QStringLiteral("evaluate --format json ") + file, jsonMessages(j), names);
        }

        const QString d = defaultScenario();
        const QStringList names = namesOf(d);
        const struct {
            const char* param;
            const char* values;
        } sweeps[] = {{"parallel.pp", "1,2,4,8,16,32,64,100"},
                      {"training.recompute", "0,1,2,5"},
                      {"parallel.schedule", "0,1,2,3,4,5"},
                      {"training.micro_batch", "1,2,4,8"},
                      {"gpus", "64,100,512"}};
        for (const auto& sw : sweeps)
            for (const char* format : {"text", "json"}) {
                const Run r = run({QStringLiteral("sweep"), d, QStringLiteral("--param"), QString::fromLatin1(sw.param),
                                   QStringLiteral("--values"), QString::fromLatin1(sw.values), QStringLiteral("--lang"),
                                   zh, QStringLiteral("--format"), QString::fromLatin1(format)});
                QCOMPARE(r.code, 0);
                const QString what
                    = QStringLiteral("sweep %1 (%2)").arg(QString::fromLatin1(sw.param), QString::fromLatin1(format));
                // (The path as typed, "gpus", names the knob like "parallel.pp" does.)
                expectChinese(what,
                              std::string(format) == "json" ? jsonMessages(nlohmann::json::parse(r.out.toStdString()))
                                                            : r.out,
                              names + QStringList{QString::fromLatin1(sw.param)});
            }

        // Search: a scenario that trains (lesson 3a), one where nothing divides the batch, one that
        // fits nowhere (Llama-2 70B on 8 GPUs), with --fewest-gpus.
        const QString seventy = dir.filePath(QStringLiteral("70b-on-8.parascope.json"));
        {
            QFile f(seventy);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"schema":"parascope.scenario/1","model":"llama2-70b","cluster":"dgx-a100-80g",)"
                    R"("parallel":{"tp":8,"pp":1,"dp":1},"training":{"global_batch":8}})");
        }
        const struct {
            QString file;
            QStringList extra;
        } searches[]
            = {{*std::find_if(scenarios.begin(), scenarios.end(),
                              [](const QString& f) {
                                  return f.endsWith(QStringLiteral("3-7b-dp-zero-tp.json.step0.parascope.json"));
                              }),
                {QStringLiteral("--fewest-gpus")}},
               {data.filePath(QStringLiteral("search-no-layout-5128.parascope.json")),
                {QStringLiteral("--gpus"), QStringLiteral("5128")}},
               {seventy, {}}};
        for (const auto& sr : searches)
            for (const char* format : {"text", "json"}) {
                QStringList args{QStringLiteral("search"),
                                 sr.file,
                                 QStringLiteral("--closed-form"),
                                 QStringLiteral("--top"),
                                 QStringLiteral("3"),
                                 QStringLiteral("--lang"),
                                 zh,
                                 QStringLiteral("--format"),
                                 QString::fromLatin1(format)};
                args += sr.extra;
                const Run r = run(args);
                QCOMPARE(r.code, 0);
                const QByteArray out
                    = std::string(format) == "json" ? jsonMessages(nlohmann::json::parse(r.out.toStdString())) : r.out;
                if (!out.isEmpty())
                    expectChinese(QStringLiteral("search ") + sr.file, out, namesOf(sr.file));
            }

        Run r = run({QStringLiteral("validate"), QStringLiteral("--lang"), zh});
        QCOMPARE(r.code, 0);
        expectChinese(QStringLiteral("validate"), r.out, {});
        // A runs file with a skipped run (its reason) in JSON.
        r = run({QStringLiteral("validate"), data.filePath(QStringLiteral("runs-skipped.json")),
                 QStringLiteral("--lang"), zh, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        expectChinese(QStringLiteral("validate --format json"),
                      jsonMessages(nlohmann::json::parse(r.out.toStdString())), {});

        r = run({QStringLiteral("presets"), QStringLiteral("--lang"), zh});
        QCOMPARE(r.code, 0);
        expectChinese(QStringLiteral("presets"), r.out, {});

        // profile and timeline answer in files; what they say on stderr is Chinese too.
        r = run({QStringLiteral("profile"), QStringLiteral("import-nccl-tests"),
                 data.filePath(QStringLiteral("nccl-all_reduce-2x8.log")), QStringLiteral("--out"),
                 dir.filePath(QStringLiteral("p.json")), QStringLiteral("--lang"), zh});
        QCOMPARE(r.code, 0);
        expectChinese(QStringLiteral("profile import-nccl-tests"), r.err, {});
        const QString closed
            = data.filePath(QStringLiteral("diag-interleaved_needs_microbatch_multiple.parascope.json"));
        r = run({QStringLiteral("timeline"), closed, QStringLiteral("--lang"), zh});
        QCOMPARE(r.code, 0);
        expectChinese(QStringLiteral("timeline"), r.err, namesOf(closed));
        // A usage error, in Chinese (its first line; the usage below shows the syntax).
        r = run({QStringLiteral("evaluate"), d, QStringLiteral("--format"), QStringLiteral("xml"),
                 QStringLiteral("--lang"), zh});
        QCOMPARE(r.code, 2);
        QVERIFY2(QString::fromUtf8(r.err.split('\n').front()).contains(QStringLiteral("只能是")), r.err.constData());
        QVERIFY2(QString::fromUtf8(r.err).contains(QStringLiteral("用法：")), r.err.constData());
    }

    void languageIsOneOfFour_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<bool>("accepted");
        QTest::addColumn<QString>("same_as");
        QTest::newRow("en") << QStringLiteral("en") << true << QStringLiteral("en");
        QTest::newRow("en_US") << QStringLiteral("en_US") << true << QStringLiteral("en");
        QTest::newRow("zh") << QStringLiteral("zh") << true << QStringLiteral("zh");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN") << true << QStringLiteral("zh");
        QTest::newRow("fr") << QStringLiteral("fr") << false << QString();
        QTest::newRow("zh_TW (traditional: not provided)") << QStringLiteral("zh_TW") << false << QString();
        QTest::newRow("zhx") << QStringLiteral("zhx") << false << QString();
        QTest::newRow("empty") << QString() << false << QString();
    }

    void languageIsOneOfFour()
    {
        QFETCH(QString, lang);
        QFETCH(bool, accepted);
        QFETCH(QString, same_as);
        for (const char* cmd : {"evaluate", "sweep", "search", "validate", "presets"}) {
            QStringList args{QString::fromLatin1(cmd)};
            if (std::string(cmd) != "validate" && std::string(cmd) != "presets")
                args << defaultScenario();
            if (std::string(cmd) == "sweep")
                args << QStringLiteral("--param") << QStringLiteral("parallel.pp") << QStringLiteral("--values")
                     << QStringLiteral("8");
            if (std::string(cmd) == "search")
                args << QStringLiteral("--closed-form") << QStringLiteral("--top") << QStringLiteral("1");
            const Run r = run(args + QStringList{QStringLiteral("--lang"), lang});
            if (!accepted) {
                QCOMPARE(r.code, 2);
                QVERIFY2(r.err.contains("--lang must be one of en, en_US, zh, zh_CN"), r.err.constData());
                QVERIFY(r.out.isEmpty());
                continue;
            }
            QCOMPARE(r.code, 0);
            if (std::string(cmd) == "search")
                continue; // it prints its run time
            const Run ref = run(args + QStringList{QStringLiteral("--lang"), same_as});
            QCOMPARE(r.out, ref.out);
        }
    }
};

QTEST_GUILESS_MAIN(TstCliLanguage)
#include "tst_cli_language.moc"
