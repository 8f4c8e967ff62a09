#pragma once
// Shared by the parascope-cli suites (tst_cli, tst_cli_input, tst_cli_language): run the CLI
// (PARASCOPE_CLI) to the end, a minute at most, and the paths of the test data and of the
// course's default scenario.

#include "process_runner.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace parascope::test {

using Run = ProcessRun;

inline Run run(const QStringList& args)
{
    return runProcess(QStringLiteral(PARASCOPE_CLI), args, QProcessEnvironment::systemEnvironment(), 60000);
}

inline QString data(const char* name) { return QStringLiteral(PARASCOPE_TEST_DATA "/") + QString::fromUtf8(name); }

inline QString defaultScenario()
{
    return QStringLiteral(PARASCOPE_SOURCE_DIR "/resources/scenarios/default.parascope.json");
}

} // namespace parascope::test
