#include "estimate/diagnostics.h"

#include "memory/stage_memory.h"
#include "schedule/pipeline_closed_form.h"

#include <algorithm>

namespace parascope {

namespace {

std::string n(long long v) { return std::to_string(v); }

Diagnostic make(Severity sev, const char* code, const std::string& knob, std::string en, std::string zh,
                std::string sug_en, std::string sug_zh, int stage = -1)
{
    Diagnostic d;
    d.severity = sev;
    d.code = code;
    d.knob = knob;
    d.stage = stage;
    d.message = {std::move(en), std::move(zh)};
    d.suggestion = {std::move(sug_en), std::move(sug_zh)};
    return d;
}

// Largest divisor-friendly value ≤ limit that divides `of` (for suggestions).
int largestDivisorAtMost(long long of, int limit)
{
    for (int v = limit; v > 1; --v)
        if (of % v == 0)
            return v;
    return 1;
}

// Joins options as "a, b or c" / "a、b 或 c".
Localized anyOf(const std::vector<Localized>& options)
{
    Localized out;
    for (std::size_t i = 0; i < options.size(); ++i) {
        const bool last = i + 1 == options.size();
        out.en += (i == 0 ? "" : last ? " or " : ", ") + options[i].en;
        out.zh += (i == 0 ? "" : last ? "或" : "、") + options[i].zh;
    }
    return out;
}

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

std::vector<Diagnostic> configurationDiagnostics(const Scenario& sc)
{
    std::vector<Diagnostic> out;
    const ParallelConfig& p = sc.parallel;
    const ModelSpec& m = sc.model;
    const TrainingConfig& t = sc.training;
    const ClusterSpec& c = sc.cluster;
    const long long gpus = p.gpus();

    if (c.nodes > 0 && gpus != (long long)c.nodes * c.gpus_per_node) {
        const long long have = (long long)c.nodes * c.gpus_per_node;
        out.push_back(make(Severity::Error, "gpu_count_mismatch", "parallel.dp",
            "tp·pp·dp·cp = " + n(p.tp) + "·" + n(p.pp) + "·" + n(p.dp) + "·" + n(p.cp) + " = " + countOf(gpus, "GPU", "GPUs")
                + ", but the cluster has " + countOf(c.nodes, "node", "nodes") + " × " + n(c.gpus_per_node) + " = " + n(have) + ".",
            "TP·PP·DP·CP = " + n(gpus) + " 块 GPU，但集群只有 " + n(c.nodes) + " 个节点 × " + n(c.gpus_per_node)
                + " = " + n(have) + " 块。",
            have % (static_cast<long long>(p.tp) * p.pp * p.cp) == 0
                ? "Set dp = " + n(have / (static_cast<long long>(p.tp) * p.pp * p.cp)) + " to use every GPU."
                : "Choose tp·pp·cp that divides " + n(have) + ", then dp = GPUs/(tp·pp·cp).",
            have % (static_cast<long long>(p.tp) * p.pp * p.cp) == 0
                ? "把 DP 设为 " + n(have / (static_cast<long long>(p.tp) * p.pp * p.cp)) + " 即可用满所有 GPU。"
                : "选择能整除 " + n(have) + " 的 TP·PP·CP，再令 DP = GPU 数 /（TP·PP·CP）。"));
    } else if (gpus > c.gpus_per_node && gpus % c.gpus_per_node != 0) {
        out.push_back(make(Severity::Warning, "gpu_count_mismatch", "parallel.dp",
            n(gpus) + " GPUs do not fill whole nodes of " + n(c.gpus_per_node) + ".",
            n(gpus) + " 块 GPU 不能填满每节点 " + n(c.gpus_per_node) + " 块的整数个节点。",
            "Use a multiple of " + n(c.gpus_per_node) + " GPUs.", "使用 " + n(c.gpus_per_node) + " 的整数倍块 GPU。"));
    }

    if (m.heads % p.tp != 0) {
        const int ok = largestDivisorAtMost(m.heads, std::min(p.tp, c.gpus_per_node));
        out.push_back(make(Severity::Error, "heads_not_divisible_by_tp", "parallel.tp",
            countOf(m.heads, "attention head", "attention heads") + " cannot be split evenly over TP = " + n(p.tp) + ".",
            n(m.heads) + " 个注意力头无法被 TP = " + n(p.tp) + " 整除。",
            "Use a TP that divides " + n(m.heads) + ", e.g. TP = " + n(ok) + ".",
            "选择能整除 " + n(m.heads) + " 的 TP，例如 TP = " + n(ok) + "。"));
    }
    if (m.kv_heads % p.tp != 0) {
        out.push_back(make(Severity::Error, "kv_heads_not_divisible_by_tp", "parallel.tp",
            countOf(m.kv_heads, "KV head", "KV heads") + " (GQA groups) cannot be split over TP = " + n(p.tp)
                + "; Megatron requires num_query_groups % tp == 0.",
            n(m.kv_heads) + " 个 KV 头（GQA 组）无法被 TP = " + n(p.tp) + " 整除；Megatron 要求 num_query_groups 能被 TP 整除。",
            "Use TP ≤ " + n(m.kv_heads) + " that divides it, and add PP or CP for the rest.",
            "使用不超过 " + n(m.kv_heads) + " 且能整除它的 TP，其余用 PP 或 CP 扩展。"));
    }

    if (p.pp > m.layers) {
        out.push_back(make(Severity::Error, "pp_exceeds_layers", "parallel.pp",
            "PP = " + n(p.pp) + " is more than the " + countOf(m.layers, "layer", "layers") + ": some stages would be empty.",
            "PP = " + n(p.pp) + " 超过了模型的 " + n(m.layers) + " 层：部分流水线阶段将没有层。",
            "Use PP ≤ " + n(m.layers) + ", ideally a divisor of it.", "使用 PP ≤ " + n(m.layers) + "，最好能整除层数。"));
    } else if (!p.stage_layers.empty() && int(p.stage_layers.size()) == p.pp) {
        long long sum = 0;
        for (int l : p.stage_layers)
            sum += l;
        if (sum != m.layers)
            out.push_back(make(Severity::Error, "layers_not_divisible_by_pp", "parallel.pp",
                "parallel.stage_layers adds up to " + countOf(sum, "layer", "layers") + ", the model has " + n(m.layers) + ".",
                "parallel.stage_layers 合计 " + n(sum) + " 层，而模型有 " + n(m.layers) + " 层。",
                "Make the per-stage layer counts add up to " + n(m.layers) + ".",
                "让各阶段层数之和等于 " + n(m.layers) + "。"));
    } else if (!p.stage_layers.empty()) {
        out.push_back(make(Severity::Error, "layers_not_divisible_by_pp", "parallel.pp",
            "parallel.stage_layers lists " + countOf((long long)p.stage_layers.size(), "stage", "stages") + ", PP = " + n(p.pp) + ".",
            "parallel.stage_layers 列出了 " + n((long long)p.stage_layers.size()) + " 个阶段，而 PP = " + n(p.pp) + "。",
            "Give one layer count per pipeline stage.", "为每个流水线阶段给出一个层数。"));
    } else if (pipelineSlots(m, p) % p.pp != 0) {
        const long long extra = pipelineSlots(m, p) % p.pp;
        out.push_back(make(Severity::Warning, "layers_not_divisible_by_pp", "parallel.pp",
            countOf(m.layers, "layer", "layers") + " do not split evenly over PP = " + n(p.pp) + ": "
                + (extra == 1 ? std::string("the first stage gets one layer more and sets") : "the first " + n(extra) + " stages get one layer more and set")
                + " the pace.",
            n(m.layers) + " 层无法被 PP = " + n(p.pp) + " 整除：前 " + n(extra) + " 个阶段多一层，成为瓶颈。",
            "Use a PP that divides " + n(m.layers) + ", or set parallel.stage_layers (e.g. fewer layers on the first and last stage).",
            "选择能整除 " + n(m.layers) + " 的 PP，或设置 parallel.stage_layers（例如首尾阶段少放几层）。"));
    }

    if (p.shard_size > 0 && ((long long)p.dp * p.cp) % p.shard_size != 0)
        out.push_back(make(Severity::Error, "shard_size_not_divisible", "parallel.dp", // the slider that fixes it
            "HSDP shard groups of " + n(p.shard_size) + " do not divide DP·CP = " + n((long long)p.dp * p.cp) + ".",
            "HSDP 分片组大小 " + n(p.shard_size) + " 不能整除 DP·CP = " + n((long long)p.dp * p.cp) + "。",
            "Use a shard size that divides DP·CP (the GPUs of a node, typically), or 0 to shard over all of them.",
            "选择能整除 DP·CP 的分片组大小（通常是一个节点的 GPU 数），或设为 0 在全部数据并行进程上切分。"));

    const long long per_step = (long long)t.micro_batch * p.dp;
    const long long mbs = sc.microbatches();
    if (p.schedule == ScheduleKind::Interleaved) {
        const long long virtual_stages = static_cast<long long>(p.pp) * p.vpp, slots = pipelineSlots(m, p);
        // A VPP that gives equal chunks, if any.
        int ok = 0;
        for (int v = 2; v <= 16 && !ok; ++v)
            if (slots % (static_cast<long long>(p.pp) * v) == 0)
                ok = v;
        const std::string use_en = ok ? "Use VPP = " + n(ok) + " (" + n(slots) + " / (PP·VPP) is then whole), or the 1F1B schedule."
                                      : "No VPP splits " + n(slots) + " evenly over PP = " + n(p.pp) + ": use a PP that divides the layers, or the 1F1B schedule.";
        const std::string use_zh = ok ? "改用 VPP = " + n(ok) + "（此时 " + n(slots) + " /（PP·VPP）为整数），或改用 1F1B 调度。"
                                      : "没有 VPP 能把 " + n(slots) + " 均分到 PP = " + n(p.pp) + "：选择能整除层数的 PP，或改用 1F1B 调度。";
        if (p.vpp < 2) {
            out.push_back(make(Severity::Error, "vpp_not_divisible", "parallel.vpp",
                "Interleaved 1F1B needs VPP ≥ 2 model chunks per GPU.", "交错式 1F1B 需要每块 GPU 至少 2 个模型块（VPP ≥ 2）。",
                use_en, use_zh));
        } else if (slots < virtual_stages) {
            out.push_back(make(Severity::Error, "vpp_not_divisible", "parallel.vpp",
                "PP·VPP = " + n(virtual_stages) + " virtual stages for " + countOf(slots, "layer", "layers")
                    + ": some model chunks would hold no layer.",
                "PP·VPP = " + n(virtual_stages) + " 个虚拟阶段，却只有 " + n(slots) + " 层：有的模型块一层也没有。",
                use_en, use_zh));
        } else if (slots % virtual_stages != 0) {
            // Uneven chunks are possible (Megatron-Core's --pipeline-model-parallel-layout, or
            // --decoder-first/last-pipeline-num-layers); the larger chunks set the pace.
            out.push_back(make(Severity::Warning, "vpp_not_divisible", "parallel.vpp",
                countOf(slots, "layer", "layers") + " do not split evenly over PP·VPP = " + n(virtual_stages)
                    + " virtual stages: chunks of " + n(slots / virtual_stages + 1) + " and " + n(slots / virtual_stages)
                    + " layers, and the larger ones set the pace. Megatron needs an explicit layout for that "
                      "(--pipeline-model-parallel-layout).",
                n(slots) + " 层无法均分到 PP·VPP = " + n(virtual_stages) + " 个虚拟阶段：模型块有 " + n(slots / virtual_stages + 1)
                    + " 层和 " + n(slots / virtual_stages) + " 层两种，较大的决定节奏。Megatron 需要显式给出布局"
                      "（--pipeline-model-parallel-layout）。",
                use_en, use_zh));
        }
    } else if (p.vpp > 1) {
        out.push_back(make(Severity::Warning, "vpp_not_divisible", "parallel.vpp",
            "VPP = " + n(p.vpp) + " only applies to the interleaved schedule; it is ignored here.",
            "VPP = " + n(p.vpp) + " 只对交错式调度有效，这里被忽略。",
            "Set the schedule to interleaved 1F1B, or VPP = 1.", "把调度设为交错式 1F1B，或令 VPP = 1。"));
    }
    if (isVShape(p.schedule) && m.layers % (2LL * p.pp) != 0)
        out.push_back(make(Severity::Error, "vpp_not_divisible", "parallel.pp",
            displayName(p.schedule).en + " puts two chunks on every rank: layers must divide by 2·PP = " + n(2LL * p.pp) + ".",
            displayName(p.schedule).zh + " 在每个流水线进程上放两个模型块：层数必须能被 2·PP = " + n(2LL * p.pp) + " 整除。",
            "Pick PP so that " + n(m.layers) + " / (2·PP) is whole.", "选择 PP，使 " + n(m.layers) + " /（2·PP）为整数。"));

    if (per_step > 0 && t.global_batch % per_step != 0) {
        const long long below = std::max(per_step, t.global_batch / per_step * per_step);
        const long long above = (t.global_batch / per_step + 1) * per_step;
        out.push_back(make(Severity::Error, "batch_not_divisible", "training.global_batch",
            "Global batch " + n(t.global_batch) + " is not a multiple of micro batch × DP = " + n(t.micro_batch) + "·"
                + n(p.dp) + " = " + n(per_step) + ".",
            "全局批大小 " + n(t.global_batch) + " 不是 微批大小 × DP = " + n(per_step) + " 的整数倍。",
            below == above ? "Use global batch " + n(below) + "." : "Use global batch " + n(below) + " or " + n(above) + ".",
            below == above ? "把全局批大小改为 " + n(below) + "。" : "把全局批大小改为 " + n(below) + " 或 " + n(above) + "。"));
    }
    if (p.pp > 1 && mbs > 0 && mbs < p.pp) {
        // The cause only: the bubble it makes, with the simulated and the textbook number side by
        // side, is the one large_bubble diagnostic (outcomeDiagnostics).
        const long long target = 4LL * p.pp;
        std::vector<Localized> options{{"raise the global batch to " + n(target * per_step) + " (m = 4·PP = " + n(target) + ")",
                                        "把全局批大小提高到 " + n(target * per_step) + "（m = 4·PP = " + n(target) + "）"}};
        if (t.micro_batch > 1)
            options.push_back({"lower the micro batch (micro batch 1 gives m = " + n(mbs * t.micro_batch) + ")",
                               "减小微批大小（微批大小 1 时 m = " + n(mbs * t.micro_batch) + "）"});
        options.push_back({"use a smaller PP", "减小 PP"});
        const Localized any = anyOf(options);
        out.push_back(make(Severity::Warning, "microbatches_lt_pp", "training.global_batch",
            "Only " + countOf(mbs, "microbatch", "microbatches") + " for " + n(p.pp) + " pipeline stages: the pipeline never fills (m < PP).",
            "只有 " + n(mbs) + " 个微批却有 " + n(p.pp) + " 个流水线阶段：流水线永远填不满（m < PP）。",
            "To fill it, " + any.en + ".", "要填满流水线，可" + any.zh + "。"));
    }
    if (p.schedule == ScheduleKind::Interleaved && mbs > 0 && mbs % p.pp != 0) {
        out.push_back(make(Severity::Error, "interleaved_needs_microbatch_multiple", "training.global_batch",
            "Interleaved 1F1B needs the microbatch count (" + n(mbs) + ") to be a multiple of PP = " + n(p.pp) + ".",
            "交错式 1F1B 要求微批数（" + n(mbs) + "）是 PP = " + n(p.pp) + " 的整数倍。",
            "Use " + countOf((mbs / p.pp + 1) * p.pp, "microbatch", "microbatches") + " (global batch "
                + n((mbs / p.pp + 1) * p.pp * per_step) + "), or the 1F1B schedule.",
            "改用 " + n((mbs / p.pp + 1) * p.pp) + " 个微批（全局批大小 " + n((mbs / p.pp + 1) * p.pp * per_step) + "），或改用 1F1B 调度。"));
    }
    if (p.schedule == ScheduleKind::DualPipeV && mbs > 0 && mbs < 2LL * p.pp) {
        out.push_back(make(Severity::Error, "microbatches_lt_pp", "training.global_batch",
            "DualPipeV needs at least 2·PP = " + n(2LL * p.pp) + " microbatches, got " + n(mbs) + ".",
            "DualPipeV 至少需要 2·PP = " + n(2LL * p.pp) + " 个微批，当前只有 " + n(mbs) + " 个。",
            "Raise the global batch to " + n(2LL * p.pp * per_step) + " or more.",
            "把全局批大小提高到 " + n(2LL * p.pp * per_step) + " 或以上。"));
    }

    const int experts = m.moe ? m.moe->experts : 0;
    if (p.ep > 1 && experts == 0) {
        out.push_back(make(Severity::Error, "ep_invalid", "parallel.ep",
            "EP = " + n(p.ep) + " but " + m.name + " has no MoE layers.",
            "EP = " + n(p.ep) + "，但 " + m.name + " 没有 MoE 层。",
            "Set EP = 1 for a dense model.", "稠密模型请设 EP = 1。"));
    } else if (p.ep > 1 && experts % p.ep != 0) {
        out.push_back(make(Severity::Error, "ep_invalid", "parallel.ep",
            countOf(experts, "expert", "experts") + " cannot be spread evenly over EP = " + n(p.ep) + ".",
            n(experts) + " 个专家无法均分到 EP = " + n(p.ep) + "。",
            "Use an EP that divides " + n(experts) + ".", "选择能整除 " + n(experts) + " 的 EP。"));
    } else if ((p.ep > 1 || p.etp > 0) && (static_cast<long long>(p.tp) * p.cp * p.dp) % (static_cast<long long>(p.ep) * p.expertTp()) != 0) {
        // Megatron-Core's expert grid (etp × ep × edp) re-slices the tp·cp·dp GPUs of a stage,
        // so etp·ep must divide them (parallel_state.initialize_model_parallel asserts it). This
        // holds for an explicit ETP with EP = 1 too.
        const long long stage_gpus = static_cast<long long>(p.tp) * p.cp * p.dp;
        const long long grid = static_cast<long long>(p.ep) * p.expertTp();
        const bool etp_set = p.etp > 0 && p.etp != p.tp;
        out.push_back(make(Severity::Error, "ep_invalid", "parallel.ep",
            "EP·ETP = " + n(p.ep) + "·" + n(p.expertTp()) + " = " + n(grid) + " must divide the " + n(stage_gpus)
                + " GPUs of a pipeline stage (tp·cp·dp): the expert grid re-slices them.",
            "EP·ETP = " + n(p.ep) + "·" + n(p.expertTp()) + " = " + n(grid) + " 必须整除每个流水线阶段的 " + n(stage_gpus)
                + " 块 GPU（TP·CP·DP）：专家网格是对它们的重新划分。",
            etp_set && stage_gpus % p.ep == 0
                ? "Use ETP = " + n(largestDivisorAtMost(stage_gpus / p.ep, p.etp)) + " (EP·ETP must divide " + n(stage_gpus) + ")."
                : "Choose EP dividing DP·CP = " + n(static_cast<long long>(p.dp) * p.cp) + ".",
            etp_set && stage_gpus % p.ep == 0
                ? "改用 ETP = " + n(largestDivisorAtMost(stage_gpus / p.ep, p.etp)) + "（EP·ETP 必须整除 " + n(stage_gpus) + "）。"
                    : "选择能整除 DP·CP = " + n(static_cast<long long>(p.dp) * p.cp) + " 的 EP。"));
    }

    if (p.sequence_parallel && p.tp == 1) {
        out.push_back(make(Severity::Warning, "sp_requires_tp", "parallel.sequence_parallel",
            "Sequence parallelism splits activations over the TP group; with TP = 1 it does nothing.",
            "序列并行在 TP 组内切分激活；TP = 1 时它不起作用。",
            "Raise TP, or turn sequence parallelism off.", "增大 TP，或关闭序列并行。"));
    }
    if (p.cp > 1 && t.seq_len % (2LL * p.cp) != 0) {
        out.push_back(make(Severity::Error, "cp_not_divisible", "parallel.cp",
            "Sequence length " + n(t.seq_len) + " is not divisible by 2·CP = " + n(2LL * p.cp)
                + " (load-balanced ring attention gives each rank two chunks).",
            "序列长度 " + n(t.seq_len) + " 不能被 2·CP = " + n(2LL * p.cp) + " 整除（负载均衡的环形注意力给每个 CP 进程两块）。",
            "Use a CP with 2·CP dividing " + n(t.seq_len) + ".", "选择 CP，使 2·CP 能整除 " + n(t.seq_len) + "。"));
    }
    if (m.position == PositionKind::Learned && m.max_positions > 0 && t.seq_len > m.max_positions) {
        out.push_back(make(Severity::Error, "seq_exceeds_positions", "training.seq_len",
            "Sequence length " + n(t.seq_len) + " exceeds the model's " + n(m.max_positions) + " learned positions.",
            "序列长度 " + n(t.seq_len) + " 超过了模型的可学习位置编码长度 " + n(m.max_positions) + "。",
            "Use seq_len ≤ " + n(m.max_positions) + ".", "使用不超过 " + n(m.max_positions) + " 的序列长度。"));
    }
    if (p.zero >= 2 && p.pp > 1) {
        out.push_back(make(Severity::Warning, "zero_with_pp", "parallel.zero",
            "ZeRO-" + n(p.zero) + " with pipeline parallelism reduces or gathers every microbatch: "
                + "DeepSpeed does not support it and Megatron offers ZeRO-1 (distributed optimizer) only.",
            "ZeRO-" + n(p.zero) + " 与流水线并行同用时每个微批都要归约或收集：DeepSpeed 不支持，Megatron 只提供 ZeRO-1（分布式优化器）。",
            "Use ZeRO-1 with PP, or drop PP.", "有 PP 时使用 ZeRO-1，或去掉 PP。"));
    }
    return out;
}

std::vector<Diagnostic> outcomeDiagnostics(const Scenario& sc, const Estimate& est, Explain explain)
{
    std::vector<Diagnostic> out;
    const ParallelConfig& p = sc.parallel;
    const MemoryReport& mem = est.memory;

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
