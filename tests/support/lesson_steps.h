#pragma once
// Shared by the lesson suites: every step of a lesson evaluated, and failure lines joined for a
// test message.

#include "estimate/evaluate.h"
#include "lessons/lessons.h"

#include <string>
#include <vector>

namespace parascope::test {

inline std::vector<Estimate> evaluateSteps(const Lesson& l)
{
    std::vector<Estimate> out;
    for (const LessonStep& s : l.steps)
        out.push_back(evaluate(s.scenario));
    return out;
}

inline std::string joined(const std::vector<std::string>& lines)
{
    std::string out;
    for (const std::string& l : lines)
        out += "\n  " + l;
    return out;
}

} // namespace parascope::test
