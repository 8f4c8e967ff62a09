#include "util/byte_size.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

namespace parascope {

std::optional<double> parseByteSize(const std::string& text)
{
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (!end || end == text.c_str() || !std::isfinite(v) || v <= 0)
        return std::nullopt;
    std::string unit;
    for (const char* c = end; *c; ++c)
        if (*c != ' ')
            unit += char(std::tolower(static_cast<unsigned char>(*c)));
    static const std::map<std::string, double> units = {{"", 1},
                                                        {"b", 1},
                                                        {"k", 1024.0},
                                                        {"m", 1048576.0},
                                                        {"g", 1073741824.0},
                                                        {"t", 1099511627776.0},
                                                        {"kib", 1024.0},
                                                        {"mib", 1048576.0},
                                                        {"gib", 1073741824.0},
                                                        {"tib", 1099511627776.0},
                                                        {"kb", 1e3},
                                                        {"mb", 1e6},
                                                        {"gb", 1e9},
                                                        {"tb", 1e12}};
    const auto it = units.find(unit);
    if (it == units.end())
        return std::nullopt;
    return v * it->second;
}

std::string byteSizeText(double b)
{
    char s[48];
    if (b >= 1099511627776.0)
        std::snprintf(s, sizeof s, "%.3g TiB", b / 1099511627776.0);
    else if (b >= 1073741824.0)
        std::snprintf(s, sizeof s, "%.3g GiB", b / 1073741824.0);
    else if (b >= 1048576.0)
        std::snprintf(s, sizeof s, "%.3g MiB", b / 1048576.0);
    else if (b >= 1024.0)
        std::snprintf(s, sizeof s, "%.3g KiB", b / 1024.0);
    else
        std::snprintf(s, sizeof s, "%.0f B", b);
    return s;
}

} // namespace parascope
