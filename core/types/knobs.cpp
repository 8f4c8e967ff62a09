#include "types/knobs.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace parascope {

namespace {

std::vector<long long> powersOfTwo(long long from, long long to)
{
    std::vector<long long> v;
    for (long long x = from; x <= to; x *= 2)
        v.push_back(x);
    return v;
}

// Sorted, unique, and always containing the current value (so a loaded file never snaps).
std::vector<long long> withCurrent(std::vector<long long> v, long long current)
{
    v.push_back(current);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

std::vector<long long> divisors(long long n, long long limit)
{
    std::vector<long long> v;
    for (long long d = 1; d <= n && d <= limit; ++d)
        if (n % d == 0)
            v.push_back(d);
    return v;
}

std::vector<long long> range(long long from, long long to)
{
    std::vector<long long> v;
    for (long long x = from; x <= to; ++x)
        v.push_back(x);
    return v;
}

// A knob over an enum: its values are the positions in the enum's name table, and the label lists
// them ("Schedule (0 gpipe, 1 1f1b, …)").
// `field` is a generic lambda returning the enum member of a (const) Scenario.
template <NamedEnum E, class Field>
Knob enumKnob(const char* path, const char* short_name, Localized label, Field field)
{
    const auto names = enumNames(E{});
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i)
        list += (i ? ", " : "") + std::to_string(i) + " " + names[i].name;
    label.en += " (" + list + ")";
    label.zh += "（" + list + "）";
    const long long last = (long long)names.size() - 1;
    Knob k{path, short_name, label, 0, last, "", {}, {}, {}, {}};
    k.get = [field](const Scenario& s) {
        const E value = field(s);
        const auto table = enumNames(E{});
        for (std::size_t i = 0; i < table.size(); ++i)
            if (table[i].value == value)
                return (long long)i;
        return 0LL;
    };
    k.set = [field](Scenario& s, long long v) { field(s) = enumNames(E{})[std::size_t(v)].value; };
    k.offered = [last](const Scenario&) { return range(0, last); };
    k.value_name = [](long long v) { return enumNames(E{})[std::size_t(v)].name; };
    return k;
}

// The microbatch count a step has now (at least one).
long long microbatchesOf(const Scenario& s)
{
    return std::max<long long>(
        1, s.training.global_batch / std::max<long long>(1, s.training.micro_batch * s.parallel.dp));
}

constexpr long long kMaxDegree = 1LL << 24;

// The what-ifs beside the layout: how the gradient reduction and ZeRO-3's gathers overlap
// (schedule/grad_buckets.h, time/zero_costs.cpp), and faults and stragglers.
std::vector<Knob> whatIfKnobs()
{
    // A table, one knob per row (not reflowed):
    // clang-format off
    return {
        {"parallel.overlap_grad_reduce", "overlap DP", {"Overlap DP gradient reduction (0 no, 1 yes)", "DP 梯度归约与反向重叠（0 否，1 是）"}, 0, 1, "",
         [](const Scenario& s) { return (long long)s.parallel.overlap_grad_reduce; },
         [](Scenario& s, long long v) { s.parallel.overlap_grad_reduce = v != 0; },
         [](const Scenario&) { return std::vector<long long>{0, 1}; }},
        {"parallel.grad_bucket_mparams", "bucket", {"Gradient bucket (M params; 0 Megatron's default)", "梯度分桶（百万参数；0 为 Megatron 默认）"}, 0, 1000000,
         "0: Megatron's max(40 M, 1 M·DP) parameters",
         [](const Scenario& s) { return std::llround(s.parallel.grad_bucket_mparams); },
         [](Scenario& s, long long v) { s.parallel.grad_bucket_mparams = double(v); },
         [](const Scenario& s) { return withCurrent({0, 5, 10, 25, 40, 100, 250, 1000}, std::llround(s.parallel.grad_bucket_mparams)); }},
        {"parallel.zero3_prefetch", "prefetch", {"ZeRO-3 prefetch depth (layers)", "ZeRO-3 预取深度（层）"}, 0, 64, "",
         [](const Scenario& s) { return (long long)s.parallel.zero3_prefetch; },
         [](Scenario& s, long long v) { s.parallel.zero3_prefetch = int(v); },
         [](const Scenario& s) { return withCurrent({0, 1, 2, 3, 4}, s.parallel.zero3_prefetch); }},
        // 1F1B with or without a flush (time/async_pipeline.h): PipeDream, PipeDream-2BW.
        enumKnob<AsyncPipeline>("parallel.async_pipeline", "flush", {"Pipeline flush", "流水线刷新方式"},
                                [](auto& s) -> auto& { return s.parallel.async_pipeline; }),
        // The allocator's segments (memory/other_memory.h fragmentationReserve).
        enumKnob<AllocatorKind>("overheads.allocator", "allocator", {"GPU memory allocator", "显存分配器"},
                                [](auto& s) -> auto& { return s.overheads.allocator; }),
        // Which parts of a layer replay as CUDA graphs (time/layer_cost.h moeHostSeconds).
        enumKnob<CudaGraphs>("training.cuda_graphs", "CUDA graphs", {"CUDA graphs", "CUDA 图"},
                             [](auto& s) -> auto& { return s.training.cuda_graphs; }),
        // The network between the nodes (FabricSpec, parallel/placement.h networkShares).
        {"network.nics_per_node", "NICs/node", {"NICs per node (0: one per GPU, rail-optimised)", "每节点网卡数（0：每块 GPU 一块，轨道优化）"}, 0, 1024, "",
         [](const Scenario& s) { return (long long)s.cluster.fabric.nics_per_node; },
         [](Scenario& s, long long v) { s.cluster.fabric.nics_per_node = int(v); },
         [](const Scenario& s) { return withCurrent({0, 1, 2, 4, 8}, s.cluster.fabric.nics_per_node); }},
        {"network.nodes_per_leaf", "nodes/leaf", {"Nodes per leaf switch (0: one non-blocking layer)", "每个叶交换机的节点数（0：单层无阻塞）"}, 0, 1 << 20, "",
         [](const Scenario& s) { return (long long)s.cluster.fabric.nodes_per_leaf; },
         [](Scenario& s, long long v) { s.cluster.fabric.nodes_per_leaf = int(v); },
         [](const Scenario& s) { return withCurrent({0, 2, 4, 8, 16, 32}, s.cluster.fabric.nodes_per_leaf); }},
        {"network.oversubscription", "oversubscription", {"Leaf uplink oversubscription (o:1)", "叶交换机上行收敛比（o:1）"}, 1, 64, "",
         [](const Scenario& s) { return (long long)s.cluster.fabric.oversubscription; },
         [](Scenario& s, long long v) { s.cluster.fabric.oversubscription = int(v); },
         [](const Scenario& s) { return withCurrent({1, 2, 3, 4, 8}, s.cluster.fabric.oversubscription); }},
        // Faults and stragglers (FaultConfig, estimate/faults.h): what-ifs on a healthy job.
        {"faults.straggler_slowdown_pct", "straggler %", {"Straggler slowdown (%)", "慢节点减速（%）"}, 0, 1000, "",
         [](const Scenario& s) { return (long long)s.faults.straggler_slowdown_pct; },
         [](Scenario& s, long long v) { s.faults.straggler_slowdown_pct = int(v); },
         [](const Scenario& s) { return withCurrent({0, 5, 10, 20, 30, 50, 100, 200}, s.faults.straggler_slowdown_pct); }},
        {"faults.straggler_stage", "straggler stage", {"Straggler's stage", "慢节点所在阶段"}, 0, 100000, "",
         [](const Scenario& s) { return (long long)s.faults.straggler_stage; },
         [](Scenario& s, long long v) { s.faults.straggler_stage = int(v); },
         [](const Scenario& s) { return withCurrent(range(0, std::min(s.parallel.pp, 256) - 1), s.faults.straggler_stage); }},
        {"faults.link_bandwidth_pct", "link %", {"Degraded link (%)", "降速链路带宽（%）"}, 1, 100, "",
         [](const Scenario& s) { return (long long)s.faults.link_bandwidth_pct; },
         [](Scenario& s, long long v) { s.faults.link_bandwidth_pct = int(v); },
         [](const Scenario& s) { return withCurrent({10, 25, 50, 75, 100}, s.faults.link_bandwidth_pct); }},
        {"faults.hangs_per_week", "hangs/week", {"Hangs per week", "每周挂起次数"}, 0, 10000, "",
         [](const Scenario& s) { return (long long)s.faults.hangs_per_week; },
         [](Scenario& s, long long v) { s.faults.hangs_per_week = int(v); },
         [](const Scenario& s) { return withCurrent({0, 1, 2, 5, 10, 20, 50}, s.faults.hangs_per_week); }},
        {"faults.nccl_timeout_min", "NCCL timeout", {"NCCL timeout (min)", "NCCL 超时（分钟）"}, 1, 10080, "",
         [](const Scenario& s) { return (long long)s.faults.nccl_timeout_min; },
         [](Scenario& s, long long v) { s.faults.nccl_timeout_min = int(v); },
         [](const Scenario& s) { return withCurrent({1, 2, 5, 10, 20, 30, 60}, s.faults.nccl_timeout_min); }},
        {"faults.loss_spikes_per_week", "spikes/week", {"Loss spikes per week", "每周损失尖峰次数"}, 0, 10000, "",
         [](const Scenario& s) { return (long long)s.faults.loss_spikes_per_week; },
         [](Scenario& s, long long v) { s.faults.loss_spikes_per_week = int(v); },
         [](const Scenario& s) { return withCurrent({0, 1, 2, 5, 10, 20}, s.faults.loss_spikes_per_week); }},
    };
    // clang-format on
}

// The batch: sequence length, micro batch and global batch.
std::vector<Knob> batchKnobs()
{
    // A table, one knob per row (not reflowed):
    // clang-format off
    return {
        {"training.seq_len", "seq", {"Sequence length", "序列长度"}, 1, 1LL << 27, "",
         [](const Scenario& s) { return (long long)s.training.seq_len; },
         [](Scenario& s, long long v) { s.training.seq_len = v; },
         [](const Scenario& s) { return withCurrent(powersOfTwo(256, 1 << 20), s.training.seq_len); }},
        {"training.micro_batch", "micro batch", {"Micro batch", "微批大小"}, 1, 1 << 20, "",
         [](const Scenario& s) { return (long long)s.training.micro_batch; },
         [](Scenario& s, long long v) { s.training.micro_batch = v; },
         [](const Scenario& s) { return withCurrent(powersOfTwo(1, 64), s.training.micro_batch); }},
        {"training.global_batch", "global batch", {"Global batch", "全局批大小"}, 1, 1LL << 32, "",
         [](const Scenario& s) { return (long long)s.training.global_batch; },
         [](Scenario& s, long long v) { s.training.global_batch = v; },
         // Multiples of micro batch × DP, so the batch always divides.
         [](const Scenario& s) {
             const long long unit = std::max<long long>(1, s.training.micro_batch * s.parallel.dp);
             std::vector<long long> v;
             for (long long k = 1; k <= (1 << 16) && unit * k <= (1LL << 24); k *= 2)
                 v.push_back(unit * k);
             return withCurrent(v, s.training.global_batch);
         }},
    };
    // clang-format on
}

// The parallel degrees, ZeRO, recompute and the pipeline schedule.
std::vector<Knob> degreeKnobs()
{
    // A table, one knob per row (not reflowed):
    // clang-format off
    return {
        {"parallel.tp", "TP", {"Tensor parallel (TP)", "张量并行（TP）"}, 1, kMaxDegree, "",
         [](const Scenario& s) { return (long long)s.parallel.tp; },
         [](Scenario& s, long long v) { s.parallel.tp = int(v); },
         [](const Scenario& s) { return withCurrent(powersOfTwo(1, 64), s.parallel.tp); }},
        {"parallel.pp", "PP", {"Pipeline parallel (PP)", "流水线并行（PP）"}, 1, 100000,
         "an uneven parallel.stage_layers list is dropped (it names the old stages)",
         [](const Scenario& s) { return (long long)s.parallel.pp; },
         [](Scenario& s, long long v) {
             s.parallel.pp = int(v);
             s.parallel.stage_layers.clear();
         },
         // Divisors of the layer count (even stages) and powers of two (uneven splits, as in
         // Megatron's uneven pipelines: Llama 3 405B ran 126 layers on PP 16; and beyond the
         // layer count, to show what breaks). The search tries the same values.
         [](const Scenario& s) {
             std::vector<long long> v = divisors(s.model.layers, 512);
             for (long long p : powersOfTwo(1, 256))
                 v.push_back(p);
             return withCurrent(v, s.parallel.pp);
         }},
        {"parallel.vpp", "VPP", {"Virtual stages (VPP)", "虚拟流水线（VPP）"}, 1, 1024, "",
         [](const Scenario& s) { return (long long)s.parallel.vpp; },
         [](Scenario& s, long long v) { s.parallel.vpp = int(v); },
         [](const Scenario& s) { return withCurrent({1, 2, 3, 4, 5, 6, 8, 10, 12, 16}, s.parallel.vpp); }},
        {"parallel.dp", "DP", {"Data parallel (DP)", "数据并行（DP）"}, 1, kMaxDegree,
         "the microbatch count stays: the global batch follows DP (m · micro batch · DP)",
         [](const Scenario& s) { return (long long)s.parallel.dp; },
         [](Scenario& s, long long v) {
             const long long m = microbatchesOf(s);
             s.parallel.dp = int(v);
             s.training.global_batch = m * s.training.micro_batch * v;
         },
         [](const Scenario& s) { return withCurrent(powersOfTwo(1, 1 << 16), s.parallel.dp); }},
        {"parallel.cp", "CP", {"Context parallel (CP)", "上下文并行（CP）"}, 1, kMaxDegree, "",
         [](const Scenario& s) { return (long long)s.parallel.cp; },
         [](Scenario& s, long long v) { s.parallel.cp = int(v); },
         [](const Scenario& s) { return withCurrent(powersOfTwo(1, 64), s.parallel.cp); }},
        {"parallel.ep", "EP", {"Expert parallel (EP)", "专家并行（EP）"}, 1, kMaxDegree, "",
         [](const Scenario& s) { return (long long)s.parallel.ep; },
         [](Scenario& s, long long v) { s.parallel.ep = int(v); },
         [](const Scenario& s) {
             const long long experts = s.model.moe ? s.model.moe->experts : 1;
             return withCurrent(divisors(experts, 1024), s.parallel.ep);
         }},
        {"parallel.zero", "ZeRO", {"ZeRO stage", "ZeRO 级别"}, 0, 3, "",
         [](const Scenario& s) { return (long long)s.parallel.zero; },
         [](Scenario& s, long long v) { s.parallel.zero = int(v); },
         [](const Scenario&) { return std::vector<long long>{0, 1, 2, 3}; }},
        enumKnob<Recompute>("training.recompute", "recompute", {"Recompute", "重计算"},
                            [](auto& s) -> auto& { return s.training.recompute; }),
        enumKnob<ScheduleKind>("parallel.schedule", "schedule", {"Schedule", "流水线调度"},
                               [](auto& s) -> auto& { return s.parallel.schedule; }),
    };
    // clang-format on
}

// The GPU count, through DP: weak scaling (the microbatch count stays) and strong scaling.
std::vector<Knob> gpuKnobs()
{
    // A table, one knob per row (not reflowed):
    // clang-format off
    return {
        {"gpus", "GPUs", {"GPUs (through DP)", "GPU 数（通过 DP）"}, 1, kMaxDegree,
         "DP = GPUs/(TP·PP·CP); the microbatch count stays, so the global batch follows",
         [](const Scenario& s) { return (long long)s.parallel.gpus(); },
         [](Scenario& s, long long v) {
             const long long per_replica = s.parallel.replicaGpus();
             const long long m = microbatchesOf(s);
             s.parallel.dp = int(v / per_replica);
             s.training.global_batch = m * s.training.micro_batch * s.parallel.dp;
         },
         [](const Scenario& s) {
             const long long per_replica = s.parallel.replicaGpus();
             std::vector<long long> v;
             for (long long dp = 1; dp <= (1 << 16); dp *= 2)
                 v.push_back(per_replica * dp);
             return withCurrent(v, s.parallel.gpus());
         }},
        // Strong scaling: the same global batch over more data-parallel replicas, so each takes
        // fewer microbatches and the step falls (until the pipeline bubble eats the gain) while the
        // stability wall rises with the GPU count.
        {"gpus_same_batch", "GPUs", {"GPUs, same global batch (through DP)", "GPU 数（全局批大小不变，通过 DP）"}, 1, kMaxDegree,
         "DP = GPUs/(TP·PP·CP); the global batch stays, so each replica takes fewer microbatches",
         [](const Scenario& s) { return (long long)s.parallel.gpus(); },
         [](Scenario& s, long long v) {
             const long long per_replica = s.parallel.replicaGpus();
             s.parallel.dp = int(v / per_replica);
         },
         [](const Scenario& s) {
             const long long per_replica = s.parallel.replicaGpus();
             const long long replicas = std::max<long long>(1, s.training.global_batch / std::max<long long>(1, s.training.micro_batch));
             std::vector<long long> v;
             for (long long dp = 1; dp <= replicas && dp <= (1 << 16); dp *= 2)
                 v.push_back(per_replica * dp);
             return withCurrent(v, s.parallel.gpus());
         }},
    };
    // clang-format on
}

// Gradient compression on the data-parallel wire (comm/grad_compression.h).
std::vector<Knob> gradientKnobs()
{
    // A table, one knob per row (not reflowed):
    // clang-format off
    return {
        enumKnob<GradComm>("training.grad_comm", "grad comm", {"Gradients on the wire", "梯度通信格式"},
                           [](auto& s) -> auto& { return s.training.grad_comm; }),
        {"training.powersgd_rank", "PowerSGD rank", {"PowerSGD rank", "PowerSGD 秩"}, 1, 1024, "",
         [](const Scenario& s) { return (long long)s.training.powersgd_rank; },
         [](Scenario& s, long long v) { s.training.powersgd_rank = int(v); },
         [](const Scenario& s) { return withCurrent({1, 2, 4, 8, 16, 32}, s.training.powersgd_rank); }},
        {"training.topk_permille", "top-k ‰", {"Top-k kept (‰)", "Top-k 保留比例（‰）"}, 1, 1000, "",
         [](const Scenario& s) { return (long long)s.training.topk_permille; },
         [](Scenario& s, long long v) { s.training.topk_permille = int(v); },
         [](const Scenario& s) { return withCurrent({1, 2, 5, 10, 50, 100}, s.training.topk_permille); }},
    };
    // clang-format on
}

// The layout and the training choices, in the order the app shows them.
std::vector<Knob> layoutKnobs()
{
    std::vector<Knob> all;
    for (std::vector<Knob> (*part)() : {batchKnobs, degreeKnobs, gpuKnobs, gradientKnobs})
        for (Knob& k : part())
            all.push_back(std::move(k));
    return all;
}

} // namespace

