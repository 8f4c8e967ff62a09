#pragma once
// Shell scripts as launch scripts write them, read far enough to know what a command receives:
// tokens with their quotes kept (io/shell_script runs the statements), and a variable table that
// expands a word as bash does — quote removal, $VAR, ${VAR}, ${VAR:-default} (nested), ${VAR-…},
// ${ARR[@]} / ${ARR[*]}, positional parameters (unset: the script is read, not run with
// arguments), $(( arithmetic )) — and splits what an unquoted expansion gives into separate
// words (an array's element "--fp8-format hybrid" is two arguments unquoted, one quoted).
// Nothing is ever run.
//
// Every step is bounded: no recursion per input character, ${…:-…} nested at most kMaxNesting
// deep, arithmetic parentheses at most kMaxNesting deep (an explicit stack), one value at most
// kMaxValueBytes and all values together at most kMaxTotalBytes — as shells and YAML parsers
// bound alias expansion, so a 344-byte script of A=$A$A lines cannot take a gigabyte.

#include "util/quote.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parascope::shell {

inline constexpr int kMaxNesting = 32;
inline constexpr std::size_t kMaxValueBytes = std::size_t(1) << 20;
inline constexpr std::size_t kMaxTotalBytes = std::size_t(16) << 20;

// A token of the script. Word text is raw: quotes and `$` as written.
struct Token {
    enum class Kind {
        Word,
        Separator, // newline or ';'
        CaseEnd, // ';;'
        And, // '&&'
        Or, // '||'
        Pipe, // '|'
        Background, // '&'
        Open, // '('
        Close, // ')'
        Redirect, // '>', '>>', '<', '2>&1', …: the word after it is its target
        HereDoc, // the body of a "<<EOF" here-document (text: the body; quoted: no expansion)
    };
    Kind kind = Kind::Word;
    std::string text;
    int line = 0;
    bool quoted = false; // HereDoc: the delimiter was quoted
};

std::vector<Token> lex(const std::string& script);

// A word as the command receives it. `why` is set when it could not be read (an unset variable,
// a command substitution, …): the word stays, so the flag that needs it can say why.
struct Field {
    std::string text;
    int line = 0;
    std::string why;
};

// Shared with io/shell_arithmetic: name characters, a construct as a message shows it (at most
// 60 bytes), a variable's value as a whole number.
bool isNameStart(char c);
bool isNameChar(char c);
std::string shown(std::string_view w);
std::optional<long long> wholeNumber(std::string_view s);

// NAME=value or NAME+=value as a shell statement starts: the name, the raw value and whether it
// appends, or nothing.
struct Assignment {
    std::string name;
    std::string raw;
    bool append = false;
};
std::optional<Assignment> splitAssignment(const std::string& word);

struct Reference; // a $NAME or ${…} in a word (shell_words.cpp)
class FieldSink; // what an expansion appends to (shell_words.cpp)

// The script's variables: a scalar is an array of one element.
class Shell {
public:
    // The words `raw` (written on `line`) becomes: never fails, a word that cannot be read says why.
    std::vector<Field> fields(const std::string& raw, int line) const;
    // `raw` as an assignment's value (no splitting); on failure nullopt and why (naming the
    // construct). An unset variable reads as empty (as bash reads it): with `unread` given, the
    // value is returned and unread says which; without it, that is a failure too.
    std::optional<std::string> value(const std::string& raw, std::string& why, std::string* unread = nullptr) const;
    // NAME=raw / NAME+=raw on `line`. On a failed expansion the variable stays unset and a later
    // use says why; false with `why` only when a size limit is passed (an error at once).
    bool assign(const Assignment& a, int line, std::string& why);
    // NAME=( … ) / NAME+=( … ): the elements already expanded; false past kMaxTotalBytes.
    bool assignArray(const std::string& name, std::vector<Field> elements, bool append);
    void unset(const std::string& name);
    // A variable's elements (a scalar's one), or nullptr when it is not set.
    const std::vector<Field>* elements(const std::string& name) const;

private:
    bool expandInto(std::string_view w, int depth, FieldSink& sink, std::string& why) const;
    bool appendReference(const Reference& r, bool quoted, int depth, FieldSink& sink, std::string& why) const;
    // $(( … )) at w[i]: its value appended; i ends on the closing parenthesis.
    bool appendArithmetic(std::string_view w, std::size_t& i, bool quoted, FieldSink& sink, std::string& why) const;
    std::optional<std::string> lookup(const std::string& name, std::string& why) const;
    bool store(const std::string& name, std::vector<Field> value);
    std::map<std::string, std::vector<Field>> vars_;
    std::map<std::string, std::string> failed_; // name → why its last assignment failed
    std::size_t total_bytes_ = 0;
};

} // namespace parascope::shell
