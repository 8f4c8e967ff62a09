// Replays, through the fuzz targets' own code (tests/fuzz/fuzz_targets.h), the seed corpus and
// every input a fuzzer has found (tests/data/fuzz-regressions/): each must go through without a
// crash or a sanitizer report (this suite also runs under the asan preset).

#include "fuzz_targets.h"

#include <QDir>
#include <QFile>
#include <QtTest>

class TstFuzzRegressions : public QObject {
    Q_OBJECT

    static QFileInfoList files(const QString& dir, const QStringList& patterns = {QStringLiteral("*")})
    {
        return QDir(dir).entryInfoList(patterns, QDir::Files, QDir::Name);
    }
    static std::string bytes(const QFileInfo& f)
    {
        QFile file(f.absoluteFilePath());
        if (!file.open(QIODevice::ReadOnly))
            return {};
        return file.readAll().toStdString();
    }

private slots:
    void scenarioInputs()
    {
        QFileInfoList all = files(QStringLiteral(PARASCOPE_TEST_DATA), {QStringLiteral("*.parascope.json")});
        all += files(QStringLiteral(PARASCOPE_TEST_DATA "/fuzz-regressions/scenario"));
        QVERIFY(all.size() > 20);
        for (const QFileInfo& f : all)
            parascope::fuzz::scenarioFile(bytes(f));
    }

    void measurementInputs()
    {
        int n = 0;
        for (const QFileInfo& f : files(QStringLiteral(PARASCOPE_TEST_DATA), {QStringLiteral("*profile*.json")})) {
            parascope::fuzz::measurementFile('\1' + bytes(f));
            ++n;
        }
        for (const QFileInfo& f : files(QStringLiteral(PARASCOPE_TEST_DATA), {QStringLiteral("nccl*")})) {
            parascope::fuzz::measurementFile('\0' + bytes(f));
            ++n;
        }
        for (const QFileInfo& f : files(QStringLiteral(PARASCOPE_TEST_DATA), {QStringLiteral("runs-*.json")})) {
            parascope::fuzz::measurementFile('\2' + bytes(f));
            ++n;
        }
        for (const QFileInfo& f : files(QStringLiteral(PARASCOPE_TEST_DATA "/hf"))) {
            parascope::fuzz::measurementFile('\4' + bytes(f));
            ++n;
        }
        for (const QFileInfo& f : files(QStringLiteral(PARASCOPE_TEST_DATA "/traces"))) {
            parascope::fuzz::measurementFile('\10' + bytes(f));
            ++n;
        }
        for (const QFileInfo& f : files(QStringLiteral(PARASCOPE_TEST_DATA "/megatron"))) {
            parascope::fuzz::measurementFile('\14' + bytes(f));
            ++n;
        }
        parascope::fuzz::measurementFile(
            '\2'
            + bytes(
                QFileInfo(QStringLiteral(PARASCOPE_SOURCE_DIR "/resources/presets/validation/reference-runs.json"))));
        for (const QFileInfo& f : files(QStringLiteral(PARASCOPE_TEST_DATA "/fuzz-regressions/measurement"))) {
            parascope::fuzz::measurementFile(bytes(f));
            ++n;
        }
        QVERIFY(n >= 5);
    }
};

QTEST_GUILESS_MAIN(TstFuzzRegressions)
#include "tst_fuzz_regressions.moc"
