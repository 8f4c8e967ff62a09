#include "estimate/term.h"

#include <cmath>
#include <cstdio>

namespace parascope {

std::string num(double v)
{
    char buf[64];
    if (std::isfinite(v) && std::fabs(v) < 1e18 && v == std::floor(v))
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else
        std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

const Term* findTerm(const std::vector<Term>& terms, const std::string& name)
{
    for (const Term& t : terms)
        if (t.name == name)
            return &t;
    return nullptr;
}

} // namespace parascope
