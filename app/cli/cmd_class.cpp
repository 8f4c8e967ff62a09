// parascope-cli class-answers: a class's exercise answers (the app's exported CSV, one file per
// student or joined) binned for the teacher (lessons/class_answers.h): per exercise, the engine's
// value today, how many were right, how many made each listed mistake, and how far off the rest
// were, each band with the feedback most of its answers got.

#include "cli.h"

#include "lessons/class_answers.h"
#include "lessons/course_json.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace parascope::cli {

namespace {

std::string answersText(const std::vector<ExerciseAnswers>& all, const Args& a)
{
    std::string out;
    for (const ExerciseAnswers& x : all) {
        out += say(a, "Lesson ", "教学案例 ") + x.lesson + say(a, ", step ", "，第 ") + std::to_string(x.step)
            + say(a, "", " 步") + ": " + x.quantity + say(a, ", engine ", "，引擎值 ") + num(x.truth) + " " + x.unit
            + say(a, ", ", "，") + std::to_string(x.answers.size()) + say(a, " answers\n", " 个回答\n");
        for (const AnswerBin& b : x.bins) {
            if (b.count == 0)
                continue;
            out += "  " + std::string(std::size_t(b.count), '#') + " " + std::to_string(b.count) + "  "
                + b.label.in(a.lang) + "\n";
            if (!b.typical.en.empty() && b.typical.in(a.lang) != b.label.in(a.lang))
                out += "      " + say(a, "typically: ", "典型反馈：") + b.typical.in(a.lang) + "\n";
        }
    }
    return out;
}

} // namespace

int classAnswersCommand(const Args& a)
{
    const std::string format = a.format.empty() ? "text" : a.format;
    if (format != "json" && format != "text")
        return badUsage(a, "--format needs json or text", "--format 只能是 json 或 text");
    if (a.positional.empty())
        return badUsage(a, "class-answers needs at least one ANSWERS.csv", "class-answers 至少需要一个 ANSWERS.csv");
    std::vector<AnswerFile> files;
    std::vector<InputError> errors;
    std::vector<Lesson> user; // the teacher's own lessons (the app's exercise editor writes them)
    for (const std::string& file : a.lessons) {
        std::optional<Lesson> l = readLessonFile(file, errors);
        if (!l)
            return printFileErrors(file, errors);
        user.push_back(std::move(*l));
    }
    for (const std::string& file : a.positional) {
        auto text = readTextFile(file, errors);
        if (!text)
            return printFileErrors(file, errors);
        files.push_back({file, std::move(*text)});
    }
    const std::vector<ExerciseAnswers> all = classAnswers(files, errors, user);
    for (const InputError& e : errors)
        std::cerr << "parascope-cli: " << e.text() << "\n";
    if (!errors.empty())
        return kExitBadInput;
    return emit(a, format == "json" ? classAnswersJson(all, a.lang).dump(2) + "\n" : answersText(all, a));
}

} // namespace parascope::cli
