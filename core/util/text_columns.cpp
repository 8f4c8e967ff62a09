#include "util/text_columns.h"

namespace parascope {

std::string padColumns(const std::string& s, std::size_t width, bool right)
{
    std::size_t cols = 0;
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c & 0xC0) == 0x80)
            continue; // a UTF-8 continuation byte
        cols += c >= 0xE3 ? 2 : 1; // CJK and full-width punctuation (U+3000 on) take two columns
    }
    if (cols >= width)
        return s;
    const std::string fill(width - cols, ' ');
    return right ? fill + s : s + fill;
}

} // namespace parascope
