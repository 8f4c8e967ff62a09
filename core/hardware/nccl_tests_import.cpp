#include "hardware/nccl_tests_import.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>

namespace parascope {

namespace {

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

std::string trim(const std::string& s)
{
    const auto a = s.find_first_not_of(" \t");
    if (a == std::string::npos)
        return {};
    return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

// What a pasted log puts before each line: mpirun --tag-output's "[1,0]<stdout>:" and srun
// --label's "0: ".
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
    return t;
}

struct Row {
    double bytes = 0, count = 0, time_us = 0, algbw = 0, busbw = 0;
    std::string type, redop, wrong;
    int line = 0;
};

struct Run {
    std::optional<Collective> op;
    int first_line = 0;
    int device_ranks = 0;
    std::set<std::string> hosts;
    std::vector<std::string> columns; // the column header's names, when the log has one
    std::vector<Row> rows;
    double avg_busbw_gbps = 0;
};

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
        if (line.empty() || line.find("NCCL INFO") != std::string::npos || line.find("NCCL WARN") != std::string::npos)
            continue;
        if (line[0] == '#') {
            if (const auto p = line.find("Collective test starting:"); p != std::string::npos) {
                startRun(line_no);
                runs.back().op = opFromName(line.substr(p + 25));
            } else if (line.find("nThread") != std::string::npos) {
                startRun(line_no);
            } else if (line.find(" Rank ") != std::string::npos && line.find(" on ") != std::string::npos) {
                ++runs.back().device_ranks;
                std::istringstream words(line.substr(line.find(" on ") + 4));
                std::string host;
                words >> host;
                runs.back().hosts.insert(host);
            } else if (line.find("size") != std::string::npos && line.find("busbw") != std::string::npos) {
                std::istringstream words(line.substr(1));
                runs.back().columns.clear();
                for (std::string w; words >> w;)
                    runs.back().columns.push_back(w);
            } else if (const auto a = line.find("Avg bus bandwidth"); a != std::string::npos) {
                if (const auto colon = line.find(':', a); colon != std::string::npos)
                    runs.back().avg_busbw_gbps = std::atof(line.c_str() + colon + 1);
            }
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

// n from a bus factor f: all-reduce 2(n−1)/n, the gathers, scatters and all-to-all (n−1)/n.
int ranksFromFactor(Collective op, double f)
{
    double n = 0;
    if (op == Collective::AllReduce && f < 2)
        n = 2 / (2 - f);
    else if ((op == Collective::AllGather || op == Collective::ReduceScatter || op == Collective::AllToAll) && f < 1)
        n = 1 / (1 - f);
    return n >= 1.5 ? int(std::lround(n)) : 0;
}

// The largest size's busbw / algbw: its bandwidths have the most significant digits.
double busOverAlg(const Run& run)
{
    const Row* best = nullptr;
    for (const Row& r : run.rows)
        if (r.algbw > 0 && r.busbw > 0 && (!best || r.bytes > best->bytes))
            best = &r;
    return best ? best->busbw / best->algbw : 0;
}

// Which collective the numbers say, when no name does: busbw/algbw above 1 is an all-reduce;
// below 1 a gather, scatter or all-to-all, told apart by size/(count·type) (n for the gather
// and the scatter, whose count is per rank, 1 for the all-to-all) and the reduction.
std::optional<Collective> opFromNumbers(const Run& run)
{
    const double f = busOverAlg(run);
    if (f > 1.05)
        return Collective::AllReduce;
    if (f <= 0 || f >= 0.999 || run.rows.empty())
        return std::nullopt;
    const Row& r = run.rows.back();
    const double n = 1 / (1 - f);
    const double per_element = r.count > 0 ? r.bytes / (r.count * typeBytes(r.type)) : 0;
    if (std::abs(per_element - n) < 0.01 * n)
        return r.redop == "sum" || r.redop == "prod" || r.redop == "max" || r.redop == "min" || r.redop == "avg"
            ? Collective::ReduceScatter
            : Collective::AllGather;
    if (std::abs(per_element - 1) < 0.01)
        return Collective::AllToAll;
    return std::nullopt;
}

// The runs of a log: one from -J output, or every run a text log holds; nullopt (with the
// parser's errors) when JSON does not parse.
std::optional<std::vector<Run>> readRuns(const std::string& text, std::size_t first, const std::string& name,
                                         std::vector<InputError>& errors)
{
    // JSON starts with '{'; "[1,0]<stdout>:" (mpirun --tag-output) also starts with '[' but is text.
    if (text[first] != '{')
        return runsFromText(text, errors, name);
    std::vector<InputError> parse_errors;
    const auto j = parseJsonText(text, parse_errors);
    if (!j) {
        for (const InputError& e : parse_errors)
            errors.push_back({name, e.message});
        return std::nullopt;
    }
    return std::vector<Run>{runFromJson(*j)};
}

// Whether the log holds exactly one run with rows; if not, the error that says why.
bool oneRun(const std::vector<Run>& runs, const std::string& name, std::size_t before, std::vector<InputError>& errors)
{
    if (runs.size() > 1) {
        std::string list;
        for (const Run& r : runs)
            list += (list.empty() ? "" : "; ") + std::string(r.op ? toString(*r.op) : "a run") + " from line "
                + std::to_string(r.first_line) + " (" + std::to_string(r.rows.size()) + " sizes)";
        errors.push_back({name,
                          "the log holds " + std::to_string(runs.size()) + " runs: " + list
                              + ". Import each from a file of its own"});
        return false;
    }
    if (runs.empty() || runs.front().rows.empty()) {
        if (errors.size() == before)
            errors.push_back({name, "no result rows (size … busbw) found"});
        return false;
    }
    return true;
}

// The run's collective, ranks and nodes into `out`; false when nothing tells the collective.
bool identifyRun(const Run& run, const std::string& name, const NcclTestsOverrides& over, NcclTestsImport& out,
                 std::vector<InputError>& errors)
{
    // The collective: the flag, the log's own header or argv[0], the file name, the numbers.
    out.op = over.op ? over.op : run.op ? run.op : opFromName(name);
    if (!out.op)
        out.op = opFromNumbers(run);
    if (!out.op) {
        errors.push_back({name,
                          "cannot tell which collective this is: no \"Collective test starting\" line, no collective "
                          "in the file name, and the bandwidths do not say; give --op"});
        return false;
    }
    // Ranks: the flag, the device block, or busbw/algbw (the bus factor gives n).
    out.ranks = over.ranks > 0 ? over.ranks
        : run.device_ranks > 0 ? run.device_ranks
                               : ranksFromFactor(*out.op, busOverAlg(run));
    if (out.ranks <= 0)
        errors.push_back({name,
                          "cannot tell how many ranks ran: no \"Using devices\" block, and "
                              + std::string(toString(*out.op)) + "'s bandwidths do not say; give --ranks"});
    // Nodes: the flag or the device block's distinct hosts.
    out.nodes = over.nodes > 0 ? over.nodes : int(run.hosts.size());
    if (out.nodes <= 0)
        errors.push_back(
            {name,
             "cannot tell how many nodes ran: the log names no hosts (no \"Using devices\" block); give --nodes"});
    return true;
}

// The run's usable rows into `out.rows`, and a warning for the sizes skipped as wrong or untimed.
void addRows(const Run& run, NcclTestsImport& out)
{
    // busbw from the time column (4 significant digits) rather than the 2-decimal busbw column,
    // which rounds small messages by up to a third: busbw = factor(n)·size / time.
    const double f = busFactor(*out.op, out.ranks);
    std::vector<std::string> wrong, untimed;
    for (const Row& r : run.rows) {
        const std::string size = num(r.bytes) + " B";
        if (r.wrong == "N/A" || (isNumber(r.wrong) && std::atof(r.wrong.c_str()) > 0)) {
            wrong.push_back(size);
            continue;
        }
        MeasuredCollective m;
        m.op = *out.op;
        m.ranks = out.ranks;
        m.nodes = out.nodes;
        m.bytes = r.bytes;
        m.busbw_bytes_per_s = r.time_us > 0 ? f * r.bytes / (r.time_us * 1e-6) : r.busbw * 1e9;
        if (m.bytes <= 0 || m.busbw_bytes_per_s <= 0) {
            untimed.push_back(size);
            continue;
        }
        out.rows.push_back(m);
    }
    const auto sizes = [](std::size_t n) { return std::to_string(n) + (n == 1 ? " size" : " sizes"); };
    const auto join = [](const std::vector<std::string>& v) {
        std::string s;
        for (const std::string& x : v)
            s += (s.empty() ? "" : ", ") + x;
        return s;
    };
    if (!wrong.empty())
        out.warnings.push_back({"skipped " + sizes(wrong.size())
                                    + " whose results were wrong or not checked (#wrong > 0 or N/A): " + join(wrong),
                                "跳过了 " + std::to_string(wrong.size())
                                    + " 种结果有误或未校验（#wrong > 0 或 N/A）的消息大小：" + join(wrong)});
    if (!untimed.empty())
        out.warnings.push_back(
            {"skipped " + sizes(untimed.size()) + " without a time: " + join(untimed),
             "跳过了 " + std::to_string(untimed.size()) + " 种没有耗时的消息大小：" + join(untimed)});
}

} // namespace

std::optional<NcclTestsImport> parseNcclTests(const std::string& text, const std::string& name,
                                              const NcclTestsOverrides& over, std::vector<InputError>& errors)
{
    const std::size_t before = errors.size();
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) {
        errors.push_back({name, "the log is empty"});
        return std::nullopt;
    }
    const std::optional<std::vector<Run>> runs = readRuns(text, first, name, errors);
    if (!runs || !oneRun(*runs, name, before, errors))
        return std::nullopt;
    const Run& run = runs->front();
    NcclTestsImport out;
    out.avg_busbw_gbps = run.avg_busbw_gbps;
    if (!identifyRun(run, name, over, out, errors) || errors.size() != before)
        return std::nullopt;
    addRows(run, out);
    if (out.rows.empty()) {
        errors.push_back({name, "no usable result rows: every size was wrong, unchecked or untimed"});
        return std::nullopt;
    }
    return out;
}

double NcclTestsImport::meanBusbwGbps() const
{
    double sum = 0;
    for (const MeasuredCollective& m : rows)
        sum += m.busbw_bytes_per_s / 1e9;
    return rows.empty() ? 0 : sum / double(rows.size());
}

nlohmann::json mergeIntoProfile(const nlohmann::json* profile, const std::vector<NcclTestsImport>& imports,
                                const std::vector<std::string>& sources)
{
    nlohmann::json j = profile
        ? *profile
        : nlohmann::json{
            {"schema", kHardwareProfileSchema},
            {"status", "partial"},
            {"devices", nlohmann::json::array()},
            {"links", nlohmann::json::array()},
            {"collectives", nlohmann::json::array()},
            {"skipped",
             nlohmann::json::array({{{"what", "devices"}, {"reason", "imported from nccl-tests logs only"}}})},
            {"warnings", nlohmann::json::array()}};
    if (!j.contains("collectives") || !j["collectives"].is_array())
        j["collectives"] = nlohmann::json::array();
    for (std::size_t i = 0; i < imports.size(); ++i) {
        for (const MeasuredCollective& m : imports[i].rows) {
            // A later import of the same (op, ranks, nodes, bytes) replaces the earlier one.
            auto& list = j["collectives"];
            for (auto it = list.begin(); it != list.end();) {
                if (it->value("op", "") == toString(m.op) && it->value("ranks", 0) == m.ranks
                    && it->value("nodes", 1) == m.nodes && it->value("bytes", 0.0) == m.bytes)
                    it = list.erase(it);
                else
                    ++it;
            }
            list.push_back({{"op", toString(m.op)},
                            {"ranks", m.ranks},
                            {"nodes", m.nodes},
                            {"bytes", m.bytes},
                            {"busbw_gbps", m.busbw_bytes_per_s / 1e9},
                            {"algorithm", "nccl-tests"}});
        }
    }
    if (!sources.empty()) {
        nlohmann::json s = j.contains("imported") && j["imported"].is_array() ? j["imported"] : nlohmann::json::array();
        for (const std::string& src : sources)
            s.push_back(src);
        j["imported"] = s;
    }
    return j;
}

} // namespace parascope
