// parascope-cli collective: one collective step by step (comm/collective_steps.h) on a preset
// cluster's links, by default by the algorithm the engine would run for it (comm/collective_cost.h).

#include "cli.h"

#include "util/byte_size.h"

#include "comm/bandwidth_ladder.h"
#include "comm/collective_cost.h"
#include "comm/collective_steps.h"
#include "estimate/display_names.h"
#include "io/collective_json.h"
#include "io/report_json.h"
#include "io/scenario_json.h"
#include "types/term.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>

namespace parascope::cli {

using namespace parascope;

namespace {

std::string timeText(double s)
{
    char t[48];
    if (s >= 1e-3)
        std::snprintf(t, sizeof t, "%.3f ms", s * 1e3);
    else
        std::snprintf(t, sizeof t, "%.2f µs", s * 1e6);
    return t;
}

std::string gbps(double bytes_per_s)
{
    char t[32];
    std::snprintf(t, sizeof t, "%.1f GB/s", bytes_per_s / 1e9);
    return t;
}

std::string ratioText(double r)
{
    char t[32];
    std::snprintf(t, sizeof t, "%.2f", r);
    return t;
}

const char* linkName(const Args& a, Link l)
{
    switch (l) {
    case Link::Network: return zh(a) ? "网络" : "network";
    case Link::Pcie: return "PCIe";
    case Link::NvLink: break;
    }
    return "NVLink";
}

// What the engine would run here, and how this form relates to it: the same algorithm gives the
// same time as `evaluate`; a teaching form gives the factor to NCCL's.
std::string engineText(const Args& a, const CollectivePlan& p)
{
    const std::string engine = say(a, toString(p.engine_algorithm), displayName(p.engine_algorithm).zh);
    std::string out;
    if (p.channels > 1)
        out += say(a,
                   "NCCL's ring: " + std::to_string(p.channels) + " channels, one per NIC; the steps list channel 1 (S/"
                       + std::to_string(p.channels) + "), every step timed with all channels sharing the links\n",
                   "NCCL 环形：" + std::to_string(p.channels) + " 个通道，每块网卡一个；下列各步为通道 1（S/"
                       + std::to_string(p.channels) + "），每步耗时已计入所有通道共享链路\n");
    if (p.algorithm == p.engine_algorithm)
        return out
            + say(a, "the engine (evaluate) runs this collective by " + engine + " too: the same " + timeText(p.time_s),
                  "引擎（评估报告的通信表）对该集合通信同样采用" + engine + "：耗时同为 " + timeText(p.time_s))
            + "\n";
    const double factor = p.engine_time_s > 0 ? p.time_s / p.engine_time_s : 0;
    out += teachingOnly(p.algorithm)
        ? say(a, "teaching version, not what NCCL runs: ", "教学版本，并非 NCCL 的实际算法：")
        : std::string();
    return out
        + say(a,
              "the engine would pick " + engine + " here: " + timeText(p.engine_time_s) + " (this form takes "
                  + ratioText(factor) + "× as long)",
              "引擎在此会选" + engine + "：" + timeText(p.engine_time_s) + "（本算法耗时为其 " + ratioText(factor)
                  + " 倍）")
        + "\n";
}

std::string ladderText(const Args& a, const CollectivePlan& p, const ClusterSpec& cluster)
{
    const BandwidthLadder l = ladderOf(p, cluster);
    std::string out = say(a, "bandwidth ladder, ", "带宽阶梯，") + l.title.in(a.lang) + "\n";
    for (const std::string& line : ladderLines(l, a.lang))
        out += "  " + line + "\n";
    return out;
}

std::string planText(const Args& a, const CollectivePlan& p, const ClusterSpec& cluster)
{
    const std::string algo = say(a, toString(p.algorithm), displayName(p.algorithm).zh);
    std::string out
        = say(a,
              algo + " " + displayName(p.op).en + " of " + byteSizeText(p.bytes) + " over " + std::to_string(p.ranks)
                  + " GPUs on " + std::to_string(p.nodes) + (p.nodes == 1 ? " node" : " nodes") + " (" + cluster.name
                  + ")",
              algo + " " + displayName(p.op).zh + "：" + byteSizeText(p.bytes) + "，" + std::to_string(p.ranks)
                  + " 块 GPU，" + std::to_string(p.nodes) + " 个节点（" + cluster.name + "）")
        + "\n\n";
    const Term& sent = p.terms[0];
    out += say(a, "sent per GPU: ", "每块 GPU 发送：") + byteSizeText(p.bytes_sent_per_gpu) + "  = " + sent.formula
        + "\n";
    if (p.parameter_server_bytes > 0)
        out += say(a, "a parameter server would move 2·S·(n−1) = ", "参数服务器则要经过中心节点搬运 2·S·(n−1) = ")
            + byteSizeText(p.parameter_server_bytes)
            + say(a, " through its one server: the ring's per-GPU volume does not grow with n",
                  "：环形算法每块 GPU 的通信量不随 n 增长")
            + "\n";
    out += say(a, "time: ", "耗时：") + timeText(p.time_s) + "  (" + std::to_string(p.steps.size())
        + say(a, " steps", " 步") + ")   algbw " + gbps(p.algbw_bytes_per_s) + "   busbw " + gbps(p.busbw_bytes_per_s)
        + "\n";
    out += engineText(a, p) + "\n";
    out += ladderText(a, p, cluster) + "\n";

    // The steps: every transfer for a small group, the links used otherwise; the first 32 steps.
    constexpr std::size_t kShown = 32;
    for (std::size_t i = 0; i < p.steps.size() && i < kShown; ++i) {
        const CollectiveStep& s = p.steps[i];
        std::map<Link, int> links;
        for (const ChunkTransfer& t : s.transfers)
            ++links[t.link];
        std::string what;
        if (p.ranks <= 8) {
            for (const ChunkTransfer& t : s.transfers)
                what += (what.empty() ? "" : ", ") + std::to_string(t.from) + "→" + std::to_string(t.to)
                    + (t.chunk >= 0 ? " #" + std::to_string(t.chunk) : std::string()) + (t.reduce ? "+" : "");
            what += "  ";
        }
        for (const auto& [l, count] : links)
            what += std::string(linkName(a, l)) + " ×" + std::to_string(count) + " ";
        out += padColumns(std::to_string(s.index + 1), 4) + "  " + padColumns(s.phase.in(a.lang), 30, false) + " "
            + padColumns(timeText(s.start_s), 12) + " – " + padColumns(timeText(s.end_s), 12) + "  " + what + "\n";
    }
    if (p.steps.size() > kShown)
        out += say(a, "… " + std::to_string(p.steps.size() - kShown) + " more steps (--format json lists every one)\n",
                   "……另有 " + std::to_string(p.steps.size() - kShown) + " 步（--format json 列出全部）\n");
    if (p.ranks <= 8)
        out += say(a, "(a→b #K: rank a sends chunk K to rank b; + : b adds it to its own)\n",
                   "（a→b #K：rank a 把第 K 块发给 rank b；+：b 把它累加到自己的数据上）\n");
    return out;
}

} // namespace

int collectiveCommand(const Args& a)
{
    const std::string format = a.format.empty() ? "text" : a.format;
    if (format != "json" && format != "text")
        return badUsage(a, "--format needs json or text", "--format 只能是 json 或 text");
    if (!a.nccl.op || a.bytes.empty() || a.nccl.ranks == 0)
        return badUsage(a, "collective needs --op, --bytes and --ranks", "collective 需要 --op、--bytes 和 --ranks");
    const std::optional<double> bytes = parseByteSize(a.bytes);
    if (!bytes)
        return badUsage(a, "--bytes needs a size: 4096, 64KiB, 256MB, 1GiB, 8M (nccl-tests' powers of 1024)",
                        "--bytes 需要一个大小：4096、64KiB、256MB、1GiB、8M（与 nccl-tests 相同，按 1024 进位）");
    std::vector<InputError> errors;
    const std::string cluster_id = a.cluster.empty() ? "dgx-h100" : a.cluster;
    const std::optional<ClusterSpec> cluster = readCluster(nlohmann::json(cluster_id), "--cluster", errors);
    if (!cluster)
        return printFileErrors("collective", errors);
    // By default what the engine would run for this collective and placement.
    std::optional<CollectiveAlgorithm> algorithm = enumFromName<CollectiveAlgorithm>(a.algorithm);
    if (a.algorithm.empty() && a.nccl.ranks > 0)
        algorithm = explainerAlgorithm(*a.nccl.op, *bytes, a.nccl.ranks, *cluster);
    if (!algorithm)
        return badUsage(
            a,
            "--algorithm must be ring, tree, nvls, hierarchical, flat_ring, binomial_tree or pairwise "
            "(all_to_all)",
            "--algorithm 只能是 ring、tree、nvls、hierarchical、flat_ring、binomial_tree 或 pairwise（all_to_all）");
    const std::optional<CollectivePlan> plan
        = planCollective(*a.nccl.op, *bytes, a.nccl.ranks, *cluster, *algorithm, errors);
    if (!plan)
        return printFileErrors("collective", errors);
    if (format == "json")
        return emit(a, planJson(*plan, *cluster).dump(2) + "\n");
    return emit(a, planText(a, *plan, *cluster));
}

} // namespace parascope::cli
