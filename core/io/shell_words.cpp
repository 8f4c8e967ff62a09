#include "io/shell_words.h"

#include "io/shell_arithmetic.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <functional>

namespace parascope::shell {

namespace {

// A flag's value that starts with a parenthesis: appends s[i] up to its balancing `)` to cur;
// i ends there.
void readParenthesizedValue(const std::string& s, std::size_t& i, std::string& cur)
{
    for (int depth = 0; i < s.size(); ++i) {
        cur += s[i];
        depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
        if (depth == 0)
            break;
    }
}

// Appends the word piece at s[i] (a quoted string, an escape, a "$( … )" or one character) to
// cur; i ends on its last character, and line counts the newlines inside quotes.
void readWordPiece(const std::string& s, std::size_t& i, std::string& cur, int& line)
{
    const char c = s[i];
    if (c == '\'') {
        for (++i; i < s.size() && s[i] != '\''; ++i) {
            line += s[i] == '\n';
            cur += s[i] == '$' ? kLiteralDollar : s[i];
        }
    } else if (c == '"') {
        for (++i; i < s.size() && s[i] != '"'; ++i) {
            if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == '"' || s[i + 1] == '\\' || s[i + 1] == '$')) {
                ++i;
                cur += s[i] == '$' ? kLiteralDollar : s[i];
                continue;
            }
            line += s[i] == '\n';
            cur += s[i];
        }
    } else if (c == '\\' && i + 1 < s.size()) {
        ++i;
        cur += s[i] == '$' ? kLiteralDollar : s[i];
    } else if (c == '$' && i + 1 < s.size() && s[i + 1] == '(') {
        // Command or arithmetic substitution: keep it whole, balanced.
        int depth = 0;
        for (; i < s.size(); ++i) {
            cur += s[i];
            if (s[i] == '(')
                ++depth;
            else if (s[i] == ')' && --depth == 0)
                break;
        }
    } else {
        cur += c;
    }
}

} // namespace

// Splits a shell script into words: quotes, backslash-newline continuations, comments, and
// ( ) as words of their own so that arrays can be found.
std::vector<Word> lex(const std::string& s)
{
    std::vector<Word> out;
    std::string cur;
    bool in_word = false;
    int line = 1, word_line = 1, paren_depth = 0;
    const auto flush = [&] {
        if (in_word)
            out.push_back({cur, word_line, false});
        cur.clear();
        in_word = false;
    };
    const auto start = [&] {
        if (!in_word) {
            in_word = true;
            word_line = line;
        }
    };
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '\\' && i + 1 < s.size()
            && (s[i + 1] == '\n' || (s[i + 1] == '\r' && i + 2 < s.size() && s[i + 2] == '\n'))) {
            i += s[i + 1] == '\r' ? 2 : 1;
            ++line;
            continue;
        }
        if (c == '\n' || c == ';') {
            flush();
            if (paren_depth == 0)
                out.push_back({"", line, true});
            line += c == '\n';
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c))) {
            flush();
            continue;
        }
        if (c == '#' && !in_word) {
            while (i + 1 < s.size() && s[i + 1] != '\n')
                ++i;
            continue;
        }
        if ((c == '&' || c == '|') && !in_word) {
            if (i + 1 < s.size() && s[i + 1] == c)
                ++i;
            if (paren_depth == 0)
                out.push_back({"", line, true});
            continue;
        }
        if (c == '(' && !in_word && !out.empty() && !out.back().separator && out.back().text.rfind("--", 0) == 0) {
            // A flag's value that starts with a parenthesis, unquoted in a text file:
            // --moe-layer-freq ([0]*3+[1]*58).
            start();
            readParenthesizedValue(s, i, cur);
            continue;
        }
        if ((c == '(' || c == ')') && !in_word) {
            // "$(( … ))" and "$( … )" stay inside their word (handled below); bare parens are words.
            paren_depth = std::max(0, paren_depth + (c == '(' ? 1 : -1));
            out.push_back({std::string(1, c), line, false});
            continue;
        }
        start();
        readWordPiece(s, i, cur, line);
    }
    flush();
    return out;
}

