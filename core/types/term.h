#pragma once
// Term: one number the user sees, with its formula, the formula with the values put in, and
// where the formula comes from. Every figure in an Estimate that reaches a view carries one.

#include <string>
#include <vector>

namespace parascope {

struct Term {
    std::string name; // stable id, e.g. "activations.per_layer"
    double value = 0; // in `unit`
    std::string unit; // "bytes", "s", "FLOP", "params", "count", "bytes/s"
    std::string formula; // e.g. "s·b·h·(34 + 5·a·s/h)"
    std::string substituted; // e.g. "4096·1·8192·(34 + 5·64·4096/8192)"
    std::string source; // e.g. "Korthikanti et al. 2022, Table 2"
};

// How much an evaluation explains. Search and sweeps evaluate thousands of strategies and read
// only the numbers: with NumbersOnly no formula string is built. Every number is computed by the
// same code either way (tests compare the two).
enum class Explain { Full, NumbersOnly };

// Appends the Term `make()` builds when explaining; with NumbersOnly `make` is never called, so
// no string is formatted.
template <class Make> void addTerm(std::vector<Term>& terms, Explain explain, Make&& make)
{
    if (explain == Explain::Full)
        terms.push_back(make());
}

// Compact number for substituted formulas: integers print without a fraction, large values
// keep their digits, others use up to 4 significant digits.
std::string num(double v);

// Finds a term by name (nullptr if absent).
const Term* findTerm(const std::vector<Term>& terms, const std::string& name);

} // namespace parascope
