// `parascope.scenario/1` input at the text level (from tst_scenario_json): empty text, invalid
// JSON (with its line and column), nesting deeper than the limit, text larger than the limit, and
// paths that are not files (a folder, a missing file) are errors that name the problem, not
// crashes.

#include "scenario_fixture.h"
#include "scenario_json_cases.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

using namespace parascope;
using parascope::test::base;
using parascope::test::contains;
using parascope::test::listErrors;
using parascope::test::read;

class TstScenarioJsonLimits : public QObject {
    Q_OBJECT

private slots:
    void emptyText();
    void invalidJsonGivesLineAndColumn_data();
    void invalidJsonGivesLineAndColumn();
    void nestingLimit();
    void sizeLimit();
    void readJsonFileRefusesNonFiles();
};

void TstScenarioJsonLimits::emptyText()
{
    for (const std::string text : {"", "   \n\t\r\n"}) {
        std::vector<InputError> errors;
        QVERIFY(!parseJsonText(text, errors));
        QCOMPARE(errors.size(), std::size_t(1));
        QVERIFY2(contains(errors[0].message, "empty"), errors[0].message.c_str());
        QVERIFY(errors[0].path.empty());
    }
}

void TstScenarioJsonLimits::invalidJsonGivesLineAndColumn_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("first"); // the reported column lies within the offending token
    QTest::addColumn<int>("last");
    // Line 3 is `  "model": ,`: the stray comma is its 12th character.
    QTest::newRow("missing value") << QByteArray("{\n  \"schema\": \"parascope.scenario/1\",\n  \"model\": ,\n}") << 3
                                   << 12 << 12;
    // Line 2 is `  "tp": 8 "pp": 2`: the string "pp" where a comma should be is characters 11-14.
    QTest::newRow("missing comma") << QByteArray("{\n  \"tp\": 8 \"pp\": 2\n}") << 2 << 11 << 14;
    // Unterminated object: the text ends after the 9 characters of line 2 (`  "tp": 8`): column 10.
    QTest::newRow("unterminated") << QByteArray("{\n  \"tp\": 8") << 2 << 10 << 10;
    // A bad literal on line 1: `{"tp": tru}`, the literal starts at 8 and breaks at the `}` (11).
    QTest::newRow("bad literal") << QByteArray("{\"tp\": tru}") << 1 << 8 << 11;
}

void TstScenarioJsonLimits::invalidJsonGivesLineAndColumn()
{
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(int, first);
    QFETCH(int, last);
    std::vector<InputError> errors;
    QVERIFY(!parseJsonText(text.toStdString(), errors));
    QCOMPARE(errors.size(), std::size_t(1));
    const std::string& m = errors[0].message;
    QVERIFY2(errors[0].path.empty(), errors[0].path.c_str());
    QVERIFY2(contains(m, "not valid JSON"), m.c_str());
    const std::regex re(R"(line (\d+), column (\d+))");
    std::smatch at;
    QVERIFY2(std::regex_search(m, at, re), m.c_str());
    QVERIFY2(std::stoi(at[1].str()) == line, m.c_str());
    const int column = std::stoi(at[2].str());
    QVERIFY2(column >= first && column <= last,
             (m + " (expected column " + std::to_string(first) + "…" + std::to_string(last) + ")").c_str());
}

