#include "estimate/diagnostics.h"

#include "estimate/diagnostic_text.h"
#include "memory/stage_memory.h"
#include "schedule/pipeline_closed_form.h"

#include <algorithm>

namespace parascope {

using namespace diagnostic_text;

namespace {

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
    // Ulysses (a2a) CP hands each rank 1/(tp·cp) of the attention heads, query and key/value.
    const long long head_split = (long long)p.tp * p.cp;
    if (p.cp > 1 && p.cp_comm == CpComm::A2a && (m.heads % head_split != 0 || m.kv_heads % head_split != 0)) {
        out.push_back(make(Severity::Error, "cp_a2a_heads_not_divisible", "parallel.cp",
            "All-to-all CP (Ulysses) splits the heads over TP·CP = " + n(head_split) + ", but the model has "
                + countOf(m.heads, "head", "heads") + " and " + countOf(m.kv_heads, "KV head", "KV heads") + ".",
            "全对全（Ulysses）上下文并行把注意力头分到 TP·CP = " + n(head_split) + " 份，而模型有 " + n(m.heads) + " 个头、"
                + n(m.kv_heads) + " 个 KV 头，无法整除。",
            "Use a CP that divides both head counts over TP, or the ring (cp_comm \"p2p\"), which splits the sequence instead.",
            "选择能整除两种头数（除以 TP 后）的 CP，或改用环形（cp_comm \"p2p\"），它切分的是序列。"));
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
    if (p.schedule == ScheduleKind::DualPipe && p.pp % 2 != 0)
        out.push_back(make(Severity::Error, "dualpipe_needs_even_pp", "parallel.pp",
            "DualPipe feeds the pipeline from both ends and pairs rank r with rank PP−1−r: PP must be even, got " + n(p.pp) + ".",
            "DualPipe 从流水线两端同时送入微批，并把第 r 个进程与第 PP−1−r 个配对：PP 必须是偶数，当前为 " + n(p.pp) + "。",
            "Use PP = " + n(p.pp + 1) + (p.pp > 1 ? " or " + n(p.pp - 1) : std::string()) + ", or DualPipeV.",
            "改用 PP = " + n(p.pp + 1) + (p.pp > 1 ? " 或 " + n(p.pp - 1) : std::string()) + "，或改用 DualPipeV。"));
    if (p.schedule == ScheduleKind::DualPipe && mbs > 0 && (mbs < 2LL * p.pp || mbs % 2 != 0)) {
        const long long want = std::max(2LL * p.pp, mbs + mbs % 2);
        out.push_back(make(Severity::Error, "microbatches_lt_pp", "training.global_batch",
            "DualPipe sends half of the microbatches each way and needs an even count of at least 2·PP = " + n(2LL * p.pp)
                + ", got " + n(mbs) + ".",
            "DualPipe 两个方向各送一半微批，微批数须为偶数且至少 2·PP = " + n(2LL * p.pp) + "，当前为 " + n(mbs) + "。",
            "Use global batch " + n(want * per_step) + " (" + n(want) + " microbatches).",
            "把全局批大小改为 " + n(want * per_step) + "（" + n(want) + " 个微批）。"));
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
    if (p.offload == Offload::Params && p.zero < 3) {
        out.push_back(make(Severity::Error, "offload_needs_zero3", "parallel.zero",
            "Offloading the parameters to the CPU needs them sharded (ZeRO-3 / FSDP); ZeRO-" + n(p.zero) + " keeps a full copy on every GPU.",
            "把参数卸载到 CPU 需要参数分片（ZeRO-3 / FSDP）；ZeRO-" + n(p.zero) + " 在每块 GPU 上都保留完整参数。",
            "Use ZeRO-3, or offload the optimizer states only.", "使用 ZeRO-3，或只卸载优化器状态。"));
    }
    if (p.offload != Offload::None && !sc.cluster.host.known()) {
        out.push_back(make(Severity::Error, "offload_needs_host", "parallel.offload",
            "CPU offload needs the cluster's host: cluster.host.memory_gib, memory_gbps and pcie_gbps.",
            "CPU 卸载需要集群的主机参数：cluster.host.memory_gib、memory_gbps 与 pcie_gbps。",
            "Give the cluster a host, or use a cluster preset (they all have one).", "为集群给出主机参数，或使用集群预设（都带有主机参数）。"));
    }
    if (p.ep_comm_overlap && !p.epOverlapApplies(t.recompute == Recompute::Full)) {
        // The knob to change: EP first, then the recompute, then the schedule.
        const char* knob = p.ep <= 1 ? "parallel.ep" : t.recompute == Recompute::Full ? "training.recompute" : "parallel.schedule";
        out.push_back(make(Severity::Warning, "ep_overlap_unavailable", knob,
            "EP communication overlap (combined 1F1B) is not applied: it needs expert parallelism (EP > 1), no full recompute, "
            "and with PP > 1 the interleaved schedule (VPP ≥ 2).",
            "未启用 EP 通信重叠（组合式 1F1B）：它需要专家并行（EP > 1）、不用完全重计算，且 PP > 1 时需要交错式调度（VPP ≥ 2）。",
            "Use EP > 1 and selective recompute, and with a pipeline the interleaved schedule.",
            "使用 EP > 1 与选择性重计算；有流水线时使用交错式调度。"));
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

} // namespace parascope