const std::vector<Knob>& knobs()
{
    static const std::vector<Knob> list = [] {
        std::vector<Knob> all = layoutKnobs();
        for (Knob& k : whatIfKnobs())
            all.push_back(std::move(k));
        return all;
    }();
    return list;
}

const Knob* findKnob(std::string_view path)
{
    for (const Knob& k : knobs())
        if (k.path == path)
            return &k;
    return nullptr;
}

bool applyKnob(Scenario& sc, std::string_view path, long long value, std::string& why)
{
    const Knob* k = findKnob(path);
    if (!k) {
        std::string list;
        for (const Knob& x : knobs())
            list += (list.empty() ? "" : ", ") + x.path;
        why = "no knob \"" + std::string(path) + "\" (knobs: " + list + ")";
        return false;
    }
    if (value < k->min || value > k->max) {
        why = k->path + " = " + std::to_string(value) + " is outside " + std::to_string(k->min) + " … "
            + std::to_string(k->max);
        return false;
    }
    if (isGpuCountKnob(k->path)) {
        const long long per_replica = sc.parallel.replicaGpus();
        if (value % per_replica != 0) {
            why = k->path + " = " + std::to_string(value)
                + " is not a multiple of tp·pp·cp = " + std::to_string(per_replica);
            return false;
        }
    }
    k->set(sc, value);
    return true;
}

