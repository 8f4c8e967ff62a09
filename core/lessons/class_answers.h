#pragma once
// A class's answers to the lessons' exercises, for the teacher: the CSV the app's File → Export
// exercise results writes (header time,lesson,step,quantity,unit,estimate,engine,error_percent,
// verdict,feedback; one file per student, or several joined, each header line skipped), each
// answer graded again against today's engine (lessons/exercises.h) and put in a bin: right, one of
// the exercise's listed mistakes (its hint says what the student did), or how far off and which
// way (within 1.5×, 1.5–3×, beyond 3×, too low or too high), each band with the feedback most of
// its answers got — the typical mistake it corresponds to, to discuss in class.

#include "lessons/lessons.h"
#include "types/diagnostic.h"
#include "util/json_reader.h"

#include <string>
#include <vector>

namespace parascope {

struct AnswerBin {
    Localized label; // "right", "too high, 1.5–3×", or a listed mistake's hint
    int count = 0;
    Localized typical; // the feedback most of its answers got (empty for "right")
};

struct ExerciseAnswers {
    std::string lesson; // lesson id
    Localized title; // the lesson's
    int step = 0; // 1-based, as the CSV counts
    std::string quantity, unit;
    double truth = 0; // the engine's value today, in `unit`
    std::vector<double> answers; // as given, in `unit`
    std::vector<AnswerBin> bins; // right, the listed mistakes, then the six bands; empty bins kept
};

struct AnswerFile {
    std::string name; // for messages: "answers.csv"
    std::string text;
};

// Every exercise the files answer, in lesson and step order, each step's answers from all files
// together. Lines that cannot be read (a field missing, a number that is not one, a lesson or step
// without an exercise) are errors naming the file and line ("answers.csv:12: …") and are left out;
// the rest is still binned. `user`: a teacher's own lesson files (the exercise editor's, read with
// readLessonFile), looked up before the presets.
std::vector<ExerciseAnswers> classAnswers(const std::vector<AnswerFile>& files, std::vector<InputError>& errors,
                                          const std::vector<Lesson>& user = {});
inline std::vector<ExerciseAnswers> classAnswers(const std::string& csv, const std::string& name,
                                                 std::vector<InputError>& errors)
{
    return classAnswers({{name, csv}}, errors);
}

} // namespace parascope
