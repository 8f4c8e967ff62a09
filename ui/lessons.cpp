#include "lessons.h"

#include "io/scenario_json.h"
#include "language.h"

namespace parascope::ui {

namespace {

QString text(const nlohmann::json& j, const char* key, const char* lang)
{
    if (j.contains(key) && j[key].is_object() && j[key].contains(lang) && j[key][lang].is_string())
        return QString::fromStdString(j[key][lang].get<std::string>());
    return {};
}

} // namespace

QString LessonStep::label() const { return chineseUi() ? label_zh : label_en; }
QString Lesson::title() const { return chineseUi() ? title_zh : title_en; }
QString Lesson::text() const { return chineseUi() ? text_zh : text_en; }

const std::vector<Lesson>& lessons()
{
    static const std::vector<Lesson> list = [] {
        std::vector<Lesson> out;
        for (const PresetInfo& p : listPresets("lessons")) {
            Lesson l;
            l.id = QString::fromStdString(p.id);
            l.title_en = text(p.json, "title", "en");
            l.title_zh = text(p.json, "title", "zh");
            l.text_en = text(p.json, "text", "en");
            l.text_zh = text(p.json, "text", "zh");
            if (p.json.contains("steps") && p.json["steps"].is_array())
                for (const auto& step : p.json["steps"]) {
                    std::vector<InputError> errors;
                    if (!step.contains("scenario"))
                        continue;
                    if (auto sc = readScenario(step["scenario"], errors))
                        l.steps.push_back({text(step, "label", "en"), text(step, "label", "zh"), *sc});
                }
            out.push_back(std::move(l));
        }
        return out;
    }();
    return list;
}

const Lesson* findLesson(const QString& id)
{
    for (const Lesson& l : lessons())
        if (l.id == id)
            return &l;
    return nullptr;
}

} // namespace parascope::ui
