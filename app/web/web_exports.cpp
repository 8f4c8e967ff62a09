// What the page calls (packaging/web/): parascope_call(method, request) → JSON text, held until
// the next call (the page copies it out at once with UTF8ToString).

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

} // extern "C"
