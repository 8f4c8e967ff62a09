// Diagnostic rules about memory: the host's memory under CPU offload, and each pipeline stage
// that runs out of GPU memory, with what dominates and what each standard remedy would save
// (estimate/diagnostic_rules.h). Which combination fits, and at what step time, is
// search/advice.h's work: it evaluates candidates.

#include "estimate/diagnostic_rules.h"

#include "estimate/diagnostic_text.h"
#include "estimate/display_names.h"
#include "memory/stage_memory.h"
#include "schedule/pipeline_closed_form.h"

#include <cmath>
#include <algorithm>

namespace parascope {

using namespace diagnostic_text;

namespace {

void hostOutOfMemory(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const MemoryReport& mem = in.est->memory;
    if (mem.fits_host)
        return;
    out.push_back(make(Severity::Error, "host_out_of_memory", "parallel.zero",
                       "CPU offload needs " + formatBytes(mem.cpu_bytes_per_node) + " of host memory per node ("
                           + n(in.sc.cluster.gpus_per_node) + " GPUs), more than the node's "
                           + formatBytes(mem.host_capacity_bytes) + ".",
                       "CPU 卸载每个节点需要 " + formatBytes(mem.cpu_bytes_per_node) + " 主机内存（"
                           + n(in.sc.cluster.gpus_per_node) + " 块 GPU），超过节点的 "
                           + formatBytes(mem.host_capacity_bytes) + "。",
                       "Shard more (higher ZeRO stage or DP), offload the optimizer only, or use more nodes.",
                       "进一步分片（更高的 ZeRO 级别或更大的 DP）、只卸载优化器状态，或使用更多节点。"));
}

// A standard remedy and the memory of every stage with it.
struct Remedy {
    Localized name;
    MemoryReport memory;
};

// The standard remedies that apply here, each as the scenario it makes.
std::vector<std::pair<Scenario, Localized>> remedyScenarios(const Scenario& sc)
{
    const ParallelConfig& p = sc.parallel;
    std::vector<std::pair<Scenario, Localized>> out;
    const auto add = [&](auto edit, Localized name) {
        Scenario alt = sc;
        edit(alt);
        out.emplace_back(std::move(alt), std::move(name));
    };
    if (sc.training.recompute == Recompute::None)
        add([](Scenario& s) { s.training.recompute = Recompute::Selective; }, {"selective recompute", "选择性重计算"});
    if (sc.model.moe && sc.training.recompute != Recompute::Full && !sc.training.recomputes(RecomputeModule::MoeAct))
        add([](Scenario& s) { s.training.addRecomputeModule(RecomputeModule::MoeAct); },
            {"recomputing the experts' activation (moe_act)", "重计算专家激活函数（moe_act）"});
    if (sc.training.recompute != Recompute::Full)
        add([](Scenario& s) { s.training.recompute = Recompute::Full; }, {"full recompute", "完全重计算"});
    if (sc.training.precision == Precision::Fp8 && !sc.training.fp8_activations)
        add([](Scenario& s) { s.training.fp8_activations = true; }, {"FP8 activation storage", "FP8 激活存储"});
    if (p.zero == 0 && p.dp * p.cp > 1)
        add([](Scenario& s) { s.parallel.zero = 1; }, {"ZeRO-1 (distributed optimizer)", "ZeRO-1（分布式优化器）"});
    if (p.tp * 2 <= sc.cluster.gpus_per_node && sc.model.heads % (p.tp * 2) == 0 && sc.model.kv_heads % (p.tp * 2) == 0
        && p.dp % 2 == 0)
        add(
            [](Scenario& s) {
                s.parallel.tp *= 2;
                s.parallel.dp /= 2;
                s.parallel.sequence_parallel = true;
            },
            {"TP " + n(p.tp * 2) + " + SP (DP " + n(p.dp / 2) + ")",
             "TP " + n(p.tp * 2) + " + SP（DP " + n(p.dp / 2) + "）"});
    if (p.tp > 1 && !p.sequence_parallel)
        add([](Scenario& s) { s.parallel.sequence_parallel = true; }, {"sequence parallelism", "序列并行"});
    if (sc.training.micro_batch > 1)
        add([](Scenario& s) { s.training.micro_batch = 1; }, {"micro batch 1", "微批大小设为 1"});
    if (p.offload == Offload::None && sc.cluster.host.known())
        add([](Scenario& s) { s.parallel.offload = Offload::Optimizer; },
            {"offloading the optimizer states to CPU memory", "把优化器状态卸载到 CPU 内存"});
    return out;
}

// Each remedy's memory, computed once for all stages (none with Explain::NumbersOnly).
std::vector<Remedy> remedies(const RuleInput& in)
{
    std::vector<Remedy> out;
    if (in.explain == Explain::NumbersOnly)
        return out;
    for (auto& [alt, name] : remedyScenarios(in.sc)) {
        const ParallelConfig& ap = alt.parallel;
        const std::vector<double> inflight
            = inflightMicrobatches(ap.schedule, ap.pp, ap.vpp, std::max(1LL, in.est->microbatches));
        out.push_back({std::move(name),
                       computeMemory(alt, in.est->params, pipelineGeometry(alt.model, ap), inflight,
                                     placeRanks(ap, alt.cluster), Explain::NumbersOnly)});
    }
    return out;
}

// What each remedy saves on this stage, "(fits)" where it is enough.
Localized savings(const StageMemory& st, double over, const std::vector<Remedy>& remedies)
{
    Localized s;
    for (const Remedy& r : remedies) {
        if (st.stage >= int(r.memory.stages.size()))
            continue;
        const double saved = st.total() - r.memory.stages[st.stage].total();
        if (saved <= 0)
            continue;
        s.en += (s.en.empty() ? "" : "; ") + r.name.en + " saves " + formatBytes(saved)
            + (saved >= over ? " (fits)" : "");
        s.zh += (s.zh.empty() ? "" : "；") + r.name.zh + "可省 " + formatBytes(saved)
            + (saved >= over ? "（可放下）" : "");
    }
    if (s.en.empty())
        s = {"No single change saves memory here: combine changes, add pipeline stages or use more GPUs",
             "单项调整都无法节省显存：组合多项调整、增加流水线阶段或使用更多 GPU"};
    return s;
}

Diagnostic stageOutOfMemory(const Scenario& sc, const MemoryReport& mem, const StageMemory& st,
                            const std::vector<Remedy>& remedies)
{
    const double over = st.total() - mem.capacity_bytes;
    struct Part {
        const char* en;
        const char* zh;
        double v;
    };
    const Part parts[] = {{"weights", "权重", st.weights},
                          {"gradients", "梯度", st.gradients},
                          {"optimizer states", "优化器状态", st.optimizer},
                          {"activations", "激活", st.activations},
                          {"other", "其他", st.other}};
    const Part* top = &parts[0];
    for (const Part& pt : parts)
        if (pt.v > top->v)
            top = &pt;
    const Localized fix = savings(st, over, remedies);
    return make(Severity::Error, "out_of_memory", "",
                "Stage " + n(st.stage) + " needs " + formatBytes(st.total()) + " per GPU, " + formatBytes(over)
                    + " more than the " + formatBytes(mem.capacity_bytes) + " of the " + sc.cluster.gpu.name + "; "
                    + top->en + " dominate (" + formatBytes(top->v) + ").",
                "阶段 " + n(st.stage) + " 每块 GPU 需要 " + formatBytes(st.total()) + " 显存，比 " + sc.cluster.gpu.name
                    + " 的 " + formatBytes(mem.capacity_bytes) + " 多出 " + formatBytes(over) + "；其中" + top->zh
                    + "最大（" + formatBytes(top->v) + "）。",
                fix.en + ".", fix.zh + "。", st.stage);
}

// Per overflowing stage, what dominates and what each remedy would save. With many overflowing
// stages the worst one is explained and the rest summarised, so the work stays bounded.
void outOfMemory(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const MemoryReport& mem = in.est->memory;
    std::vector<int> oom;
    for (const StageMemory& st : mem.stages)
        if (memoryVerdict(st.total(), mem.capacity_bytes) == MemoryVerdict::OutOfMemory)
            oom.push_back(st.stage);
    if (oom.empty())
        return;
    const std::vector<Remedy> fixes = remedies(in);
    constexpr std::size_t kMaxDetailed = 8;
    if (oom.size() <= kMaxDetailed) {
        for (int s : oom)
            out.push_back(stageOutOfMemory(in.sc, mem, mem.stages[s], fixes));
        return;
    }
    out.push_back(stageOutOfMemory(in.sc, mem, mem.stages[mem.peak_stage], fixes));
    const long long count = static_cast<long long>(oom.size()), stages = static_cast<long long>(mem.stages.size());
    out.push_back(make(Severity::Error, "out_of_memory", "parallel.pp",
                       n(count) + " of " + n(stages) + " pipeline stages run out of memory (stages " + n(oom.front())
                           + "–" + n(oom.back()) + "); stage " + n(mem.peak_stage) + " is the worst.",
                       n(stages) + " 个流水线阶段中有 " + n(count) + " 个显存不足（阶段 " + n(oom.front()) + "–"
                           + n(oom.back()) + "）；阶段 " + n(mem.peak_stage) + " 最严重。",
                       "Fix the worst stage first; the same remedies apply to the others.",
                       "先解决最严重的阶段；同样的办法也适用于其他阶段。"));
}

// The peak inside the band the model cannot resolve (memory_verdict.h): neither "fits" nor "out
// of memory"; what each remedy saves, so that a lecturer can make it certain.
void memoryBorderline(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const MemoryReport& mem = in.est->memory;
    if (mem.verdict != MemoryVerdict::Borderline)
        return;
    const StageMemory& st = mem.stages[std::size_t(mem.peak_stage)];
    const double band = kMemoryBandFraction * mem.capacity_bytes;
    const double over = st.total() - mem.capacity_bytes * (1 - kMemoryBandFraction);
    const Localized fix = savings(st, over, remedies(in));
    const std::string pct = n(std::llround(kMemoryBandFraction * 100));
    out.push_back(make(
        Severity::Warning, "memory_borderline", "",
        "Stage " + n(st.stage) + " needs " + formatBytes(st.total()) + " per GPU of the "
            + formatBytes(mem.capacity_bytes) + ": within ±" + formatBytes(band) + " (" + pct
            + " % of the capacity), the band the memory model cannot resolve (the allocator's cache, NCCL's and other "
              "libraries' workspaces, unstated recompute). It may run or run out of memory.",
        "阶段 " + n(st.stage) + " 每块 GPU 需要 " + formatBytes(st.total()) + "，容量 "
            + formatBytes(mem.capacity_bytes) + "：在 ±" + formatBytes(band) + "（容量的 " + pct
            + " %）之内，这是显存模型无法分辨的范围（分配器缓存、NCCL 等通信与计算库的工作区、未说明的重计算）。"
              "可能放得下，也可能显存溢出。",
        "To be sure it fits: " + fix.en + ".", "想确保放得下：" + fix.zh + "。", st.stage));
}

} // namespace

std::vector<DiagnosticRule> rules::memory()
{
    // The rule table, one rule per row (not reflowed):
    // clang-format off
    using enum RulePhase;
    using enum RuleWall;
    return {
        {"host_out_of_memory", "host_out_of_memory", OnEstimate, Memory, {"parallel.zero"}, hostOutOfMemory},
        {"out_of_memory", "out_of_memory", OnEstimate, Memory, {"", "parallel.pp"}, outOfMemory},
        {"memory_borderline", "memory_borderline", OnEstimate, Memory, {""}, memoryBorderline},
    };
    // clang-format on
}

} // namespace parascope