std::optional<long long> parseKnobValue(const Knob& k, std::string_view text)
{
    long long value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc() && end == text.data() + text.size())
        return value;
    // Enum knobs by name, as the scenario file spells them (the enums' name tables).
    if (k.value_name)
        for (long long i = k.min; i <= k.max; ++i)
            if (text == k.value_name(i))
                return i;
    return std::nullopt;
}

bool applyKnobAssignment(Scenario& sc, std::string_view assignment, std::string& why)
{
    const std::size_t eq = assignment.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == assignment.size()) {
        why = "--set needs PATH=VALUE, got \"" + std::string(assignment) + "\"";
        return false;
    }
    const std::string_view path = assignment.substr(0, eq), text = assignment.substr(eq + 1);
    const Knob* k = findKnob(path);
    if (!k) // say that, and which knobs there are, before judging the value
        return applyKnob(sc, path, 0, why);
    const std::optional<long long> value = parseKnobValue(*k, text);
    if (!value) {
        why = std::string(path) + ": \"" + std::string(text) + "\" is not a whole number";
        if (k->value_name) {
            why = std::string(path) + ": \"" + std::string(text) + "\" is not one of ";
            for (long long i = k->min; i <= k->max; ++i)
                why += std::string(i > k->min ? ", " : "") + k->value_name(i);
        }
        return false;
    }
    return applyKnob(sc, path, *value, why);
}

} // namespace parascope
