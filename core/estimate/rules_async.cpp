// Diagnostic rules about pipelines without a flush (parallel.async_pipeline, time/async_pipeline.h):
// where PipeDream and PipeDream-2BW can run, and the staleness they trade for the bubble
// (estimate/diagnostic_rules.h).

#include "estimate/diagnostic_rules.h"

#include "estimate/diagnostic_text.h"
#include "estimate/display_names.h"

namespace parascope {

using namespace diagnostic_text;

namespace {

long long perStep(const Scenario& sc) { return (long long)sc.training.micro_batch * sc.parallel.dp; }

std::string asyncName(AsyncPipeline a) { return a == AsyncPipeline::TwoBw ? "PipeDream-2BW" : "PipeDream"; }

void asyncNeeds1f1b(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ParallelConfig& p = in.sc.parallel;
    if (p.async_pipeline == AsyncPipeline::Flush || (p.pp > 1 && p.schedule == ScheduleKind::OneFOneB))
        return;
    const std::string name = asyncName(p.async_pipeline);
    const bool no_pipeline = p.pp <= 1;
    out.push_back(make(Severity::Error, "async_pipeline_needs_1f1b", "parallel.async_pipeline",
                       no_pipeline
                           ? name + " runs a pipeline without a flush, but PP = 1 has no pipeline."
                           : name + " runs 1F1B without a flush; the schedule is " + displayName(p.schedule).en + ".",
                       no_pipeline ? name + " 是不做流水线刷新的流水线，但 PP = 1 没有流水线。"
                                   : name + " 是不做刷新的 1F1B；当前调度是" + displayName(p.schedule).zh + "。",
                       no_pipeline ? "Set PP > 1, or parallel.async_pipeline = flush."
                                   : "Use schedule 1f1b, or parallel.async_pipeline = flush.",
                       no_pipeline ? "把 PP 设为大于 1，或把 parallel.async_pipeline 设为 flush。"
                                   : "使用 1f1b 调度，或把 parallel.async_pipeline 设为 flush。"));
}

void asyncWithZero3(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ParallelConfig& p = in.sc.parallel;
    if (!p.asyncPipeline() || p.zero < 3)
        return;
    const std::string name = asyncName(p.async_pipeline);
    out.push_back(make(Severity::Error, "async_pipeline_with_zero3", "parallel.zero",
                       name
                           + " keeps whole weight versions on each stage; ZeRO-3 shards the weights and gathers "
                             "them per layer, so there is no whole version to keep.",
                       name + " 在每个阶段保存完整的权重版本；ZeRO-3 把权重切分、逐层聚合，没有完整版本可以保存。",
                       "Use ZeRO ≤ 2 with an asynchronous pipeline.", "异步流水线请使用 ZeRO ≤ 2。"));
}

void twoBwMicrobatches(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ParallelConfig& p = in.sc.parallel;
    const long long m = in.sc.microbatches();
    if (!p.asyncPipeline() || p.async_pipeline != AsyncPipeline::TwoBw || m >= p.pp)
        return;
    out.push_back(make(
        Severity::Error, "async_2bw_too_few_microbatches", "training.global_batch",
        "PipeDream-2BW accumulates over m ≥ PP microbatches so that two weight versions suffice; m = " + n(m)
            + " < PP = " + n(p.pp) + ".",
        "PipeDream-2BW 需要在 m ≥ PP 个微批上累积梯度，两个权重版本才够用；m = " + n(m) + " < PP = " + n(p.pp) + "。",
        "Raise the global batch to at least " + n(p.pp * perStep(in.sc)) + ".",
        "把全局批大小提高到至少 " + n(p.pp * perStep(in.sc)) + "。"));
}

void asyncStaleness(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ParallelConfig& p = in.sc.parallel;
    if (!p.asyncPipeline())
        return;
    const bool two_bw = p.async_pipeline == AsyncPipeline::TwoBw;
    out.push_back(make(
        Severity::Info, "async_pipeline_staleness", "parallel.async_pipeline",
        two_bw ? "PipeDream-2BW has no bubble, but every stage computes with weights one update old: W(t+1) = W(t) − "
                 "ν·∇f(W(t−1)). Narayanan et al. 2021 report GPT and BERT losses matching a flushed pipeline; what "
                 "staleness does to convergence is outside the model."
               : "PipeDream has no bubble, but stage s computes with weights p − 1 − s updates old (stage 0: "
                + n(p.pp - 1)
                + "), and updates after every microbatch. Narayanan et al. 2019 report reaching the target "
                  "accuracy on image and translation models; what staleness does to convergence is outside the "
                  "model.",
        two_bw ? "PipeDream-2BW 没有气泡，但每个阶段都用旧一次更新的权重计算：W(t+1) = W(t) − ν·∇f(W(t−1))。Narayanan "
                 "等 2021 报告 GPT 和 BERT 的损失与带刷新的流水线一致；陈旧权重对收敛的影响不在模型之内。"
               : "PipeDream 没有气泡，但阶段 s 使用旧 p − 1 − s 次更新的权重计算（阶段 0：" + n(p.pp - 1)
                + " 次），并且每个微批之后都更新一次。Narayanan 等 2019 报告在图像和翻译模型上达到目标精度；"
                  "陈旧权重对收敛的影响不在模型之内。",
        "Compare with schedule 1f1b and async_pipeline = flush (the bubble is the price of fresh weights).",
        "与 1f1b、async_pipeline = flush 对比（气泡是使用最新权重的代价）。"));
}

} // namespace

std::vector<DiagnosticRule> rules::asyncPipeline()
{
    // clang-format off
    using enum RulePhase;
    using enum RuleWall;
    return {
        {"async_pipeline_needs_1f1b", "async_pipeline_needs_1f1b", OnScenario, Layout, {"parallel.async_pipeline"}, asyncNeeds1f1b},
        {"async_pipeline_with_zero3", "async_pipeline_with_zero3", OnScenario, Layout, {"parallel.zero"}, asyncWithZero3},
        {"async_2bw_too_few_microbatches", "async_2bw_too_few_microbatches", OnScenario, Layout, {"training.global_batch"}, twoBwMicrobatches},
        {"async_pipeline_staleness", "async_pipeline_staleness", OnScenario, Efficiency, {"parallel.async_pipeline"}, asyncStaleness},
    };
    // clang-format on
}

} // namespace parascope
