#pragma once
// Shell scripts as launch scripts use them, read far enough to find a command's arguments:
// words with quotes removed, backslash-newline continuations, comments, ( ) as words of their
// own (bash arrays), and a variable table with $VAR, ${VAR}, ${VAR:-default} (nested),
// ${ARR[@]} and $(( arithmetic )). Nothing is ever run. Used by io/megatron_args_import.
//
// Every step is bounded: no recursion per input character, ${…:-…} nested at most
// kMaxNesting deep, arithmetic parentheses at most kMaxNesting deep (an explicit stack), one
// value at most kMaxValueBytes and all values together at most kMaxTotalBytes — as shells and
// YAML parsers bound alias expansion, so a 344-byte script of A=$A$A lines cannot take a
// gigabyte.

#include "util/quote.h"

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parascope::shell {

inline constexpr int kMaxNesting = 32;
inline constexpr std::size_t kMaxValueBytes = std::size_t(1) << 20;
inline constexpr std::size_t kMaxTotalBytes = std::size_t(16) << 20;

// A shell word after quote removal. `$` still to expand is kept as is; a `$` from inside single
// quotes (or escaped) is stored as kLiteralDollar so expansion leaves it alone.
struct Word {
    std::string text;
    int line = 0;
    bool separator = false; // end of a command (newline, ';', '&&', '|')
};

inline constexpr char kLiteralDollar = '\x01';

std::vector<Word> lex(const std::string& script);

// Shared with io/shell_arithmetic: name characters, a construct as a message shows it (`$`
// restored, at most 60 bytes), a variable's value as a whole number.
bool isNameStart(char c);
bool isNameChar(char c);
std::string shown(std::string_view w);
std::optional<long long> wholeNumber(std::string_view s);

// NAME=value as a shell statement starts: the name and the raw value, or nothing.
std::optional<std::pair<std::string, std::string>> splitAssignment(const std::string& word);

struct Reference; // a $NAME or ${…} in a word (shell_words.cpp)

// The script's variables.
class Shell {
public:
    // Expands `w`; on failure returns nullopt and says why (naming the construct).
    std::optional<std::string> expand(const std::string& w, std::string& why) const;
    // NAME=raw on `line`: expands and sets it. On failure the variable stays unset and a later
    // use says why; false with `why` only when a size limit is passed (an error at once).
    bool assign(const std::string& name, const std::string& raw, int line, std::string& why);
    // Sets a value already expanded (an array's words); false past kMaxTotalBytes.
    bool set(const std::string& name, std::string value);

private:
    std::optional<std::string> expandAt(std::string_view w, int depth, std::string& why) const;
    // A reference's value (its default, expanded, when it is unset or empty) through `append`.
    bool appendValue(const Reference& r, int depth, const std::function<bool(std::string_view)>& append,
                     std::string& why) const;
    std::optional<std::string> lookup(const std::string& name, std::string& why) const;
    // Integers with + − * / % and parentheses, and variables (bash's $(( … )) as launch scripts
    // use it), evaluated with explicit stacks.
    std::optional<long long> arithmetic(std::string_view e, std::string& why) const;
    std::map<std::string, std::string> vars_;
    std::map<std::string, std::string> failed_; // name → why its last assignment failed
    std::size_t total_bytes_ = 0;
};

} // namespace parascope::shell
