#include "hardware/nccl_tests_import.h"

#include "hardware/nccl_tests_log.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>

namespace parascope {

using namespace nccl_tests;

namespace {

// n from a bus factor f: all-reduce 2(n−1)/n, the gathers, scatters and all-to-all (n−1)/n.
double ranksFromFactor(Collective op, double f)
{
    if (op == Collective::AllReduce && f < 2)
        return 2 / (2 - f);
    if ((op == Collective::AllGather || op == Collective::ReduceScatter || op == Collective::AllToAll) && f < 1)
        return 1 / (1 - f);
    return 0;
}

// The rank counts the rows' numbers allow: each n near the bus factor's estimate whose
// factor(n)·size/time equals every large row's printed busbw within its rounding (2 decimals,
// and the time's last digit). Near 64 ranks the printed digits cannot tell 63 from 64: several
// counts stay, and the node count decides.
std::vector<int> ranksTheRowsAllow(Collective op, const Run& run)
{
    std::vector<const Row*> rows;
    for (const Row& r : run.rows)
        if (r.time_us > 0 && r.busbw > 0 && r.bytes > 0)
            rows.push_back(&r);
    std::sort(rows.begin(), rows.end(), [](const Row* a, const Row* b) { return a->bytes > b->bytes; });
    rows.resize(std::min<std::size_t>(rows.size(), 4));
    if (rows.empty())
        return {};
    const double estimate
        = ranksFromFactor(op, rows.front()->busbw * rows.front()->time_us * 1e3 / rows.front()->bytes);
    if (!(estimate >= 1.5) || estimate > 65536)
        return {};
    std::vector<int> fit;
    for (int n = std::max(2, int(estimate / 2)); n <= int(estimate * 2) + 2; ++n) {
        const bool all = std::all_of(rows.begin(), rows.end(), [&](const Row* r) {
            const double algbw = r->bytes / (r->time_us * 1e3); // GB/s
            const double predicted = busFactor(op, n) * algbw;
            const double time_digit = r->time_us >= 10000 ? 0.1 : 0.01; // the last printed digit (µs)
            return std::abs(predicted - r->busbw) <= 0.0051 + predicted * time_digit / r->time_us;
        });
        if (all)
            fit.push_back(n);
    }
    return fit;
}

std::string joinedCounts(const std::vector<int>& v)
{
    std::string s;
    for (const int n : v)
        s += (s.empty() ? "" : ", ") + std::to_string(n);
    return s;
}

// Ranks from the numbers, the node count deciding between counts the digits cannot tell apart.
int ranksFromNumbers(Collective op, const Run& run, int nodes, const std::string& name, std::vector<InputError>& errors)
{
    std::vector<int> fit = ranksTheRowsAllow(op, run);
    if (nodes > 0)
        fit.erase(std::remove_if(fit.begin(), fit.end(), [&](int n) { return n % nodes != 0; }), fit.end());
    if (fit.size() == 1)
        return fit.front();
    if (fit.size() > 1)
        errors.push_back({name,
                          "cannot tell how many ranks ran: no \"Using devices\" block, and " + std::string(toString(op))
                              + "'s bandwidths fit " + joinedCounts(fit) + " ranks alike"
                              + (nodes > 0 ? "" : " (the node count would decide)") + "; give --ranks"
                              + (nodes > 0 ? "" : " or --nodes")});
    else
        errors.push_back({name,
                          "cannot tell how many ranks ran: no \"Using devices\" block, and " + std::string(toString(op))
                              + "'s bandwidths do not say"
                              + (nodes > 0 ? " for " + std::to_string(nodes) + " nodes" : std::string())
                              + "; give --ranks"});
    return 0;
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
    // Nodes: the flag, the device block's distinct hosts, or the hosts of NCCL_DEBUG=INFO lines.
    out.nodes = over.nodes > 0 ? over.nodes : !run.hosts.empty() ? int(run.hosts.size()) : int(run.info_hosts.size());
    // Ranks: the flag, the device block, NCCL_DEBUG=INFO's nranks, or the bandwidths.
    out.ranks = over.ranks > 0 ? over.ranks
        : run.device_ranks > 0 ? run.device_ranks
        : run.info_ranks > 0   ? run.info_ranks
                               : ranksFromNumbers(*out.op, run, out.nodes, name, errors);
    if (out.nodes <= 0 && out.ranks > 0)
        errors.push_back({name,
                          "cannot tell how many nodes ran: the log names no hosts (no \"Using devices\" "
                          "block, no NCCL_DEBUG=INFO lines); give --nodes"});
    if (out.nodes > 0 && out.ranks > 0 && out.ranks % out.nodes != 0)
        errors.push_back({name,
                          std::to_string(out.ranks) + " ranks do not split evenly over " + std::to_string(out.nodes)
                              + " nodes; give --ranks and --nodes as the job ran"});
    return true;
}

// The run's usable rows into `out.rows`, and a warning for the sizes skipped as wrong or untimed.
void addRows(const Run& run, NcclTestsImport& out)
{
    // busbw from the time column (4 significant digits) rather than the 2-decimal busbw column,
    // which rounds small messages by up to a third: busbw = factor(n)·size / time.
    const double f = busFactor(*out.op, out.ranks);
    std::vector<std::string> wrong, untimed;
    bool magnitudes = false;
    for (const Row& r : run.rows) {
        const std::string size = num(r.bytes) + " B";
        // #wrong counts wrong results; the old format's "error" column is the largest error (a
        // float sum's 2e-06 is right), judged by the log's own out-of-bounds count.
        const bool magnitude = run.error_magnitude() || r.wrong.find_first_of(".eE") != std::string::npos;
        magnitudes = magnitudes || magnitude;
        if (r.wrong == "N/A" || (!magnitude && isNumber(r.wrong) && std::atof(r.wrong.c_str()) > 0)) {
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
    if (run.out_of_bounds > 0 && magnitudes)
        out.warnings.push_back(
            {"the log reports " + std::to_string(run.out_of_bounds)
                 + " values out of bounds (its sizes are kept: it does not say which)",
             "日志报告 " + std::to_string(run.out_of_bounds) + " 个越界值（无法得知属于哪些消息大小，均保留）"});
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
