#include "io/textbook_report.h"

namespace parascope {

namespace {

const char* unitName(TextbookUnit u)
{
    switch (u) {
    case TextbookUnit::GiB: return "GiB";
    case TextbookUnit::Fraction: return "fraction";
    case TextbookUnit::Sequences: return "sequences";
    }
    return "";
}

} // namespace

nlohmann::json textbookToJson(const std::vector<TextbookRow>& rows, const std::string& lang)
{
    nlohmann::json out = nlohmann::json::array();
    for (const TextbookRow& r : rows)
        out.push_back({{"id", r.id},
                       {"quantity", r.quantity.in(lang)},
                       {"formula", r.formula.in(lang)},
                       {"unit", unitName(r.unit)},
                       {"textbook", r.textbook},
                       {"engine", r.engine},
                       {"engine_is", r.engine_what.in(lang)},
                       {"leaves_out", r.leaves_out.in(lang)}});
    return out;
}

std::string textbookText(const std::vector<TextbookRow>& rows, const std::string& lang)
{
    const bool zh = lang.rfind("zh", 0) == 0;
    std::string o = zh ? "教材公式与引擎对照\n" : "The textbook beside the engine\n";
    for (const TextbookRow& r : rows) {
        o += "  " + r.quantity.in(lang) + (zh ? "：" : ": ") + r.formula.in(lang) + " = "
            + textbookValue(r.textbook, r.unit, lang) + (zh ? "；引擎 " : "; engine ")
            + textbookValue(r.engine, r.unit, lang) + (zh ? "（" : " (") + r.engine_what.in(lang)
            + (zh ? "）\n" : ")\n");
        o += std::string("    ") + (zh ? "教材公式未计入：" : "leaves out: ") + r.leaves_out.in(lang) + "\n";
    }
    return o + "\n";
}

} // namespace parascope
