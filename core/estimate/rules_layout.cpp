// Diagnostic rules about the layout itself: GPU count, how heads and layers split over TP, CP and
// PP, and HSDP shard groups (estimate/diagnostic_rules.h).

#include "estimate/diagnostic_rules.h"

#include "estimate/diagnostic_text.h"
#include "estimate/display_names.h"
#include "schedule/pipeline_geometry.h"

#include <algorithm>

namespace parascope {

using namespace diagnostic_text;

namespace {

long long clusterGpus(const ClusterSpec& c) { return static_cast<long long>(c.nodes) * c.gpus_per_node; }

// A cluster with a fixed node count and a layout that asks for another number of GPUs.
void gpuCountMismatch(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ParallelConfig& p = in.sc.parallel;
    const ClusterSpec& c = in.sc.cluster;
    const long long gpus = p.gpus(), have = clusterGpus(c);
    if (c.nodes <= 0 || gpus == have)
        return;
    const long long per_replica = static_cast<long long>(p.tp) * p.pp * p.cp;
    const bool whole = have % per_replica == 0;
    out.push_back(make(Severity::Error, "gpu_count_mismatch", "parallel.dp",
                       "tp·pp·dp·cp = " + n(p.tp) + "·" + n(p.pp) + "·" + n(p.dp) + "·" + n(p.cp) + " = "
                           + countOf(gpus, "GPU", "GPUs") + ", but the cluster has " + countOf(c.nodes, "node", "nodes")
                           + " × " + n(c.gpus_per_node) + " = " + n(have) + ".",
                       "TP·PP·DP·CP = " + n(gpus) + " 块 GPU，但集群只有 " + n(c.nodes) + " 个节点 × "
                           + n(c.gpus_per_node) + " = " + n(have) + " 块。",
                       whole ? "Set dp = " + n(have / per_replica) + " to use every GPU."
                             : "Choose tp·pp·cp that divides " + n(have) + ", then dp = GPUs/(tp·pp·cp).",
                       whole ? "把 DP 设为 " + n(have / per_replica) + " 即可用满所有 GPU。"
                             : "选择能整除 " + n(have) + " 的 TP·PP·CP，再令 DP = GPU 数 /（TP·PP·CP）。"));
}

// More GPUs than a node holds, but not whole nodes (a preset cluster, whose node count follows).
void partialNode(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ClusterSpec& c = in.sc.cluster;
    const long long gpus = in.sc.parallel.gpus();
    if ((c.nodes > 0 && gpus != clusterGpus(c)) || gpus <= c.gpus_per_node || gpus % c.gpus_per_node == 0)
        return;
    out.push_back(make(Severity::Warning, "gpu_count_mismatch", "parallel.dp",
                       n(gpus) + " GPUs do not fill whole nodes of " + n(c.gpus_per_node) + ".",
                       n(gpus) + " 块 GPU 不能填满每节点 " + n(c.gpus_per_node) + " 块的整数个节点。",
                       "Use a multiple of " + n(c.gpus_per_node) + " GPUs.",
                       "使用 " + n(c.gpus_per_node) + " 的整数倍块 GPU。"));
}

void headsNotDivisibleByTp(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ModelSpec& m = in.sc.model;
    const ParallelConfig& p = in.sc.parallel;
    if (m.heads % p.tp == 0)
        return;
    const int ok = largestDivisorAtMost(m.heads, std::min(p.tp, in.sc.cluster.gpus_per_node));
    out.push_back(make(Severity::Error, "heads_not_divisible_by_tp", "parallel.tp",
                       countOf(m.heads, "attention head", "attention heads")
                           + " cannot be split evenly over TP = " + n(p.tp) + ".",
                       n(m.heads) + " 个注意力头无法被 TP = " + n(p.tp) + " 整除。",
                       "Use a TP that divides " + n(m.heads) + ", e.g. TP = " + n(ok) + ".",
                       "选择能整除 " + n(m.heads) + " 的 TP，例如 TP = " + n(ok) + "。"));
}

void kvHeadsNotDivisibleByTp(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ModelSpec& m = in.sc.model;
    const ParallelConfig& p = in.sc.parallel;
    if (m.kv_heads % p.tp == 0)
        return;
    out.push_back(make(Severity::Error, "kv_heads_not_divisible_by_tp", "parallel.tp",
                       countOf(m.kv_heads, "KV head", "KV heads") + " (GQA groups) cannot be split over TP = " + n(p.tp)
                           + "; Megatron requires num_query_groups % tp == 0.",
                       n(m.kv_heads) + " 个 KV 头（GQA 组）无法被 TP = " + n(p.tp)
                           + " 整除；Megatron 要求 num_query_groups 能被 TP 整除。",
                       "Use TP ≤ " + n(m.kv_heads) + " that divides it, and add PP or CP for the rest.",
                       "使用不超过 " + n(m.kv_heads) + " 且能整除它的 TP，其余用 PP 或 CP 扩展。"));
}

// Ulysses (a2a) CP hands each rank 1/(tp·cp) of the attention heads, query and key/value.
void cpA2aHeads(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ModelSpec& m = in.sc.model;
    const ParallelConfig& p = in.sc.parallel;
    const long long split = static_cast<long long>(p.tp) * p.cp;
    if (p.cp <= 1 || p.cp_comm != CpComm::A2a || (m.heads % split == 0 && m.kv_heads % split == 0))
        return;
    out.push_back(make(Severity::Error, "cp_a2a_heads_not_divisible", "parallel.cp",
                       "All-to-all CP (Ulysses) splits the heads over TP·CP = " + n(split) + ", but the model has "
                           + countOf(m.heads, "head", "heads") + " and " + countOf(m.kv_heads, "KV head", "KV heads")
                           + ".",
                       "全对全（Ulysses）上下文并行把注意力头分到 TP·CP = " + n(split) + " 份，而模型有 " + n(m.heads)
                           + " 个头、" + n(m.kv_heads) + " 个 KV 头，无法整除。",
                       "Use a CP that divides both head counts over TP, or the ring (cp_comm \"p2p\"), which splits "
                       "the sequence instead.",
                       "选择能整除两种头数（除以 TP 后）的 CP，或改用环形（cp_comm \"p2p\"），它切分的是序列。"));
}

void ppExceedsLayers(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ModelSpec& m = in.sc.model;
    const ParallelConfig& p = in.sc.parallel;
    if (p.pp <= m.layers)
        return;
    out.push_back(make(Severity::Error, "pp_exceeds_layers", "parallel.pp",
                       "PP = " + n(p.pp) + " is more than the " + countOf(m.layers, "layer", "layers")
                           + ": some stages would be empty.",
                       "PP = " + n(p.pp) + " 超过了模型的 " + n(m.layers) + " 层：部分流水线阶段将没有层。",
                       "Use PP ≤ " + n(m.layers) + ", ideally a divisor of it.",
                       "使用 PP ≤ " + n(m.layers) + "，最好能整除层数。"));
}

// parallel.stage_layers given, but not one count per stage, or not adding up to the layers.
void stageLayersWrong(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ModelSpec& m = in.sc.model;
    const ParallelConfig& p = in.sc.parallel;
    if (p.pp > m.layers || p.stage_layers.empty())
        return;
    const long long listed = static_cast<long long>(p.stage_layers.size());
    if (listed != p.pp) {
        out.push_back(
            make(Severity::Error, "layers_not_divisible_by_pp", "parallel.pp",
                 "parallel.stage_layers lists " + countOf(listed, "stage", "stages") + ", PP = " + n(p.pp) + ".",
                 "parallel.stage_layers 列出了 " + n(listed) + " 个阶段，而 PP = " + n(p.pp) + "。",
                 "Give one layer count per pipeline stage.", "为每个流水线阶段给出一个层数。"));
        return;
    }
    long long sum = 0;
    for (int l : p.stage_layers)
        sum += l;
    if (sum != m.layers)
        out.push_back(make(Severity::Error, "layers_not_divisible_by_pp", "parallel.pp",
                           "parallel.stage_layers adds up to " + countOf(sum, "layer", "layers") + ", the model has "
                               + n(m.layers) + ".",
                           "parallel.stage_layers 合计 " + n(sum) + " 层，而模型有 " + n(m.layers) + " 层。",
                           "Make the per-stage layer counts add up to " + n(m.layers) + ".",
                           "让各阶段层数之和等于 " + n(m.layers) + "。"));
}

// Even split over PP (no explicit stage_layers): the stages with one layer more set the pace.
void layersUneven(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ModelSpec& m = in.sc.model;
    const ParallelConfig& p = in.sc.parallel;
    if (p.pp > m.layers || !p.stage_layers.empty() || pipelineSlots(m, p) % p.pp == 0)
        return;
    const long long extra = pipelineSlots(m, p) % p.pp;
    out.push_back(
        make(Severity::Warning, "layers_not_divisible_by_pp", "parallel.pp",
             countOf(m.layers, "layer", "layers") + " do not split evenly over PP = " + n(p.pp) + ": "
                 + (extra == 1 ? std::string("the first stage gets one layer more and sets")
                               : "the first " + n(extra) + " stages get one layer more and set")
                 + " the pace.",
             n(m.layers) + " 层无法被 PP = " + n(p.pp) + " 整除：前 " + n(extra) + " 个阶段多一层，成为瓶颈。",
             "Use a PP that divides " + n(m.layers)
                 + ", or set parallel.stage_layers (e.g. fewer layers on the first and last stage).",
             "选择能整除 " + n(m.layers) + " 的 PP，或设置 parallel.stage_layers（例如首尾阶段少放几层）。"));
}

void shardSize(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ParallelConfig& p = in.sc.parallel;
    const long long replicas = static_cast<long long>(p.dp) * p.cp;
    if (p.shard_size <= 0 || replicas % p.shard_size == 0)
        return;
    out.push_back(
        make(Severity::Error, "shard_size_not_divisible", "parallel.dp", // the slider that fixes it
             "HSDP shard groups of " + n(p.shard_size) + " do not divide DP·CP = " + n(replicas) + ".",
             "HSDP 分片组大小 " + n(p.shard_size) + " 不能整除 DP·CP = " + n(replicas) + "。",
             "Use a shard size that divides DP·CP (the GPUs of a node, typically), or 0 to shard over all of them.",
             "选择能整除 DP·CP 的分片组大小（通常是一个节点的 GPU 数），或设为 0 在全部数据并行进程上切分。"));
}

} // namespace

std::vector<DiagnosticRule> rules::layout()
{
    // The rule table, one rule per row (not reflowed):
    // clang-format off
    using enum RulePhase;
    using enum RuleWall;
    return {
        {"gpu_count_mismatch", "gpu_count_mismatch", OnScenario, Layout, {"parallel.dp"}, gpuCountMismatch},
        {"gpu_count_mismatch-partial-node", "gpu_count_mismatch", OnScenario, Layout, {"parallel.dp"}, partialNode},
        {"heads_not_divisible_by_tp", "heads_not_divisible_by_tp", OnScenario, Layout, {"parallel.tp"},
         headsNotDivisibleByTp},
        {"kv_heads_not_divisible_by_tp", "kv_heads_not_divisible_by_tp", OnScenario, Layout, {"parallel.tp"},
         kvHeadsNotDivisibleByTp},
        {"cp_a2a_heads_not_divisible", "cp_a2a_heads_not_divisible", OnScenario, Layout, {"parallel.cp"},
         cpA2aHeads},
        {"pp_exceeds_layers", "pp_exceeds_layers", OnScenario, Layout, {"parallel.pp"}, ppExceedsLayers},
        {"layers_not_divisible_by_pp-stage-layers", "layers_not_divisible_by_pp", OnScenario, Layout,
         {"parallel.pp"}, stageLayersWrong},
        {"layers_not_divisible_by_pp", "layers_not_divisible_by_pp", OnScenario, Efficiency, {"parallel.pp"}, layersUneven},
        {"shard_size_not_divisible", "shard_size_not_divisible", OnScenario, Layout, {"parallel.dp"}, shardSize},
    };
    // clang-format on
}

} // namespace parascope
