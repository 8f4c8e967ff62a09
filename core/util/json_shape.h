#pragma once
// One linear pass over JSON text before it is turned into a document: syntax, nesting depth
// and keys given twice in one object (a reader would silently keep the last), each reported
// with its JSON path. nlohmann's parse callback, which a depth limit could also use, rescans
// and turns reading quadratic (a 140k-event trace took 8.6 s); this is a SAX pass with a depth
// counter, and the document is then parsed without a callback.

#include "util/json_reader.h"

#include <string>
#include <vector>

namespace parascope {

// True when `text` is JSON nested at most `max_depth` containers deep with no key twice in an
// object; otherwise appends one error (the first problem) and returns false.
bool checkJsonShape(const std::string& text, int max_depth, std::vector<InputError>& errors);

} // namespace parascope
