#pragma once
// A double as decimal text and back, the way printf's %.*f and %.*g write it in the C locale:
// std::to_chars (no locale, no format parsing: several times faster than printf, and the engine
// formats thousands of numbers per evaluation), or snprintf where the standard library has no
// floating-point to_chars (the libc++ of Debian's emscripten 3.1.6, the web edition). Both round
// the exact binary value correctly, so the two builds write the same digits (tests/web).

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace parascope {

// parseFiniteDecimal: reads a finite decimal number that is all of `s` ("2.5", "-1e3"), as
// std::from_chars does (no leading blank or '+', no hex); false for anything else, "inf" and
// "nan" included.

#if defined(__EMSCRIPTEN__)
inline bool parseFiniteDecimal(std::string_view s, double& v)
{
    if (s.empty() || s.size() > 64 || s.find_first_not_of("0123456789.eE+-") != std::string_view::npos || s[0] == '+')
        return false;
    const std::string text(s); // strtod needs the terminating zero
    char* end = nullptr;
    v = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && std::isfinite(v);
}

inline std::string fixedText(double v, int decimals)
{
    char buf[352]; // %.*f of the largest double with a few decimals
    const int n = std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return std::string(buf, n > 0 ? std::size_t(n) : 0);
}

inline std::string generalText(double v, int significant)
{
    char buf[64];
    const int n = std::snprintf(buf, sizeof buf, "%.*g", significant, v);
    return std::string(buf, n > 0 ? std::size_t(n) : 0);
}
#else
inline bool parseFiniteDecimal(std::string_view s, double& v)
{
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && end == s.data() + s.size() && std::isfinite(v);
}

inline std::string fixedText(double v, int decimals)
{
    char buf[352];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
    return std::string(buf, r.ptr);
}

inline std::string generalText(double v, int significant)
{
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, significant);
    return std::string(buf, r.ptr);
}
#endif

} // namespace parascope