void TstScenarioJsonLimits::nestingLimit()
{
    // `depth` arrays, the innermost holding one value (or nothing).
    const auto nested = [](int depth, bool empty = false) {
        return std::string(std::size_t(depth), '[') + (empty ? "" : "1") + std::string(std::size_t(depth), ']');
    };

    // Deeper than the limit, even far deeper: an error, not a stack overflow.
    for (int depth : {65, 100, 100000}) {
        std::vector<InputError> errors;
        QVERIFY2(!parseJsonText(nested(depth), errors), std::to_string(depth).c_str());
        QCOMPARE(errors.size(), std::size_t(1));
        QVERIFY2(contains(errors[0].message, "nested deeper than 64 levels"), errors[0].message.c_str());
    }
    // Objects count the same way.
    {
        std::string objects;
        for (int i = 0; i < 65; ++i)
            objects += "{\"a\":";
        objects += "1" + std::string(65, '}');
        std::vector<InputError> errors;
        QVERIFY(!parseJsonText(objects, errors));
        QVERIFY2(errors.size() == 1 && contains(errors[0].message, "nested deeper"), listErrors(errors).c_str());
    }
    // Inside a scenario, too.
    {
        std::string deep = base().dump();
        deep.insert(deep.size() - 1, ",\"x\":" + nested(200));
        std::vector<InputError> errors;
        QVERIFY(!read(deep, errors));
        QVERIFY2(errors.size() == 1 && contains(errors[0].message, "nested deeper"), listErrors(errors).c_str());
    }

    // 64 levels is allowed.
    std::vector<InputError> errors;
    QVERIFY2(parseJsonText(nested(64), errors), listErrors(errors).c_str());
    QVERIFY(errors.empty());
    // A custom limit.
    QVERIFY(parseJsonText(nested(3), errors, 1024, 3));
    QVERIFY(!parseJsonText(nested(4), errors, 1024, 3));
    QVERIFY2(contains(errors.back().message, "deeper than 3 levels"), errors.back().message.c_str());

    // nlohmann passes depth 0 for the outermost container: a 65th container is refused even
    // when it is empty (no value inside it to trip the check).
    errors.clear();
    QVERIFY(!parseJsonText(nested(65, true), errors));
}

void TstScenarioJsonLimits::sizeLimit()
{
    const std::string text = base().dump();
    QVERIFY(text.size() > 100);
    std::vector<InputError> errors;
    QVERIFY(parseJsonText(text, errors, text.size())); // exactly at the limit: fine
    QVERIFY(errors.empty());
    QVERIFY(!parseJsonText(text, errors, 100));
    QCOMPARE(errors.size(), std::size_t(1));
    QVERIFY2(contains(errors[0].message, "limit"), errors[0].message.c_str());
    // Sizes under 1 MiB are printed in bytes or KiB, never as "0 MiB".
    QVERIFY2(!contains(errors[0].message, "limit is 0 MiB"), errors[0].message.c_str());

    // The default limit is 16 MiB; the message gives both sizes.
    errors.clear();
    const std::string big = "[" + std::string(17u << 20, ' ') + "]";
    QVERIFY(!parseJsonText(big, errors));
    QCOMPARE(errors.size(), std::size_t(1));
    QVERIFY2(contains(errors[0].message, "17.0 MiB") && contains(errors[0].message, "16.0 MiB"),
             errors[0].message.c_str());

    // Through a file, with a small limit.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string file = dir.filePath(QStringLiteral("s.parascope.json")).toStdString();
    {
        std::ofstream out(file);
        out << text;
    }
    errors.clear();
    QVERIFY(readJsonFile(file, errors)); // default limit
    QVERIFY2(errors.empty(), listErrors(errors).c_str());
    QVERIFY(!readJsonFile(file, errors, 100));
    QCOMPARE(errors.size(), std::size_t(1));
    QVERIFY2(contains(errors[0].message, file) && contains(errors[0].message, "limit"), errors[0].message.c_str());
}

void TstScenarioJsonLimits::readJsonFileRefusesNonFiles()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string d = dir.path().toStdString();

    std::vector<InputError> errors;
    QVERIFY(!readJsonFile(d, errors));
    QCOMPARE(errors.size(), std::size_t(1));
    QVERIFY2(contains(errors[0].message, d) && contains(errors[0].message, "directory"), errors[0].message.c_str());

    errors.clear();
    const std::string missing = d + "/nope.parascope.json";
    QVERIFY(!readJsonFile(missing, errors));
    QCOMPARE(errors.size(), std::size_t(1));
    QVERIFY2(contains(errors[0].message, missing) && contains(errors[0].message, "no such file"),
             errors[0].message.c_str());

    errors.clear();
    QVERIFY(!readScenarioFile(missing, errors));
    QCOMPARE(errors.size(), std::size_t(1));

    // A file with broken JSON: the message names the file and the position.
    const std::string broken = d + "/broken.parascope.json";
    {
        std::ofstream out(broken);
        out << "{\n  \"schema\": }";
    }
    errors.clear();
    QVERIFY(!readScenarioFile(broken, errors));
    QCOMPARE(errors.size(), std::size_t(1));
    QVERIFY2(contains(errors[0].message, broken) && contains(errors[0].message, "line 2"), errors[0].message.c_str());
}

QTEST_GUILESS_MAIN(TstScenarioJsonLimits)
#include "tst_scenario_json_limits.moc"
