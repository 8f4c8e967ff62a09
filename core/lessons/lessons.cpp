#include "lessons/lessons.h"

#include "io/scenario_json.h"

namespace parascope {

namespace {

// A text in both languages: {"en": "…", "zh": "…"}; both are required.
Localized localizedText(const nlohmann::json& j, const std::string& key, const std::string& path,
                        std::vector<InputError>& errors)
{
    Localized out;
    const std::string where = path.empty() ? key : path + "." + key;
    if (!j.is_object() || !j.contains(key) || !j[key].is_object()) {
        errors.push_back({where, "must be an object {\"en\": …, \"zh\": …}"});
        return out;
    }
    for (const char* lang : {"en", "zh"}) {
        const nlohmann::json& v = j[key];
        if (!v.contains(lang) || !v[lang].is_string() || v[lang].get<std::string>().empty()) {
            errors.push_back({where + "." + lang, "must be a non-empty string"});
            continue;
        }
        (std::string(lang) == "en" ? out.en : out.zh) = v[lang].get<std::string>();
    }
    return out;
}

std::optional<Lesson> readLesson(const PresetInfo& p, std::vector<InputError>& errors)
{
    std::vector<InputError> mine;
    Lesson l;
    l.id = p.id;
    l.title = localizedText(p.json, "title", "", mine);
    l.text = localizedText(p.json, "text", "", mine);
    if (!p.json.contains("steps") || !p.json["steps"].is_array() || p.json["steps"].empty())
        mine.push_back({"steps", "must be a non-empty array of {label, scenario}"});
    else
        for (std::size_t i = 0; i < p.json["steps"].size(); ++i) {
            const nlohmann::json& step = p.json["steps"][i];
            const std::string path = "steps[" + std::to_string(i) + "]";
            LessonStep s;
            s.label = localizedText(step, "label", path, mine);
            if (!step.is_object() || !step.contains("scenario")) {
                mine.push_back({path + ".scenario", "is missing"});
                continue;
            }
            std::vector<InputError> sc_errors;
            if (auto sc = readScenario(step["scenario"], sc_errors))
                s.scenario = *sc;
            for (InputError e : sc_errors) {
                e.path = path + ".scenario" + (e.path.empty() ? "" : "." + e.path);
                mine.push_back(e);
            }
            l.steps.push_back(std::move(s));
        }
    for (InputError& e : mine)
        e.path = "lessons/" + p.id + (e.path.empty() ? "" : ": " + e.path);
    errors.insert(errors.end(), mine.begin(), mine.end());
    if (!mine.empty())
        return std::nullopt;
    return l;
}

} // namespace

std::vector<Lesson> readLessons(std::vector<InputError>& errors)
{
    std::vector<Lesson> out;
    for (const PresetInfo& p : listPresets("lessons"))
        if (auto l = readLesson(p, errors))
            out.push_back(std::move(*l));
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

const Lesson* findLesson(const std::string& id)
{
    for (const Lesson& l : lessons())
        if (l.id == id)
            return &l;
    return nullptr;
}

} // namespace parascope
