#include "types/term.h"

#include <cmath>
#include <charconv>
#include <cstdio>

namespace parascope {

std::string num(double v)
{
    // std::to_chars formats like printf's %.0f / %.4g but several times faster; the engine
    // formats thousands of numbers per evaluation (search and sweeps run it thousands of times).
    char buf[64];
    std::to_chars_result r;
    if (std::isfinite(v) && std::fabs(v) < 1e18 && v == std::floor(v))
        r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 0);
    else if (std::isfinite(v))
        r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 4);
    else
        return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
    return std::string(buf, r.ptr);
}

const Term* findTerm(const std::vector<Term>& terms, const std::string& name)
{
    for (const Term& t : terms)
        if (t.name == name)
            return &t;
    return nullptr;
}

} // namespace parascope
