#pragma once
// Lessons of the course, shipped as JSON in resources/presets/lessons: a title, an explanation
// and one or more steps, each a complete scenario, all in English and Chinese.

#include "estimate/scenario.h"

#include <QString>

#include <vector>

namespace parascope::ui {

struct LessonStep {
    QString label_en, label_zh;
    Scenario scenario;
    QString label() const;
};

struct Lesson {
    QString id;
    QString title_en, title_zh, text_en, text_zh;
    std::vector<LessonStep> steps;
    QString title() const;
    QString text() const;
};

// Every lesson preset, parsed once (a broken preset fails the tests, not the app).
const std::vector<Lesson>& lessons();
const Lesson* findLesson(const QString& id);

} // namespace parascope::ui
