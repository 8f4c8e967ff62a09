#pragma once
// Predict, then reveal: a lesson step's exercise (lessons.h) graded against the engine. The
// student's estimate is in the unit the app asks in (GiB, MiB, s, a count, or percent for a
// fraction); the grade says whether it is right (within the exercise's tolerance), and if not,
// where it went wrong: an estimate that matches the engine's value × a listed factor gets that
// mistake's hint ("you multiplied by DP: a ring's volume does not grow with DP"), any other
// how far off it is.

#include "lessons/lessons.h"

#include <string>

namespace parascope {

// The unit an exercise asks in ("GiB", "%", "s", …) and a value of the quantity in it.
std::string exerciseUnit(Quantity q);
double toExerciseUnit(Quantity q, double value);

struct ExerciseGrade {
    double truth = 0; // the engine's value, in the exercise's unit
    double answer = 0; // the estimate, in the same unit
    double error = 0; // answer / truth − 1
    bool correct = false;
    int mistake = -1; // the matching entry of Exercise::mistakes, −1 none
    Localized feedback;
};

// `truth` is measure() of the exercise's claim (in the quantity's own unit).
ExerciseGrade gradeExercise(const Exercise& ex, double answer, double truth);

} // namespace parascope
