// Diagnostic rules about the fault what-ifs (types/scenario.h FaultConfig, estimate/faults.h): a
// straggler named on a pipeline stage that does not exist, what a straggler and a degraded link
// cost the step, and how to find them (estimate/diagnostic_rules.h).

#include "estimate/diagnostic_rules.h"

#include "estimate/diagnostic_text.h"
#include "estimate/display_names.h"

namespace parascope {

using namespace diagnostic_text;

namespace {

void stragglerStageOutside(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const FaultConfig& f = in.sc.faults;
    const int pp = std::max(1, in.sc.parallel.pp);
    if (!f.straggler() || f.straggler_stage < pp)
        return;
    out.push_back(make(Severity::Error, "straggler_stage_outside_pipeline", "faults.straggler_stage",
                       "The straggler is placed on pipeline stage " + n(f.straggler_stage) + ", but PP = " + n(pp)
                           + " has stages 0 … " + n(pp - 1) + ": no GPU is slowed.",
                       "慢节点被放在流水线阶段 " + n(f.straggler_stage) + "，但 PP = " + n(pp) + " 只有阶段 0 … "
                           + n(pp - 1) + "：没有 GPU 被减速。",
                       "Set faults.straggler_stage to a stage below " + n(pp) + ".",
                       "把慢节点所在阶段设为小于 " + n(pp) + " 的值。"));
}

void stragglerSlowsStep(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const TimeReport& t = in.est->time;
    if (t.healthy_step_s <= 0 || t.straggler_s <= 0)
        return;
    const FaultConfig& f = in.sc.faults;
    const std::string longer = formatPercent(t.straggler_s / t.healthy_step_s);
    const std::string steps = formatSeconds(t.healthy_step_s) + " → " + formatSeconds(t.step_s);
    out.push_back(make(
        Severity::Warning, "straggler_slows_step", "faults.straggler_slowdown_pct",
        "One GPU on pipeline stage " + n(f.straggler_stage) + " computes " + n(f.straggler_slowdown_pct)
            + " % slower, and the whole job waits for it: the step is " + longer + " longer (" + steps
            + "). Its TP group waits at every collective, its pipeline at every send, every other replica at the "
              "gradient reduction.",
        "流水线阶段 " + n(f.straggler_stage) + " 上的一块 GPU 计算慢 " + n(f.straggler_slowdown_pct)
            + " %，整个作业都在等它：单步耗时增加 " + longer + "（" + steps
            + "）。它所在的 TP 组在每次集合通信时等它，流水线在每次发送时等它，其余数据并行副本在梯度归约时等它。",
        "Find it from per-rank timings (Megatron-LM --log-straggler, the NCCL flight recorder) and take its node out "
        "of the job; a slow GPU is a fault to fix, not a layout to tune.",
        "用各 rank 的计时找到它（Megatron 的 --log-straggler 选项，或 NCCL 的通信记录），把所在节点移出作业；慢节点是"
        "要修复的故障，不是靠调整并行策略能解决的。"));
}

void degradedLink(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const FaultConfig& f = in.sc.faults;
    if (f.link_bandwidth_pct >= 100 || in.est->placement.nodes <= 1)
        return;
    const TimeReport& t = in.est->time;
    out.push_back(make(Severity::Warning, "degraded_link", "faults.link_bandwidth_pct",
                       "One node's network links run at " + n(f.link_bandwidth_pct)
                           + " % of their bandwidth: every collective across nodes runs at that pace (the ring "
                             "passes through the node); exposed communication is "
                           + formatSeconds(t.exposed_comm_s) + " of the " + formatSeconds(t.step_s) + " step.",
                       "一个节点的网络链路只有 " + n(f.link_bandwidth_pct)
                           + " % 的带宽：所有跨节点的集合通信都按它的速度进行（环经过该节点）；未重叠通信占单步 "
                           + formatSeconds(t.step_s) + " 中的 " + formatSeconds(t.exposed_comm_s) + "。",
                       "Find the link (nccl-tests between node pairs, the port's link rate) and drain the node until "
                       "it is repaired.",
                       "找出这条链路（节点两两之间跑 nccl-tests，查看端口速率），在修复前把该节点撤出。"));
}

} // namespace

std::vector<DiagnosticRule> rules::faultSettings()
{
    // clang-format off
    return {
        {"straggler_stage_outside_pipeline", "straggler_stage_outside_pipeline", RulePhase::OnScenario, RuleWall::Layout, {"faults.straggler_stage"}, stragglerStageOutside},
    };
    // clang-format on
}

std::vector<DiagnosticRule> rules::faults()
{
    // The rule table, one rule per row (not reflowed):
    // clang-format off
    using enum RulePhase;
    using enum RuleWall;
    return {
        {"straggler_slows_step", "straggler_slows_step", OnEstimate, Efficiency, {"faults.straggler_slowdown_pct"}, stragglerSlowsStep},
        {"degraded_link", "degraded_link", OnEstimate, Communication, {"faults.link_bandwidth_pct"}, degradedLink},
    };
    // clang-format on
}

} // namespace parascope
