// What the page calls (packaging/web/): parascope_call(method, request) → JSON text, held until
// the next call (the page copies it out at once with UTF8ToString); the Gantt's ops of the last
// knob move straight from the module's memory.

#include "web_api.h"

#include <emscripten/emscripten.h>

#include <string>

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* parascope_call(const char* method, const char* request)
{
    static std::string answer;
    answer = parascope::web::call(method ? method : "", request ? request : "");
    return answer.c_str();
}

// The last Gantt's ops (web_api.h lastGanttOps): where they start in the module's memory and how
// many numbers; the page reads them as a Float64Array over HEAPF64 and copies them out.
EMSCRIPTEN_KEEPALIVE const double* parascope_gantt_ops() { return parascope::web::lastGanttOps().data(); }
EMSCRIPTEN_KEEPALIVE int parascope_gantt_ops_count() { return int(parascope::web::lastGanttOps().size()); }

} // extern "C"
