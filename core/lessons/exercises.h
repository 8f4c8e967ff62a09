#pragma once
// Predict, then reveal: a lesson step's exercise (lessons.h) graded against the engine. The
// student's estimate is in the unit the app asks in (GiB, MiB, s, a count, or percent for a
// fraction); the grade says whether it is right (within the exercise's tolerance), and if not,
// where it went wrong and by how much:
//   1. an estimate that matches the engine's value × a factor the exercise lists gets that
//      mistake's hint ("you multiplied by DP: a ring's volume does not grow with DP");
//   2. else one of the course's typical mistakes, wherever the unit allows it: a fraction typed
//      into a percent box (× 1/100), GB for GiB (× 1.074) or MB for MiB, the textbook's
//      2 + 2 + 4 B/param for mixed-precision Adam's 2 + 2 + 12 (× 1/2), sequences for tokens
//      (× 1/S), × DP on a per-GPU quantity, the forward pass alone (× 1/3);
//   3. else how far off, by ratio band: close (within 1.5×: "too high by 23 %"), a factor
//      (within 3×: "2.3× too high"), or more ("33× too high", "1/1000 of it").
// The student's value is echoed at its own precision (0.003 s, never 0.00 s).

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

// What the typical mistakes need to know of the step's scenario (0: that mistake is not tried).
struct ExerciseContext {
    double seq_len = 0; // tokens per sequence
    double dp = 0; // data-parallel degree
};

// `truth` is measure() of the exercise's claim (in the quantity's own unit).
ExerciseGrade gradeExercise(const Exercise& ex, double answer, double truth, const ExerciseContext& context = {});

} // namespace parascope
