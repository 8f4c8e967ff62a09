#pragma once
// Shared by the view suites (tst_views, tst_views_teaching): a scenario from JSON text, the
// README's Llama-2 70B scenario and a Llama-2 7B one on 8 GPUs.

#include "scenario_fixture.h"

#include <string>

namespace parascope::test::views {

// A scenario from JSON text (tests/support: fails the test on an input error).
inline Scenario scenario(const std::string& json) { return test::scenarioFromJson(json); }

// The README's scenario: Llama-2 70B on 512 A100-80GB (TP 8 · PP 8 · DP 8), 512 sequences of 4096.
// Its search has fitting cells from 9.85 s to 28 s and cells where nothing fits (TP 1 · PP 2).
inline Scenario seventyB()
{
    return scenario(R"({"schema":"parascope.scenario/1","model":"llama2-70b","cluster":"dgx-a100-80g",
        "parallel":{"tp":8,"pp":8,"dp":8,"sequence_parallel":true,"zero":1},
        "training":{"seq_len":4096,"micro_batch":1,"global_batch":512,"recompute":"selective"}})");
}

// Llama-2 7B on TP 2 · DP 4 (8 GPUs), 16 sequences per step.
inline Scenario sevenB()
{
    return scenario(R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-a100-80g",
        "parallel":{"tp":2,"pp":1,"dp":4},"training":{"seq_len":4096,"micro_batch":1,"global_batch":16}})");
}

} // namespace parascope::test::views
