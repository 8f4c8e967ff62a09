#include "types/term.h"
#include "util/decimal_text.h"

#include <cmath>
#include <cstdio>

namespace parascope {

std::string num(double v)
{
    // printf's %.0f / %.4g (util/decimal_text.h); search and sweeps format thousands of these.
    if (std::isfinite(v) && std::fabs(v) < 1e18 && v == std::floor(v))
        return fixedText(v, 0);
    if (std::isfinite(v))
        return generalText(v, 4);
    return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
}

const Term* findTerm(const std::vector<Term>& terms, const std::string& name)
{
    for (const Term& t : terms)
        if (t.name == name)
            return &t;
    return nullptr;
}

} // namespace parascope
