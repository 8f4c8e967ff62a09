// parascope-web-dump: the web API's answers for every lesson step and every model preset (on the
// default scenario's cluster and layout, as the page's model picker sets them), one JSON line per
// request, in a fixed order. Built natively and by emscripten (run under Node); tests/web/
// compares the two outputs byte for byte, so the page shows what the desktop app shows.
//   parascope-web-dump SCENARIO.json      (the default scenario: resources/scenarios/)

#include "web_api.h"

#include "lessons/lessons.h"
#include "io/scenario_json.h"
#include "util/json_reader.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <string>

namespace {

using nlohmann::json;

void answer(const std::string& method, const json& request)
{
    std::cout << method << ' ' << request.dump() << '\n' << parascope::web::call(method, request.dump()) << '\n';
}

void dumpScenario(const json& scenario)
{
    for (const char* lang : {"en", "zh"})
        answer("evaluate", {{"scenario", scenario}, {"lang", lang}});
    answer("timeline", {{"scenario", scenario}});
    answer("explore", {{"scenario", scenario}, {"lang", "zh"}});
    answer("knobs", {{"scenario", scenario}});
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: parascope-web-dump SCENARIO.json\n");
        return 2;
    }
    std::vector<parascope::InputError> errors;
    const auto base = parascope::readJsonFile(argv[1], errors);
    if (!base) {
        std::fprintf(stderr, "parascope-web-dump: %s: %s\n", argv[1], errors.front().text().c_str());
        return 1;
    }
    for (const char* m : {"presets", "lessons"})
        answer(m, json::object());
    dumpScenario(*base);
    for (const parascope::PresetInfo& p : parascope::listPresets("models")) {
        json sc = *base;
        sc["model"] = p.id;
        dumpScenario(sc);
    }
    for (const parascope::Lesson& l : parascope::lessons()) {
        answer("lesson", {{"id", l.id}});
        for (const parascope::LessonStep& s : l.steps)
            dumpScenario(parascope::scenarioToJson(s.scenario));
    }
    for (const parascope::Lesson& l : parascope::lessons())
        for (std::size_t i = 0; i < l.steps.size(); ++i)
            if (l.steps[i].exercise)
                for (double guess : {1.0, 10.0, 100.0})
                    answer("grade_exercise", {{"lesson", l.id}, {"step", i}, {"answer", guess}});
    answer("grade_exercise", {{"lesson", "no-such-lesson"}, {"step", 0}, {"answer", "x"}});
    answer("set", {{"scenario", *base}, {"set", {"parallel.pp=16", "training.recompute=full"}}});
    answer("set", {{"scenario", *base}, {"set", {"parallel.pp=0"}}});
    answer("move", {{"scenario", *base}, {"set", {"parallel.pp=16"}}, {"lang", "zh"}});
    answer("evaluate", {{"scenario", {{"model", "no-such-model"}}}});
    for (const char* op : {"all_reduce", "all_gather", "reduce_scatter", "all_to_all"})
        for (int ranks : {8, 16, 64})
            answer("collective", {{"op", op}, {"bytes", 256 << 20}, {"ranks", ranks}, {"cluster", "dgx-a100-80g"}});
    answer("collective", {{"op", "all_reduce"}, {"bytes", 1 << 20}, {"ranks", 16}, {"algorithm", "tree"}});
    answer("collective", {{"op", "all_sum"}, {"bytes", -1}, {"ranks", 1}, {"cluster", "nowhere"}});
    answer("collective", {{"op", "all_reduce"}, {"bytes", -1}, {"ranks", 12}, {"cluster", "dgx-a100-80g"}});
    answer("no_such_method", json::object());
    return 0;
}
