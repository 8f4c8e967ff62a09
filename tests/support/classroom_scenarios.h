#pragma once
// Shared by the classroom suites (tst_classroom, tst_classroom_charts): a scenario from JSON text,
// and the Llama-2 7B scenario most of their tests show.

#include "scenario_fixture.h"

#include <string>

namespace parascope::test::classroom {

// A scenario from JSON text (tests/support: fails the test on an input error).
inline Scenario scenario(const std::string& json) { return test::scenarioFromJson(json); }

// Llama-2 7B on PP 4 with 8 microbatches of one sequence: valid, fits, a visible bubble.
inline Scenario sevenB()
{
    return scenario(R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-a100-80g",
        "parallel":{"tp":2,"pp":4,"dp":2},"training":{"seq_len":4096,"micro_batch":1,"global_batch":16}})");
}

} // namespace parascope::test::classroom
