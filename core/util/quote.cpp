#include "util/quote.h"

namespace parascope {

namespace {
std::size_t utf8Cut(std::string_view text, std::size_t max)
{
    std::size_t cut = max;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    return cut;
}
} // namespace

std::string clipped(std::string_view text, std::size_t max)
{
    if (text.size() <= max)
        return std::string(text);
    const std::size_t cut = utf8Cut(text, max);
    return std::string(text.substr(0, cut)) + "… (" + std::to_string(text.size() - cut) + " more bytes)";
}

std::string quoteInput(std::string_view text, std::size_t max)
{
    if (text.size() <= max)
        return "\"" + std::string(text) + "\"";
    const std::size_t cut = utf8Cut(text, max);
    return "\"" + std::string(text.substr(0, cut)) + "…\" (" + std::to_string(text.size()) + " bytes)";
}

} // namespace parascope
