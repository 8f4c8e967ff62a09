#pragma once
// The exercise editor's half in core (issue 38 §8): a teacher picks a quantity the screen shows —
// a memory part of a stage, a collective's time, the bubble, the step — writes the question and
// saves it as a lesson step (lessons.h) in a lesson file of their own: the scenario as it is on
// screen, the exercise asking for that quantity with its tolerance, and the claim the engine
// makes today (its value ± 0.1 %), so the file is checked like the shipped lessons when it is read
// again, and a change of the engine that moves the answer shows.

#include "lessons/lessons.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace parascope {

struct ExerciseDraft {
    NumericClaim ask; // the quantity (stage, part or collective filled in; the range unused)
    Localized label; // a few words for the step list
    Localized prompt; // the question
    Localized formula; // how to work it out, shown after the reveal
    double tolerance = 0.1; // the relative error still counted right
};

// {{…}} for the claim's value in a lesson text ("memory_gib:0:activations").
std::string placeholderOf(const NumericClaim& claim);

// The step as lesson JSON. `truth` is measure() of the draft's quantity on the scenario's estimate
// and `valid` whether it has no configuration error. A text given in one language only is used
// for both (a lesson needs both); errors name the draft's field ("prompt: …") when neither is.
std::optional<nlohmann::json> exerciseStepJson(const ExerciseDraft& draft, const Scenario& scenario, double truth,
                                               bool valid, std::vector<InputError>& errors);

// The lesson with `step` appended: to `existing` (a lesson file's JSON, which must read as a lesson),
// or to a new lesson titled `title` when `existing` is null. Errors name what is wrong.
std::optional<nlohmann::json> addExerciseStep(const nlohmann::json* existing, const Localized& title,
                                              const nlohmann::json& step, std::vector<InputError>& errors);

} // namespace parascope
