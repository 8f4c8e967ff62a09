#pragma once
// The course's verdicts as JSON, one writer each for every front end: the Advisor's walk
// (`parascope.advice/1`, what `parascope-cli advise --format json` prints), its report card, a
// design task's grade, and a class's answers binned (`parascope.class-answers/1`, what
// `parascope-cli class-answers --format json` prints). The web edition answers the same JSON.
// In lessons/, the top layer, because it writes search/'s and lessons/' results.

#include "lessons/class_answers.h"
#include "lessons/design_task.h"
#include "search/decision.h"
#include "search/report_card.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace parascope {

// Both languages of a text: {"en": …, "zh": …} (lesson files, the web edition's lessons and knobs).
nlohmann::json localizedJson(const Localized& l);

nlohmann::json reportCardJson(const ReportCard& card, const std::string& lang);

// The procedure walked on `asked` (decide(asked)), each step with its numbers, the resulting
// scenario, the search's best and the report card of `asked` against both.
nlohmann::json adviceJson(const Scenario& asked, const DecisionResult& result, const std::string& lang);

// A design task's grade: each check with its mark, the days, the references revealed and the
// report card; "text" is designGradeText's, as the app and the CLI print it.
nlohmann::json designGradeJson(const DesignGrade& grade, const std::string& lang);

nlohmann::json classAnswersJson(const std::vector<ExerciseAnswers>& all, const std::string& lang);

} // namespace parascope
