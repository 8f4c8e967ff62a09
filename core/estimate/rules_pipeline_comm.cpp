// Diagnostic rules about the evaluated step: the pipeline bubble, MoE layers waiting for the host,
// TP groups that cross nodes and communication that compute does not hide
// (estimate/diagnostic_rules.h).

#include "estimate/diagnostic_rules.h"

#include "estimate/diagnostic_text.h"
#include "estimate/display_names.h"
#include "estimate/walls.h"
#include "schedule/pipeline_closed_form.h"
#include "time/layer_cost.h"

#include <algorithm>

namespace parascope {

using namespace diagnostic_text;

namespace {

// The smallest VPP ≥ 2 that the interleaved schedule accepts here (layers divisible by PP·VPP,
// microbatches a multiple of PP); 0 when none up to 8.
int validVpp(const Scenario& sc, long long microbatches, int from)
{
    const ParallelConfig& p = sc.parallel;
    if (p.pp < 2 || microbatches % p.pp != 0)
        return 0;
    for (int v = std::max(2, from); v <= 8; ++v)
        if (sc.model.layers % (static_cast<long long>(p.pp) * v) == 0)
            return v;
    return 0;
}

// What shrinks the bubble here, and only what applies.
Localized bubbleFixes(const Scenario& sc, long long m)
{
    const ParallelConfig& p = sc.parallel;
    std::vector<Localized> options;
    const long long per_step = std::max<long long>(1, sc.training.micro_batch * p.dp);
    if (m < 4LL * p.pp)
        options.push_back(
            {"more microbatches (global batch " + n(4LL * p.pp * per_step) + " gives m = 4·PP = " + n(4LL * p.pp) + ")",
             "增加微批数（全局批大小 " + n(4LL * p.pp * per_step) + " 时 m = 4·PP = " + n(4LL * p.pp) + "）"});
    if (sc.training.micro_batch > 1)
        options.push_back({"micro batch 1 (m = " + n(m * sc.training.micro_batch) + ")",
                           "微批大小 1（m = " + n(m * sc.training.micro_batch) + "）"});
    if (p.schedule == ScheduleKind::OneFOneB || p.schedule == ScheduleKind::GPipe) {
        if (const int v = validVpp(sc, m, 2))
            options.push_back({"the interleaved schedule (VPP = " + n(v) + ")", "交错式调度（VPP = " + n(v) + "）"});
    } else if (p.schedule == ScheduleKind::Interleaved && p.vpp >= 2) {
        if (validVpp(sc, m, 2 * p.vpp) == 2 * p.vpp)
            options.push_back({"more virtual stages (VPP = " + n(2LL * p.vpp) + ")",
                               "更多虚拟流水线阶段（VPP = " + n(2LL * p.vpp) + "）"});
    }
    options.push_back({"a smaller PP", "更小的 PP"});
    return anyOf(options);
}

// One diagnostic, with the step's share (simulated, or the closed-form step) and the textbook
// formula side by side, each labelled. It also appears whenever the pipeline never fills (m < PP),
// so that microbatches_lt_pp, the cause, needs no number of its own.
void largeBubble(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ParallelConfig& p = in.sc.parallel;
    const Estimate& est = *in.est;
    const long long m = est.microbatches;
    if (p.pp <= 1 || (est.time.bubble_fraction <= 0.25 && (m <= 0 || m >= p.pp)))
        return;
    const Term f = bubbleTerm(p.schedule, p.pp, p.vpp, m);
    const bool simulated = est.time.method.rfind("simulated", 0) == 0;
    const std::string step_share = formatPercent(est.time.bubble_fraction), textbook = formatPercent(f.value);
    std::string en = "Pipeline bubble: " + std::string(simulated ? "simulated " : "closed-form step ") + step_share
        + " of the step is idle; formula " + f.formula + " = " + f.substituted + " = " + textbook + " (PP = " + n(p.pp)
        + ", " + countOf(m, "microbatch", "microbatches") + ", " + displayName(p.schedule).en + ").";
    std::string zh = "流水线气泡：" + std::string(simulated ? "模拟得" : "解析估计得") + "单步耗时的 " + step_share
        + " 处于空闲；公式 " + f.formula + " = " + f.substituted + " = " + textbook + "（PP = " + n(p.pp) + "，" + n(m)
        + " 个微批，" + displayName(p.schedule).zh + "）。";
    if (step_share != textbook) {
        en += " The formula counts compute only, with equal stages; the step also holds uneven stages, communication "
              "and the optimizer.";
        zh += "公式只计计算且假设各阶段相同；单步耗时还包含阶段不均、通信和优化器。";
    }
    const Localized any = bubbleFixes(in.sc, m);
    out.push_back(make(Severity::Warning, "large_bubble", "parallel.pp", en, zh, "Shrink it with " + any.en + ".",
                       "缩小气泡的办法：" + any.zh + "。"));
}

bool tpCrossesNodes(const Estimate& est)
{
    return std::any_of(est.placement.groups.begin(), est.placement.groups.end(),
                       [](const GroupPlacement& g) { return g.group == Group::Tp && g.crossesNodes(); });
}

void tpSpansNodes(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const int per_node = std::max(1, in.sc.cluster.gpus_per_node);
    const bool above = in.sc.parallel.tp > per_node;
    for (const GroupPlacement& g : in.est->placement.groups) {
        if (g.group != Group::Tp || !g.crossesNodes())
            continue;
        out.push_back(make(Severity::Warning, "tp_spans_nodes", "parallel.tp",
                           "TP = " + n(g.size) + " spans " + countOf(g.nodes, "node", "nodes")
                               + ": its collectives go over the network (per layer and microbatch 4, or 8 with "
                                 "sequence parallelism: 4 AllGather + 4 "
                                 "ReduceScatter, forward and backward).",
                           "TP = " + n(g.size) + " 跨越 " + n(g.nodes)
                               + " 个节点：它的集合通信都要走网络（每层每个微批 4 次；开启序列并行时为 8 次：4 次 "
                                 "AllGather + 4 次 ReduceScatter，前向与反向合计）。",
                           above ? "Keep TP ≤ " + n(per_node) + " (one node) and scale with PP or DP."
                                 : "Use a TP that divides the " + n(per_node)
                                   + " GPUs of a node, so that no TP group straddles two nodes.",
                           above ? "让 TP ≤ " + n(per_node) + "（单节点内），用 PP 或 DP 扩展。"
                                 : "选择能整除每节点 " + n(per_node) + " 块 GPU 的 TP，使 TP 组不跨节点。"));
    }
}

// The knob that sizes a group (the expert-data-parallel group follows EP).
const char* knobOf(Group g)
{
    switch (g) {
    case Group::Tp: return "parallel.tp";
    case Group::Cp: return "parallel.cp";
    case Group::Ep:
    case Group::Edp: return "parallel.ep";
    case Group::Dp:
    case Group::DpCp: return "parallel.dp";
    case Group::Pp: return "parallel.pp";
    }
    return "";
}

// What hides or shrinks exposed communication here, and only what applies.
Localized exposedCommFixes(const Scenario& sc, const Estimate& est, const CommEntry* worst)
{
    const ParallelConfig& p = sc.parallel;
    std::vector<Localized> options;
    if (tpCrossesNodes(est))
        options.push_back({"keep TP inside a node", "让 TP 留在节点内"});
    if (p.tp > 1 && !p.tp_comm_overlap)
        options.push_back(
            {"overlap TP communication with compute (tp_comm_overlap)", "开启 TP 通信与计算重叠（tp_comm_overlap）"});
    if (p.dp * p.cp > 1 && !p.overlap_grad_reduce)
        options.push_back({"overlap the gradient reduction with the backward pass (overlap_grad_reduce)",
                           "让梯度归约与反向计算重叠（overlap_grad_reduce）"});
    if (p.zero >= 2)
        options.push_back({"use ZeRO-1 instead of ZeRO-" + n(p.zero), "用 ZeRO-1 代替 ZeRO-" + n(p.zero)});
    // The experts' ZeRO collectives: each GPU holds, gathers and reduces 1/(EP·ETP) of them.
    const long long ep2 = 2LL * p.ep;
    if (worst && worst->group == Group::Edp && p.zero >= 2 && sc.model.moe
        && p.expertGridFits(ep2, sc.model.moe->experts))
        options.push_back({"raise EP to " + n(ep2) + " (each GPU then holds and gathers half as many experts)",
                           "把专家并行（EP）提高到 " + n(ep2) + "（每块 GPU 持有并聚合的专家减半）"});
    if (p.dp >= 2 && p.dp % 2 == 0 && 2LL * p.pp <= sc.model.layers)
        options.push_back({"trade DP for PP (PP " + n(2LL * p.pp) + ", DP " + n(p.dp / 2) + ")",
                           "用 PP 替换部分 DP（PP " + n(2LL * p.pp) + "，DP " + n(p.dp / 2) + "）"});
    if (options.empty()) {
        const Localized group = displayName(worst ? worst->group : Group::Dp);
        options.push_back(
            {"use a smaller " + group.en + " group or a faster network", "更小的 " + group.zh + " 组或更快的网络"});
    }
    return anyOf(options);
}

void exposedCommunication(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const Estimate& est = *in.est;
    if (est.time.step_s <= 0 || est.time.exposed_comm_s <= 0.2 * est.time.step_s)
        return;
    const CommEntry* worst = nullptr;
    for (const CommEntry& c : est.communication)
        if (!worst || c.exposed_s > worst->exposed_s)
            worst = &c;
    const Localized what = worst
        ? Localized{displayName(worst->group).en + " " + displayName(worst->collective).en,
                    displayName(worst->group).zh + " 组的 " + displayName(worst->collective).zh}
        : Localized{"?", "?"};
    const Localized any = exposedCommFixes(in.sc, est, worst);
    const std::string share = formatPercent(est.time.exposed_comm_s / est.time.step_s);
    out.push_back(
        make(Severity::Warning, "exposed_comm_high", worst ? knobOf(worst->group) : "",
             "Communication not hidden by compute takes " + share + " of the step; most from " + what.en + ".",
             "未与计算重叠的通信占单步耗时的 " + share + "；主要来自 " + what.zh + "。", "Try to " + any.en + ".",
             "可尝试" + any.zh + "。"));
}

// MoE layers that wait for the host that issues them (time/layer_cost.cpp hostWaits): eager
// PyTorch issues every kernel and the dispatcher reads the token counts back every forward, so a
// layer whose GPU work is shorter than the host's time takes the host's. Said from a tenth of
// the step, with the efficiency wall's figure (on average over the pipeline ranks).
void moeHostBound(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const double share = efficiencyLosses(*in.est).host_wait; // 0 without MoE layers the host paces
    if (share < 0.1)
        return;
    const std::string pct = formatPercent(share), seconds = formatSeconds(share * in.est->time.step_s),
                      host = formatSeconds(layer_cost::moeHostSeconds(in.sc));
    out.push_back(make(
        Severity::Warning, "moe_host_bound", "training.cuda_graphs",
        "MoE layers wait for the host: " + pct + " of the step (" + seconds
            + "). A layer's GPU work is shorter than the " + host
            + " the host takes to issue its forward (twice that backward), and reading the token counts back keeps "
              "the host at most a layer ahead.",
        "MoE 层在等待主机下发：占单步耗时的 " + pct + "（" + seconds + "）。每层的 GPU 工作量少于主机下发其前向所需的 "
            + host + "（反向为两倍），而把词元数读回主机使主机最多只能领先一层。",
        "More work per GPU and layer (a larger micro batch, a smaller TP), or whole MoE layers as CUDA graphs (with a "
        "capacity factor).",
        "让每块 GPU 每层做更多工作（更大的微批、更小的 TP），或把整个 MoE 层做成 CUDA 图（需设置容量因子）。"));
}

} // namespace

std::vector<DiagnosticRule> rules::pipelineAndCommunication()
{
    // The rule table, one rule per row (not reflowed):
    // clang-format off
    using enum RulePhase;
    using enum RuleWall;
    return {
        {"large_bubble", "large_bubble", OnEstimate, Efficiency, {"parallel.pp"}, largeBubble},
        {"moe_host_bound", "moe_host_bound", OnEstimate, Efficiency, {"training.cuda_graphs"}, moeHostBound},
        {"tp_spans_nodes", "tp_spans_nodes", OnEstimate, Communication, {"parallel.tp"}, tpSpansNodes},
        {"exposed_comm_high", "exposed_comm_high", OnEstimate, Communication,
         {"parallel.tp", "parallel.cp", "parallel.ep", "parallel.dp", "parallel.pp"}, exposedCommunication},
    };
    // clang-format on
}

} // namespace parascope
