#pragma once
// The web edition's API: the engine's JSON contracts behind one call, so the page (JavaScript)
// holds no physics. The same source is compiled natively (tests/web compares the two builds'
// answers) and by emscripten (web_exports.cpp, the page's parascope_call).
//
//   call("evaluate", {"scenario": {...}, "lang": "zh"})   → {"ok": {"report": …, "advice": […]}}
//   call("set", {"scenario": {...}, "set": ["parallel.pp=16"]}) → {"ok": {"scenario": …}}
//
// A bad request is answered {"errors": [{"path": "scenario.parallel.tp", "message": "…"}]},
// never by a crash: the page shows each error where it came from.

#include <string>
#include <string_view>
#include <vector>

namespace parascope::web {

std::string call(std::string_view method, std::string_view request);

// The Gantt's ops of the last "explore" or "move" (six numbers per op, as ganttJson's "ops"),
// kept until the next one: asked with "ops": "memory", the answer leaves them out of its JSON and
// the page reads them here, from the module's memory (parascope_gantt_ops).
const std::vector<double>& lastGanttOps();

// Every method call() answers, in a stable order (the page's and the tests' list).
std::vector<std::string> methods();

} // namespace parascope::web
