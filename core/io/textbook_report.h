#pragma once
// The textbook beside the engine (estimate/textbook.h) as the CLI's text section and JSON array;
// the app's Textbook tab reads the same rows.

#include "estimate/textbook.h"

#include <nlohmann/json.hpp>

#include <string>

namespace parascope {

nlohmann::json textbookToJson(const std::vector<TextbookRow>& rows, const std::string& lang);
std::string textbookText(const std::vector<TextbookRow>& rows, const std::string& lang);

} // namespace parascope