bool isNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// For messages: the construct as written, `$` restored, at most 60 bytes.
std::string shown(std::string_view w)
{
    std::string s(w);
    std::replace(s.begin(), s.end(), kLiteralDollar, '$');
    return quoteInput(s, 60);
}

// The `}` closing the "${" at `open`, counting nested "${": npos when there is none.
static std::size_t closingBrace(std::string_view w, std::size_t open)
{
    int depth = 0;
    for (std::size_t j = open; j < w.size(); ++j) {
        if (w[j] == '$' && j + 1 < w.size() && w[j + 1] == '{') {
            ++depth;
            ++j;
        } else if (w[j] == '}' && --depth == 0) {
            return j;
        }
    }
    return std::string_view::npos;
}

// The first `)` of the "))" closing the "$((" at `open`: npos when there is none.
static std::size_t closingArithmetic(std::string_view w, std::size_t open)
{
    int depth = 0;
    for (std::size_t j = open + 3; j < w.size(); ++j) {
        if (w[j] == '(')
            ++depth;
        else if (w[j] == ')' && depth > 0)
            --depth;
        else if (w[j] == ')')
            return j + 1 < w.size() && w[j + 1] == ')' ? j : std::string_view::npos;
    }
    return std::string_view::npos;
}

// A whole number as a variable holds it ("-3", "42"); nothing for anything else.
std::optional<long long> wholeNumber(std::string_view s)
{
    if (s.empty() || s.size() > 19)
        return std::nullopt;
    const std::string t(s);
    char* end = nullptr;
    errno = 0;
    const long long n = std::strtoll(t.c_str(), &end, 10);
    if (errno != 0 || end == t.c_str() || *end != '\0')
        return std::nullopt;
    return n;
}

std::optional<std::pair<std::string, std::string>> splitAssignment(const std::string& word)
{
    if (word.empty() || !isNameStart(word[0]))
        return std::nullopt;
    std::size_t j = 1;
    while (j < word.size() && isNameChar(word[j]))
        ++j;
    if (j >= word.size() || word[j] != '=')
        return std::nullopt;
    return std::pair{word.substr(0, j), word.substr(j + 1)};
}

std::optional<std::string> Shell::lookup(const std::string& name, std::string& why) const
{
    if (const auto v = vars_.find(name); v != vars_.end())
        return v->second;
    if (const auto f = failed_.find(name); f != failed_.end())
        why = "$" + name + " is not set: " + f->second;
    else
        why = "$" + name + " is not set in the script";
    return std::nullopt;
}

std::optional<std::string> Shell::expand(const std::string& w, std::string& why) const { return expandAt(w, 0, why); }

// A parameter reference starting at w[i] == '$': ${NAME}, ${NAME:-default}, ${ARRAY[@]} or
// $NAME. `last` is the index of its last character.
struct Reference {
    std::string name; // empty: a lone '$', kept as it is
    std::string_view fallback; // ${NAME:-fallback}
    bool has_fallback = false;
    bool array = false; // ${ARRAY[@]}: its flags were read where it was defined
    std::size_t last = 0;
};

namespace {

std::optional<Reference> parseReference(std::string_view w, std::size_t i, std::string& why)
{
    Reference r;
    if (w[i + 1] != '{') {
        std::size_t j = i + 1;
        while (j < w.size() && isNameChar(w[j]))
            ++j;
        r.name = std::string(w.substr(i + 1, j - i - 1));
        r.last = r.name.empty() ? i : j - 1;
        return r;
    }
    const std::size_t end = closingBrace(w, i);
    if (end == std::string_view::npos) {
        why = "the parameter expansion " + shown(w.substr(i)) + " is not closed by \"}\"";
        return std::nullopt;
    }
    const std::string_view inside = w.substr(i + 2, end - i - 2);
    std::size_t n = 0;
    while (n < inside.size() && isNameChar(inside[n]))
        ++n;
    r.name = std::string(inside.substr(0, n));
    const std::string_view rest = inside.substr(n);
    r.last = end;
    const bool named = !r.name.empty() && isNameStart(r.name[0]);
    r.array = named && rest == "[@]";
    r.has_fallback = named && rest.substr(0, 2) == ":-";
    if (r.has_fallback)
        r.fallback = rest.substr(2);
    if (!named || (!rest.empty() && !r.array && !r.has_fallback)) {
        why = "the parameter expansion " + shown(w.substr(i, end + 1 - i))
            + " (ParaScope reads ${NAME}, ${NAME:-default} and ${ARRAY[@]})";
        return std::nullopt;
    }
    return r;
}

} // namespace

