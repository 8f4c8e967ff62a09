#include "io/shell_arithmetic.h"

#include "io/shell_words.h"

#include <cctype>
#include <limits>
#include <vector>

namespace parascope::shell {

namespace {

// $(( … )) by operator precedence on two explicit stacks (no recursion per nesting level):
// operands go on `values_`, operators on `ops_` ('u' and 'p' are unary minus and plus, '('
// an open parenthesis). Each step returns false with `error_` set.
class Arithmetic {
public:
    explicit Arithmetic(const VariableLookup& lookup)
        : lookup_(lookup)
    { }

    std::optional<long long> run(std::string_view e, std::string& why)
    {
        for (std::size_t i = 0; i < e.size();) {
            if (std::isspace(static_cast<unsigned char>(e[i]))) {
                ++i;
                continue;
            }
            const bool ok = expect_operand_ ? operand(e, i) : afterOperand(e, i);
            if (!ok)
                return fail(e, why);
        }
        if (!finish())
            return fail(e, why);
        return values_.back();
    }

private:
    static int precedence(char op)
    {
        return op == 'u' || op == 'p' ? 3 : op == '*' || op == '/' || op == '%' ? 2 : op == '(' ? 0 : 1;
    }
    static std::string characterError(char c)
    {
        return "the character '" + std::string(1, c) + "' (only whole numbers, variables, + − * / % and parentheses)";
    }

    std::optional<long long> fail(std::string_view e, std::string& why) const
    {
        why = own_message_ ? error_ : error_ + " in the arithmetic " + shown("$((" + std::string(e) + "))");
        return std::nullopt;
    }
    bool error(std::string what)
    {
        error_ = std::move(what);
        return false;
    }

    // A number, a variable, an opening parenthesis or a unary sign.
    bool operand(std::string_view e, std::size_t& i)
    {
        const char c = e[i];
        if (std::isdigit(static_cast<unsigned char>(c)))
            return number(e, i);
        if (c == '$' || isNameStart(c))
            return variable(e, i);
        if (c == '(') {
            if (++depth_ > kMaxNesting)
                return error("parentheses nested deeper than " + std::to_string(kMaxNesting) + " levels");
            ops_.push_back('(');
        } else if (c == '+' || c == '-') {
            ops_.push_back(c == '-' ? 'u' : 'p');
        } else {
            return error(characterError(c));
        }
        ++i;
        return true;
    }

    bool number(std::string_view e, std::size_t& i)
    {
        std::size_t j = i;
        while (j < e.size() && std::isalnum(static_cast<unsigned char>(e[j])))
            ++j;
        const auto n = wholeNumber(e.substr(i, j - i));
        if (!n || (e[i] == '0' && j - i > 1))
            return error("the number " + shown(e.substr(i, j - i)) + " (only decimal whole numbers below 2^63)");
        return push(*n, i, j);
    }

    bool variable(std::string_view e, std::size_t& i)
    {
        std::size_t j = i + (e[i] == '$');
        const bool braces = j < e.size() && e[j] == '{';
        j += braces;
        const std::size_t start = j;
        while (j < e.size() && isNameChar(e[j]))
            ++j;
        const std::string name(e.substr(start, j - start));
        if (name.empty() || !isNameStart(name[0]) || (braces && (j >= e.size() || e[j] != '}')))
            return error("the reference " + shown(e.substr(i, j + 1 - i)) + " (only $NAME, ${NAME} and NAME)");
        j += braces;
        std::string cause;
        const auto text = lookup_(name, cause);
        if (!text) {
            own_message_ = true; // "$X is not set …" says it all
            return error(cause);
        }
        const auto n = wholeNumber(*text);
        if (!n)
            return error("$" + name + " = " + shown(*text) + ", not a whole number,");
        return push(*n, i, j);
    }

    bool push(long long value, std::size_t& i, std::size_t end)
    {
        values_.push_back(value);
        expect_operand_ = false;
        i = end;
        return true;
    }

    // A binary operator or a closing parenthesis.
    bool afterOperand(std::string_view e, std::size_t& i)
    {
        const char c = e[i++];
        if (c == ')') {
            if (--depth_ < 0)
                return error("an unmatched ')'");
            while (ops_.back() != '(')
                if (!applyTop())
                    return false;
            ops_.pop_back();
            return true;
        }
        if (c != '+' && c != '-' && c != '*' && c != '/' && c != '%')
            return error(characterError(c));
        while (!ops_.empty() && ops_.back() != '(' && precedence(ops_.back()) >= precedence(c))
            if (!applyTop())
                return false;
        ops_.push_back(c);
        expect_operand_ = true;
        return true;
    }

    bool finish()
    {
        if (expect_operand_)
            return error(values_.empty() && ops_.empty() ? "nothing to compute" : "a missing number at the end");
        if (depth_ != 0)
            return error("an unclosed '('");
        while (!ops_.empty())
            if (!applyTop())
                return false;
        return true;
    }

    // Pops the top operator and applies it to the top value(s), with overflow checks.
    bool applyTop()
    {
        const char op = ops_.back();
        ops_.pop_back();
        long long r = 0;
        if (op == 'u' || op == 'p') {
            if (op == 'u' && __builtin_sub_overflow(0LL, values_.back(), &r))
                return error("an overflow");
            values_.back() = op == 'u' ? r : values_.back();
            return true;
        }
        const long long b = values_.back();
        values_.pop_back();
        long long& a = values_.back();
        bool overflow = false;
        if (op == '+')
            overflow = __builtin_add_overflow(a, b, &r);
        else if (op == '-')
            overflow = __builtin_sub_overflow(a, b, &r);
        else if (op == '*')
            overflow = __builtin_mul_overflow(a, b, &r);
        else if (b == 0)
            return error("a division by zero");
        else if (a == std::numeric_limits<long long>::min() && b == -1)
            overflow = true;
        else
            r = op == '/' ? a / b : a % b;
        if (overflow)
            return error("an overflow");
        a = r;
        return true;
    }

    const VariableLookup& lookup_;
    std::vector<long long> values_;
    std::vector<char> ops_;
    int depth_ = 0;
    bool expect_operand_ = true;
    bool own_message_ = false;
    std::string error_;
};

} // namespace

std::optional<long long> evaluateArithmetic(std::string_view expression, const VariableLookup& lookup, std::string& why)
{
    return Arithmetic(lookup).run(expression, why);
}

} // namespace parascope::shell
