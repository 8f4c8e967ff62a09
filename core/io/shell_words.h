#pragma once
// Shell scripts as launch scripts use them, read far enough to find a command's arguments:
// words with quotes removed, backslash-newline continuations, comments, ( ) as words of their
// own (bash arrays), and a variable table with $VAR, ${VAR}, ${VAR:-default}, ${ARR[@]} and
// $(( arithmetic )). Nothing is ever run. Used by io/megatron_args_import.

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace parascope::shell {

// A shell word after quote removal. `$` still to expand is kept as is; a `$` from inside single
// quotes (or escaped) is stored as kLiteralDollar so expansion leaves it alone.
struct Word {
    std::string text;
    int line = 0;
    bool separator = false; // end of a command (newline, ';', '&&', '|')
};

inline constexpr char kLiteralDollar = '\x01';

std::vector<Word> lex(const std::string& script);

// The script's variables.
class Shell {
public:
    // Expands `w`; on failure returns nullopt and says why.
    std::optional<std::string> expand(const std::string& w, std::string& why) const;
    void set(const std::string& name, const std::string& value) { vars_[name] = value; }

private:
    // Integers with + − * / and variables (bash's $(( … )) as launch scripts use it).
    std::optional<long long> arithmetic(std::string e, std::string& why) const;
    std::map<std::string, std::string> vars_;
};

} // namespace parascope::shell
