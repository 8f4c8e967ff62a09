#pragma once
// Bash's $(( … )) as launch scripts use it: whole numbers, variables, + − * / % and
// parentheses, evaluated by operator precedence on two explicit stacks (no recursion per
// nesting level; parentheses at most kMaxNesting deep), every overflow and division by zero an
// error naming the construct. Used by io/shell_words.

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace parascope::shell {

// A variable's value by name; nullopt with why when it is not set.
using VariableLookup = std::function<std::optional<std::string>(const std::string& name, std::string& why)>;

// The value of the expression inside $(( … )); nullopt with why (naming the construct).
std::optional<long long> evaluateArithmetic(std::string_view expression, const VariableLookup& lookup,
                                            std::string& why);

} // namespace parascope::shell
