#pragma once
// Quoting input in an error message. Input can be megabytes (a 36 KB data blend, a 1.5 MB
// token): a message shows at most `max` bytes of it and says how long it was.

#include <cstddef>
#include <string>
#include <string_view>

namespace parascope {

// "abc" — or "abcdef…" (36,214 bytes) when longer than `max`, cut on a UTF-8 boundary.
std::string quoteInput(std::string_view text, std::size_t max = 80);

// `text` itself when at most `max` bytes, else its start, "…" and how many bytes were left out.
std::string clipped(std::string_view text, std::size_t max);

} // namespace parascope
