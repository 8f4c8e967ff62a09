#pragma once
// parascope-cli's shared pieces: the parsed command line, the usage text, loading the scenario
// (with --set and --profile) and writing the answer (stdout or --out). One file per subcommand:
// cmd_evaluate.cpp (evaluate, timeline, sweep), cmd_search.cpp, cmd_validate.cpp,
// cmd_profile.cpp (profile, presets), cmd_model.cpp (model import-hf, import-megatron),
// cmd_trace.cpp (compare-trace), cmd_collective.cpp (collective), cmd_advise.cpp (advise), cmd_class.cpp (class-answers).

#include "hardware/nccl_tests_import.h"
#include "io/error_bands.h"
#include "types/scenario.h"
#include "util/text_columns.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parascope::cli {

inline constexpr int kExitOk = 0, kExitInternal = 1, kExitBadInput = 2;

struct Args {
    std::vector<std::string> positional;
    std::string format; // per command default
    std::string lang = "en"; // "en" or "zh": every header, label, value and message follows it
    std::string profile;
    std::string out;
    std::string into;
    std::string param;
    std::string values;
    std::vector<std::string> sets; // --set PATH=VALUE, in order
    std::vector<std::string> lessons; // class-answers --lesson FILE: a teacher's lesson files
    long long gpus = 0, top = 10, threads = 0;
    bool closed_form = false, fewest_gpus = false;
    parascope::NcclTestsOverrides nccl;
    bool explain = true;
    bool text_only = false; // model import-hf: the language model of a multimodal config
    bool comm_lanes = false; // timeline --format chrome-trace: one thread per kind of communication
    std::string cluster; // model import-megatron: the cluster preset
    long long vocab = 0; // model import-megatron: the tokenizer's vocabulary
    int device = -1; // compare-trace: the GPU of a trace that holds several
    std::string bytes; // collective: the buffer size ("1GiB", "256MB", "4096")
    std::string algorithm; // collective: ring, tree or hierarchical
    bool help = false; // --help after a subcommand
};

// --lang's value → "en" or "zh": en, en_US, zh, zh_CN; nullopt for any other (zh_TW too: the
// text is simplified Chinese).
std::optional<std::string> languageOf(std::string_view value);
inline constexpr const char* kLanguages = "en, en_US, zh, zh_CN";

inline bool zh(const Args& a) { return a.lang == "zh"; }
inline std::string say(const Args& a, const std::string& en, const std::string& zh_text)
{
    return zh(a) ? zh_text : en;
}

// The usage text in "en" or "zh"; the knobs --set and sweep take are listed from the knob table.
std::string usage(const std::string& lang = "en");

// Prints the message and the usage to stderr in a's language; returns kExitBadInput.
int badUsage(const Args& a, const std::string& en, const std::string& zh_text);
// The same in English, for what comes before the language is known.
int badUsage(const std::string& message);

// What a "±" column means, one line per class among `bands` (each named once): the sweep's and
// the search's tables.
std::string bandNote(const Args& a, const std::vector<ErrorBand>& bands);

// Parses argv[first…]; returns an exit code on error, −1 when parsed. --lang is read first,
// wherever it stands, so that the other options' errors are in its language.
int parseArgs(int argc, char** argv, int first, Args& a);

// The scenario of positional[0] with --profile and every --set applied; nullopt (message on
// stderr) when it cannot be read.
std::optional<Scenario> loadScenario(const Args& a, const char* command);

// Prints each error of an input file, prefixed with the file's name; returns kExitBadInput.
int printFileErrors(const std::string& file, const std::vector<InputError>& errors);

// Writes the answer to --out (atomically) or stdout; returns the exit code.
int emit(const Args& a, const std::string& text);

int evaluateCommand(const Args& a);
int timelineCommand(const Args& a);
int sweepCommand(const Args& a);
int searchCommand(const Args& a);
int adviseCommand(const Args& a);
int classAnswersCommand(const Args& a);
int validateCommand(const Args& a);
int profileCommand(const Args& a);
int presetsCommand(const Args& a);
int modelCommand(const Args& a);
int compareTraceCommand(const Args& a);
int collectiveCommand(const Args& a);

} // namespace parascope::cli
