#pragma once
// Plain-text tables for a terminal: a cell padded to a width in columns, where a CJK character
// (and full-width punctuation) takes two. The text report and every CLI table use it.

#include <cstddef>
#include <string>

namespace parascope {

// `s` padded to `width` terminal columns, right-aligned or not; never cut.
std::string padColumns(const std::string& s, std::size_t width, bool right = true);

} // namespace parascope
