#pragma once
// Diagnostic: one thing that breaks (or is worth knowing), in both languages, with a concrete
// suggestion. Codes are stable (DESIGN.md); the GUI and CLI only display them.

#include "util/enum_names.h"

#include <string>

namespace parascope {

enum class Severity { Info, Warning, Error };
inline constexpr EnumName<Severity> kSeverityNames[]
    = {{Severity::Info, "info"}, {Severity::Warning, "warning"}, {Severity::Error, "error"}};
constexpr std::span<const EnumName<Severity>> enumNames(Severity) { return kSeverityNames; }
inline const char* toString(Severity v) { return nameOf(v); }

struct Localized {
    std::string en;
    std::string zh;
    const std::string& in(const std::string& lang) const { return lang.rfind("zh", 0) == 0 ? zh : en; }
};

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string code; // e.g. "out_of_memory"
    int stage = -1; // pipeline rank it concerns, −1 if none
    // The knob it concerns, for highlighting: a path of the knob table (types/knobs.h, e.g.
    // "parallel.pp"), "parallel.sequence_parallel" (a check box in the app), or "" for none.
    std::string knob;
    Localized message;
    Localized suggestion;
};

} // namespace parascope