std::optional<std::string> Shell::expandAt(std::string_view w, int depth, std::string& why) const
{
    std::string out;
    const auto append = [&](std::string_view piece) {
        if (out.size() + piece.size() > kMaxValueBytes) {
            why = "the value grows past " + std::to_string(kMaxValueBytes >> 20)
                + " MiB (ParaScope's limit for one shell value)";
            return false;
        }
        out += piece;
        return true;
    };
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (w[i] == kLiteralDollar || w[i] != '$' || i + 1 >= w.size()) {
            if (!append(std::string_view(w[i] == kLiteralDollar ? "$" : &w[i], 1)))
                return std::nullopt;
            continue;
        }
        if (w.compare(i, 3, "$((") == 0) {
            const std::size_t end = closingArithmetic(w, i);
            if (end == std::string_view::npos) {
                why = "the arithmetic " + shown(w.substr(i)) + " is not closed by \"))\"";
                return std::nullopt;
            }
            const auto value = arithmetic(w.substr(i + 3, end - i - 3), why);
            if (!value || !append(std::to_string(*value)))
                return std::nullopt;
            i = end + 1;
            continue;
        }
        if (w[i + 1] == '(') {
            why = "the command substitution " + shown(w.substr(i)) + " (ParaScope does not run commands)";
            return std::nullopt;
        }
        const std::optional<Reference> r = parseReference(w, i, why);
        if (!r)
            return std::nullopt;
        i = r->last;
        if (r->array)
            continue;
        if (r->name.empty() ? !append("$") : !appendValue(*r, depth, append, why))
            return std::nullopt;
    }
    return out;
}

bool Shell::appendValue(const Reference& r, int depth, const std::function<bool(std::string_view)>& append,
                        std::string& why) const
{
    const auto v = vars_.find(r.name);
    if (v != vars_.end() && !(r.has_fallback && v->second.empty()))
        return append(v->second);
    if (!r.has_fallback)
        return lookup(r.name, why).has_value();
    if (depth + 1 >= kMaxNesting) {
        why = "${…:-…} nested deeper than " + std::to_string(kMaxNesting) + " levels";
        return false;
    }
    const auto f = expandAt(r.fallback, depth + 1, why);
    return f && append(*f);
}

bool Shell::set(const std::string& name, std::string value)
{
    const auto old = vars_.find(name);
    const std::size_t before = old != vars_.end() ? old->second.size() : 0;
    if (total_bytes_ - before + value.size() > kMaxTotalBytes)
        return false;
    total_bytes_ = total_bytes_ - before + value.size();
    vars_[name] = std::move(value);
    failed_.erase(name);
    return true;
}

bool Shell::assign(const std::string& name, const std::string& raw, int line, std::string& why)
{
    std::string cause;
    std::optional<std::string> value = expand(raw, cause);
    const std::string where = "line " + std::to_string(line) + ": " + name + "=" + shown(raw);
    if (!value && cause.find("ParaScope's limit") != std::string::npos) {
        why = where + ": " + cause;
        return false;
    }
    if (!value) {
        // Unset until used: a script may define what it never passes on.
        vars_.erase(name);
        failed_[name] = "its assignment on " + where + " could not be read: " + cause;
        return true;
    }
    if (!set(name, std::move(*value))) {
        why = where + ": the script's variables together grow past " + std::to_string(kMaxTotalBytes >> 20)
            + " MiB (ParaScope's limit)";
        return false;
    }
    return true;
}

std::optional<long long> Shell::arithmetic(std::string_view e, std::string& why) const
{
    return evaluateArithmetic(
        e, [this](const std::string& name, std::string& cause) { return lookup(name, cause); }, why);
}

} // namespace parascope::shell
