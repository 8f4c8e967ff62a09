#pragma once
// Test helpers: build scenarios from presets or JSON text and evaluate them.

#include "estimate/evaluate.h"
#include "io/scenario_json.h"

#include <QtTest>

#include <string>

namespace parascope::test {

// Parses a scenario from JSON text; fails the test (and returns a default) on any input error.
inline Scenario scenarioFromJson(const std::string& text)
{
    std::vector<InputError> errors;
    auto j = parseJsonText(text, errors);
    std::optional<Scenario> sc;
    if (j)
        sc = readScenario(*j, errors);
    if (!errors.empty()) {
        std::string all;
        for (const auto& e : errors)
            all += e.text() + "\n";
        QTest::qFail(all.c_str(), __FILE__, __LINE__);
    }
    return sc.value_or(Scenario{});
}

inline Scenario scenarioFromFile(const std::string& name)
{
    std::vector<InputError> errors;
    auto sc = readScenarioFile(std::string(PARASCOPE_TEST_DATA) + "/" + name, errors);
    if (!sc) {
        std::string all = name + ":\n";
        for (const auto& e : errors)
            all += e.text() + "\n";
        QTest::qFail(all.c_str(), __FILE__, __LINE__);
        return Scenario{};
    }
    return *sc;
}

// A preset model on a preset cluster with the given parallel layout, course defaults otherwise.
inline Scenario presetScenario(const std::string& model, const std::string& cluster, int tp, int pp, int dp)
{
    return scenarioFromJson(R"({"schema":"parascope.scenario/1","model":")" + model + R"(","cluster":")" + cluster
                            + R"(","parallel":{"tp":)" + std::to_string(tp) + R"(,"pp":)" + std::to_string(pp)
                            + R"(,"dp":)" + std::to_string(dp) + "}}");
}

// Llama-2 7B training on one A100-80GB (sequence 2048, one sequence a step, full recompute):
// 102.2 GiB, 75.3 of it Adam's states — out of memory on every layout, fits with the optimizer
// states offloaded to the CPU.
inline Scenario sevenBOnOneGpu()
{
    Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 1);
    sc.training.seq_len = 2048;
    sc.training.global_batch = 1;
    sc.training.recompute = Recompute::Full;
    return sc;
}

constexpr double GiB = double(1ull << 30);

} // namespace parascope::test
