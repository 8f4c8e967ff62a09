#pragma once
// Lessons of the course, shipped as JSON in resources/presets/lessons: a title, an explanation
// and one or more steps, each a complete scenario, all in English and Chinese. Parsed here so the
// app and the CLI read them the same way.

#include "types/diagnostic.h"
#include "types/scenario.h"
#include "util/json_reader.h"

#include <string>
#include <vector>

namespace parascope {

struct LessonStep {
    Localized label;
    Scenario scenario;
};

struct Lesson {
    std::string id;
    Localized title, text;
    std::vector<LessonStep> steps;
};

// Every lesson preset, sorted by id. A missing text or a step whose scenario does not read is an
// error naming the lesson and the step (`lessons/ID: steps[1].scenario.parallel.tp: …`).
std::vector<Lesson> readLessons(std::vector<InputError>& errors);

// The lessons, read once; those that do not read are left out (the tests read them all).
const std::vector<Lesson>& lessons();
const Lesson* findLesson(const std::string& id);

} // namespace parascope
