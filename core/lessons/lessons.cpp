#include "lessons/lessons.h"

#include "lessons/lesson_text.h"

#include "io/scenario_json.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <sstream>

namespace parascope {

namespace {

std::string join(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }

// A text in both languages: {"en": "…", "zh": "…"}; both are required and nothing else is read.
Localized localizedText(ObjectReader& parent, const char* key, const std::string& path, std::vector<InputError>& errors)
{
    Localized out;
    const std::string where = join(path, key);
    const nlohmann::json* j = parent.child(key);
    if (!j || !j->is_object()) {
        errors.push_back({where, "must be an object {\"en\": …, \"zh\": …}"});
        return out;
    }
    ObjectReader r(*j, where, errors);
    for (const char* lang : {"en", "zh"}) {
        const std::optional<std::string> v = r.string(lang, true);
        if (v && v->empty())
            r.error(lang, "must be a non-empty string");
        else if (v)
            (std::string(lang) == "en" ? out.en : out.zh) = *v;
        for (const std::string& e : v ? placeholderErrors(*v) : std::vector<std::string>())
            r.error(lang, e); // numbers from the engine: lessons/lesson_text.h
    }
    r.finish();
    return out;
}

void readRange(ObjectReader& r, NumericClaim& c)
{
    constexpr double kLimit = 1e15;
    const std::optional<double> min = r.number("min", -kLimit, kLimit, true);
    const std::optional<double> max = r.number("max", -kLimit, kLimit, true);
    if (min && max && *min > *max)
        r.error("min", claimNumber(*min) + " is above max " + claimNumber(*max));
    c.min = min.value_or(0);
    c.max = max.value_or(0);
}

std::vector<std::string> readCodes(ObjectReader& r, const char* key, const std::string& path,
                                   std::vector<InputError>& errors)
{
    std::vector<std::string> out;
    const nlohmann::json* j = r.child(key);
    if (!j)
        return out;
    if (!j->is_array()) {
        r.error(key, "must be an array of diagnostic codes, got " + describeJson(*j));
        return out;
    }
    for (std::size_t i = 0; i < j->size(); ++i) {
        const nlohmann::json& v = (*j)[i];
        const bool code = v.is_string() && !v.get<std::string>().empty()
            && std::all_of(v.get_ref<const std::string&>().begin(), v.get_ref<const std::string&>().end(),
                           [](char ch) { return (ch >= 'a' && ch <= 'z') || ch == '_'; });
        if (code)
            out.push_back(v.get<std::string>());
        else
            errors.push_back({join(path, key) + "[" + std::to_string(i) + "]",
                              "must be a diagnostic code such as \"out_of_memory\", got " + describeJson(v)});
    }
    return out;
}

// "collective": GROUP.COLLECTIVE.PURPOSE, each part a name of its enum (types/comm_types.h).
std::string readCollectiveKey(ObjectReader& r)
{
    const std::optional<std::string> key = r.string("collective", true);
    if (!key)
        return {};
    const bool ok = isCollectiveKey(*key);
    if (!ok)
        r.error("collective",
                "must be GROUP.COLLECTIVE.PURPOSE such as \"dp.reduce_scatter.gradients\" (groups "
                    + enumNameList<Group>() + "; collectives " + enumNameList<Collective>() + "; purposes "
                    + enumNameList<Purpose>() + "), got \"" + *key + "\"");
    return ok ? *key : std::string();
}

// The step's `expect`; `pp` is the step's pipeline size when its scenario read (0 otherwise).
LessonExpect readExpect(const nlohmann::json* j, const std::string& path, std::size_t self, std::size_t steps, int pp,
                        std::vector<InputError>& errors)
{
    LessonExpect out;
    if (!j) {
        errors.push_back({path, "is missing: every step states the claims its text makes"});
        return out;
    }
    ObjectReader r(*j, path, errors);
    if (!r.valid())
        return out;
    out.valid = r.boolean("valid");
    out.fits = r.boolean("fits");
    out.no_warnings = r.boolean("no_warnings");
    out.diagnostics_present = readCodes(r, "diagnostics_present", path, errors);
    out.diagnostics_absent = readCodes(r, "diagnostics_absent", path, errors);
    for (const QuantityInfo& q : kQuantities) {
        const nlohmann::json* v = r.child(q.key);
        if (!v)
            continue;
        const std::string where = join(path, q.key);
        if (q.shape == QuantityInfo::Plain) {
            NumericClaim c;
            c.quantity = q.quantity;
            ObjectReader cr(*v, where, errors);
            readRange(cr, c);
            cr.finish();
            out.numbers.push_back(c);
            continue;
        }
        if (!v->is_array() || v->empty()) {
            const char* qualifier = q.shape == QuantityInfo::PerStage ? "stage"
                : q.shape == QuantityInfo::PerCollective              ? "collective"
                                                                      : "step";
            r.error(q.key,
                    "must be a non-empty array of {" + std::string(qualifier) + ", min, max}, got " + describeJson(*v));
            continue;
        }
        for (std::size_t i = 0; i < v->size(); ++i) {
            NumericClaim c;
            c.quantity = q.quantity;
            ObjectReader cr((*v)[i], where + "[" + std::to_string(i) + "]", errors);
            if (!cr.valid())
                continue;
            if (q.shape == QuantityInfo::PerStage) {
                c.stage = int(cr.integer("stage", 0, (1 << 24) - 1).value_or(-1));
                if (pp > 0 && c.stage >= pp)
                    cr.error("stage",
                             "is " + std::to_string(c.stage) + ", but the step has " + std::to_string(pp)
                                 + " pipeline stages");
                if (q.quantity == Quantity::MemoryGib) {
                    if (const nlohmann::json* part = cr.child("part"); !part)
                        cr.error("part", "is required: one of " + enumNameList<MemoryPart>());
                    if (auto part = cr.choice<MemoryPart>("part"))
                        c.part = *part;
                }
            } else if (q.shape == QuantityInfo::PerCollective) {
                c.collective = readCollectiveKey(cr);
            } else {
                const std::optional<std::int64_t> other = cr.integer("step", 0, std::int64_t(steps) - 1, true);
                if (other && std::size_t(*other) == self)
                    cr.error("step", "compares the step with itself");
                c.step = int(other.value_or(-1));
            }
            readRange(cr, c);
            cr.finish();
            out.numbers.push_back(c);
        }
    }
    r.finish();
    if (out.claims() == 0)
        errors.push_back({path, "states no claim: give at least one (valid, fits, peak_gib, …)"});
    return out;
}

// A step's `exercise` (see lessons.h); `pp` as for readExpect.
std::optional<Exercise> readExercise(const nlohmann::json& j, const std::string& path, int pp,
                                     std::vector<InputError>& errors)
{
    ObjectReader r(j, path, errors);
    if (!r.valid())
        return std::nullopt;
    Exercise ex;
    ex.prompt = localizedText(r, "prompt", path, errors);
    ex.formula = localizedText(r, "formula", path, errors);
    ex.tolerance = r.number("tolerance", 0.001, 1).value_or(0.1);
    if (const nlohmann::json* ask = r.child("ask")) {
        ObjectReader ar(*ask, join(path, "ask"), errors);
        if (ar.valid()) {
            const std::optional<std::string> key = ar.string("quantity", true);
            const QuantityInfo* info = nullptr;
            for (const QuantityInfo& q : kQuantities)
                if (key && *key == q.key && q.shape != QuantityInfo::VersusStep)
                    info = &q;
            if (key && !info)
                ar.error("quantity",
                         "must be a quantity of one step (peak_gib, step_s, bubble_simulated, dp_gib_sent, memory_gib, "
                         "…), got \""
                             + *key + "\"");
            if (info) {
                ex.ask.quantity = info->quantity;
                if (info->shape == QuantityInfo::PerStage) {
                    ex.ask.stage = int(ar.integer("stage", 0, (1 << 24) - 1, true).value_or(-1));
                    if (pp > 0 && ex.ask.stage >= pp)
                        ar.error("stage",
                                 "is " + std::to_string(ex.ask.stage) + ", but the step has " + std::to_string(pp)
                                     + " pipeline stages");
                    if (info->quantity == Quantity::MemoryGib)
                        ex.ask.part = ar.choice<MemoryPart>("part").value_or(MemoryPart::Total);
                } else if (info->shape == QuantityInfo::PerCollective) {
                    ex.ask.collective = readCollectiveKey(ar);
                }
            }
            ar.finish();
        }
    } else {
        r.error("ask", "is required: {\"quantity\": …}");
    }
    if (const nlohmann::json* m = r.child("mistakes")) {
        if (!m->is_array())
            r.error("mistakes", "must be an array of {factor, hint}, got " + describeJson(*m));
        else
            for (std::size_t i = 0; i < m->size(); ++i) {
                const std::string where = join(path, "mistakes") + "[" + std::to_string(i) + "]";
                ObjectReader mr((*m)[i], where, errors);
                if (!mr.valid())
                    continue;
                ExerciseMistake mistake;
                mistake.factor = mr.number("factor", 1e-6, 1e6, true).value_or(1);
                if (mistake.factor == 1)
                    mr.error("factor", "is 1: that is the right answer");
                mistake.hint = localizedText(mr, "hint", where, errors);
                mr.finish();
                ex.mistakes.push_back(mistake);
            }
    }
    r.finish();
    return ex;
}

// A step's `design` (see lessons.h).
DesignTask readDesign(const nlohmann::json& j, const std::string& path, std::vector<InputError>& errors)
{
    DesignTask d;
    ObjectReader r(j, path, errors);
    if (!r.valid())
        return d;
    d.prompt = localizedText(r, "prompt", path, errors);
    d.tokens = r.number("tokens", 1e6, 1e16, true).value_or(0);
    d.days = r.number("days", 0.01, 1e4, true).value_or(0);
    r.finish();
    return d;
}

} // namespace

const DesignTask* lessonDesign(const Lesson& lesson)
{
    for (const LessonStep& s : lesson.steps)
        if (s.design)
            return &*s.design;
    return nullptr;
}

const QuantityInfo& quantityInfo(Quantity q)
{
    for (const QuantityInfo& i : kQuantities)
        if (i.quantity == q)
            return i;
    return kQuantities[0];
}

std::string NumericClaim::name() const
{
    const QuantityInfo& q = quantityInfo(quantity);
    std::string out = q.key;
    if (q.shape == QuantityInfo::PerStage) {
        out += "[stage " + (stage < 0 ? std::string("peak") : std::to_string(stage));
        if (quantity == Quantity::MemoryGib)
            out += std::string(", ") + toString(part);
        out += "]";
    } else if (q.shape == QuantityInfo::VersusStep) {
        out += "[step " + std::to_string(step) + "]";
    } else if (q.shape == QuantityInfo::PerCollective) {
        out += "[" + collective + "]";
    }
    return out;
}

std::size_t LessonExpect::claims() const
{
    return std::size_t(valid.has_value()) + fits.has_value() + no_warnings.has_value() + diagnostics_present.size()
        + diagnostics_absent.size() + numbers.size();
}

std::optional<Lesson> readLesson(const std::string& id, const nlohmann::json& j, std::vector<InputError>& errors)
{
    std::vector<InputError> mine;
    Lesson l;
    l.id = id;
    ObjectReader top(j, "", mine);
    if (top.valid()) {
        l.title = localizedText(top, "title", "", mine);
        l.text = localizedText(top, "text", "", mine);
        const nlohmann::json* steps = top.child("steps");
        if (!steps || !steps->is_array() || steps->empty())
            mine.push_back({"steps", "must be a non-empty array of {label, text, expect, scenario}"});
        else
            for (std::size_t i = 0; i < steps->size(); ++i) {
                const std::string path = "steps[" + std::to_string(i) + "]";
                ObjectReader sr((*steps)[i], path, mine);
                if (!sr.valid())
                    continue;
                LessonStep s;
                s.label = localizedText(sr, "label", path, mine);
                s.text = localizedText(sr, "text", path, mine);
                int pp = 0;
                if (const nlohmann::json* sc = sr.child("scenario")) {
                    std::vector<InputError> sc_errors;
                    if (auto scenario = readScenario(*sc, sc_errors)) {
                        s.scenario = *scenario;
                        pp = s.scenario.parallel.pp;
                    }
                    for (InputError e : sc_errors) {
                        e.path = path + ".scenario" + (e.path.empty() ? "" : "." + e.path);
                        mine.push_back(e);
                    }
                } else {
                    mine.push_back({path + ".scenario", "is missing"});
                }
                s.expect = readExpect(sr.child("expect"), path + ".expect", i, steps->size(), pp, mine);
                if (const nlohmann::json* ex = sr.child("exercise"))
                    s.exercise = readExercise(*ex, path + ".exercise", pp, mine);
                if (const nlohmann::json* d = sr.child("design"))
                    s.design = readDesign(*d, path + ".design", mine);
                if (s.exercise && s.design)
                    mine.push_back({path + ".design", "a step is an exercise or a design task, not both"});
                sr.finish();
                l.steps.push_back(std::move(s));
            }
        top.finish();
    }
    for (InputError& e : mine)
        e.path = "lessons/" + id + (e.path.empty() ? "" : ": " + e.path);
    errors.insert(errors.end(), mine.begin(), mine.end());
    if (!mine.empty())
        return std::nullopt;
    return l;
}

std::vector<Lesson> readLessons(std::vector<InputError>& errors)
{
    std::vector<Lesson> out;
    for (const PresetInfo& p : listPresets("lessons"))
        if (auto l = readLesson(p.id, p.json, errors))
            out.push_back(std::move(*l));
    // In the course's order: by the number that starts the id ("10-…" after "9-…", not after "1-…").
    const auto number = [](const std::string& id) { return std::strtol(id.c_str(), nullptr, 10); };
    std::stable_sort(out.begin(), out.end(),
                     [&](const Lesson& a, const Lesson& b) { return number(a.id) < number(b.id); });
    return out;
}

const std::vector<Lesson>& lessons()
{
    static const std::vector<Lesson> list = [] {
        std::vector<InputError> errors;
        return readLessons(errors);
    }();
    return list;
}

std::optional<Lesson> readLessonFile(const std::string& path, std::vector<InputError>& errors)
{
    const std::optional<nlohmann::json> j = readJsonFile(path, errors);
    if (!j)
        return std::nullopt;
    std::string id = std::filesystem::path(path).filename().string();
    if (id.size() > 5 && id.compare(id.size() - 5, 5, ".json") == 0)
        id.resize(id.size() - 5);
    std::vector<InputError> mine;
    std::optional<Lesson> l = readLesson(id, *j, mine);
    const std::string preset = "lessons/" + id; // readLesson's prefix: the file's path instead
    for (InputError& e : mine)
        e.path = path + e.path.substr(std::min(preset.size(), e.path.size()));
    errors.insert(errors.end(), mine.begin(), mine.end());
    return l;
}

const Lesson* findLesson(const std::string& id, const std::vector<Lesson>& user)
{
    for (const Lesson& l : user)
        if (l.id == id)
            return &l;
    return findLesson(id);
}

const Lesson* findLesson(const std::string& id)
{
    for (const Lesson& l : lessons())
        if (l.id == id)
            return &l;
    return nullptr;
}

} // namespace parascope
