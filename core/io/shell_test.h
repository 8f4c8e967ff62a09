#pragma once
// The tests of `if` and `while` as launch scripts write them: `[ … ]`, `[[ … ]]` and `test …` with
// = == != (glob patterns: * and ?), -z -n, -eq -ne -lt -le -gt -ge, ! ( ) && || -a -o, and -v.
// File tests (-f -d -e …) cannot be checked without the machine the script runs on: they are
// taken as true (the files a launch script checks for are the ones it needs), and said so.
// Internal to io/shell_script.

#include "io/shell_words.h"

#include <string>
#include <vector>

namespace parascope::shell {

struct TestResult {
    bool value = false;
    bool decided = true; // false: taken as `value` without knowing (the note says why)
    std::string note;
};

// words: the test's words after expansion, without the command word ("[", "[[", "test") and
// the closing "]" / "]]".
TestResult evaluateTest(const std::vector<Field>& words, const Shell& shell);

// Bash's pattern matching for [[ == ]] and case: * any run, ? one character, the rest literal.
bool globMatch(std::string_view text, std::string_view pattern);

} // namespace parascope::shell
