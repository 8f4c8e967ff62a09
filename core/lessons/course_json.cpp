#include "lessons/course_json.h"

#include "estimate/evaluate.h"
#include "io/error_bands.h"
#include "io/report_json.h"
#include "io/scenario_json.h"

#include <cmath>

namespace parascope {

namespace {

using nlohmann::json;

json marksJson(const LayoutMarks& m, const std::string& lang)
{
    return {{"layout", m.layout},
            {"fits", m.fits},
            {"memory_headroom", m.memory_headroom},
            {"exposed_comm", m.exposed_comm},
            {"bubble_imbalance", m.bubble_imbalance},
            {"stability", m.stability},
            {"step_s", m.step_s},
            {"step_band", bandJson(m.step_band, lang)},
            {"tokens_per_s", m.tokens_per_s}};
}

json stepJson(const DecisionStep& s, const std::string& lang)
{
    return {{"id", s.id},
            {"title", s.title.in(lang)},
            {"verdict", toString(s.verdict)},
            {"finding", s.finding.in(lang)},
            {"finding_en", s.finding.en},
            {"finding_zh", s.finding.zh},
            {"why", s.why.in(lang)},
            {"numbers", termsToJson(s.numbers)}};
}

} // namespace

json localizedJson(const Localized& l) { return {{"en", l.en}, {"zh", l.zh}}; }

json reportCardJson(const ReportCard& c, const std::string& lang)
{
    json differences = json::array();
    for (const Localized& d : c.differences)
        differences.push_back(d.in(lang));
    json j = {
        {"yours", marksJson(c.yours, lang)}, {"procedure", marksJson(c.procedure, lang)}, {"differences", differences}};
    if (c.search)
        j["search"] = marksJson(*c.search, lang);
    return j;
}

json adviceJson(const Scenario& asked, const DecisionResult& r, const std::string& lang)
{
    json steps = json::array();
    for (const DecisionStep& s : r.steps)
        steps.push_back(stepJson(s, lang));
    json out = {{"schema", "parascope.advice/1"},
                {"steps", steps},
                {"scenario", scenarioToJson(r.scenario)},
                {"fits", r.fits},
                {"step_s", r.estimate.time.step_s},
                {"peak_bytes", r.estimate.memory.peak_bytes},
                {"uncertainty", uncertaintyJson(r.scenario, lang)}};
    if (r.search_best)
        out["search_best"] = {{"scenario", scenarioToJson(*r.search_best)},
                              {"step_s", r.search_best_step_s},
                              {"uncertainty", uncertaintyJson(*r.search_best, lang)}};
    out["comparison"] = r.comparison.in(lang);
    out["report_card"] = reportCardJson(reportCard(asked, evaluate(asked), r), lang);
    return out;
}

json designGradeJson(const DesignGrade& g, const std::string& lang)
{
    json checks = json::array();
    for (const DesignCheck& c : g.checks)
        checks.push_back(
            {{"id", c.id}, {"name", c.name.in(lang)}, {"mark", toString(c.mark)}, {"note", c.note.in(lang)}});
    const auto days = [](double d) { return std::isfinite(d) ? json(d) : json(nullptr); }; // ∞: trains nothing
    return {{"checks", checks},
            {"passed", g.passed},
            {"verdict", g.verdict.in(lang)},
            {"days", days(g.days)},
            {"procedure_days", days(g.procedure_days)},
            {"search_days", days(g.search_days)},
            {"gpus", g.gpus},
            {"task_gpus", g.task_gpus},
            {"gpus_for_goal", g.gpus_for_goal},
            {"report_card", reportCardJson(g.card, lang)},
            {"text", designGradeText(g, lang)}};
}

json classAnswersJson(const std::vector<ExerciseAnswers>& all, const std::string& lang)
{
    json out = {{"schema", "parascope.class-answers/1"}, {"exercises", json::array()}};
    for (const ExerciseAnswers& x : all) {
        json bins = json::array();
        for (const AnswerBin& b : x.bins)
            bins.push_back({{"label", b.label.in(lang)}, {"count", b.count}, {"typical", b.typical.in(lang)}});
        out["exercises"].push_back({{"lesson", x.lesson},
                                    {"step", x.step},
                                    {"quantity", x.quantity},
                                    {"unit", x.unit},
                                    {"engine", x.truth},
                                    {"answers", x.answers},
                                    {"bins", std::move(bins)}});
    }
    return out;
}

} // namespace parascope
