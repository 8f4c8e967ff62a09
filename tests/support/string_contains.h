#pragma once
// Shared by suites that look for a fragment in a message (tst_diagnostics, tst_diagnostics_text,
// the scenario reader's suites): whether a std::string contains another.

#include <string>

namespace parascope::test {

inline bool contains(const std::string& haystack, const std::string& needle)
{
    return haystack.find(needle) != std::string::npos;
}

} // namespace parascope::test
