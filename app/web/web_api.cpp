#include "web_api.h"
#include "web_methods.h"

#include "comm/collective_steps.h"
#include "comm/explainer_request.h"
#include "estimate/evaluate.h"
#include "estimate/faults.h"
#include "estimate/memory_over_time.h"
#include "io/collective_json.h"
#include "io/error_bands.h"
#include "io/hf_config_import.h"
#include "io/model_json.h"
#include "io/report_json.h"
#include "io/scenario_json.h"
#include "io/timeline_json.h"
#include "lessons/course_json.h"
#include "lessons/exercises.h"
#include "lessons/lesson_text.h"
#include "lessons/lessons.h"
#include "search/advice.h"
#include "types/knobs.h"
#include "util/json_reader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <functional>
#include <map>
#include <optional>

namespace parascope::web {

// The requests' common fields (web_methods.h).
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

namespace {

using Method = std::function<std::optional<json>(const json& request, Errors& errors)>;

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

std::vector<double>& keptOps() // the last Gantt's ops: lastGanttOps()
{
    static std::vector<double> ops;
    return ops;
}

// The simulated step's ops for drawing, six numbers per op — rank, lane (0 compute, 1
// communication), type (an index into the Gantt's "types"), start µs, end µs, microbatch — whole
// numbers (a pixel of a 10 s step is ~10,000 µs). The exact times are in "timeline".
const std::vector<double>& ganttOps(const TimelineReport& r)
{
    std::vector<double>& ops = keptOps();
    ops.clear();
    ops.reserve(r.timeline.ops.size() * 6);
    for (const TimedOp& op : r.timeline.ops)
        for (double v : {double(op.rank), op.comm_lane ? 1.0 : 0.0, double(op.type), std::round(op.start_s * 1e6),
                         std::round(op.end_s * 1e6), double(op.microbatch)})
            ops.push_back(v);
    return ops;
}

// The Gantt the page draws on every knob move: its ops either as "ops", one flat JSON list, or
// (in_memory) left in the module's memory for the page to read as a Float64Array
// (lastGanttOps(); "ops_in_memory" says how many numbers): writing and parsing 25,000 numbers as
// JSON was most of a knob move's engine time.
json ganttJson(const Scenario& sc, const Estimate& est, bool in_memory)
{
    const TimelineReport& r = est.timeline;
    const std::vector<double>& flat = ganttOps(r);
    json types = json::array(); // by the enum's value, the index an op carries
    for (const auto& n : enumNames(OpType{}))
        types[std::size_t(n.value)] = n.name;
    json out = {{"simulated", r.simulated},
                {"schedule", toString(sc.parallel.schedule)},
                {"step_s", est.time.step_s},
                {"drawn_s", shownTimelineSeconds(est)}, // where the time axis ends (the drawn ops)
                {"step_band", bandText(bandFor(builtInBands(), sc), true).en}, // how sure: "±6.0 %"
                {"ranks", r.timeline.ranks},
                {"ranks_shown", r.ranks_shown},
                {"microbatches_shown", r.microbatches_shown},
                {"microbatches_total", r.microbatches_total},
                {"types", types}};
    if (in_memory) {
        out["ops_in_memory"] = flat.size();
    } else {
        json ops = json::array();
        auto& list = ops.get_ref<json::array_t&>();
        list.reserve(flat.size());
        for (double v : flat)
            list.emplace_back(static_cast<long long>(v));
        out["ops"] = std::move(ops);
    }
    return out;
}

// What the page redraws on every knob move, from one evaluation: the report (without the fixes,
// which evaluate many changed scenarios and come after, from "evaluate") and the Gantt's ops.
// request.ops == "memory": the Gantt's ops in the module's memory (ganttJson).
bool opsInMemory(const json& request)
{
    const auto it = request.find("ops");
    return it != request.end() && it->is_string() && it->get<std::string>() == "memory";
}

json exploreJson(const Scenario& sc, const json& request)
{
    const Estimate est = evaluate(sc);
    return {{"report", reportToJson(sc, est, langOf(request), false)},
            {"gantt", ganttJson(sc, est, opsInMemory(request))}};
}

std::optional<json> exploreMethod(const json& request, Errors& errors)
{
    const auto sc = scenarioOf(request, errors);
    if (!sc)
        return std::nullopt;
    return exploreJson(*sc, request);
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
    json j
        = {{"path", k.path}, {"short", k.short_name}, {"label", localizedJson(k.label)}, {"min", k.min}, {"max", k.max},
           {"rule", k.rule}, {"value", k.get(sc)},    {"offered", k.offered(sc)}};
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
// "changes": an item of "advice" applied as the app applies it (applyAdvice), its values as
// adviceToJson spells them.
bool applyChanges(Scenario& sc, const json& request, Errors& errors)
{
    const auto changes = request.find("changes");
    if (changes == request.end())
        return true;
    if (!changes->is_object()) {
        errors.push_back({"changes", "must be an object of {PATH: VALUE}, as an item of \"advice\" has it"});
        return false;
    }
    Advice a;
    for (const auto& [path, value] : changes->items()) {
        std::string why;
        const auto change = adviceChangeFromJson(path, value, why);
        if (!change) {
            errors.push_back({"changes." + path, why});
            return false;
        }
        a.changes.push_back(*change);
    }
    // Read back as a scenario file is, so that a value out of range ({"parallel.tp": 0}) is an
    // error with its path, as in a file, not an evaluation that divides by it.
    Errors own;
    const auto checked = readScenario(scenarioToJson(applyAdvice(sc, a)), own);
    for (InputError& e : own)
        errors.push_back({"changes: " + e.path, e.message});
    if (!checked)
        return false;
    sc = *checked;
    return true;
}

std::optional<Scenario> movedScenario(const json& request, Errors& errors)
{
    auto sc = scenarioOf(request, errors);
    if (!sc || !applyChanges(*sc, request, errors))
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
    json out = exploreJson(*sc, request);
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

// The cluster a collective is explained on: a scenario's with its degraded link (as the engine
// times its communication), else "cluster" (a preset's id or a cluster written out; default
// dgx-h100).
std::optional<ClusterSpec> explainerCluster(const json& request, const std::optional<Scenario>& sc, Errors& errors)
{
    if (sc)
        return withDegradedLink(sc->cluster, sc->faults);
    const auto given = request.find("cluster");
    return readCluster(given != request.end() ? *given : json("dgx-h100"), "cluster", errors);
}

// "gpus_per_node": at most that many of the group's GPUs in each node (0 when not asked).
std::optional<int> perNodeOf(const json& request, Errors& errors)
{
    const auto per_node = request.find("gpus_per_node");
    if (per_node == request.end())
        return 0;
    if (!per_node->is_number_integer() || per_node->get<long long>() < 1) {
        errors.push_back({"gpus_per_node", "must be a whole number of GPUs, at least 1"});
        return std::nullopt;
    }
    return int(std::min<long long>(per_node->get<long long>(), INT_MAX));
}

// "entry": row N of the scenario's communication, as the explainer plays it (explainerRequest:
// the engine's bytes per call, group, GPUs per node and algorithm), so it shows the time the
// engine charged that row.
std::optional<ExplainerRequest> entryRequest(const json& request, const Scenario& sc, Errors& errors)
{
    const auto entry = request.find("entry");
    const std::vector<CommEntry> comm = evaluate(sc).communication;
    if (!entry->is_number_integer() || entry->get<long long>() < 0 || entry->get<std::size_t>() >= comm.size()) {
        errors.push_back({"entry", "must be the index of a row of the scenario's communication"});
        return std::nullopt;
    }
    const auto r = explainerRequest(comm[entry->get<std::size_t>()]);
    if (!r)
        errors.push_back({"entry", "this row has no step-by-step form (a send/recv, a group of one GPU)"});
    return r;
}

// The request's own fields: op, bytes, ranks, algorithm (default: what the engine would run for
// that group on the cluster, in its stepped form). Types here; the ranges are planCollective's
// (comm/collective_checks.cpp), as for the CLI.
std::optional<ExplainerRequest> fieldsRequest(const json& request, Errors& errors)
{
    const auto text = [&](const char* key) {
        const auto it = request.find(key);
        return it != request.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    const auto op = enumFromName<Collective>(text("op"));
    if (!op)
        errors.push_back({"op", "must name a collective (all_reduce, all_gather, reduce_scatter, all_to_all, …)"});
    const auto bytes = request.find("bytes"), ranks = request.find("ranks");
    if (bytes == request.end() || !bytes->is_number())
        errors.push_back({"bytes", "must be a number of bytes"});
    if (ranks == request.end() || !ranks->is_number_integer())
        errors.push_back({"ranks", "must be a whole number of GPUs"});
    const std::string asked = text("algorithm");
    const auto algorithm = enumFromName<CollectiveAlgorithm>(asked);
    if (!asked.empty() && !algorithm)
        errors.push_back({"algorithm", "\"" + asked + "\" names no algorithm"});
    if (!errors.empty())
        return std::nullopt;
    const long long asked_ranks = ranks->get<long long>();
    ExplainerRequest r;
    r.op = *op;
    r.bytes = bytes->get<double>();
    r.ranks = asked_ranks < 0 || asked_ranks > INT_MAX ? -1 : int(asked_ranks); // out of range: refused there
    r.algorithm = algorithm.value_or(CollectiveAlgorithm::Ring);
    return r;
}

// One collective step by step (the collective explainer, `parascope-cli collective --format
// json`): a row of a scenario's communication ({scenario, entry}), or {op, bytes, ranks,
// algorithm} on a scenario's cluster or a "cluster" (explainerCluster), with "gpus_per_node";
// lang. The answer is the CLI's with "ladder_lines": the bandwidth ladder as the CLI's text prints
// it, in the request's language.
std::optional<json> collectiveMethod(const json& request, Errors& errors)
{
    const auto sc = request.contains("scenario") ? scenarioOf(request, errors) : std::nullopt;
    if (request.contains("scenario") && !sc)
        return std::nullopt;
    const bool row = sc && request.contains("entry");
    const auto asked = row ? entryRequest(request, *sc, errors) : fieldsRequest(request, errors);
    const auto per_node = row ? std::optional(asked ? asked->gpus_per_node : 0) : perNodeOf(request, errors);
    const auto base = explainerCluster(request, sc, errors);
    if (!asked || !per_node || !base || !errors.empty())
        return std::nullopt;
    const ClusterSpec cluster = withGroupPerNode(*base, *per_node);
    const bool engine_pick = !row && !request.contains("algorithm");
    const CollectiveAlgorithm algorithm
        = engine_pick ? explainerAlgorithm(asked->op, asked->bytes, asked->ranks, cluster) : asked->algorithm;
    Errors refused;
    auto plan = planCollective(asked->op, asked->bytes, asked->ranks, cluster, algorithm, refused);
    if (plan && row) // compared with what the engine charged the row (DeepEP's dispatch)
        compareWithRow(*plan, *asked);
    for (InputError& e : refused) // named by the CLI's options ("--bytes"): here by the request's fields
        errors.push_back({e.path.rfind("--", 0) == 0 ? e.path.substr(2) : e.path, e.message});
    if (!plan)
        return std::nullopt;
    json out = planJson(*plan, cluster);
    out["ladder_lines"] = ladderLines(ladderOf(*plan, cluster), langOf(request)); // the ladder, in words
    return out;
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
                                                                 {"grade_design", gradeDesignMethod},
                                                                 {"advise", adviseMethod},
                                                                 {"class_answers", classAnswersMethod},
                                                                 {"import_hf", importHfMethod},
                                                                 {"collective", collectiveMethod},
                                                                 {"grade_exercise", gradeExerciseMethod}};
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

const std::vector<double>& lastGanttOps() { return keptOps(); }

std::vector<std::string> methods()
{
    std::vector<std::string> names;
    for (const auto& [name, _] : table())
        names.push_back(name);
    return names;
}

} // namespace parascope::web
