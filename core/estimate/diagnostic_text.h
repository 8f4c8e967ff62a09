#pragma once
// The building blocks of a diagnostic's two-language text, shared by the configuration checks
// and the outcome checks (estimate/rules_*.cpp). Internal to estimate/.

#include "types/diagnostic.h"

#include <string>
#include <vector>

namespace parascope::diagnostic_text {

inline std::string n(long long v) { return std::to_string(v); }

inline Diagnostic make(Severity sev, const char* code, const std::string& knob, std::string en, std::string zh,
                       std::string sug_en, std::string sug_zh, int stage = -1)
{
    Diagnostic d;
    d.severity = sev;
    d.code = code;
    d.knob = knob;
    d.stage = stage;
    d.message = {std::move(en), std::move(zh)};
    d.suggestion = {std::move(sug_en), std::move(sug_zh)};
    return d;
}

// Largest value ≤ limit that divides `of` (for suggestions), 1 if none above it.
inline int largestDivisorAtMost(long long of, int limit)
{
    for (int v = limit; v > 1; --v)
        if (of % v == 0)
            return v;
    return 1;
}

// Joins options as "a, b or c" / "a、b 或 c".
inline Localized anyOf(const std::vector<Localized>& options)
{
    Localized out;
    for (std::size_t i = 0; i < options.size(); ++i) {
        const bool last = i + 1 == options.size();
        out.en += (i == 0 ? "" : last ? " or " : ", ") + options[i].en;
        out.zh += (i == 0 ? "" : last ? "或" : "、") + options[i].zh;
    }
    return out;
}

} // namespace parascope::diagnostic_text
