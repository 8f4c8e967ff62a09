#include "estimate/diagnostics.h"

#include "memory/stage_memory.h"
#include "schedule/pipeline_closed_form.h"

#include <algorithm>
#include <charconv>

namespace parascope {

namespace {

// `v` with `decimals` digits after the point, then `unit` (std::to_chars: printf's rounding,
// without its locale and format parsing; search formats many of these).
std::string fixed(double v, int decimals, const char* unit)
{
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf - 8, v, std::chars_format::fixed, decimals);
    return std::string(buf, r.ptr) + unit;
}

} // namespace

std::string formatBytes(double bytes)
{
    const double gib = bytes / double(1ull << 30);
    if (gib >= 1024)
        return fixed(gib / 1024, 2, " TiB");
    if (gib >= 1)
        return fixed(gib, 1, " GiB");
    return fixed(bytes / double(1 << 20), 0, " MiB");
}

namespace {

std::string n(long long v) { return std::to_string(v); }

std::string pct(double f)
{
    return fixed(f * 100, 0, " %");
}

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
            "tp·pp·dp·cp = " + n(p.tp) + "·" + n(p.pp) + "·" + n(p.dp) + "·" + n(p.cp) + " = " + n(gpus)
                + " GPUs, but the cluster has " + n(c.nodes) + " nodes × " + n(c.gpus_per_node) + " = " + n(have) + ".",
            "tp·pp·dp·cp = " + n(gpus) + " 块 GPU，但集群只有 " + n(c.nodes) + " 个节点 × " + n(c.gpus_per_node)
                + " = " + n(have) + " 块。",
            have % (static_cast<long long>(p.tp) * p.pp * p.cp) == 0
                ? "Set dp = " + n(have / (static_cast<long long>(p.tp) * p.pp * p.cp)) + " to use every GPU."
                : "Choose tp·pp·cp that divides " + n(have) + ", then dp = GPUs/(tp·pp·cp).",
            have % (static_cast<long long>(p.tp) * p.pp * p.cp) == 0
                ? "把 dp 设为 " + n(have / (static_cast<long long>(p.tp) * p.pp * p.cp)) + " 即可用满所有 GPU。"
                : "选择能整除 " + n(have) + " 的 tp·pp·cp，再令 dp = GPU 数/(tp·pp·cp)。"));
    } else if (gpus > c.gpus_per_node && gpus % c.gpus_per_node != 0) {
        out.push_back(make(Severity::Warning, "gpu_count_mismatch", "parallel.dp",
            n(gpus) + " GPUs do not fill whole nodes of " + n(c.gpus_per_node) + ".",
            n(gpus) + " 块 GPU 不能填满每节点 " + n(c.gpus_per_node) + " 块的整数个节点。",
            "Use a multiple of " + n(c.gpus_per_node) + " GPUs.", "使用 " + n(c.gpus_per_node) + " 的整数倍块 GPU。"));
    }

    if (m.heads % p.tp != 0) {
        const int ok = largestDivisorAtMost(m.heads, std::min(p.tp, c.gpus_per_node));
        out.push_back(make(Severity::Error, "heads_not_divisible_by_tp", "parallel.tp",
            n(m.heads) + " attention heads cannot be split evenly over TP = " + n(p.tp) + ".",
            n(m.heads) + " 个注意力头无法被 TP = " + n(p.tp) + " 整除。",
            "Use a TP that divides " + n(m.heads) + ", e.g. TP = " + n(ok) + ".",
            "选择能整除 " + n(m.heads) + " 的 TP，例如 TP = " + n(ok) + "。"));
    }
    if (m.kv_heads % p.tp != 0) {
        out.push_back(make(Severity::Error, "kv_heads_not_divisible_by_tp", "parallel.tp",
            n(m.kv_heads) + " KV heads (GQA groups) cannot be split over TP = " + n(p.tp)
                + "; Megatron requires num_query_groups % tp == 0.",
            n(m.kv_heads) + " 个 KV 头（GQA 组）无法被 TP = " + n(p.tp) + " 整除；Megatron 要求 num_query_groups % tp == 0。",
            "Use TP ≤ " + n(m.kv_heads) + " that divides it, and add PP or CP for the rest.",
            "使用不超过 " + n(m.kv_heads) + " 且能整除它的 TP，其余用 PP 或 CP 扩展。"));
    }

    if (p.pp > m.layers) {
        out.push_back(make(Severity::Error, "pp_exceeds_layers", "parallel.pp",
            "PP = " + n(p.pp) + " is more than the " + n(m.layers) + " layers: some stages would be empty.",
            "PP = " + n(p.pp) + " 超过了模型的 " + n(m.layers) + " 层：部分流水线阶段将没有层。",
            "Use PP ≤ " + n(m.layers) + ", ideally a divisor of it.", "使用 PP ≤ " + n(m.layers) + "，最好能整除层数。"));
    } else if (!p.stage_layers.empty() && int(p.stage_layers.size()) == p.pp) {
        long long sum = 0;
        for (int l : p.stage_layers)
            sum += l;
        if (sum != m.layers)
            out.push_back(make(Severity::Error, "layers_not_divisible_by_pp", "parallel.pp",
                "parallel.stage_layers adds up to " + n(sum) + " layers, the model has " + n(m.layers) + ".",
                "parallel.stage_layers 合计 " + n(sum) + " 层，而模型有 " + n(m.layers) + " 层。",
                "Make the per-stage layer counts add up to " + n(m.layers) + ".",
                "让各阶段层数之和等于 " + n(m.layers) + "。"));
    } else if (!p.stage_layers.empty()) {
        out.push_back(make(Severity::Error, "layers_not_divisible_by_pp", "parallel.pp",
            "parallel.stage_layers lists " + n((long long)p.stage_layers.size()) + " stages, PP = " + n(p.pp) + ".",
            "parallel.stage_layers 列出了 " + n((long long)p.stage_layers.size()) + " 个阶段，而 PP = " + n(p.pp) + "。",
            "Give one layer count per pipeline stage.", "为每个流水线阶段给出一个层数。"));
    } else if (m.layers % p.pp != 0) {
        out.push_back(make(Severity::Warning, "layers_not_divisible_by_pp", "parallel.pp",
            n(m.layers) + " layers do not split evenly over PP = " + n(p.pp) + ": the first "
                + n(m.layers % p.pp) + " stages get one layer more and set the pace.",
            n(m.layers) + " 层无法被 PP = " + n(p.pp) + " 整除：前 " + n(m.layers % p.pp) + " 个阶段多一层，成为瓶颈。",
            "Use a PP that divides " + n(m.layers) + ", or set parallel.stage_layers (e.g. fewer layers on the first and last stage).",
            "选择能整除 " + n(m.layers) + " 的 PP，或设置 parallel.stage_layers（例如首尾阶段少放几层）。"));
    }

    if (p.schedule == ScheduleKind::Interleaved) {
        if (p.vpp < 2 || m.layers % (static_cast<long long>(p.pp) * p.vpp) != 0)
            out.push_back(make(Severity::Error, "vpp_not_divisible", "parallel.vpp",
                "Interleaved 1F1B needs VPP ≥ 2 and layers divisible by PP·VPP = " + n(static_cast<long long>(p.pp) * p.vpp)
                    + " (" + n(m.layers) + " layers).",
                "交错式 1F1B 需要 VPP ≥ 2，且层数能被 PP·VPP = " + n(static_cast<long long>(p.pp) * p.vpp) + " 整除（模型有 " + n(m.layers) + " 层）。",
                "Choose VPP so that " + n(m.layers) + " / (PP·VPP) is a whole number.",
                "选择 VPP，使 " + n(m.layers) + " / (PP·VPP) 为整数。"));
    } else if (p.vpp > 1) {
        out.push_back(make(Severity::Warning, "vpp_not_divisible", "parallel.vpp",
            "VPP = " + n(p.vpp) + " only applies to the interleaved schedule; it is ignored here.",
            "VPP = " + n(p.vpp) + " 只对交错式调度有效，这里被忽略。",
            "Set schedule to \"interleaved\" or VPP = 1.", "把调度设为 \"interleaved\"，或令 VPP = 1。"));
    }
    if (isVShape(p.schedule) && m.layers % (2LL * p.pp) != 0)
        out.push_back(make(Severity::Error, "vpp_not_divisible", "parallel.pp",
            std::string(toString(p.schedule)) + " puts two chunks on every rank: layers must divide by 2·PP = " + n(2LL * p.pp) + ".",
            std::string(toString(p.schedule)) + " 每个 rank 放两个模型块：层数必须能被 2·PP = " + n(2LL * p.pp) + " 整除。",
            "Pick PP so that " + n(m.layers) + " / (2·PP) is whole.", "选择 PP，使 " + n(m.layers) + " / (2·PP) 为整数。"));

    const long long per_step = (long long)t.micro_batch * p.dp;
    const long long mbs = sc.microbatches();
    if (per_step > 0 && t.global_batch % per_step != 0) {
        out.push_back(make(Severity::Error, "batch_not_divisible", "training.global_batch",
            "Global batch " + n(t.global_batch) + " is not a multiple of micro batch × DP = " + n(t.micro_batch) + "·"
                + n(p.dp) + " = " + n(per_step) + ".",
            "全局批大小 " + n(t.global_batch) + " 不是 微批 × DP = " + n(per_step) + " 的整数倍。",
            "Use global batch " + n(std::max(per_step, t.global_batch / per_step * per_step)) + " or "
                + n((t.global_batch / per_step + 1) * per_step) + ".",
            "把全局批大小改为 " + n(std::max(per_step, t.global_batch / per_step * per_step)) + " 或 "
                + n((t.global_batch / per_step + 1) * per_step) + "。"));
    }
    if (p.pp > 1 && mbs > 0 && mbs < p.pp) {
        out.push_back(make(Severity::Warning, "microbatches_lt_pp", "training.global_batch",
            "Only " + n(mbs) + " microbatches for " + n(p.pp) + " pipeline stages: the pipeline never fills, "
                + "bubble " + pct(bubbleFraction(p.schedule, p.pp, p.vpp, mbs)) + " of the step.",
            "只有 " + n(mbs) + " 个微批却有 " + n(p.pp) + " 个流水线阶段：流水线无法填满，气泡占步长的 "
                + pct(bubbleFraction(p.schedule, p.pp, p.vpp, mbs)) + "。",
            "Raise the global batch or lower micro batch / DP so that m ≥ " + n(4LL * p.pp) + " (4·PP), or use a smaller PP.",
            "增大全局批大小，或减小微批 / DP，使 m ≥ " + n(4LL * p.pp) + "（4·PP），或减小 PP。"));
    }
    if (p.schedule == ScheduleKind::Interleaved && mbs > 0 && mbs % p.pp != 0) {
        out.push_back(make(Severity::Error, "interleaved_needs_microbatch_multiple", "training.global_batch",
            "Interleaved 1F1B needs the microbatch count (" + n(mbs) + ") to be a multiple of PP = " + n(p.pp) + ".",
            "交错式 1F1B 要求微批数（" + n(mbs) + "）是 PP = " + n(p.pp) + " 的整数倍。",
            "Use " + n((mbs / p.pp + 1) * p.pp) + " microbatches (global batch " + n((mbs / p.pp + 1) * p.pp * per_step) + ").",
            "改用 " + n((mbs / p.pp + 1) * p.pp) + " 个微批（全局批 " + n((mbs / p.pp + 1) * p.pp * per_step) + "）。"));
    }
    if (p.schedule == ScheduleKind::DualPipeV && mbs > 0 && mbs < 2LL * p.pp) {
        out.push_back(make(Severity::Error, "microbatches_lt_pp", "training.global_batch",
            "DualPipeV needs at least 2·PP = " + n(2LL * p.pp) + " microbatches, got " + n(mbs) + ".",
            "DualPipeV 至少需要 2·PP = " + n(2LL * p.pp) + " 个微批，当前只有 " + n(mbs) + " 个。",
            "Raise the global batch to " + n(2LL * p.pp * per_step) + " or more.",
            "把全局批大小提高到 " + n(2LL * p.pp * per_step) + " 以上。"));
    }

    const int experts = m.moe ? m.moe->experts : 0;
    if (p.ep > 1 && experts == 0) {
        out.push_back(make(Severity::Error, "ep_invalid", "parallel.ep",
            "EP = " + n(p.ep) + " but " + m.name + " has no MoE layers.",
            "EP = " + n(p.ep) + "，但 " + m.name + " 没有 MoE 层。",
            "Set EP = 1 for a dense model.", "稠密模型请设 EP = 1。"));
    } else if (p.ep > 1 && experts % p.ep != 0) {
        out.push_back(make(Severity::Error, "ep_invalid", "parallel.ep",
            n(experts) + " experts cannot be spread evenly over EP = " + n(p.ep) + ".",
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
                + " 块 GPU（tp·cp·dp）：专家网格是对它们的重新划分。",
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
            "序列长度 " + n(t.seq_len) + " 不能被 2·CP = " + n(2LL * p.cp) + " 整除（负载均衡的环形注意力给每个 rank 两块）。",
            "Use a CP with 2·CP dividing " + n(t.seq_len) + ".", "选择 CP，使 2·CP 能整除 " + n(t.seq_len) + "。"));
    }
    if (m.position == PositionKind::Learned && m.max_positions > 0 && t.seq_len > m.max_positions) {
        out.push_back(make(Severity::Error, "seq_exceeds_positions", "training.seq_len",
            "Sequence length " + n(t.seq_len) + " exceeds the model's " + n(m.max_positions) + " learned positions.",
            "序列长度 " + n(t.seq_len) + " 超过了模型的 " + n(m.max_positions) + " 个可学习位置。",
            "Use seq_len ≤ " + n(m.max_positions) + ".", "使用 seq_len ≤ " + n(m.max_positions) + "。"));
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
    // one is explained and the rest summarised, so the work stays bounded.
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
        if (p.tp * 2 <= sc.cluster.gpus_per_node && sc.model.heads % (p.tp * 2) == 0 && p.dp % 2 == 0) {
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
            consider(alt, "micro batch 1", "微批设为 1");
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
                sug_zh += (sug_zh.empty() ? "" : "；") + r.zh + " 可省 " + formatBytes(saved) + (saved >= over ? "（可放下）" : "");
            }
            if (sug_en.empty()) {
                sug_en = "Add pipeline stages or GPUs: no single knob saves enough here";
                sug_zh = "增加流水线阶段或 GPU：单个旋钮不足以节省足够内存";
            }
            out.push_back(make(Severity::Error, "out_of_memory", "",
                "Stage " + n(st.stage) + " needs " + formatBytes(st.total()) + " per GPU, " + formatBytes(over) + " more than the "
                    + formatBytes(mem.capacity_bytes) + " of the " + sc.cluster.gpu.name + "; " + top->en + " dominate ("
                    + formatBytes(top->v) + ").",
                "阶段 " + n(st.stage) + " 每块 GPU 需要 " + formatBytes(st.total()) + "，比 " + sc.cluster.gpu.name + " 的 "
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
                    + " 个内存不足（阶段 " + n(oom.front()) + "–" + n(oom.back()) + "）；阶段 " + n(mem.peak_stage) + " 最严重。",
                "Fix the worst stage first; the same remedies apply to the others.",
                "先解决最严重的阶段；同样的办法也适用于其他阶段。"));
        }
    }

    if (p.pp > 1 && est.time.bubble_fraction > 0.25) {
        out.push_back(make(Severity::Warning, "large_bubble", "parallel.pp",
            "Pipeline bubble: " + pct(est.time.bubble_fraction) + " of the step is idle (PP = " + n(p.pp) + ", "
                + n(est.microbatches) + " microbatches, " + toString(p.schedule) + ").",
            "流水线气泡：步长的 " + pct(est.time.bubble_fraction) + " 处于空闲（PP = " + n(p.pp) + "，" + n(est.microbatches)
                + " 个微批，" + toString(p.schedule) + "）。",
            "More microbatches (m ≥ 4·PP), the interleaved schedule (VPP ≥ 2) or a smaller PP shrink it.",
            "增加微批数（m ≥ 4·PP）、使用交错式调度（VPP ≥ 2）或减小 PP 都能缩小气泡。"));
    }

    for (const GroupPlacement& g : est.placement.groups) {
        if (g.group == Group::Tp && g.crossesNodes()) {
            out.push_back(make(Severity::Warning, "tp_spans_nodes", "parallel.tp",
                "TP = " + n(g.size) + " spans " + n(g.nodes) + " nodes: its 4 collectives per layer go over the network.",
                "TP = " + n(g.size) + " 跨越 " + n(g.nodes) + " 个节点：每层 4 次集合通信都要走网络。",
                "Keep TP ≤ " + n(sc.cluster.gpus_per_node) + " (one node) and scale with PP or DP.",
                "让 TP ≤ " + n(sc.cluster.gpus_per_node) + "（单节点内），用 PP 或 DP 扩展。"));
        }
    }

    if (est.time.step_s > 0 && est.time.exposed_comm_s > 0.2 * est.time.step_s) {
        const CommEntry* worst = nullptr;
        for (const CommEntry& c : est.communication)
            if (!worst || c.exposed_s > worst->exposed_s)
                worst = &c;
        const std::string what = worst ? std::string(toString(worst->group)) + " " + toString(worst->collective) : "?";
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
        out.push_back(make(Severity::Warning, "exposed_comm_high", knob,
            "Communication not hidden by compute takes " + pct(est.time.exposed_comm_s / est.time.step_s)
                + " of the step; most from " + what + ".",
            "未被计算掩盖的通信占步长的 " + pct(est.time.exposed_comm_s / est.time.step_s) + "；主要来自 " + what + "。",
            "Keep TP inside a node, enable overlap (tp_comm_overlap, overlap_grad_reduce), or trade DP for PP.",
            "让 TP 留在节点内，开启通信重叠（tp_comm_overlap、overlap_grad_reduce），或用 PP 替换部分 DP。"));
    }
    return out;
}

} // namespace parascope
