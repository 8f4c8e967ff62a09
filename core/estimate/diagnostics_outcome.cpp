// What breaks once the configuration has been evaluated: memory, bubbles, exposed
// communication, placement (the configuration's own checks are in diagnostics.cpp).

#include "estimate/diagnostics.h"

#include "estimate/diagnostic_text.h"
#include "memory/stage_memory.h"
#include "schedule/pipeline_closed_form.h"

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

} // namespace

std::vector<Diagnostic> outcomeDiagnostics(const Scenario& sc, const Estimate& est, Explain explain)
{
    std::vector<Diagnostic> out;
    const ParallelConfig& p = sc.parallel;
    const MemoryReport& mem = est.memory;
    if (!mem.fits_host)
        out.push_back(make(Severity::Error, "host_out_of_memory", "parallel.zero",
            "CPU offload needs " + formatBytes(mem.cpu_bytes_per_node) + " of host memory per node (" + n(sc.cluster.gpus_per_node)
                + " GPUs), more than the node's " + formatBytes(mem.host_capacity_bytes) + ".",
            "CPU 卸载每个节点需要 " + formatBytes(mem.cpu_bytes_per_node) + " 主机内存（" + n(sc.cluster.gpus_per_node)
                + " 块 GPU），超过节点的 " + formatBytes(mem.host_capacity_bytes) + "。",
            "Shard more (higher ZeRO stage or DP), offload the optimizer only, or use more nodes.",
            "进一步分片（更高的 ZeRO 级别或更大的 DP）、只卸载优化器状态，或使用更多节点。"));

    // Out of memory: per stage, what dominates and what each standard remedy would save. Each
    // remedy's memory is computed once for all stages; with many overflowing stages the worst
    // one is explained and the rest summarised, so the work stays bounded. (Which combination
    // fits, and at what step time, is search/advice.h's work: it evaluates candidates.)
    std::vector<int> oom;
    for (const StageMemory& st : mem.stages)
        if (st.total() > mem.capacity_bytes)
            oom.push_back(st.stage);
    if (!oom.empty()) {
        struct Remedy { std::string en, zh; MemoryReport memory; };
        std::vector<Remedy> remedies;
        const auto consider = [&](Scenario alt, std::string en, std::string zh) {
            if (explain == Explain::NumbersOnly)
                return;
            const PipelineGeometry alt_geometry = pipelineGeometry(alt.model, alt.parallel);
            const std::vector<double> inflight = inflightMicrobatches(alt.parallel.schedule, alt.parallel.pp,
                                                                      alt.parallel.vpp, std::max(1LL, est.microbatches));
            remedies.push_back({std::move(en), std::move(zh),
                                computeMemory(alt, est.params, alt_geometry, inflight, placeRanks(alt.parallel, alt.cluster),
                                              Explain::NumbersOnly)});
        };
        if (sc.training.recompute == Recompute::None) {
            Scenario alt = sc;
            alt.training.recompute = Recompute::Selective;
            consider(alt, "selective recompute", "选择性重计算");
        }
        if (sc.training.recompute != Recompute::Full) {
            Scenario alt = sc;
            alt.training.recompute = Recompute::Full;
            consider(alt, "full recompute", "完全重计算");
        }
        if (p.zero == 0 && p.dp * p.cp > 1) {
            Scenario alt = sc;
            alt.parallel.zero = 1;
            consider(alt, "ZeRO-1 (distributed optimizer)", "ZeRO-1（分布式优化器）");
        }
        if (p.tp * 2 <= sc.cluster.gpus_per_node && sc.model.heads % (p.tp * 2) == 0 && sc.model.kv_heads % (p.tp * 2) == 0
            && p.dp % 2 == 0) {
            Scenario alt = sc;
            alt.parallel.tp *= 2;
            alt.parallel.dp /= 2;
            alt.parallel.sequence_parallel = true;
            consider(alt, "TP " + n(p.tp * 2) + " + SP (DP " + n(p.dp / 2) + ")", "TP " + n(p.tp * 2) + " + SP（DP " + n(p.dp / 2) + "）");
        }
        if (p.tp > 1 && !p.sequence_parallel) {
            Scenario alt = sc;
            alt.parallel.sequence_parallel = true;
            consider(alt, "sequence parallelism", "序列并行");
        }
        if (sc.training.micro_batch > 1) {
            Scenario alt = sc;
            alt.training.micro_batch = 1;
            consider(alt, "micro batch 1", "微批大小设为 1");
        }
        if (p.offload == Offload::None && sc.cluster.host.known()) {
            Scenario alt = sc;
            alt.parallel.offload = Offload::Optimizer;
            consider(alt, "offloading the optimizer states to CPU memory", "把优化器状态卸载到 CPU 内存");
        }

        const auto explainStage = [&](const StageMemory& st) {
            const double over = st.total() - mem.capacity_bytes;
            struct Part { const char* en; const char* zh; double v; };
            const Part parts[] = {{"weights", "权重", st.weights}, {"gradients", "梯度", st.gradients},
                                  {"optimizer states", "优化器状态", st.optimizer}, {"activations", "激活", st.activations},
                                  {"other", "其他", st.other}};
            const Part* top = &parts[0];
            for (const Part& pt : parts)
                if (pt.v > top->v)
                    top = &pt;
            std::string sug_en, sug_zh;
            for (const Remedy& r : remedies) {
                if (st.stage >= int(r.memory.stages.size()))
                    continue;
                const double saved = st.total() - r.memory.stages[st.stage].total();
                if (saved <= 0)
                    continue;
                sug_en += (sug_en.empty() ? "" : "; ") + r.en + " saves " + formatBytes(saved) + (saved >= over ? " (fits)" : "");
                sug_zh += (sug_zh.empty() ? "" : "；") + r.zh + "可省 " + formatBytes(saved) + (saved >= over ? "（可放下）" : "");
            }
            if (sug_en.empty()) {
                sug_en = "No single change saves memory here: combine changes, add pipeline stages or use more GPUs";
                sug_zh = "单项调整都无法节省显存：组合多项调整、增加流水线阶段或使用更多 GPU";
            }
            out.push_back(make(Severity::Error, "out_of_memory", "",
                "Stage " + n(st.stage) + " needs " + formatBytes(st.total()) + " per GPU, " + formatBytes(over) + " more than the "
                    + formatBytes(mem.capacity_bytes) + " of the " + sc.cluster.gpu.name + "; " + top->en + " dominate ("
                    + formatBytes(top->v) + ").",
                "阶段 " + n(st.stage) + " 每块 GPU 需要 " + formatBytes(st.total()) + " 显存，比 " + sc.cluster.gpu.name + " 的 "
                    + formatBytes(mem.capacity_bytes) + " 多出 " + formatBytes(over) + "；其中" + top->zh + "最大（"
                    + formatBytes(top->v) + "）。",
                sug_en + ".", sug_zh + "。", st.stage));
        };
        constexpr std::size_t kMaxDetailed = 8;
        if (oom.size() <= kMaxDetailed) {
            for (int s : oom)
                explainStage(mem.stages[s]);
        } else {
            explainStage(mem.stages[mem.peak_stage]);
            out.push_back(make(Severity::Error, "out_of_memory", "parallel.pp",
                n(static_cast<long long>(oom.size())) + " of " + n(static_cast<long long>(mem.stages.size()))
                    + " pipeline stages run out of memory (stages " + n(oom.front()) + "–" + n(oom.back()) + "); stage "
                    + n(mem.peak_stage) + " is the worst.",
                n(static_cast<long long>(mem.stages.size())) + " 个流水线阶段中有 " + n(static_cast<long long>(oom.size()))
                    + " 个显存不足（阶段 " + n(oom.front()) + "–" + n(oom.back()) + "）；阶段 " + n(mem.peak_stage) + " 最严重。",
                "Fix the worst stage first; the same remedies apply to the others.",
                "先解决最严重的阶段；同样的办法也适用于其他阶段。"));
        }
    }

    // The bubble: one diagnostic, with the step's share (simulated, or the closed-form step) and
    // the textbook formula side by side, each labelled. It also appears whenever the pipeline
    // never fills (m < PP), so that microbatches_lt_pp, the cause, needs no number of its own.
    const long long m = est.microbatches;
    if (p.pp > 1 && (est.time.bubble_fraction > 0.25 || (m > 0 && m < p.pp))) {
        const Term f = bubbleTerm(p.schedule, p.pp, p.vpp, m);
        const bool simulated = est.time.method.rfind("simulated", 0) == 0;
        const std::string step_share = formatPercent(est.time.bubble_fraction), textbook = formatPercent(f.value);
        std::string en = "Pipeline bubble: " + std::string(simulated ? "simulated " : "closed-form step ") + step_share
                       + " of the step is idle; formula " + f.formula + " = " + f.substituted + " = " + textbook + " (PP = " + n(p.pp)
                       + ", " + countOf(m, "microbatch", "microbatches") + ", " + displayName(p.schedule).en + ").";
        std::string zh = "流水线气泡：" + std::string(simulated ? "仿真得" : "解析估计得") + "单步耗时的 " + step_share
                       + " 处于空闲；公式 " + f.formula + " = " + f.substituted + " = " + textbook + "（PP = " + n(p.pp) + "，"
                       + n(m) + " 个微批，" + displayName(p.schedule).zh + "）。";
        if (step_share != textbook) {
            en += " The formula counts compute only, with equal stages; the step also holds uneven stages, "
                  "communication and the optimizer.";
            zh += "公式只计计算且假设各阶段相同；单步耗时还包含阶段不均、通信和优化器。";
        }
        // Only what applies here.
        std::vector<Localized> options;
        const long long per_step = std::max<long long>(1, sc.training.micro_batch * p.dp);
        if (m < 4LL * p.pp)
            options.push_back({"more microbatches (global batch " + n(4LL * p.pp * per_step) + " gives m = 4·PP = " + n(4LL * p.pp) + ")",
                               "增加微批数（全局批大小 " + n(4LL * p.pp * per_step) + " 时 m = 4·PP = " + n(4LL * p.pp) + "）"});
        if (sc.training.micro_batch > 1)
            options.push_back({"micro batch 1 (m = " + n(m * sc.training.micro_batch) + ")",
                               "微批大小 1（m = " + n(m * sc.training.micro_batch) + "）"});
        if (p.schedule == ScheduleKind::OneFOneB || p.schedule == ScheduleKind::GPipe) {
            if (const int v = validVpp(sc, m, 2))
                options.push_back({"the interleaved schedule (VPP = " + n(v) + ")", "交错式调度（VPP = " + n(v) + "）"});
        } else if (p.schedule == ScheduleKind::Interleaved && p.vpp >= 2) {
            if (validVpp(sc, m, 2 * p.vpp) == 2 * p.vpp)
                options.push_back({"more virtual stages (VPP = " + n(2LL * p.vpp) + ")", "更多虚拟流水线阶段（VPP = " + n(2LL * p.vpp) + "）"});
        }
        options.push_back({"a smaller PP", "更小的 PP"});
        const Localized any = anyOf(options);
        out.push_back(make(Severity::Warning, "large_bubble", "parallel.pp", en, zh,
            "Shrink it with " + any.en + ".", "缩小气泡的办法：" + any.zh + "。"));
    }

    const int per_node = std::max(1, sc.cluster.gpus_per_node);
    bool tp_crosses = false;
    for (const GroupPlacement& g : est.placement.groups) {
        if (g.group == Group::Tp && g.crossesNodes()) {
            tp_crosses = true;
            out.push_back(make(Severity::Warning, "tp_spans_nodes", "parallel.tp",
                "TP = " + n(g.size) + " spans " + countOf(g.nodes, "node", "nodes") + ": its collectives go over the network (per layer and microbatch 4, or 8 with sequence parallelism: 4 AllGather + 4 ReduceScatter, forward and backward).",
                "TP = " + n(g.size) + " 跨越 " + n(g.nodes) + " 个节点：它的集合通信都要走网络（每层每个微批 4 次；开启序列并行时为 8 次：4 次 AllGather + 4 次 ReduceScatter，前向与反向合计）。",
                p.tp > per_node
                    ? "Keep TP ≤ " + n(per_node) + " (one node) and scale with PP or DP."
                    : "Use a TP that divides the " + n(per_node) + " GPUs of a node, so that no TP group straddles two nodes.",
                p.tp > per_node
                    ? "让 TP ≤ " + n(per_node) + "（单节点内），用 PP 或 DP 扩展。"
                    : "选择能整除每节点 " + n(per_node) + " 块 GPU 的 TP，使 TP 组不跨节点。"));
        }
    }

    if (est.time.step_s > 0 && est.time.exposed_comm_s > 0.2 * est.time.step_s) {
        const CommEntry* worst = nullptr;
        for (const CommEntry& c : est.communication)
            if (!worst || c.exposed_s > worst->exposed_s)
                worst = &c;
        const Localized what = worst ? Localized{displayName(worst->group).en + " " + displayName(worst->collective).en,
                                                 displayName(worst->group).zh + " 组的 " + displayName(worst->collective).zh}
                                     : Localized{"?", "?"};
        // The knob that sizes the worst group (the expert-data-parallel group follows EP).
        std::string knob;
        if (worst)
            switch (worst->group) {
            case Group::Tp: knob = "parallel.tp"; break;
            case Group::Cp: knob = "parallel.cp"; break;
            case Group::Ep:
            case Group::Edp: knob = "parallel.ep"; break;
            case Group::Dp:
            case Group::DpCp: knob = "parallel.dp"; break;
            case Group::Pp: knob = "parallel.pp"; break;
            }
        // Only what applies here.
        std::vector<Localized> options;
        if (tp_crosses)
            options.push_back({"keep TP inside a node", "让 TP 留在节点内"});
        if (p.tp > 1 && !p.tp_comm_overlap)
            options.push_back({"overlap TP communication with compute (tp_comm_overlap)", "开启 TP 通信与计算重叠（tp_comm_overlap）"});
        if (p.dp * p.cp > 1 && !p.overlap_grad_reduce)
            options.push_back({"overlap the gradient reduction with the backward pass (overlap_grad_reduce)",
                               "让梯度归约与反向计算重叠（overlap_grad_reduce）"});
        if (p.zero >= 2)
            options.push_back({"use ZeRO-1 instead of ZeRO-" + n(p.zero), "用 ZeRO-1 代替 ZeRO-" + n(p.zero)});
        if (p.dp >= 2 && p.dp % 2 == 0 && 2LL * p.pp <= sc.model.layers)
            options.push_back({"trade DP for PP (PP " + n(2LL * p.pp) + ", DP " + n(p.dp / 2) + ")",
                               "用 PP 替换部分 DP（PP " + n(2LL * p.pp) + "，DP " + n(p.dp / 2) + "）"});
        if (options.empty())
            options.push_back({"use a smaller " + displayName(worst ? worst->group : Group::Dp).en + " group or a faster network",
                               "更小的 " + displayName(worst ? worst->group : Group::Dp).zh + " 组或更快的网络"});
        const Localized any = anyOf(options);
        out.push_back(make(Severity::Warning, "exposed_comm_high", knob,
            "Communication not hidden by compute takes " + formatPercent(est.time.exposed_comm_s / est.time.step_s)
                + " of the step; most from " + what.en + ".",
            "未与计算重叠的通信占单步耗时的 " + formatPercent(est.time.exposed_comm_s / est.time.step_s) + "；主要来自 " + what.zh + "。",
            "Try to " + any.en + ".", "可尝试" + any.zh + "。"));
    }
    return out;
}

} // namespace parascope
