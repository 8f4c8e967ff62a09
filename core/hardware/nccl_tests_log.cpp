#include "hardware/nccl_tests_log.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <sstream>

namespace parascope::nccl_tests {

// A collective from a name as people write it: the binary (all_reduce_perf), a file name
// (allreduce-2x8.log, all-gather.txt), the -J file's argv[0] (./build/alltoall_perf).
std::optional<Collective> opFromName(const std::string& s)
{
    std::string n;
    for (const char c : s)
        if (std::isalnum(static_cast<unsigned char>(c)))
            n += char(std::tolower(static_cast<unsigned char>(c)));
    // Longer names first: "reducescatter" and "allreduce" both hold "reduce".
    static const std::pair<const char*, Collective> names[] = {{"reducescatter", Collective::ReduceScatter},
                                                               {"allreduce", Collective::AllReduce},
                                                               {"allgather", Collective::AllGather},
                                                               {"alltoall", Collective::AllToAll},
                                                               {"sendrecv", Collective::SendRecv},
                                                               {"broadcast", Collective::Broadcast},
                                                               {"reduceperf", Collective::Reduce}};
    for (const auto& [needle, op] : names)
        if (n.find(needle) != std::string::npos)
            return op;
    return std::nullopt;
}

bool isNumber(const std::string& t)
{
    if (t.empty())
        return false;
    char* end = nullptr;
    std::strtod(t.c_str(), &end);
    return end && *end == '\0';
}

// Bytes per element of an nccl-tests data type.
double typeBytes(const std::string& type)
{
    if (type == "int8" || type == "uint8" || type == "char" || type == "f8e4m3" || type == "f8e5m2")
        return 1;
    if (type == "half" || type == "bfloat16" || type == "float16" || type == "bf16")
        return 2;
    if (type == "double" || type == "int64" || type == "uint64")
        return 8;
    return 4; // float, int32, uint32
}

namespace {

std::string trim(const std::string& s)
{
    const auto a = s.find_first_not_of(" \t");
    if (a == std::string::npos)
        return {};
    return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

// What a pasted log puts before each line: mpirun --tag-output's "[1,0]<stdout>:", srun
// --label's "0: ", pdsh's "host: ".
std::string withoutPrefix(std::string line)
{
    if (!line.empty() && line.back() == '\r')
        line.pop_back();
    std::string t = trim(line);
    if (t.size() > 2 && t[0] == '[') {
        const auto close = t.find("]<");
        const auto colon = t.find(">:");
        if (close != std::string::npos && colon != std::string::npos && colon > close)
            t = trim(t.substr(colon + 2));
    }
    std::size_t digits = 0;
    while (digits < t.size() && std::isdigit(static_cast<unsigned char>(t[digits])))
        ++digits;
    if (digits > 0 && digits + 1 < t.size() && t[digits] == ':' && t[digits + 1] == ' ')
        t = trim(t.substr(digits + 1));
    // pdsh / clush's "host: " before a table line or a "#" line.
    if (const std::size_t colon = t.find(": ");
        colon != std::string::npos && colon > 0 && colon < 64 && t.find_first_of(" \t#") > colon) {
        const std::string rest = trim(t.substr(colon + 2));
        if (!rest.empty() && (rest[0] == '#' || std::isdigit(static_cast<unsigned char>(rest[0]))))
            t = rest;
    }
    return t;
}

// One result row by the column header (`columns`, when it matches) or by its shape: size count
// type [redop] [root] time algbw busbw [#wrong] [in-place: time algbw busbw #wrong] [more].
std::optional<Row> readRow(const std::vector<std::string>& t, const std::vector<std::string>& columns)
{
    if (t.size() < 6 || !isNumber(t[0]) || !isNumber(t[1]) || isNumber(t[2]))
        return std::nullopt;
    Row r;
    r.bytes = std::atof(t[0].c_str());
    r.count = std::atof(t[1].c_str());
    r.type = t[2];
    std::size_t i = 3;
    const bool header_has_root = std::find(columns.begin(), columns.end(), "root") != columns.end();
    // The reduction: a word, or nothing at all where alltoall printed an empty one.
    if (i < t.size() && !isNumber(t[i]))
        r.redop = t[i++];
    // The root column: in the header, or, without one, when both result groups follow it.
    const std::size_t left = t.size() - i;
    const bool root = !columns.empty() ? header_has_root : (left == 5 || left >= 9);
    if (root)
        ++i;
    if (i + 2 >= t.size() || !isNumber(t[i]) || !isNumber(t[i + 1]) || !isNumber(t[i + 2]))
        return std::nullopt;
    r.time_us = std::atof(t[i].c_str());
    r.algbw = std::atof(t[i + 1].c_str());
    r.busbw = std::atof(t[i + 2].c_str());
    if (i + 3 < t.size())
        r.wrong = t[i + 3];
    return r;
}

} // namespace

bool Run::error_magnitude() const
{
    return std::find(columns.begin(), columns.end(), "error") != columns.end()
        && std::find(columns.begin(), columns.end(), "#wrong") == columns.end();
}

namespace {

// "dgx-a01:41001:41001 [0] NCCL INFO comm 0x55… rank 3 nranks 16 cudaDev 3 … Init COMPLETE".
void readInfoLine(const std::string& line, Run& run)
{
    const std::size_t colon = line.find(':');
    if (colon != std::string::npos && colon > 0 && line.find(' ') > colon)
        run.info_hosts.insert(line.substr(0, colon));
    if (const std::size_t p = line.find(" nranks "); p != std::string::npos)
        run.info_ranks = std::max(run.info_ranks, std::atoi(line.c_str() + p + 8));
}

// A "#" line: the test's header, a device, the column names, the averages.
void readCommentLine(const std::string& line, std::vector<Run>& runs, const std::function<void()>& start_run)
{
    Run& run = runs.back();
    if (const auto p = line.find("Collective test starting:"); p != std::string::npos) {
        start_run();
        runs.back().op = opFromName(line.substr(p + 25));
    } else if (line.find("nThread") != std::string::npos) {
        start_run();
    } else if (line.find(" Rank ") != std::string::npos && line.find(" on ") != std::string::npos) {
        ++run.device_ranks;
        std::istringstream words(line.substr(line.find(" on ") + 4));
        std::string host;
        words >> host;
        run.hosts.insert(host);
    } else if (line.find("size") != std::string::npos && line.find("busbw") != std::string::npos) {
        std::istringstream words(line.substr(1));
        run.columns.clear();
        for (std::string w; words >> w;)
            run.columns.push_back(w);
    } else if (const auto a = line.find("Avg bus bandwidth"); a != std::string::npos) {
        if (const auto colon = line.find(':', a); colon != std::string::npos)
            run.avg_busbw_gbps = std::atof(line.c_str() + colon + 1);
    } else if (const auto o = line.find("Out of bounds values"); o != std::string::npos) {
        if (const auto colon = line.find(':', o); colon != std::string::npos)
            run.out_of_bounds = std::atoll(line.c_str() + colon + 1);
    }
}

} // namespace

std::vector<Run> runsFromText(const std::string& text, std::vector<InputError>& errors, const std::string& name)
{
    std::istringstream in(text);
    std::vector<Run> runs(1);
    std::string raw;
    int line_no = 0;
    // A new run starts at its own header or when the sizes start over.
    const auto startRun = [&](int line) {
        if (!runs.back().rows.empty())
            runs.emplace_back();
        if (runs.back().first_line == 0)
            runs.back().first_line = line;
    };
    while (std::getline(in, raw)) {
        ++line_no;
        const std::string line = withoutPrefix(raw);
        if (line.find("NCCL INFO") != std::string::npos) {
            readInfoLine(line, runs.back());
            continue;
        }
        if (line.empty() || line.find("NCCL WARN") != std::string::npos)
            continue;
        if (line[0] == '#') {
            readCommentLine(line, runs, [&] { startRun(line_no); });
            continue;
        }
        std::istringstream words(line);
        std::vector<std::string> t;
        for (std::string w; words >> w;)
            t.push_back(w);
        if (t.empty() || !isNumber(t[0]))
            continue; // a command line, a banner: not ours to read
        const std::optional<Row> row = readRow(t, runs.back().columns);
        if (!row) {
            if (t.size() >= 6 && isNumber(t[1]))
                errors.push_back(
                    {name + ":" + std::to_string(line_no), "not an nccl-tests result row: " + line.substr(0, 60)});
            continue;
        }
        if (!runs.back().rows.empty() && row->bytes <= runs.back().rows.back().bytes)
            startRun(line_no);
        if (runs.back().first_line == 0)
            runs.back().first_line = line_no;
        Row r = *row;
        r.line = line_no;
        runs.back().rows.push_back(r);
    }
    // Headers with no rows after them (a run that failed before its table) are not runs.
    runs.erase(std::remove_if(runs.begin(), runs.end(), [](const Run& r) { return r.rows.empty(); }), runs.end());
    return runs;
}

// -J output (nccl-tests src/util.cu): {"args": [argv…], "config": {…, "devices": [{rank,
// hostname, …}]}, "results": [{size, count, type, redop, root, "out_of_place": {time, alg_bw,
// bus_bw, nwrong}, …}], "average_bus_bandwidth": {"bandwidth"}}.
Run runFromJson(const nlohmann::json& j)
{
    Run run;
    run.first_line = 1;
    const auto find = [&](const nlohmann::json& o, const char* key) -> const nlohmann::json* {
        return o.is_object() && o.contains(key) ? &o[key] : nullptr;
    };
    if (const auto* args = find(j, "args"); args && args->is_array() && !args->empty() && (*args)[0].is_string())
        run.op = opFromName(std::filesystem::path((*args)[0].get<std::string>()).filename().string());
    const nlohmann::json* devices = find(j, "devices");
    if (const auto* config = find(j, "config"); !devices && config)
        devices = find(*config, "devices");
    if (devices && devices->is_array())
        for (const nlohmann::json& d : *devices) {
            ++run.device_ranks;
            if (const auto* host = find(d, "hostname"); host && host->is_string())
                run.hosts.insert(host->get<std::string>());
        }
    if (const auto* avg = find(j, "average_bus_bandwidth"))
        if (const auto* bw = find(*avg, "bandwidth"); bw && bw->is_number())
            run.avg_busbw_gbps = bw->get<double>();
    if (const auto* results = find(j, "results"); results && results->is_array())
        for (const nlohmann::json& r : *results) {
            const auto* size = find(r, "size");
            const auto* oop = find(r, "out_of_place");
            if (!size || !size->is_number() || !oop || !oop->is_object())
                continue;
            Row row;
            row.bytes = size->get<double>();
            if (const auto* c = find(r, "count"); c && c->is_number())
                row.count = c->get<double>();
            if (const auto* type = find(r, "type"); type && type->is_string())
                row.type = type->get<std::string>();
            if (const auto* redop = find(r, "redop"); redop && redop->is_string())
                row.redop = redop->get<std::string>();
            for (const char* k : {"time", "cpu_time"})
                if (const auto* v = find(*oop, k); v && v->is_number())
                    row.time_us = v->get<double>();
            if (const auto* v = find(*oop, "alg_bw"); v && v->is_number())
                row.algbw = v->get<double>();
            if (const auto* v = find(*oop, "bus_bw"); v && v->is_number())
                row.busbw = v->get<double>();
            const auto* wrong = find(*oop, "nwrong");
            row.wrong = !wrong || wrong->is_null() ? "N/A" : wrong->is_number() ? num(wrong->get<double>()) : "?";
            run.rows.push_back(row);
        }
    return run;
}

} // namespace parascope::nccl_tests
