#include "hardware/nccl_tests_import.h"

#include <cctype>
#include <set>
#include <sstream>

namespace parascope {

namespace {

// nccl-tests binary names → our collective names.
std::optional<Collective> opFromName(const std::string& s)
{
    static const std::pair<const char*, Collective> names[] = {
        {"all_reduce", Collective::AllReduce}, {"all_gather", Collective::AllGather},
        {"reduce_scatter", Collective::ReduceScatter}, {"alltoall", Collective::AllToAll},
        {"all_to_all", Collective::AllToAll}, {"sendrecv", Collective::SendRecv},
        {"broadcast", Collective::Broadcast}, {"reduce_perf", Collective::Reduce}};
    for (const auto& [needle, op] : names)
        if (s.find(needle) != std::string::npos)
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

void fromText(const std::string& text, NcclTestsImport& out, std::vector<InputError>& errors, const std::string& name)
{
    std::istringstream in(text);
    std::string line;
    std::set<std::string> hosts;
    int line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.rfind("#", 0) == 0) {
            if (const auto p = line.find("Collective test starting:"); p != std::string::npos && !out.op)
                out.op = opFromName(line.substr(p));
            if (line.find(" Rank ") != std::string::npos && line.find(" on ") != std::string::npos) {
                ++out.ranks;
                std::istringstream words(line.substr(line.find(" on ") + 4));
                std::string host;
                words >> host;
                hosts.insert(host);
            }
            if (const auto p = line.find("Avg bus bandwidth"); p != std::string::npos) {
                const auto colon = line.find(':', p);
                if (colon != std::string::npos)
                    out.avg_busbw_gbps = std::atof(line.c_str() + colon + 1);
            }
            continue;
        }
        std::istringstream words(line);
        std::vector<std::string> t;
        for (std::string w; words >> w;)
            t.push_back(w);
        if (t.empty())
            continue;
        // Data rows: size count type redop root | time algbw busbw #wrong | time algbw busbw #wrong
        // (in-place columns optional). Take the out-of-place triple.
        if (t.size() < 7 || !isNumber(t[0]) || !isNumber(t[1])) {
            if (isNumber(t[0]))
                errors.push_back({name + ":" + std::to_string(line_no), "not an nccl-tests result row: " + line.substr(0, 60)});
            continue;
        }
        const std::size_t oop = t.size() >= 13 ? t.size() - 8 : t.size() - 4;
        if (!isNumber(t[oop]) || !isNumber(t[oop + 1]) || !isNumber(t[oop + 2])) {
            errors.push_back({name + ":" + std::to_string(line_no), "cannot read time, algbw and busbw"});
            continue;
        }
        MeasuredCollective m;
        m.bytes = std::atof(t[0].c_str());
        m.busbw_bytes_per_s = std::atof(t[oop + 2].c_str()) * 1e9;
        if (m.bytes > 0 && m.busbw_bytes_per_s > 0)
            out.rows.push_back(m);
    }
    if (out.nodes == 0)
        out.nodes = int(hosts.size());
}

// -J output: find every object with a size and an out_of_place result, wherever it sits.
void fromJson(const nlohmann::json& j, NcclTestsImport& out)
{
    if (j.is_object()) {
        if (j.contains("size") && j.contains("out_of_place") && j["out_of_place"].is_object()) {
            const nlohmann::json& r = j["out_of_place"];
            MeasuredCollective m;
            m.bytes = j["size"].is_number() ? j["size"].get<double>() : 0;
            for (const char* k : {"bus_bw", "busbw"})
                if (r.contains(k) && r[k].is_number())
                    m.busbw_bytes_per_s = r[k].get<double>() * 1e9;
            if (m.bytes > 0 && m.busbw_bytes_per_s > 0)
                out.rows.push_back(m);
            return;
        }
        for (const auto& [key, value] : j.items()) {
            if ((key == "nranks" || key == "world_size") && value.is_number_integer() && out.ranks == 0)
                out.ranks = value.get<int>();
            if ((key == "nnodes" || key == "nodes") && value.is_number_integer() && out.nodes == 0)
                out.nodes = value.get<int>();
            if ((key == "collective" || key == "test" || key == "name") && value.is_string() && !out.op)
                out.op = opFromName(value.get<std::string>());
            fromJson(value, out);
        }
    } else if (j.is_array()) {
        for (const auto& v : j)
            fromJson(v, out);
    }
}

} // namespace

