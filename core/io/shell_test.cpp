#include "io/shell_test.h"

#include <set>

namespace parascope::shell {

bool globMatch(std::string_view text, std::string_view pattern)
{
    // Iterative matching with one backtrack point for the last '*' (linear in practice).
    std::size_t t = 0, p = 0, star = std::string_view::npos, mark = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
            ++t;
            ++p;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            mark = t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

namespace {

const std::set<std::string> kFileTests = {"-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-p", "-r",
                                          "-s", "-t", "-u", "-w", "-x", "-G", "-L", "-N", "-O", "-S"};
const std::set<std::string> kNumeric = {"-eq", "-ne", "-lt", "-le", "-gt", "-ge"};

// Recursive descent over the test's words; depth is bounded by the number of words, which a
// launch script keeps small (and kMaxNesting caps).
class TestParser {
public:
    TestParser(const std::vector<Field>& w, const Shell& shell)
        : w_(w)
        , shell_(shell)
    { }

    TestResult run()
    {
        TestResult r;
        r.value = orExpr(0);
        if (i_ < w_.size())
            undecided("the words after " + shown(w_[i_ - (i_ > 0)].text) + " are not a test");
        r.decided = note_.empty();
        r.note = note_;
        return r;
    }

private:
    bool at(std::string_view s) const { return i_ < w_.size() && w_[i_].text == s; }
    void undecided(const std::string& why)
    {
        if (note_.empty())
            note_ = why;
    }

    bool orExpr(int depth)
    {
        bool v = andExpr(depth);
        while (at("||") || at("-o")) {
            ++i_;
            const bool rhs = andExpr(depth);
            v = v || rhs;
        }
        return v;
    }
    bool andExpr(int depth)
    {
        bool v = notExpr(depth);
        while (at("&&") || at("-a")) {
            ++i_;
            const bool rhs = notExpr(depth);
            v = v && rhs;
        }
        return v;
    }
    bool notExpr(int depth)
    {
        if (depth > kMaxNesting) {
            undecided("the test nests deeper than " + std::to_string(kMaxNesting) + " levels");
            return false;
        }
        if (at("!")) {
            ++i_;
            return !notExpr(depth + 1);
        }
        if (at("(")) {
            ++i_;
            const bool v = orExpr(depth + 1);
            if (at(")"))
                ++i_;
            return v;
        }
        return primary();
    }

    const Field& take()
    {
        const Field& f = w_[i_++];
        if (!f.why.empty())
            undecided(f.why);
        return f;
    }

    bool primary()
    {
        if (i_ >= w_.size()) {
            undecided("an empty test");
            return false;
        }
        if (i_ + 1 < w_.size() && w_[i_].text.size() == 2 && w_[i_].text[0] == '-'
            && !isBinary(w_[i_ + 1].text)) // a unary operator and its operand
            return unary();
        const Field& lhs = take();
        if (i_ < w_.size() && isBinary(w_[i_].text)) {
            const std::string op = w_[i_++].text;
            if (i_ >= w_.size()) {
                undecided("\"" + op + "\" has nothing on its right");
                return false;
            }
            return binary(lhs.text, op, take().text);
        }
        return !lhs.text.empty();
    }

    static bool isBinary(const std::string& op)
    {
        return op == "=" || op == "==" || op == "!=" || op == "<" || op == ">" || op == "=~" || kNumeric.count(op);
    }

    bool unary()
    {
        const std::string op = w_[i_++].text;
        const Field& arg = take();
        if (op == "-z" || op == "-n")
            return (op == "-z") == arg.text.empty();
        if (op == "-v")
            return shell_.elements(arg.text) != nullptr;
        if (kFileTests.count(op)) {
            files_assumed_ = true;
            return true;
        }
        undecided("the test operator " + shown(op));
        return false;
    }

    bool binary(const std::string& a, const std::string& op, const std::string& b)
    {
        if (op == "=" || op == "==")
            return globMatch(a, b);
        if (op == "!=")
            return !globMatch(a, b);
        if (op == "<" || op == ">")
            return op == "<" ? a < b : a > b;
        if (op == "=~") {
            undecided("a regular expression (=~)");
            return false;
        }
        const auto x = wholeNumber(a), y = wholeNumber(b);
        if (!x || !y) {
            undecided(shown(a) + " " + op + " " + shown(b) + " compares numbers");
            return false;
        }
        return op == "-eq" ? *x == *y
            : op == "-ne"  ? *x != *y
            : op == "-lt"  ? *x < *y
            : op == "-le"  ? *x <= *y
            : op == "-gt"  ? *x > *y
                           : *x >= *y;
    }

    const std::vector<Field>& w_;
    const Shell& shell_;
    std::size_t i_ = 0;
    std::string note_;

public:
    bool files_assumed_ = false;
};

} // namespace

TestResult evaluateTest(const std::vector<Field>& words, const Shell& shell)
{
    TestParser p(words, shell);
    TestResult r = p.run();
    if (r.decided && p.files_assumed_)
        r.note = "its file test is taken as true (the files a launch script checks for are the ones it needs)";
    return r;
}

} // namespace parascope::shell
