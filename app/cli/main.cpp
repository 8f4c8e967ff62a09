// parascope-cli: the engine from a terminal (usage: parascope-cli --help; the subcommands live in
// cmd_*.cpp). Exit codes: 0 evaluated (even if it does not fit), 2 bad input (message on stderr,
// with the JSON path), 1 internal error.

#include "cli.h"
#include "parascope/version.h"

#include <exception>
#include <iostream>
#include <string>

using namespace parascope::cli;

int main(int argc, char** argv)
{
    try {
        if (argc < 2)
            return badUsage("missing command");
        const std::string cmd = argv[1];
        if (cmd == "--version") {
            std::cout << "parascope-cli " << parascope::versionText() << "\n";
            return kExitOk;
        }
        Args a;
        if (int rc = parseArgs(argc, argv, 2, a); rc >= 0)
            return rc;
        if (cmd == "--help" || cmd == "-h" || cmd == "help" || a.help) {
            std::cout << usage(a.lang); // parascope-cli --help --lang zh
            return kExitOk;
        }
        static const struct {
            const char* name;
            int (*run)(const Args&);
        } kCommands[] = {
            {"evaluate", evaluateCommand},     {"timeline", timelineCommand}, {"sweep", sweepCommand},
            {"search", searchCommand},         {"validate", validateCommand}, {"profile", profileCommand},
            {"presets", presetsCommand},       {"model", modelCommand},       {"compare-trace", compareTraceCommand},
            {"collective", collectiveCommand}, {"advise", adviseCommand},     {"class-answers", classAnswersCommand}};
        for (const auto& c : kCommands)
            if (cmd == c.name)
                return c.run(a);
        return badUsage(a, "unknown command \"" + cmd + "\"", "未知命令“" + cmd + "”");
    } catch (const std::exception& e) {
        std::cerr << "parascope-cli: internal error: " << e.what() << "\n";
        return kExitInternal;
    }
}
