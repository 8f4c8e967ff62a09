#pragma once
// Shared by the desktop-app suites tst_gui, tst_gui_files and tst_gui_tools: a scenario from
// JSON text, and the Llama-2 7B scenario most of their tests start from.

#include "io/scenario_json.h"

#include <string>
#include <vector>

namespace parascope::test::gui {

inline Scenario scenario(const std::string& json)
{
    std::vector<InputError> errors;
    const auto j = parseJsonText(json, errors);
    return readScenario(*j, errors).value();
}

// Llama-2 7B, PP 4, 8 microbatches: valid and fits.
inline Scenario sevenB()
{
    return scenario(R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-a100-80g",
        "parallel":{"tp":1,"pp":4,"dp":1},"training":{"seq_len":4096,"micro_batch":1,"global_batch":8}})");
}

} // namespace parascope::test::gui
