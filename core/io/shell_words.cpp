#include "io/shell_words.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>

namespace parascope::shell {

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
        if (c == '\\' && i + 1 < s.size() && (s[i + 1] == '\n' || (s[i + 1] == '\r' && i + 2 < s.size() && s[i + 2] == '\n'))) {
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
            for (int depth = 0; i < s.size(); ++i) {
                cur += s[i];
                depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
                if (depth == 0)
                    break;
            }
            continue;
        }
        if ((c == '(' || c == ')') && !in_word) {
            // "$(( … ))" and "$( … )" stay inside their word (handled below); bare parens are words.
            paren_depth = std::max(0, paren_depth + (c == '(' ? 1 : -1));
            out.push_back({std::string(1, c), line, false});
            continue;
        }
        start();
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
    flush();
    return out;
}

namespace {

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
std::size_t closingBrace(std::string_view w, std::size_t open)
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
std::size_t closingArithmetic(std::string_view w, std::size_t open)
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

} // namespace

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

std::optional<std::string> Shell::expandAt(std::string_view w, int depth, std::string& why) const
{
    std::string out;
    const auto append = [&](std::string_view piece) {
        if (out.size() + piece.size() > kMaxValueBytes) {
            why = "the value grows past " + std::to_string(kMaxValueBytes >> 20) + " MiB (ParaScope's limit for one shell value)";
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
        std::string name;
        std::string_view fallback;
        bool has_fallback = false;
        if (w[i + 1] == '{') {
            const std::size_t end = closingBrace(w, i);
            if (end == std::string_view::npos) {
                why = "the parameter expansion " + shown(w.substr(i)) + " is not closed by \"}\"";
                return std::nullopt;
            }
            const std::string_view inside = w.substr(i + 2, end - i - 2);
            std::size_t n = 0;
            while (n < inside.size() && isNameChar(inside[n]))
                ++n;
            name = std::string(inside.substr(0, n));
            const std::string_view rest = inside.substr(n);
            i = end;
            if (!name.empty() && isNameStart(name[0]) && rest == "[@]")
                continue; // an array's elements: their flags were read where it was defined
            if (!name.empty() && isNameStart(name[0]) && rest.substr(0, 2) == ":-") {
                fallback = rest.substr(2);
                has_fallback = true;
            } else if (name.empty() || !isNameStart(name[0]) || !rest.empty()) {
                why = "the parameter expansion " + shown(w.substr(end - inside.size() - 2, inside.size() + 3))
                      + " (ParaScope reads ${NAME}, ${NAME:-default} and ${ARRAY[@]})";
                return std::nullopt;
            }
        } else {
            std::size_t j = i + 1;
            while (j < w.size() && isNameChar(w[j]))
                ++j;
            name = std::string(w.substr(i + 1, j - i - 1));
            if (name.empty()) {
                if (!append("$"))
                    return std::nullopt;
                continue;
            }
            i = j - 1;
        }
        const auto v = vars_.find(name);
        if (v != vars_.end() && !(has_fallback && v->second.empty())) {
            if (!append(v->second))
                return std::nullopt;
        } else if (has_fallback) {
            if (depth + 1 >= kMaxNesting) {
                why = "${…:-…} nested deeper than " + std::to_string(kMaxNesting) + " levels";
                return std::nullopt;
            }
            const auto f = expandAt(fallback, depth + 1, why);
            if (!f || !append(*f))
                return std::nullopt;
        } else if (!lookup(name, why)) {
            return std::nullopt;
        }
    }
    return out;
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
    const std::string expression = "$((" + std::string(e) + "))";
    const auto fail = [&](const std::string& what) {
        why = what + " in the arithmetic " + shown(expression);
        return std::nullopt;
    };
    // Operator-precedence parsing with two explicit stacks (no recursion): 'u' and 'p' are
    // unary minus and plus; '(' marks an open parenthesis.
    std::vector<long long> values;
    std::vector<char> ops;
    const auto precedence = [](char op) { return op == 'u' || op == 'p' ? 3 : op == '*' || op == '/' || op == '%' ? 2 : op == '(' ? 0 : 1; };
    std::string error;
    const auto apply = [&](char op) {
        long long r = 0;
        if (op == 'u' || op == 'p') {
            if (op == 'u' && __builtin_sub_overflow(0LL, values.back(), &r))
                return error = "an overflow", false;
            values.back() = op == 'u' ? r : values.back();
            return true;
        }
        const long long b = values.back();
        values.pop_back();
        long long& a = values.back();
        bool overflow = false;
        if (op == '+')
            overflow = __builtin_add_overflow(a, b, &r);
        else if (op == '-')
            overflow = __builtin_sub_overflow(a, b, &r);
        else if (op == '*')
            overflow = __builtin_mul_overflow(a, b, &r);
        else if (b == 0)
            return error = "a division by zero", false;
        else if (a == std::numeric_limits<long long>::min() && b == -1)
            overflow = true;
        else
            r = op == '/' ? a / b : a % b;
        if (overflow)
            return error = "an overflow", false;
        a = r;
        return true;
    };
    int depth = 0;
    bool expect_operand = true;
    for (std::size_t i = 0; i < e.size();) {
        const char c = e[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        if (expect_operand) {
            if (std::isdigit(static_cast<unsigned char>(c))) {
                std::size_t j = i;
                while (j < e.size() && std::isalnum(static_cast<unsigned char>(e[j])))
                    ++j;
                const auto n = wholeNumber(e.substr(i, j - i));
                if (!n || (e[i] == '0' && j - i > 1))
                    return fail("the number " + shown(e.substr(i, j - i)) + " (only decimal whole numbers below 2^63)");
                values.push_back(*n);
                expect_operand = false;
                i = j;
            } else if (c == '$' || isNameStart(c)) {
                std::size_t j = i + (c == '$');
                const bool braces = j < e.size() && e[j] == '{';
                j += braces;
                const std::size_t start = j;
                while (j < e.size() && isNameChar(e[j]))
                    ++j;
                const std::string name(e.substr(start, j - start));
                if (name.empty() || !isNameStart(name[0]) || (braces && (j >= e.size() || e[j] != '}')))
                    return fail("the reference " + shown(e.substr(i, j + 1 - i)) + " (only $NAME, ${NAME} and NAME)");
                j += braces;
                std::string cause;
                const auto text = lookup(name, cause);
                if (!text)
                    return why = cause, std::nullopt;
                const auto n = wholeNumber(*text);
                if (!n)
                    return fail("$" + name + " = " + shown(*text) + ", not a whole number,");
                values.push_back(*n);
                expect_operand = false;
                i = j;
            } else if (c == '(') {
                if (++depth > kMaxNesting)
                    return fail("parentheses nested deeper than " + std::to_string(kMaxNesting) + " levels");
                ops.push_back('(');
                ++i;
            } else if (c == '+' || c == '-') {
                ops.push_back(c == '-' ? 'u' : 'p');
                ++i;
            } else {
                return fail("the character '" + std::string(1, c) + "' (only whole numbers, variables, + − * / % and parentheses)");
            }
            continue;
        }
        if (c == ')') {
            if (--depth < 0)
                return fail("an unmatched ')'");
            while (ops.back() != '(')
                if (!apply(ops.back()))
                    return fail(error);
                else
                    ops.pop_back();
            ops.pop_back();
            ++i;
        } else if (c == '+' || c == '-' || c == '*' || c == '/' || c == '%') {
            while (!ops.empty() && ops.back() != '(' && precedence(ops.back()) >= precedence(c)) {
                if (!apply(ops.back()))
                    return fail(error);
                ops.pop_back();
            }
            ops.push_back(c);
            expect_operand = true;
            ++i;
        } else {
            return fail("the character '" + std::string(1, c) + "' (only whole numbers, variables, + − * / % and parentheses)");
        }
    }
    if (expect_operand)
        return fail(values.empty() && ops.empty() ? std::string("nothing to compute") : std::string("a missing number at the end"));
    if (depth != 0)
        return fail("an unclosed '('");
    while (!ops.empty()) {
        if (!apply(ops.back()))
            return fail(error);
        ops.pop_back();
    }
    return values.back();
}

} // namespace parascope::shell
