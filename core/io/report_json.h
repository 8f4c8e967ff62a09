#pragma once
// Estimate → `parascope.report/1` JSON and the readable terminal report.

#include "estimate/estimate.h"
#include "types/scenario.h"

#include <nlohmann/json.hpp>

#include <string>

namespace parascope {

inline constexpr const char* kReportSchema = "parascope.report/1";

// lang: "en" or "zh" for message/suggestion (both languages are always present as
// message_en/message_zh). explain: include the Term behind every number.
// Terms as the report writes them: name, value, unit, formula, substituted, source.
nlohmann::json termsToJson(const std::vector<Term>& terms);

// Bytes and counts are whole numbers in the report: JSON integers when they fit exactly.
nlohmann::json whole(double v);

nlohmann::json reportToJson(const Scenario& sc, const Estimate& est, const std::string& lang = "en",
                            bool explain = true);

std::string textReport(const Scenario& sc, const Estimate& est, const std::string& lang = "en");

} // namespace parascope
