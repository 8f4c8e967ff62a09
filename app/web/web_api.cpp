#include "web_api.h"

#include "comm/collective_steps.h"
#include "estimate/evaluate.h"
#include "io/collective_json.h"
#include "io/hf_config_import.h"
#include "io/model_json.h"
#include "io/report_json.h"
#include "io/scenario_json.h"
#include "io/timeline_json.h"
#include "lessons/exercises.h"
#include "lessons/lesson_text.h"
#include "lessons/lessons.h"
#include "search/advice.h"
#include "types/knobs.h"
#include "util/json_reader.h"

#include <nlohmann/json.hpp>

#include <climits>
#include <cmath>
#include <functional>
#include <map>
#include <optional>

namespace parascope::web {

namespace {

using nlohmann::json;
using Errors = std::vector<InputError>;
using Method = std::function<std::optional<json>(const json& request, Errors& errors)>;

std::string langOf(const json& request)
{
    const auto it = request.find("lang");
    return it != request.end() && it->is_string() && it->get<std::string>() == "zh" ? "zh" : "en";
}

// request.scenario as a Scenario; errors are prefixed with "scenario." so the page can place them.
std::optional<Scenario> scenarioOf(const json& request, Errors& errors)
{
    const auto it = request.find("scenario");
    if (it == request.end() || !it->is_object()) {
        errors.push_back({"scenario", "must be a parascope.scenario/1 object"});
        return std::nullopt;
    }
    Errors own;
    auto sc = readScenario(*it, own);
    for (InputError& e : own)
        errors.push_back({e.path.empty() ? "scenario" : "scenario." + e.path, e.message});
    return sc;
}

// As `parascope-cli evaluate --format json` writes it: the report, and the evaluated fixes.
std::optional<json> evaluateMethod(const json& request, Errors& errors)
{
    const auto sc = scenarioOf(request, errors);
    if (!sc)
        return std::nullopt;
    EvaluateOptions options;
    options.record_timeline = false;
    return reportWithAdviceJson(*sc, evaluate(*sc, options), langOf(request), true);
}

// The simulated step for drawing: "ops" is one flat list of whole numbers, six per op — rank,
// lane (0 compute, 1 communication), type (an index into "types"), start µs, end µs, microbatch
// (a pixel of a 10 s step is ~10,000 µs). Flat whole numbers are quick to write and to read (a
// nested list with names took half the knob move's engine time); the Gantt redraws on every
// knob move. The exact times are in "timeline".
json ganttJson(const Scenario& sc, const Estimate& est)
{
    const TimelineReport& r = est.timeline;
    json ops = json::array();
    auto& flat = ops.get_ref<json::array_t&>();
    flat.reserve(r.timeline.ops.size() * 6);
    for (const TimedOp& op : r.timeline.ops) {
        for (long long v : {(long long)op.rank, op.comm_lane ? 1LL : 0LL, (long long)op.type,
                            (long long)std::llround(op.start_s * 1e6), (long long)std::llround(op.end_s * 1e6),
                            (long long)op.microbatch})
            flat.emplace_back(v);
    }
    json types = json::array(); // by the enum's value, the index an op carries
    for (const auto& n : enumNames(OpType{}))
        types[std::size_t(n.value)] = n.name;
    return {{"simulated", r.simulated},
            {"schedule", toString(sc.parallel.schedule)},
            {"step_s", est.time.step_s},
            {"ranks", r.timeline.ranks},
            {"ranks_shown", r.ranks_shown},
            {"microbatches_shown", r.microbatches_shown},
            {"microbatches_total", r.microbatches_total},
            {"types", types},
            {"ops", std::move(ops)}};
}

// What the page redraws on every knob move, from one evaluation: the report (without the fixes,
// which evaluate many changed scenarios and come after, from "evaluate") and the Gantt's ops.
json exploreJson(const Scenario& sc, const std::string& lang)
{
    const Estimate est = evaluate(sc);
    return {{"report", reportToJson(sc, est, lang, false)}, {"gantt", ganttJson(sc, est)}};
}

std::optional<json> exploreMethod(const json& request, Errors& errors)
{
    const auto sc = scenarioOf(request, errors);
    if (!sc)
        return std::nullopt;
    return exploreJson(*sc, langOf(request));
}

// As `parascope-cli timeline` writes it (parascope.timeline/1).
std::optional<json> timelineMethod(const json& request, Errors& errors)
{
    const auto sc = scenarioOf(request, errors);
    if (!sc)
        return std::nullopt;
    return timelineToJson(*sc, evaluate(*sc));
}

json knobJson(const Knob& k, const Scenario& sc)
{
    json j = {{"path", k.path},
              {"short", k.short_name},
              {"label", {{"en", k.label.en}, {"zh", k.label.zh}}},
              {"min", k.min},
              {"max", k.max},
              {"rule", k.rule},
              {"value", k.get(sc)},
              {"offered", k.offered(sc)}};
    if (k.value_name) {
        json names = json::object();
        for (long long v = k.min; v <= k.max; ++v)
            names[std::to_string(v)] = k.value_name(v);
        j["value_names"] = names;
    }
    return j;
}

// The knob table for this scenario: each knob's range, value and the values worth offering,
// so the page's sliders have the app's ranges and steps.
json knobTableJson(const Scenario& sc)
{
    json list = json::array();
    for (const Knob& k : knobs())
        list.push_back(knobJson(k, sc));
    return list;
}

std::optional<json> knobsMethod(const json& request, Errors& errors)
{
    const auto sc = scenarioOf(request, errors);
    if (!sc)
        return std::nullopt;
    return knobTableJson(*sc);
}

// Applies "PATH=VALUE" assignments in order (each knob's rule moves what moves with it, as a
// slider and `--set` do) and answers the scenario; the first one refused is the error.
std::optional<Scenario> movedScenario(const json& request, Errors& errors)
{
    auto sc = scenarioOf(request, errors);
    if (!sc)
        return std::nullopt;
    const auto set = request.find("set");
    if (set == request.end() || !set->is_array()) {
        errors.push_back({"set", "must be a list of \"PATH=VALUE\" strings"});
        return std::nullopt;
    }
    for (std::size_t i = 0; i < set->size(); ++i) {
        std::string why;
        const json& a = (*set)[i];
        if (!a.is_string() || !applyKnobAssignment(*sc, a.get<std::string>(), why)) {
            errors.push_back({"set[" + std::to_string(i) + "]", a.is_string() ? why : "must be a string"});
            return std::nullopt;
        }
    }
    return sc;
}

std::optional<json> setMethod(const json& request, Errors& errors)
{
    const auto sc = movedScenario(request, errors);
    if (!sc)
        return std::nullopt;
    return json{{"scenario", scenarioToJson(*sc)}};
}

// A knob move in one call (the page's slider): the assignments applied by their rules, then what
// the page redraws for the new scenario ("explore") and its knob table ("knobs"); the scenario is
// read once.
std::optional<json> moveMethod(const json& request, Errors& errors)
{
    const auto sc = movedScenario(request, errors);
    if (!sc)
        return std::nullopt;
    json out = exploreJson(*sc, langOf(request));
    out["scenario"] = scenarioToJson(*sc);
    out["knobs"] = knobTableJson(*sc);
    return out;
}

std::optional<json> presetsMethod(const json&, Errors&)
{
    json out = json::object();
    for (const char* kind : {"models", "gpus", "clusters"}) {
        json list = json::array();
        for (const PresetInfo& p : listPresets(kind))
            list.push_back({{"id", p.id}, {"name", p.name}, {"source", p.source}});
        out[kind] = list;
    }
    return out;
}

json localized(const Localized& l) { return {{"en", l.en}, {"zh", l.zh}}; }

json stepJson(const LessonStep& s)
{
    json j = {{"label", localized(s.label)}, {"text", localized(s.text)}, {"scenario", scenarioToJson(s.scenario)}};
    if (s.exercise)
        j["exercise"] = {{"prompt", localized(s.exercise->prompt)},
                         {"formula", localized(s.exercise->formula)},
                         {"quantity", s.exercise->ask.name()},
                         {"tolerance", s.exercise->tolerance}};
    if (s.design)
        j["design"] = {{"prompt", localized(s.design->prompt)}, {"tokens", s.design->tokens}, {"days", s.design->days}};
    return j;
}

// The built-in lessons: id, title and how many steps (the page's list).
std::optional<json> lessonsMethod(const json&, Errors&)
{
    json list = json::array();
    for (const Lesson& l : lessons())
        list.push_back({{"id", l.id}, {"title", localized(l.title)}, {"steps", l.steps.size()}});
    return list;
}

// One lesson as the app shows it: its texts with the engine's numbers put in (lesson_text.h,
// every step evaluated), each step's scenario whole, its exercise and design task.
std::optional<json> lessonMethod(const json& request, Errors& errors)
{
    const auto id = request.find("id");
    const Lesson* found = id != request.end() && id->is_string() ? findLesson(id->get<std::string>()) : nullptr;
    if (!found) {
        errors.push_back({"id", "must name a built-in lesson"});
        return std::nullopt;
    }
    const Lesson l = renderLesson(*found);
    json steps = json::array();
    for (const LessonStep& s : l.steps)
        steps.push_back(stepJson(s));
    return json{{"id", l.id}, {"title", localized(l.title)}, {"text", localized(l.text)}, {"steps", steps}};
}

// A lesson step's exercise graded as the app grades it (lessons/exercises.h): the engine's value
// in the exercise's unit, the error, and the feedback for the mistake the answer matches.
std::optional<json> gradeMethod(const json& request, Errors& errors)
{
    const auto id = request.find("lesson"), step = request.find("step"), answer = request.find("answer");
    const Lesson* lesson = id != request.end() && id->is_string() ? findLesson(id->get<std::string>()) : nullptr;
    if (!lesson)
        errors.push_back({"lesson", "must name a built-in lesson"});
    else if (step == request.end() || !step->is_number_integer() || step->get<long long>() < 0
             || step->get<std::size_t>() >= lesson->steps.size() || !lesson->steps[step->get<std::size_t>()].exercise)
        errors.push_back({"step", "must be the index of one of the lesson's steps with an exercise"});
    if (answer == request.end() || !answer->is_number())
        errors.push_back({"answer", "must be a number"});
    if (!errors.empty())
        return std::nullopt;
    const std::size_t i = step->get<std::size_t>();
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
                {"feedback", localized(g.feedback)},
                {"unit", exerciseUnit(s.exercise->ask.quantity)}};
}

// One collective step by step (the collective explainer, `parascope-cli collective --format
// json`): op, bytes, ranks, cluster (a preset id, default dgx-h100), algorithm (default: what the
// engine would run there, in its stepped form).
std::optional<json> collectiveMethod(const json& request, Errors& errors)
{
    const auto text = [&](const char* key, const char* fallback) {
        const auto it = request.find(key);
        return it != request.end() && it->is_string() ? it->get<std::string>() : std::string(fallback);
    };
    const auto op = enumFromName<Collective>(text("op", ""));
    if (!op)
        errors.push_back({"op", "must name a collective (all_reduce, all_gather, reduce_scatter, all_to_all, …)"});
    // Types here; the ranges are planCollective's (comm/collective_checks.cpp), as for the CLI.
    const auto bytes = request.find("bytes"), ranks = request.find("ranks");
    if (bytes == request.end() || !bytes->is_number())
        errors.push_back({"bytes", "must be a number of bytes"});
    if (ranks == request.end() || !ranks->is_number_integer())
        errors.push_back({"ranks", "must be a whole number of GPUs"});
    const auto cluster = readCluster(json(text("cluster", "dgx-h100")), "cluster", errors);
    if (!errors.empty())
        return std::nullopt;
    const long long asked_ranks = ranks->get<long long>();
    const int n = asked_ranks < 0 || asked_ranks > INT_MAX ? -1 : int(asked_ranks); // out of range: refused there
    const double size = bytes->get<double>();
    const std::string asked = text("algorithm", "");
    const auto algorithm = asked.empty() ? std::optional(explainerAlgorithm(*op, size, n, *cluster))
                                         : enumFromName<CollectiveAlgorithm>(asked);
    if (!algorithm) {
        errors.push_back({"algorithm", "\"" + asked + "\" names no algorithm"});
        return std::nullopt;
    }
    Errors refused;
    const auto plan = planCollective(*op, size, n, *cluster, *algorithm, refused);
    for (InputError& e : refused) // named by the CLI's options ("--bytes"): here by the request's fields
        errors.push_back({e.path.rfind("--", 0) == 0 ? e.path.substr(2) : e.path, e.message});
    if (!plan)
        return std::nullopt;
    return planJson(*plan, *cluster);
}

// A Hugging Face config.json (as text, with its file name) → the model as a scenario holds it.
std::optional<json> importHfMethod(const json& request, Errors& errors)
{
    const auto text = request.find("config");
    if (text == request.end() || !text->is_string()) {
        errors.push_back({"config", "must be the text of a config.json"});
        return std::nullopt;
    }
    const auto config = parseJsonText(text->get<std::string>(), errors);
    if (!config)
        return std::nullopt;
    HfImportOptions options;
    const auto text_only = request.find("text_only");
    options.text_only = text_only != request.end() && text_only->is_boolean() && text_only->get<bool>();
    const auto name = request.find("file");
    const std::string file = name != request.end() && name->is_string() ? name->get<std::string>() : "config.json";
    const auto imported = importHfConfig(*config, file, options, errors);
    if (!imported)
        return std::nullopt;
    return json{{"model", modelToJson(imported->model)}, {"architecture", imported->architecture}};
}

const std::map<std::string, Method, std::less<>>& table()
{
    static const std::map<std::string, Method, std::less<>> t = {{"evaluate", evaluateMethod},
                                                                 {"explore", exploreMethod},
                                                                 {"timeline", timelineMethod},
                                                                 {"knobs", knobsMethod},
                                                                 {"set", setMethod},
                                                                 {"move", moveMethod},
                                                                 {"presets", presetsMethod},
                                                                 {"lessons", lessonsMethod},
                                                                 {"lesson", lessonMethod},
                                                                 {"import_hf", importHfMethod},
                                                                 {"collective", collectiveMethod},
                                                                 {"grade_exercise", gradeMethod}};
    return t;
}

std::string errorsJson(const Errors& errors)
{
    json list = json::array();
    for (const InputError& e : errors)
        list.push_back({{"path", e.path}, {"message", e.message}});
    return json{{"errors", list}}.dump();
}

} // namespace

std::string call(std::string_view method, std::string_view request)
{
    Errors errors;
    const auto m = table().find(method);
    if (m == table().end()) {
        std::string known;
        for (const auto& [name, _] : table())
            known += (known.empty() ? "" : ", ") + name;
        return errorsJson({{"", "no method \"" + std::string(method) + "\"; there are " + known}});
    }
    const auto parsed = parseJsonText(std::string(request), errors);
    if (!parsed || !parsed->is_object()) {
        if (errors.empty())
            errors.push_back({"", "the request must be a JSON object"});
        return errorsJson(errors);
    }
    const auto result = m->second(*parsed, errors);
    if (!result)
        return errorsJson(errors.empty() ? Errors{{"", "refused"}} : errors);
    json answer = json::object();
    answer["ok"] = std::move(*result); // not copied: a knob move's answer is ~100 KB
    return answer.dump();
}

std::vector<std::string> methods()
{
    std::vector<std::string> names;
    for (const auto& [name, _] : table())
        names.push_back(name);
    return names;
}

} // namespace parascope::web
