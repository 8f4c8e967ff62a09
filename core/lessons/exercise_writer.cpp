#include "lessons/exercise_writer.h"

#include "io/scenario_json.h"
#include "lessons/course_json.h"

#include <cmath>

namespace parascope {

namespace {

// Both languages, each falling back to the other; empty when neither is given.
Localized bothLanguages(const Localized& l) { return {l.en.empty() ? l.zh : l.en, l.zh.empty() ? l.en : l.zh}; }

// The claim's qualifiers: {"stage", "part"} or {"collective"}; nothing for a plain quantity.
nlohmann::json qualifiers(const NumericClaim& c)
{
    nlohmann::json q = nlohmann::json::object();
    const QuantityInfo& info = quantityInfo(c.quantity);
    if (info.shape == QuantityInfo::PerStage) {
        q["stage"] = c.stage;
        if (c.quantity == Quantity::MemoryGib)
            q["part"] = toString(c.part);
    } else if (info.shape == QuantityInfo::PerCollective) {
        q["collective"] = c.collective;
    }
    return q;
}

// The expect entry of the claim: a range, or an array of one qualified range.
nlohmann::json claimJson(const NumericClaim& c, double truth)
{
    constexpr double kSlack = 1e-3; // the engine's value ± 0.1 %: a change that moves it shows
    const double a = truth * (1 - kSlack), b = truth * (1 + kSlack);
    nlohmann::json range = qualifiers(c);
    range["min"] = std::min(a, b);
    range["max"] = std::max(a, b);
    return quantityInfo(c.quantity).shape == QuantityInfo::Plain ? range : nlohmann::json::array({range});
}

} // namespace

std::string placeholderOf(const NumericClaim& c)
{
    const QuantityInfo& info = quantityInfo(c.quantity);
    std::string out = std::string("{{") + info.key;
    if (info.shape == QuantityInfo::PerStage)
        out += ":" + std::to_string(c.stage)
            + (c.quantity == Quantity::MemoryGib ? std::string(":") + toString(c.part) : "");
    else if (info.shape == QuantityInfo::PerCollective)
        out += ":" + c.collective;
    return out + "}}";
}

std::optional<nlohmann::json> exerciseStepJson(const ExerciseDraft& d, const Scenario& scenario, double truth,
                                               bool valid, std::vector<InputError>& errors)
{
    const Localized prompt = bothLanguages(d.prompt), formula = bothLanguages(d.formula);
    Localized label = bothLanguages(d.label);
    if (label.en.empty())
        label = {quantityInfo(d.ask.quantity).key, quantityInfo(d.ask.quantity).key};
    const std::size_t before = errors.size();
    if (prompt.en.empty())
        errors.push_back({"prompt", "is empty: write the question in English or Chinese"});
    if (formula.en.empty())
        errors.push_back({"formula", "is empty: say how to work the answer out (shown after the reveal)"});
    if (!std::isfinite(truth))
        errors.push_back({"quantity", d.ask.name() + " has no value in this scenario"});
    if (quantityInfo(d.ask.quantity).shape == QuantityInfo::VersusStep)
        errors.push_back({"quantity", d.ask.name() + " compares two steps: an exercise asks for one step's value"});
    if (errors.size() != before)
        return std::nullopt;
    const std::string value = placeholderOf(d.ask);
    nlohmann::json ask = qualifiers(d.ask);
    ask["quantity"] = quantityInfo(d.ask.quantity).key;
    return nlohmann::json{
        {"label", localizedJson(label)},
        {"text",
         localizedJson({"The engine gives " + value + ". " + formula.en, "引擎给出 " + value + "。" + formula.zh})},
        {"expect", {{"valid", valid}, {quantityInfo(d.ask.quantity).key, claimJson(d.ask, truth)}}},
        {"exercise",
         {{"ask", ask},
          {"prompt", localizedJson(prompt)},
          {"formula", localizedJson(formula)},
          {"tolerance", d.tolerance}}},
        {"scenario", scenarioToJson(scenario)}};
}

std::optional<nlohmann::json> addExerciseStep(const nlohmann::json* existing, const Localized& title,
                                              const nlohmann::json& step, std::vector<InputError>& errors)
{
    nlohmann::json lesson;
    if (existing) {
        std::vector<InputError> mine;
        if (!readLesson("file", *existing, mine)) {
            for (InputError& e : mine)
                e.message = "the file is not a lesson this editor can add to: " + e.message;
            errors.insert(errors.end(), mine.begin(), mine.end());
            return std::nullopt;
        }
        lesson = *existing;
    } else {
        const Localized t = bothLanguages(title);
        if (t.en.empty()) {
            errors.push_back({"title", "is empty: a new lesson needs a title"});
            return std::nullopt;
        }
        lesson = {{"title", localizedJson(t)},
                  {"text", localizedJson({"Exercises written from the screen.", "从屏幕上出的练习题。"})},
                  {"steps", nlohmann::json::array()}};
    }
    lesson["steps"].push_back(step);
    return lesson;
}

} // namespace parascope
