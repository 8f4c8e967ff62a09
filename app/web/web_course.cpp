// The web API's course methods (web_methods.h): the lessons with their texts rendered, an
// exercise graded, the design task handed in and graded, the Advisor's walk with its report card,
// and a class's answers binned — each the same JSON the CLI prints (lessons/course_json.h).

#include "web_methods.h"

#include "estimate/evaluate.h"
#include "io/scenario_json.h"
#include "lessons/class_answers.h"
#include "lessons/course_json.h"
#include "lessons/design_task.h"
#include "lessons/exercises.h"
#include "lessons/lesson_text.h"
#include "lessons/lessons.h"
#include "search/decision.h"
#include "search/report_card.h"
#include "util/json_reader.h"

#include <map>

namespace parascope::web {

namespace {

json stepJson(const LessonStep& s)
{
    json j = {
        {"label", localizedJson(s.label)}, {"text", localizedJson(s.text)}, {"scenario", scenarioToJson(s.scenario)}};
    if (s.exercise)
        j["exercise"] = {{"prompt", localizedJson(s.exercise->prompt)},
                         {"formula", localizedJson(s.exercise->formula)},
                         {"quantity", s.exercise->ask.name()},
                         {"tolerance", s.exercise->tolerance}};
    if (s.design)
        j["design"]
            = {{"prompt", localizedJson(s.design->prompt)}, {"tokens", s.design->tokens}, {"days", s.design->days}};
    return j;
}

// request[key] as a built-in lesson (an error naming the field when it is not one).
const Lesson* lessonOf(const json& request, const char* key, Errors& errors)
{
    const auto id = request.find(key);
    const Lesson* found = id != request.end() && id->is_string() ? findLesson(id->get<std::string>()) : nullptr;
    if (!found)
        errors.push_back({key, "must name a built-in lesson"});
    return found;
}

// request.step as the index of one of `lesson`'s steps that `has` (an exercise, a design task).
std::optional<std::size_t> stepOf(const json& request, const Lesson& lesson, bool (*has)(const LessonStep&),
                                  const char* what, Errors& errors)
{
    const auto step = request.find("step");
    if (step != request.end() && step->is_number_integer() && step->get<long long>() >= 0
        && step->get<std::size_t>() < lesson.steps.size() && has(lesson.steps[step->get<std::size_t>()]))
        return step->get<std::size_t>();
    errors.push_back({"step", std::string("must be the index of one of the lesson's steps with ") + what});
    return std::nullopt;
}

// A design task's references (the procedure and the search on the task's GPUs) take a strategy
// search: walked once per task and kept, as the app keeps them while the step is open.
const CardReferences& designReferences(const Lesson& lesson, std::size_t step)
{
    static std::map<std::pair<std::string, std::size_t>, CardReferences> kept;
    const auto key = std::make_pair(lesson.id, step);
    auto it = kept.find(key);
    if (it == kept.end())
        it = kept.emplace(key, cardReferences(decide(lesson.steps[step].scenario))).first;
    return it->second;
}

// [{"file": NAME, "text": TEXT}] as a list of (name, text); errors name the field.
std::vector<AnswerFile> filesOf(const json& request, const char* key, Errors& errors)
{
    std::vector<AnswerFile> out;
    const auto list = request.find(key);
    if (list == request.end() || !list->is_array()) {
        errors.push_back({key, "must be a list of {\"file\": NAME, \"text\": TEXT}"});
        return out;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        const json& f = (*list)[i];
        if (f.is_object() && f.contains("file") && f["file"].is_string() && f.contains("text") && f["text"].is_string())
            out.push_back({f["file"].get<std::string>(), f["text"].get<std::string>()});
        else
            errors.push_back(
                {std::string(key) + "[" + std::to_string(i) + "]", "must be {\"file\": NAME, \"text\": TEXT}"});
    }
    return out;
}

} // namespace

// The built-in lessons: id, title and how many steps (the page's list).
std::optional<json> lessonsMethod(const json&, Errors&)
{
    json list = json::array();
    for (const Lesson& l : lessons())
        list.push_back({{"id", l.id}, {"title", localizedJson(l.title)}, {"steps", l.steps.size()}});
    return list;
}

// One lesson as the app shows it: its texts with the engine's numbers put in (lesson_text.h,
// every step evaluated), each step's scenario whole, its exercise and design task.
std::optional<json> lessonMethod(const json& request, Errors& errors)
{
    const Lesson* found = lessonOf(request, "id", errors);
    if (!found)
        return std::nullopt;
    const Lesson l = renderLesson(*found);
    json steps = json::array();
    for (const LessonStep& s : l.steps)
        steps.push_back(stepJson(s));
    return json{{"id", l.id}, {"title", localizedJson(l.title)}, {"text", localizedJson(l.text)}, {"steps", steps}};
}

// A lesson step's exercise graded as the app grades it (lessons/exercises.h): the engine's value
// in the exercise's unit, the error, and the feedback for the mistake the answer matches.
std::optional<json> gradeExerciseMethod(const json& request, Errors& errors)
{
    const Lesson* lesson = lessonOf(request, "lesson", errors);
    const auto step = lesson ? stepOf(
                          request, *lesson, [](const LessonStep& s) { return bool(s.exercise); }, "an exercise", errors)
                             : std::nullopt;
    const auto answer = request.find("answer");
    if (answer == request.end() || !answer->is_number())
        errors.push_back({"answer", "must be a number"});
    if (!lesson || !step || !errors.empty())
        return std::nullopt;
    const std::size_t i = *step;
    const LessonStep& s = lesson->steps[i];
    std::vector<Estimate> estimates(i + 1);
    estimates[i] = evaluate(s.scenario);
    const double truth = measure(s.exercise->ask, *lesson, i, estimates);
    const ExerciseGrade g = gradeExercise(*s.exercise, answer->get<double>(), truth,
                                          {double(s.scenario.training.seq_len), double(s.scenario.parallel.dp)});
    return json{{"truth", g.truth},
                {"answer", g.answer},
                {"error", g.error},
                {"correct", g.correct},
                {"mistake", g.mistake},
                {"feedback", localizedJson(g.feedback)},
                {"unit", exerciseUnit(s.exercise->ask.quantity)}};
}

// A design task handed in (lessons/design_task.h): {lesson, step, scenario (the student's layout),
// lang} → the grade, wall by wall against the Advisor's and the search's layouts on the task's
// GPUs, and the days against the goal; the references revealed.
std::optional<json> gradeDesignMethod(const json& request, Errors& errors)
{
    const Lesson* lesson = lessonOf(request, "lesson", errors);
    const auto step = lesson ? stepOf(
                          request, *lesson, [](const LessonStep& s) { return bool(s.design); }, "a design task", errors)
                             : std::nullopt;
    const auto yours = scenarioOf(request, errors);
    if (!lesson || !step || !yours || !errors.empty())
        return std::nullopt;
    const LessonStep& s = lesson->steps[*step];
    const DesignGrade g
        = gradeDesign(*s.design, s.scenario, *yours, evaluate(*yours), designReferences(*lesson, *step));
    return designGradeJson(g, langOf(request));
}

// The course's decision procedure on the scenario's model, cluster and batch, as
// `parascope-cli advise --format json` prints it (parascope.advice/1, with the report card).
std::optional<json> adviseMethod(const json& request, Errors& errors)
{
    const auto sc = scenarioOf(request, errors);
    if (!sc)
        return std::nullopt;
    return adviceJson(*sc, decide(*sc), langOf(request));
}

// A class's answers (the CSVs the app's File → Export exercise results writes) binned for the
// teacher, as `parascope-cli class-answers --format json`: {files: [{file, text}], lessons:
// [{file, text}] (a teacher's own lesson files, optional), lang}. A line that cannot be read is
// an error naming its file and line, as the CLI's.
std::optional<json> classAnswersMethod(const json& request, Errors& errors)
{
    const std::vector<AnswerFile> files = filesOf(request, "files", errors);
    std::vector<Lesson> user;
    if (request.contains("lessons"))
        for (const AnswerFile& f : filesOf(request, "lessons", errors)) {
            const std::string id
                = f.name.size() > 5 && f.name.ends_with(".json") ? f.name.substr(0, f.name.size() - 5) : f.name;
            Errors own;
            if (const auto parsed = parseJsonText(f.text, own))
                if (auto l = readLesson(id, *parsed, own))
                    user.push_back(std::move(*l));
            for (InputError& e : own)
                errors.push_back({f.name + (e.path.empty() ? "" : ": " + e.path), e.message});
        }
    if (!errors.empty())
        return std::nullopt;
    const std::vector<ExerciseAnswers> all = classAnswers(files, errors, user);
    if (!errors.empty())
        return std::nullopt;
    return classAnswersJson(all, langOf(request));
}

} // namespace parascope::web
