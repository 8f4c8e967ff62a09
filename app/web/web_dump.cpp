// parascope-web-dump: the web API's answers for every lesson step and every model preset (on the
// default scenario's cluster and layout, as the page's model picker sets them), one JSON line per
// request, in a fixed order; then the course's methods (the Advisor, the design task, a class's
// answers from tests/data/class: run it from the repository's root). Built natively and by
// emscripten (run under Node); packaging/web/test.sh compares the two outputs byte for byte, so
// the page shows what the desktop app shows.
//   parascope-web-dump SCENARIO.json      (the default scenario: resources/scenarios/)

#include "web_api.h"

#include "lessons/lessons.h"
#include "io/scenario_json.h"
#include "util/json_reader.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
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

std::string fileText(const char* path)
{
    std::vector<parascope::InputError> errors;
    const auto text = parascope::readTextFile(path, errors);
    if (!text) { // run from the repository's root, as packaging/web/test.sh does
        std::fprintf(stderr, "parascope-web-dump: %s\n", errors.front().text().c_str());
        std::exit(1);
    }
    return *text;
}

// The Advisor on the default scenario and the capstone's task; the capstone's design task handed
// in as the task sets it (DP 1,024: out of memory) and with the procedure's layout; the class
// answers the tests keep (tests/data/class), and refusals.
void courseDump(const json& base)
{
    answer("advise", {{"scenario", base}, {"lang", "zh"}});
    for (const parascope::Lesson& l : parascope::lessons())
        for (std::size_t i = 0; i < l.steps.size(); ++i)
            if (l.steps[i].design) {
                const json task = parascope::scenarioToJson(l.steps[i].scenario);
                answer("advise", {{"scenario", task}, {"lang", "en"}});
                answer("grade_design", {{"lesson", l.id}, {"step", i}, {"scenario", task}, {"lang", "zh"}});
                json layout = task;
                layout["parallel"]["tp"] = 8;
                layout["parallel"]["dp"] = 128;
                answer("grade_design", {{"lesson", l.id}, {"step", i}, {"scenario", layout}, {"lang", "en"}});
            }
    answer("grade_design", {{"lesson", "no-such-lesson"}, {"step", 0}});
    const std::string csv = fileText("tests/data/class/answers.csv");
    for (const char* lang : {"en", "zh"})
        answer("class_answers", {{"files", {{{"file", "answers.csv"}, {"text", csv}}}}, {"lang", lang}});
    answer("class_answers", {{"files", {{{"file", "bad.csv"}, {"text", "time,lesson,step\nx,no-such,1\n"}}}}});
    answer("class_answers", {{"files", "answers.csv"}});
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
    // The page's way: the Gantt's ops left in memory, then read (printed as the JSON list would be).
    answer("move", {{"scenario", *base}, {"set", {"parallel.pp=16"}}, {"lang", "zh"}, {"ops", "memory"}});
    json kept = json::array();
    for (double v : parascope::web::lastGanttOps())
        kept.push_back(static_cast<long long>(v));
    std::cout << "lastGanttOps\n" << kept.dump() << '\n';
    answer("evaluate", {{"scenario", {{"model", "no-such-model"}}}});
    for (const char* op : {"all_reduce", "all_gather", "reduce_scatter", "all_to_all"})
        for (int ranks : {8, 16, 64})
            answer("collective", {{"op", op}, {"bytes", 256 << 20}, {"ranks", ranks}, {"cluster", "dgx-a100-80g"}});
    answer("collective", {{"op", "all_reduce"}, {"bytes", 1 << 20}, {"ranks", 16}, {"algorithm", "tree"}});
    answer("collective", {{"op", "all_sum"}, {"bytes", -1}, {"ranks", 1}, {"cluster", "nowhere"}});
    answer("collective", {{"op", "all_reduce"}, {"bytes", -1}, {"ranks", 12}, {"cluster", "dgx-a100-80g"}});
    // Each row of the default scenario's communication as the page's table opens it (its DP group:
    // 8 GPUs, one per node; its send/recv rows refused); a group set by hand with one GPU per node
    // on the scenario's cluster, and a GPUs-per-node that is not one.
    for (int entry = 0; entry < 7; ++entry)
        answer("collective", {{"scenario", *base}, {"entry", entry}, {"lang", "zh"}});
    answer("collective",
           {{"op", "all_gather"}, {"bytes", 1 << 28}, {"ranks", 8}, {"gpus_per_node", 1}, {"scenario", *base}});
    answer("collective", {{"op", "all_gather"}, {"bytes", 1 << 28}, {"ranks", 8}, {"gpus_per_node", 0}});
    courseDump(*base);
    answer("no_such_method", json::object());
    return 0;
}
