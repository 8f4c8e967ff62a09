// CHANGE DETECTOR (CTest label "snapshot"): parascope-cli's whole output for the default scenario
// (text en and zh, brief JSON) and a custom MoE scenario, byte for byte, against
// tests/data/golden/. These files are not derived by hand: they are what the engine printed when
// they were last written, so a diff says only that something changed. After an intended engine
// change, rewrite them with PARASCOPE_UPDATE_GOLDEN=1 ctest -R tst_cli_snapshots, read the diff,
// and say in the commit why each number moved. The numbers themselves are checked by hand in
// tst_step_by_hand, tst_kernels_by_hand and the per-module suites.

#include "process_runner.h"

#include <QtTest>

#include <algorithm>

class TstCliSnapshots : public QObject {
    Q_OBJECT

    using Run = parascope::test::ProcessRun;
    static Run run(const QStringList& args)
    {
        return parascope::test::runProcess(QStringLiteral(PARASCOPE_CLI), args,
                                           QProcessEnvironment::systemEnvironment(), 60000);
    }
    static QString data(const char* name) { return QStringLiteral(PARASCOPE_TEST_DATA "/") + QString::fromUtf8(name); }
    static QString defaultScenario()
    {
        return QStringLiteral(PARASCOPE_SOURCE_DIR "/resources/scenarios/default.parascope.json");
    }

    static void compareGolden(const Run& r, const char* name)
    {
        QCOMPARE(r.code, 0);
        const QString path = data("golden/") + QString::fromUtf8(name);
        if (qEnvironmentVariableIsSet("PARASCOPE_UPDATE_GOLDEN")) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(r.out);
            return;
        }
        QFile f(path);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
        const QByteArray expected = f.readAll();
        if (r.out == expected)
            return;
        const QList<QByteArray> a = r.out.split('\n'), e = expected.split('\n');
        for (int i = 0; i < std::max(a.size(), e.size()); ++i) {
            const QByteArray al = i < a.size() ? a[i] : QByteArray("<missing>");
            const QByteArray el = i < e.size() ? e[i] : QByteArray("<missing>");
            if (al != el)
                QFAIL(qPrintable(QStringLiteral("%1 differs at line %2:\n  got:      %3\n  expected: %4")
                                     .arg(path)
                                     .arg(i + 1)
                                     .arg(QString::fromUtf8(al), QString::fromUtf8(el))));
        }
    }

private slots:
    void defaultText() { compareGolden(run({QStringLiteral("evaluate"), defaultScenario()}), "default.txt"); }

    void defaultChinese()
    {
        compareGolden(
            run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--lang"), QStringLiteral("zh")}),
            "default.zh.txt");
    }

    void defaultBriefJson()
    {
        compareGolden(run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--format"),
                           QStringLiteral("json"), QStringLiteral("--no-explain")}),
                      "default.json");
    }

    void customMoe()
    {
        compareGolden(run({QStringLiteral("evaluate"), data("cli-custom-moe.parascope.json")}), "custom-moe.txt");
    }
};

QTEST_GUILESS_MAIN(TstCliSnapshots)
#include "tst_cli_snapshots.moc"
