#include "comm/bandwidth_ladder.h"

#include "comm/collective_cost.h"
#include "types/term.h"

#include <cmath>

namespace parascope {

namespace {

constexpr const char* kNcclTests
    = "nccl-tests doc/PERFORMANCE.md: algbw = S/t; busbw = algbw · 2(n−1)/n (all-reduce), (n−1)/n (gather, "
      "scatter, all-to-all), 1 (broadcast)";

std::string gbps(double bytes_per_s)
{
    const double v = std::round(bytes_per_s / 1e8) / 10;
    return num(v) + " GB/s";
}

// The rungs every ladder shares below "achievable": the collective's algbw and busbw.
void collectiveRungs(BandwidthLadder& l, Collective op, double S, const GroupPlacement& g, const ClusterSpec& cl)
{
    const CollectiveAlgorithm a = assumedAlgorithm(op, S, g, cl);
    const double t = collectiveTime(a, op, S, g, cl, Explain::NumbersOnly).seconds;
    const double f = busFactor(op, g.size);
    const double algbw = t > 0 ? S / t : 0, busbw = algbw * f;
    const std::string n = num(double(g.size));
    l.algorithm = a;
    l.rungs.push_back({{"algbw (what the collective moves, S/t)", "algbw（集合通信的实际速率，S/t）"},
                       algbw,
                       {"S/t of " + std::string(toString(op)) + " on " + n
                            + " GPUs by the engine's algorithm: latency, the algorithm's steps, busbw ÷ " + num(f),
                        std::string(toString(op)) + " 在 " + n
                            + " 块 GPU 上按引擎所选算法的 S/t：含延迟与算法步数，即 busbw ÷ " + num(f)},
                       kNcclTests});
    const double k = double(g.ranks_per_node);
    const Localized compare = g.crossesNodes() && k > 1
        ? Localized{"across nodes NCCL's ring spreads each GPU's traffic over its node's " + num(k)
                        + " NICs, so busbw may reach " + num(k) + " × the achievable rung",
                    "跨节点时 NCCL 的环形算法把每块 GPU 的流量分到本节点的 " + num(k)
                        + " 块网卡上，busbw 最多可达可达带宽的 " + num(k) + " 倍"}
        : Localized{"comparable with the link's achievable rung", "可与链路的可达带宽直接比较"};
    l.rungs.push_back({{"busbw (what nccl-tests prints)", "总线带宽 busbw（nccl-tests 输出）"},
                       busbw,
                       {"algbw × " + num(f) + " (the bus factor of " + std::string(toString(op)) + " on " + n
                            + " GPUs): " + compare.en,
                        "algbw × " + num(f) + "（" + std::string(toString(op)) + " 在 " + n + " 块 GPU 上的总线系数）："
                            + compare.zh},
                       kNcclTests});
}

// NVLink: the datasheet's bidirectional figure per GPU; NVSwitch gives every GPU it to any other.
void nvlinkRungs(BandwidthLadder& l, const ClusterSpec& cl)
{
    const LinkSpec& ln = cl.intra_node;
    l.rungs.push_back(
        {{"bidirectional (datasheet)", "双向（数据手册）"},
         2 * ln.bytes_per_s,
         {"the figure GPU datasheets quote: both directions added", "GPU 数据手册给出的数字：两个方向之和"},
         cl.source});
    l.rungs.push_back({{"per direction", "单向"},
                       ln.bytes_per_s,
                       {"÷ 2: one direction, what one send can use", "÷ 2：单个方向，即一次发送能用的带宽"},
                       cl.source});
    l.rungs.push_back({{"per GPU", "每块 GPU"},
                       ln.bytes_per_s,
                       {"× 1: NVLink figures are per GPU, and the NVSwitch gives each GPU all of it to any other",
                        "× 1：NVLink 的数字本就是每块 GPU 的，NVSwitch 让每块 GPU 以全带宽连到任一其他 GPU"},
                       cl.source});
    l.rungs.push_back({{"achievable (efficiency)", "可达带宽（效率）"},
                       ln.bytes_per_s * ln.efficiency,
                       {"× " + num(ln.efficiency) + ": the bus bandwidth nccl-tests reaches at large sizes",
                        "× " + num(ln.efficiency) + "：nccl-tests 在大消息下实测能达到的总线带宽比例"},
                       cl.source});
}

// A group over more leaf switches than one: what the oversubscribed uplinks leave it
// (parallel/placement.h networkShares).
void spineRung(BandwidthLadder& l, const ClusterSpec& cl, const GroupPlacement& g, Collective op)
{
    const bool a2a = op == Collective::AllToAll;
    const double share = a2a ? g.all_to_all_share : g.network_share;
    if (g.leaves <= 1 || share >= g.nic_share)
        return;
    const LinkSpec& ln = cl.inter_node;
    const std::string o = num(double(cl.fabric.oversubscription)), n = num(double(cl.fabric.nodes_per_leaf));
    const std::string slower = num(g.nic_share / share);
    l.rungs.push_back(
        {{"through the spine (" + o + ":1)", "经过脊交换机（收敛比 " + o + ":1）"},
         ln.bytes_per_s * share * ln.efficiency,
         a2a ? Localized{"÷ " + slower + " = o·(N − n)/N: the group spans " + num(double(g.leaves)) + " leaves of " + n
                             + " nodes; an all-to-all sends (N − n)/N of each node's traffic up uplinks " + o
                             + ":1 oversubscribed",
                         "÷ " + slower + " = o·(N − n)/N：该组跨 " + num(double(g.leaves)) + " 个叶交换机（每个 " + n
                             + " 个节点）；全对全把每个节点 (N − n)/N 的流量送上 " + o + ":1 超额订阅的上行链路"}
             : Localized{"÷ " + slower + " = o/n: the group spans " + num(double(g.leaves)) + " leaves of " + n
                             + " nodes; a ring or tree sends one node's traffic up each leaf's uplinks, " + o
                             + ":1 oversubscribed",
                         "÷ " + slower + " = o/n：该组跨 " + num(double(g.leaves)) + " 个叶交换机（每个 " + n
                             + " 个节点）；环或树每个叶交换机只有一个节点的流量上行，上行链路 " + o + ":1 超额订阅"},
         "Leiserson 1985 (fat trees); NVIDIA DGX SuperPOD reference architecture"});
}

// The network: a NIC's rate per direction (Gb/s ÷ 8), one NIC per GPU (rail-optimised).
void networkRungs(BandwidthLadder& l, const ClusterSpec& cl, const GroupPlacement& g, Collective op)
{
    const LinkSpec& ln = cl.inter_node;
    const std::string gbit = num(std::round(ln.bytes_per_s * 8 / 1e9));
    l.rungs.push_back(
        {{"bidirectional", "双向"},
         2 * ln.bytes_per_s,
         {"both directions of the NIC added (switch vendors quote this)", "网卡两个方向之和（交换机厂商常用此数）"},
         cl.source});
    l.rungs.push_back({{"per direction (the NIC's " + gbit + " Gb/s ÷ 8)", "单向（网卡 " + gbit + " Gb/s ÷ 8）"},
                       ln.bytes_per_s,
                       {"÷ 2; a NIC is sold by its rate per direction in Gb/s: ÷ 8 for bytes",
                        "÷ 2；网卡按单向速率（Gb/s）标称：÷ 8 换算为字节"},
                       cl.source});
    const int nics = cl.fabric.nics_per_node;
    const std::string shared = num(double(nics)) + " / " + num(double(cl.gpus_per_node));
    l.rungs.push_back(
        {{"per GPU", "每块 GPU"},
         ln.bytes_per_s * g.nic_share,
         nics > 0 ? Localized{"× " + shared + ": the node's " + num(double(nics))
                                  + " NICs shared by its GPUs, all sending at once",
                              "× " + shared + "：节点的 " + num(double(nics)) + " 块网卡由本节点所有 GPU 同时共用"}
                  : Localized{"× 1: one NIC per GPU (rail-optimised: GPU i of every node on rail i)",
                              "× 1：每块 GPU 一块网卡（轨道优化：各节点的第 i 块 GPU 在第 i 条轨道上）"},
         cl.source});
    l.rungs.push_back({{"achievable (efficiency)", "可达带宽（效率）"},
                       ln.bytes_per_s * g.nic_share * ln.efficiency,
                       {"× " + num(ln.efficiency)
                            + ": what nccl-tests reaches per NIC; NCCL's ring spreads a GPU's "
                              "traffic over all of its node's NICs (one channel each)",
                        "× " + num(ln.efficiency)
                            + "：nccl-tests 每块网卡实测能达到的比例；NCCL 的环形算法把一块 GPU "
                              "的流量分到本节点所有网卡上（每卡一个通道）"},
                       cl.source});
    spineRung(l, cl, g, op);
}

// The chapter's figures: NVLink 600 GB/s (an A100's, both directions), IB 12.5 GB/s (a 100 Gb/s
// NIC, one direction), 800 Gbps (100 GB/s: a 400 Gb/s NIC both ways, or an 800 Gb/s one one
// way). Each says what it is, then which rung of this cluster's ladder it equals, if any.
void placeChapterFigures(BandwidthLadder& l)
{
    const auto place = [&](const char* quote, double v, const std::string& en, const std::string& zh) {
        ChapterFigure f{{quote, quote}, v, -1, {en, zh}};
        for (std::size_t i = 0; i < 4 && i < l.rungs.size(); ++i)
            if (std::abs(l.rungs[i].bytes_per_s - v) < 0.5e9) {
                f.rung = int(i);
                f.where.en += "; on this cluster it is the \"" + l.rungs[i].name.en + "\" rung";
                f.where.zh += "；在本集群即“" + l.rungs[i].name.zh + "”这一级";
                break;
            }
        if (f.rung < 0) {
            f.where.en += "; not a rung of this cluster's ladder";
            f.where.zh += "；不在本集群的阶梯上";
        }
        l.chapter.push_back(f);
    };
    if (l.link == Link::NvLink) {
        place("NVLink 600 GB/s", 600e9,
              "an A100's NVLink, both directions (12 links × 50 GB/s); one direction is " + gbps(300e9)
                  + ", the engine's figure for an A100",
              "A100 的 NVLink 双向带宽（12 条链路 × 50 GB/s）；单向为 " + gbps(300e9) + "，即引擎对 A100 所用的数字");
        return;
    }
    place("IB 12.5 GB/s", 12.5e9, "one direction of a 100 Gb/s NIC (EDR, HDR100)",
          "一块 100 Gb/s 网卡（EDR、HDR100）的单向带宽");
    place("800 Gbps", 100e9, "100 GB/s: a 400 Gb/s NIC counted both ways (NDR), or one way of an 800 Gb/s NIC (XDR)",
          "100 GB/s：一块 400 Gb/s 网卡（NDR）的双向之和，或一块 800 Gb/s 网卡（XDR）的单向带宽");
}

} // namespace

BandwidthLadder bandwidthLadder(Link link, const ClusterSpec& cluster, Collective op, double S, const GroupPlacement& g)
{
    BandwidthLadder l;
    l.link = link == Link::Network ? Link::Network : Link::NvLink;
    const std::string op_name = toString(op), n = num(double(g.size));
    const std::string name = l.link == Link::Network ? "network" : "NVLink";
    l.title = {name + " on " + cluster.name + ": " + op_name + ", " + n + " GPUs",
               (l.link == Link::Network ? std::string("网络") : name) + "（" + cluster.name + "）：" + op_name + "，"
                   + n + " 块 GPU"};
    if (l.link == Link::Network)
        networkRungs(l, cluster, g, op);
    else
        nvlinkRungs(l, cluster);
    collectiveRungs(l, op, S, g, cluster);
    placeChapterFigures(l);
    return l;
}

std::vector<std::string> ladderLines(const BandwidthLadder& l, const std::string& lang)
{
    const bool zh = lang.rfind("zh", 0) == 0;
    std::vector<std::string> out;
    for (std::size_t i = 0; i < l.rungs.size(); ++i) {
        const LadderRung& r = l.rungs[i];
        out.push_back(std::to_string(i + 1) + ". " + r.name.in(lang) + (zh ? "：" : ": ") + gbps(r.bytes_per_s) + " — "
                      + r.factor.in(lang));
    }
    for (const ChapterFigure& c : l.chapter)
        out.push_back((zh ? "教材的 " : "the chapter's ") + c.quote.in(lang)
                      + (c.rung >= 0 ? (zh ? "（第 " + std::to_string(c.rung + 1) + " 级）"
                                           : " (rung " + std::to_string(c.rung + 1) + ")")
                                     : std::string())
                      + (zh ? "：" : ": ") + c.where.in(lang));
    return out;
}

} // namespace parascope
