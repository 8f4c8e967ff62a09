#pragma once
// The parts of a Chrome trace (Kineto's JSON) that io/kineto_trace reads, read in one linear
// SAX pass without building a document: a 100 MB trace is read in about the time Python's
// json.load takes (docs/PERFORMANCE.md), and only the complete events ("ph": "X") a step
// comparison needs are kept — GPU kernels, copies and sets, runtime launches and the step and
// optimizer annotations — not the CPU operators that make up most of a trace.

#include "util/json_reader.h"

#include <optional>
#include <string>
#include <vector>

namespace parascope {

struct TraceEvent {
    std::size_t index = 0; // position in traceEvents, for messages
    bool complete = false; // "ph": "X"
    std::string cat, name; // cat as written
    std::optional<double> ts, dur; // µs; numbers, or numbers written as strings
    std::optional<long long> pid, tid; // whole numbers (rounded), when present
    std::optional<long long> device, stream, correlation; // from "args"
};

struct TraceDocument {
    std::vector<TraceEvent> events; // the complete events kept, in file order
    std::vector<std::pair<long long, std::string>> devices; // deviceProperties: id, name
    std::optional<int> rank, world_size; // distributedInfo
};

// Whether io/kineto_trace reads an event of this category and name.
bool traceEventUsed(const std::string& cat, const std::string& name);

// Reads trace text: an object with "traceEvents" or an array of events. Syntax errors, nesting
// deeper than `max_depth` and a document that is no trace are errors.
std::optional<TraceDocument> readTraceDocument(const std::string& text, std::vector<InputError>& errors,
                                               int max_depth = 64);
// The same from a parsed document (tests, the fuzzer).
std::optional<TraceDocument> traceDocumentFromJson(const nlohmann::json& trace, std::vector<InputError>& errors);

} // namespace parascope
