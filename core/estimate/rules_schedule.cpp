// Diagnostic rules about the pipeline schedule and the batch: model chunks (VPP, V-shapes), the
// microbatch count each schedule needs, and the global batch (estimate/diagnostic_rules.h).

#include "estimate/diagnostic_rules.h"

#include "estimate/diagnostic_text.h"
#include "estimate/display_names.h"
#include "schedule/pipeline_geometry.h"

#include <algorithm>

namespace parascope {

using namespace diagnostic_text;

namespace {

long long perStep(const Scenario& sc) { return static_cast<long long>(sc.training.micro_batch) * sc.parallel.dp; }

// What fixes an interleaved layout whose layers do not split over PP·VPP: a VPP that does, if
// any up to 16, or the 1F1B schedule.
Localized interleavedFix(const Scenario& sc)
{
    const ParallelConfig& p = sc.parallel;
    const long long slots = pipelineSlots(sc.model, p);
    int ok = 0;
    for (int v = 2; v <= 16 && !ok; ++v)
        if (slots % (static_cast<long long>(p.pp) * v) == 0)
            ok = v;
    if (ok)
        return {"Use VPP = " + n(ok) + " (" + n(slots) + " / (PP·VPP) is then whole), or the 1F1B schedule.",
                "改用 VPP = " + n(ok) + "（此时 " + n(slots) + " /（PP·VPP）为整数），或改用 1F1B 调度。"};
    return {"No VPP splits " + n(slots) + " evenly over PP = " + n(p.pp)
                + ": use a PP that divides the layers, or the 1F1B schedule.",
            "没有 VPP 能把 " + n(slots) + " 均分到 PP = " + n(p.pp) + "：选择能整除层数的 PP，或改用 1F1B 调度。"};
}

// Interleaved 1F1B: two chunks per rank or more (with one it is 1F1B: said, not an error), none
// of them empty, and (a warning) chunks of equal size. Uneven chunks are possible (Megatron-Core's --pipeline-model-parallel-layout, or
// --decoder-first/last-pipeline-num-layers); the larger chunks set the pace.
void interleavedChunks(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ParallelConfig& p = in.sc.parallel;
    if (p.schedule != ScheduleKind::Interleaved)
        return;
    const long long virtual_stages = static_cast<long long>(p.pp) * p.vpp, slots = pipelineSlots(in.sc.model, p);
    const Localized fix = interleavedFix(in.sc);
    if (p.vpp < 2) {
        // Megatron interleaves only with --num-layers-per-virtual-pipeline-stage (VPP ≥ 2);
        // without it the same launch runs 1F1B, and so does the engine (evaluate()).
        out.push_back(make(Severity::Info, "vpp_not_divisible", "parallel.vpp",
                           "Interleaved 1F1B with VPP 1 is plain 1F1B (one model chunk per GPU): evaluated as 1F1B.",
                           "VPP = 1 的交错式 1F1B 就是普通 1F1B（每块 GPU 一个模型块）：按 1F1B 计算。",
                           "Set VPP ≥ 2 to interleave.", "令 VPP ≥ 2 才会交错。"));
    } else if (slots < virtual_stages) {
        out.push_back(
            make(Severity::Error, "vpp_not_divisible", "parallel.vpp",
                 "PP·VPP = " + n(virtual_stages) + " virtual stages for " + countOf(slots, "layer", "layers")
                     + ": some model chunks would hold no layer.",
                 "PP·VPP = " + n(virtual_stages) + " 个虚拟阶段，却只有 " + n(slots) + " 层：有的模型块一层也没有。",
                 fix.en, fix.zh));
    } else if (slots % virtual_stages != 0) {
        const long long small = slots / virtual_stages;
        out.push_back(
            make(Severity::Warning, "vpp_not_divisible", "parallel.vpp",
                 countOf(slots, "layer", "layers") + " do not split evenly over PP·VPP = " + n(virtual_stages)
                     + " virtual stages: chunks of " + n(small + 1) + " and " + n(small)
                     + " layers, and the larger ones set the pace. Megatron needs an explicit layout for that "
                       "(--pipeline-model-parallel-layout).",
                 n(slots) + " 层无法均分到 PP·VPP = " + n(virtual_stages) + " 个虚拟阶段：模型块有 " + n(small + 1)
                     + " 层和 " + n(small)
                     + " 层两种，较大的决定节奏。Megatron 需要显式给出布局（--pipeline-model-parallel-layout）。",
                 fix.en, fix.zh));
    }
}

void vppIgnored(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ParallelConfig& p = in.sc.parallel;
    if (p.schedule == ScheduleKind::Interleaved || p.vpp <= 1)
        return;
    out.push_back(make(Severity::Warning, "vpp_not_divisible", "parallel.vpp",
                       "VPP = " + n(p.vpp) + " only applies to the interleaved schedule; it is ignored here.",
                       "VPP = " + n(p.vpp) + " 只对交错式调度有效，这里被忽略。",
                       "Set the schedule to interleaved 1F1B, or VPP = 1.", "把调度设为交错式 1F1B，或令 VPP = 1。"));
}

void vShapeChunks(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ParallelConfig& p = in.sc.parallel;
    const ModelSpec& m = in.sc.model;
    if (!isVShape(p.schedule) || m.layers % (2LL * p.pp) == 0)
        return;
    out.push_back(make(Severity::Error, "vpp_not_divisible", "parallel.pp",
                       displayName(p.schedule).en
                           + " puts two chunks on every rank: layers must divide by 2·PP = " + n(2LL * p.pp) + ".",
                       displayName(p.schedule).zh
                           + " 在每个流水线进程上放两个模型块：层数必须能被 2·PP = " + n(2LL * p.pp) + " 整除。",
                       "Pick PP so that " + n(m.layers) + " / (2·PP) is whole.",
                       "选择 PP，使 " + n(m.layers) + " /（2·PP）为整数。"));
}

void batchNotDivisible(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const TrainingConfig& t = in.sc.training;
    const long long per_step = perStep(in.sc);
    if (per_step <= 0 || t.global_batch % per_step == 0)
        return;
    const long long below = std::max(per_step, t.global_batch / per_step * per_step);
    const long long above = (t.global_batch / per_step + 1) * per_step;
    out.push_back(make(Severity::Error, "batch_not_divisible", "training.global_batch",
                       "Global batch " + n(t.global_batch) + " is not a multiple of micro batch × DP = "
                           + n(t.micro_batch) + "·" + n(in.sc.parallel.dp) + " = " + n(per_step) + ".",
                       "全局批大小 " + n(t.global_batch) + " 不是 微批大小 × DP = " + n(per_step) + " 的整数倍。",
                       below == above ? "Use global batch " + n(below) + "."
                                      : "Use global batch " + n(below) + " or " + n(above) + ".",
                       below == above ? "把全局批大小改为 " + n(below) + "。"
                                      : "把全局批大小改为 " + n(below) + " 或 " + n(above) + "。"));
}

// The cause only: the bubble it makes, with the simulated and the textbook number side by side,
// is the one large_bubble diagnostic (rules_pipeline_comm.cpp).
void fewerMicrobatchesThanStages(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ParallelConfig& p = in.sc.parallel;
    const TrainingConfig& t = in.sc.training;
    const long long mbs = in.sc.microbatches(), per_step = perStep(in.sc);
    if (p.pp <= 1 || mbs <= 0 || mbs >= p.pp)
        return;
    const long long target = 4LL * p.pp;
    std::vector<Localized> options{
        {"raise the global batch to " + n(target * per_step) + " (m = 4·PP = " + n(target) + ")",
         "把全局批大小提高到 " + n(target * per_step) + "（m = 4·PP = " + n(target) + "）"}};
    if (t.micro_batch > 1)
        options.push_back({"lower the micro batch (micro batch 1 gives m = " + n(mbs * t.micro_batch) + ")",
                           "减小微批大小（微批大小 1 时 m = " + n(mbs * t.micro_batch) + "）"});
    options.push_back({"use a smaller PP", "减小 PP"});
    const Localized any = anyOf(options);
    out.push_back(make(Severity::Warning, "microbatches_lt_pp", "training.global_batch",
                       "Only " + countOf(mbs, "microbatch", "microbatches") + " for " + n(p.pp)
                           + " pipeline stages: the pipeline never fills (m < PP).",
                       "只有 " + n(mbs) + " 个微批却有 " + n(p.pp) + " 个流水线阶段：流水线永远填不满（m < PP）。",
                       "To fill it, " + any.en + ".", "要填满流水线，可" + any.zh + "。"));
}

void interleavedMicrobatches(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ParallelConfig& p = in.sc.parallel;
    const long long mbs = in.sc.microbatches();
    if (p.schedule != ScheduleKind::Interleaved || mbs <= 0 || mbs % p.pp == 0)
        return;
    const long long want = (mbs / p.pp + 1) * p.pp;
    out.push_back(
        make(Severity::Error, "interleaved_needs_microbatch_multiple", "training.global_batch",
             "Interleaved 1F1B needs the microbatch count (" + n(mbs) + ") to be a multiple of PP = " + n(p.pp) + ".",
             "交错式 1F1B 要求微批数（" + n(mbs) + "）是 PP = " + n(p.pp) + " 的整数倍。",
             "Use " + countOf(want, "microbatch", "microbatches") + " (global batch " + n(want * perStep(in.sc))
                 + "), or the 1F1B schedule.",
             "改用 " + n(want) + " 个微批（全局批大小 " + n(want * perStep(in.sc)) + "），或改用 1F1B 调度。"));
}

void dualPipeEvenPp(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ParallelConfig& p = in.sc.parallel;
    if (p.schedule != ScheduleKind::DualPipe || p.pp % 2 == 0)
        return;
    out.push_back(make(
        Severity::Error, "dualpipe_needs_even_pp", "parallel.pp",
        "DualPipe feeds the pipeline from both ends and pairs rank r with rank PP−1−r: PP must be even, got " + n(p.pp)
            + ".",
        "DualPipe 从流水线两端同时送入微批，并把第 r 个进程与第 PP−1−r 个配对：PP 必须是偶数，当前为 " + n(p.pp) + "。",
        "Use PP = " + n(p.pp + 1) + (p.pp > 1 ? " or " + n(p.pp - 1) : std::string()) + ", or DualPipeV.",
        "改用 PP = " + n(p.pp + 1) + (p.pp > 1 ? " 或 " + n(p.pp - 1) : std::string()) + "，或改用 DualPipeV。"));
}

void dualPipeMicrobatches(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ParallelConfig& p = in.sc.parallel;
    const long long mbs = in.sc.microbatches();
    if (p.schedule != ScheduleKind::DualPipe || mbs <= 0 || (mbs >= 2LL * p.pp && mbs % 2 == 0))
        return;
    const long long want = std::max(2LL * p.pp, mbs + mbs % 2);
    out.push_back(make(
        Severity::Error, "microbatches_lt_pp", "training.global_batch",
        "DualPipe sends half of the microbatches each way and needs an even count of at least 2·PP = " + n(2LL * p.pp)
            + ", got " + n(mbs) + ".",
        "DualPipe 两个方向各送一半微批，微批数须为偶数且至少 2·PP = " + n(2LL * p.pp) + "，当前为 " + n(mbs) + "。",
        "Use global batch " + n(want * perStep(in.sc)) + " (" + n(want) + " microbatches).",
        "把全局批大小改为 " + n(want * perStep(in.sc)) + "（" + n(want) + " 个微批）。"));
}

void dualPipeVMicrobatches(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ParallelConfig& p = in.sc.parallel;
    const long long mbs = in.sc.microbatches();
    if (p.schedule != ScheduleKind::DualPipeV || mbs <= 0 || mbs >= 2LL * p.pp)
        return;
    out.push_back(make(Severity::Error, "microbatches_lt_pp", "training.global_batch",
                       "DualPipeV needs at least 2·PP = " + n(2LL * p.pp) + " microbatches, got " + n(mbs) + ".",
                       "DualPipeV 至少需要 2·PP = " + n(2LL * p.pp) + " 个微批，当前只有 " + n(mbs) + " 个。",
                       "Raise the global batch to " + n(2LL * p.pp * perStep(in.sc)) + " or more.",
                       "把全局批大小提高到 " + n(2LL * p.pp * perStep(in.sc)) + " 或以上。"));
}

} // namespace

std::vector<DiagnosticRule> rules::schedule()
{
    // The rule table, one rule per row (not reflowed):
    // clang-format off
    using enum RulePhase;
    using enum RuleWall;
    const char* batch = "training.global_batch";
    return {
        {"vpp_not_divisible", "vpp_not_divisible", OnScenario, Layout, {"parallel.vpp"}, interleavedChunks},
        {"vpp_not_divisible-ignored", "vpp_not_divisible", OnScenario, Layout, {"parallel.vpp"}, vppIgnored},
        {"vpp_not_divisible-zb-v", "vpp_not_divisible", OnScenario, Layout, {"parallel.pp"}, vShapeChunks},
        {"batch_not_divisible", "batch_not_divisible", OnScenario, Layout, {batch}, batchNotDivisible},
        {"microbatches_lt_pp", "microbatches_lt_pp", OnScenario, Efficiency, {batch}, fewerMicrobatchesThanStages},
        {"interleaved_needs_microbatch_multiple", "interleaved_needs_microbatch_multiple", OnScenario, Layout, {batch},
         interleavedMicrobatches},
        {"dualpipe_needs_even_pp", "dualpipe_needs_even_pp", OnScenario, Layout, {"parallel.pp"}, dualPipeEvenPp},
        {"microbatches_lt_pp-dualpipe", "microbatches_lt_pp", OnScenario, Layout, {batch}, dualPipeMicrobatches},
        {"microbatches_lt_pp-dualpipe-v", "microbatches_lt_pp", OnScenario, Layout, {batch}, dualPipeVMicrobatches},
    };
    // clang-format on
}

} // namespace parascope
