#include "io/shell_words.h"

#include <algorithm>
#include <cctype>

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

std::optional<std::string> Shell::expand(const std::string& w, std::string& why) const
{
    std::string out;
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (w[i] == kLiteralDollar) {
            out += '$';
            continue;
        }
        if (w[i] != '$' || i + 1 >= w.size()) {
            out += w[i];
            continue;
        }
        if (w.compare(i, 3, "$((") == 0) {
            const std::size_t end = w.find("))", i);
            if (end == std::string::npos) {
                why = "an unclosed $(( … ))";
                return std::nullopt;
            }
            std::string inner = w.substr(i + 3, end - i - 3);
            const auto value = arithmetic(inner, why);
            if (!value)
                return std::nullopt;
            out += std::to_string(*value);
            i = end + 1;
            continue;
        }
        if (w[i + 1] == '(') {
            why = "the command substitution " + w.substr(i) + " (ParaScope does not run commands)";
            return std::nullopt;
        }
        std::string name, fallback;
        bool has_fallback = false;
        if (w[i + 1] == '{') {
            const std::size_t end = w.find('}', i);
            if (end == std::string::npos) {
                why = "an unclosed ${";
                return std::nullopt;
            }
            name = w.substr(i + 2, end - i - 2);
            if (const std::size_t d = name.find(":-"); d != std::string::npos) {
                fallback = name.substr(d + 2);
                name.resize(d);
                has_fallback = true;
            }
            if (name.size() > 3 && name.compare(name.size() - 3, 3, "[@]") == 0) {
                i = end; // an array's elements: their flags were read where it was defined
                continue;
            }
            i = end;
        } else {
            std::size_t j = i + 1;
            while (j < w.size() && (std::isalnum(static_cast<unsigned char>(w[j])) || w[j] == '_'))
                ++j;
            name = w.substr(i + 1, j - i - 1);
            if (name.empty()) {
                out += '$';
                continue;
            }
            i = j - 1;
        }
        const auto v = vars_.find(name);
        if (v != vars_.end()) {
            out += v->second;
        } else if (has_fallback) {
            const auto f = expand(fallback, why);
            if (!f)
                return std::nullopt;
            out += *f;
        } else {
            why = "$" + name + " is not set in the script";
            return std::nullopt;
        }
    }
    return out;
}
std::optional<long long> Shell::arithmetic(std::string e, std::string& why) const
{
    std::string expanded;
    for (std::size_t i = 0; i < e.size();) {
        if (e[i] == '$' || std::isalpha(static_cast<unsigned char>(e[i])) || e[i] == '_') {
            std::size_t j = i + (e[i] == '$');
            const bool braces = j < e.size() && e[j] == '{';
            j += braces;
            const std::size_t name_start = j;
            while (j < e.size() && (std::isalnum(static_cast<unsigned char>(e[j])) || e[j] == '_'))
                ++j;
            const std::string name = e.substr(name_start, j - name_start);
            j += braces && j < e.size() && e[j] == '}';
            const auto v = vars_.find(name);
            if (v == vars_.end()) {
                why = "$" + name + " is not set in the script";
                return std::nullopt;
            }
            expanded += v->second;
            i = j;
        } else {
            expanded += e[i++];
        }
    }
    // term (('*'|'/') term)* folded into sums.
    long long sum = 0, product = 0;
    int sign = 1;
    char op = 0;
    bool have_product = false;
    std::size_t i = 0;
    const auto skip = [&] {
        while (i < expanded.size() && std::isspace(static_cast<unsigned char>(expanded[i])))
            ++i;
    };
    for (;;) {
        skip();
        std::size_t j = i;
        while (j < expanded.size() && std::isdigit(static_cast<unsigned char>(expanded[j])))
            ++j;
        if (j == i) {
            why = "the arithmetic $((" + e + ")) (only whole numbers, variables and + − * /)";
            return std::nullopt;
        }
        if (j - i > 12) {
            why = "a number over 12 digits in $((" + e + "))";
            return std::nullopt;
        }
        const long long n = std::stoll(expanded.substr(i, j - i));
        i = j;
        if (!have_product)
            product = n;
        else if (op == '*' && __builtin_mul_overflow(product, n, &product)) {
            why = "an overflow in $((" + e + "))";
            return std::nullopt;
        }
        else if (op == '*') {
        } else if (n == 0) {
            why = "a division by zero in $((" + e + "))";
            return std::nullopt;
        } else
            product /= n;
        have_product = true;
        skip();
        if (i >= expanded.size())
            break;
        const char c = expanded[i++];
        if (c == '*' || c == '/') {
            op = c;
        } else if (c == '+' || c == '-') {
            if (__builtin_add_overflow(sum, sign * product, &sum)) {
                why = "an overflow in $((" + e + "))";
                return std::nullopt;
            }
            sign = c == '+' ? 1 : -1;
            have_product = false;
        } else {
            why = "the arithmetic $((" + e + ")) (only whole numbers, variables and + − * /)";
            return std::nullopt;
        }
    }
    if (__builtin_add_overflow(sum, sign * product, &sum)) {
        why = "an overflow in $((" + e + "))";
        return std::nullopt;
    }
    return sum;
}

} // namespace parascope::shell