std::optional<NcclTestsImport> parseNcclTests(const std::string& text, const std::string& name,
                                              const NcclTestsOverrides& over, std::vector<InputError>& errors)
{
    NcclTestsImport out;
    const std::size_t before = errors.size();
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) {
        errors.push_back({name, "the log is empty"});
        return std::nullopt;
    }
    if (text[first] == '{' || text[first] == '[') {
        std::vector<InputError> parse_errors;
        const auto j = parseJsonText(text, parse_errors);
        if (!j) {
            for (const InputError& e : parse_errors)
                errors.push_back({name, e.message});
            return std::nullopt;
        }
        fromJson(*j, out);
    } else {
        fromText(text, out, errors, name);
    }
    if (over.op)
        out.op = over.op;
    if (!out.op)
        out.op = opFromName(name);
    if (over.ranks > 0)
        out.ranks = over.ranks;
    if (over.nodes > 0)
        out.nodes = over.nodes;
    if (!out.op)
        errors.push_back({name, "cannot tell which collective this is: the log has no \"Collective test starting\" line "
                                "and the file name none of all_reduce, all_gather, reduce_scatter, alltoall, sendrecv; "
                                "give --op"});
    if (out.ranks <= 0)
        errors.push_back({name, "cannot tell how many ranks ran: no \"Using devices\" lines; give --ranks"});
    if (out.nodes <= 0)
        out.nodes = 1;
    if (out.rows.empty())
        errors.push_back({name, "no result rows (size … busbw) found"});
    for (MeasuredCollective& m : out.rows) {
        m.op = out.op.value_or(Collective::AllReduce);
        m.ranks = out.ranks;
        m.nodes = out.nodes;
    }
    if (errors.size() != before)
        return std::nullopt;
    return out;
}

nlohmann::json mergeIntoProfile(const nlohmann::json* profile, const std::vector<NcclTestsImport>& imports,
                                const std::vector<std::string>& sources)
{
    nlohmann::json j = profile ? *profile
                               : nlohmann::json{{"schema", kHardwareProfileSchema},
                                                {"status", "partial"},
                                                {"devices", nlohmann::json::array()},
                                                {"links", nlohmann::json::array()},
                                                {"collectives", nlohmann::json::array()},
                                                {"skipped", nlohmann::json::array({{{"what", "devices"},
                                                                                    {"reason", "imported from nccl-tests logs only"}}})},
                                                {"warnings", nlohmann::json::array()}};
    if (!j.contains("collectives") || !j["collectives"].is_array())
        j["collectives"] = nlohmann::json::array();
    for (std::size_t i = 0; i < imports.size(); ++i) {
        for (const MeasuredCollective& m : imports[i].rows) {
            // A later import of the same (op, ranks, nodes, bytes) replaces the earlier one.
            auto& list = j["collectives"];
            for (auto it = list.begin(); it != list.end();) {
                if (it->value("op", "") == toString(m.op) && it->value("ranks", 0) == m.ranks && it->value("nodes", 1) == m.nodes
                    && it->value("bytes", 0.0) == m.bytes)
                    it = list.erase(it);
                else
                    ++it;
            }
            list.push_back({{"op", toString(m.op)}, {"ranks", m.ranks}, {"nodes", m.nodes}, {"bytes", m.bytes},
                            {"busbw_gbps", m.busbw_bytes_per_s / 1e9}, {"algorithm", "nccl-tests"}});
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
