// Diagnostic rules about what a feature needs: experts for EP, TP for SP, a sequence that CP can
// split, positions for the sequence, ZeRO-3 and a host for offloading, what EP overlap and ZeRO
// with a pipeline need (estimate/diagnostic_rules.h).

#include "estimate/diagnostic_rules.h"

#include "estimate/diagnostic_text.h"
#include "estimate/display_names.h"

namespace parascope {

using namespace diagnostic_text;

namespace {

// Megatron-Core's expert grid (etp × ep × edp) re-slices the tp·cp·dp GPUs of a stage, so etp·ep
// must divide them (parallel_state.initialize_model_parallel asserts it). This holds for an
// explicit ETP with EP = 1 too.
Diagnostic expertGridMismatch(const ParallelConfig& p)
{
    const long long stage_gpus = static_cast<long long>(p.tp) * p.cp * p.dp;
    const long long grid = static_cast<long long>(p.ep) * p.expertTp();
    const bool fix_etp = p.etp > 0 && p.etp != p.tp && stage_gpus % p.ep == 0;
    const std::string etp = fix_etp ? n(largestDivisorAtMost(stage_gpus / p.ep, p.etp)) : "";
    return make(Severity::Error, "ep_invalid", "parallel.ep",
                "EP·ETP = " + n(p.ep) + "·" + n(p.expertTp()) + " = " + n(grid) + " must divide the " + n(stage_gpus)
                    + " GPUs of a pipeline stage (tp·cp·dp): the expert grid re-slices them.",
                "EP·ETP = " + n(p.ep) + "·" + n(p.expertTp()) + " = " + n(grid) + " 必须整除每个流水线阶段的 "
                    + n(stage_gpus) + " 块 GPU（TP·CP·DP）：专家网格是对它们的重新划分。",
                fix_etp ? "Use ETP = " + etp + " (EP·ETP must divide " + n(stage_gpus) + ")."
                        : "Choose EP dividing DP·CP = " + n(static_cast<long long>(p.dp) * p.cp) + ".",
                fix_etp ? "改用 ETP = " + etp + "（EP·ETP 必须整除 " + n(stage_gpus) + "）。"
                        : "选择能整除 DP·CP = " + n(static_cast<long long>(p.dp) * p.cp) + " 的 EP。");
}

// EP on a dense model, experts that EP does not divide, or an expert grid that does not fit.
void expertParallelism(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ParallelConfig& p = in.sc.parallel;
    const int experts = in.sc.model.moe ? in.sc.model.moe->experts : 0;
    if (p.ep > 1 && experts == 0) {
        out.push_back(make(Severity::Error, "ep_invalid", "parallel.ep",
                           "EP = " + n(p.ep) + " but " + in.sc.model.name + " has no MoE layers.",
                           "EP = " + n(p.ep) + "，但 " + in.sc.model.name + " 没有 MoE 层。",
                           "Set EP = 1 for a dense model.", "稠密模型请设 EP = 1。"));
    } else if (p.ep > 1 && experts % p.ep != 0) {
        out.push_back(
            make(Severity::Error, "ep_invalid", "parallel.ep",
                 countOf(experts, "expert", "experts") + " cannot be spread evenly over EP = " + n(p.ep) + ".",
                 n(experts) + " 个专家无法均分到 EP = " + n(p.ep) + "。", "Use an EP that divides " + n(experts) + ".",
                 "选择能整除 " + n(experts) + " 的 EP。"));
    } else if ((p.ep > 1 || p.etp > 0)
               && (static_cast<long long>(p.tp) * p.cp * p.dp) % (static_cast<long long>(p.ep) * p.expertTp()) != 0) {
        out.push_back(expertGridMismatch(p));
    }
}

void sequenceParallelWithoutTp(const RuleInput& in, std::vector<Diagnostic>& out)
{
    if (!in.sc.parallel.sequence_parallel || in.sc.parallel.tp != 1)
        return;
    out.push_back(make(Severity::Info, "sp_requires_tp", "parallel.sequence_parallel",
                       "Sequence parallelism splits activations over the TP group; with TP = 1 it does nothing.",
                       "序列并行在 TP 组内切分激活；TP = 1 时它不起作用。",
                       "Raise TP, or turn sequence parallelism off.", "增大 TP，或关闭序列并行。"));
}

void fp8ActivationsWithoutFp8(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const TrainingConfig& t = in.sc.training;
    if (!t.fp8_activations || t.precision == Precision::Fp8)
        return;
    out.push_back(make(
        Severity::Info, "fp8_activations_need_fp8", "training.precision",
        "FP8 activation storage keeps the FP8 copies of the linear layers' inputs; in " + displayName(t.precision).en
            + " there are none, so activations stay " + displayName(t.precision).en + ".",
        "FP8 激活存储保存线性层输入的 FP8 副本；" + displayName(t.precision).zh + " 训练没有这些副本，激活仍按 "
            + displayName(t.precision).zh + " 保存。",
        "Choose precision FP8, or turn FP8 activation storage off.", "把精度设为 FP8，或关闭 FP8 激活存储。"));
}

// FP8 on a GPU without FP8 tensor cores (A100, V100): the engine costs the GEMMs at the bf16 rate.
void fp8WithoutFp8Gpu(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const GpuSpec& gpu = in.sc.cluster.gpu;
    if (in.sc.training.precision != Precision::Fp8 || gpu.peak_fp8_flops > 0)
        return;
    out.push_back(make(Severity::Warning, "fp8_unsupported", "training.precision",
                       "The " + gpu.name + " has no FP8 tensor cores: FP8 training does not run on it; the step "
                           + "is costed at the bf16 rate, with no FP8 gain.",
                       gpu.name + " 没有 FP8 张量核心：FP8 训练无法在其上运行；单步按 BF16 速率计算，没有 FP8 收益。",
                       "Choose precision BF16, or a GPU with FP8 (H100, H200, B200).",
                       "把精度设为 BF16，或选用支持 FP8 的 GPU（H100、H200、B200）。"));
}

// PowerSGD and top-k are DDP communication hooks: ZeRO's sharded reduce-scatter cannot carry them.
void sketchNeedsDdp(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const GradComm c = in.sc.training.grad_comm;
    if ((c != GradComm::PowerSgd && c != GradComm::TopK) || in.sc.parallel.zero == 0)
        return;
    const std::string name = displayName(c).en;
    out.push_back(make(Severity::Error, "grad_compression_needs_ddp", "training.grad_comm",
                       name + " compresses DDP's all-reduce (a communication hook); ZeRO-" + n(in.sc.parallel.zero)
                           + " reduce-scatters shards, which a low-rank or sparse sketch cannot be summed into: "
                             "the gradients are costed uncompressed.",
                       displayName(c).zh + " 压缩的是 DDP 的 AllReduce（通信钩子）；ZeRO-" + n(in.sc.parallel.zero)
                           + " 对分片做 ReduceScatter，低秩或稀疏的压缩结果无法这样求和：梯度按未压缩计算。",
                       "Set ZeRO to 0 (DDP), or choose BF16, FP8 or 1-bit on the wire.",
                       "把 ZeRO 级别设为 0（DDP），或改用 BF16、FP8 或 1 比特的梯度通信格式。"));
}

// Compressed gradients: the model counts bytes and time, not what compression does to training.
void compressionAccuracy(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const GradComm c = in.sc.training.grad_comm;
    if (c == GradComm::Same || c == GradComm::Bf16)
        return;
    out.push_back(
        make(Severity::Info, "grad_compression_accuracy", "training.grad_comm",
             displayName(c).en + " gradients: ParaScope counts the bytes and the time; what compression does to "
                 + "convergence is outside the model. The sources report: FP8 gradients in FP8-LM (Peng et al. 2023) "
                   "followed the BF16 loss up to 175B; 1-bit Adam (Tang et al. 2021) matched Adam on BERT after a "
                   "full-precision warm-up; PowerSGD (Vogels et al. 2019) reached SGD's accuracy at rank 2–4 on "
                   "ResNet-18 and an LSTM; Deep Gradient Compression (Lin et al. 2018) kept 0.1 % with momentum "
                   "correction and warm-up without loss on ResNet-50.",
             displayName(c).zh + " 梯度：ParaScope 只计算字节数和时间；压缩对收敛的影响不在模型之内。文献报告："
                 + "FP8-LM（Peng 等 2023）的 FP8 梯度在 175B 以内与 BF16 的损失曲线一致；1 比特 Adam（Tang 等 2021）在"
                   "全精度预热后与 Adam 在 BERT 上收敛相同；PowerSGD（Vogels 等 2019）在秩 2–4 时于 ResNet-18 和 "
                   "LSTM 上达到 SGD 的精度；深度梯度压缩（DGC，Lin 等 2018）配合动量修正和预热只保留 0.1 % "
                   "而 ResNet-50 精度无损。",
             "Check convergence on a small run before the large one.", "在大规模训练前先用小规模实验验证收敛。"));
}

void sequenceOverCp(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const long long cp = in.sc.parallel.cp, seq = in.sc.training.seq_len;
    if (cp <= 1 || seq % (2 * cp) == 0)
        return;
    out.push_back(
        make(Severity::Error, "cp_not_divisible", "parallel.cp",
             "Sequence length " + n(seq) + " is not divisible by 2·CP = " + n(2 * cp)
                 + " (load-balanced ring attention gives each rank two chunks).",
             "序列长度 " + n(seq) + " 不能被 2·CP = " + n(2 * cp) + " 整除（负载均衡的环形注意力给每个 CP 进程两块）。",
             "Use a CP with 2·CP dividing " + n(seq) + ".", "选择 CP，使 2·CP 能整除 " + n(seq) + "。"));
}

void sequenceBeyondPositions(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ModelSpec& m = in.sc.model;
    const long long seq = in.sc.training.seq_len;
    if (m.position != PositionKind::Learned || m.max_positions <= 0 || seq <= m.max_positions)
        return;
    out.push_back(
        make(Severity::Error, "seq_exceeds_positions", "training.seq_len",
             "Sequence length " + n(seq) + " exceeds the model's " + n(m.max_positions) + " learned positions.",
             "序列长度 " + n(seq) + " 超过了模型的可学习位置编码长度 " + n(m.max_positions) + "。",
             "Use seq_len ≤ " + n(m.max_positions) + ".", "使用不超过 " + n(m.max_positions) + " 的序列长度。"));
}

void offloadParamsWithoutZero3(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ParallelConfig& p = in.sc.parallel;
    if (p.offload != Offload::Params || p.zero >= 3)
        return;
    out.push_back(
        make(Severity::Error, "offload_needs_zero3", "parallel.zero",
             "Offloading the parameters to the CPU needs them sharded (ZeRO-3 / FSDP); ZeRO-" + n(p.zero)
                 + " keeps a full copy on every GPU.",
             "把参数卸载到 CPU 需要参数分片（ZeRO-3 / FSDP）；ZeRO-" + n(p.zero) + " 在每块 GPU 上都保留完整参数。",
             "Use ZeRO-3, or offload the optimizer states only.", "使用 ZeRO-3，或只卸载优化器状态。"));
}

void offloadWithoutHost(const RuleInput& in, std::vector<Diagnostic>& out)
{
    if (in.sc.parallel.offload == Offload::None || in.sc.cluster.host.known())
        return;
    out.push_back(make(Severity::Error, "offload_needs_host", "parallel.offload",
                       "CPU offload needs the cluster's host: cluster.host.memory_gib, memory_gbps and pcie_gbps.",
                       "CPU 卸载需要集群的主机参数：cluster.host.memory_gib、memory_gbps 与 pcie_gbps。",
                       "Give the cluster a host, or use a cluster preset (they all have one).",
                       "为集群给出主机参数，或使用集群预设（都带有主机参数）。"));
}

void epOverlapUnavailable(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ParallelConfig& p = in.sc.parallel;
    const bool full = in.sc.training.recompute == Recompute::Full;
    if (!p.ep_comm_overlap || p.epOverlapApplies(full))
        return;
    // The knob to change: EP first, then the recompute, then the schedule.
    const char* knob = p.ep <= 1 ? "parallel.ep" : full ? "training.recompute" : "parallel.schedule";
    out.push_back(make(Severity::Warning, "ep_overlap_unavailable", knob,
                       "EP communication overlap (combined 1F1B) is not applied: it needs expert parallelism (EP > 1), "
                       "no full recompute, "
                       "and with PP > 1 the interleaved schedule (VPP ≥ 2).",
                       "未启用 EP 通信重叠（组合式 1F1B）：它需要专家并行（EP > 1）、不用完全重计算，且 PP > 1 "
                       "时需要交错式调度（VPP ≥ 2）。",
                       "Use EP > 1 and selective recompute, and with a pipeline the interleaved schedule.",
                       "使用 EP > 1 与选择性重计算；有流水线时使用交错式调度。"));
}

void zeroWithPipeline(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const ParallelConfig& p = in.sc.parallel;
    if (p.zero < 2 || p.pp <= 1)
        return;
    out.push_back(make(
        Severity::Warning, "zero_with_pp", "parallel.zero",
        "ZeRO-" + n(p.zero) + " with pipeline parallelism reduces or gathers every microbatch. "
            + "DeepSpeed does not support it and Megatron offers ZeRO-1 (distributed optimizer) only; "
            + "PyTorch FSDP2 runs it (torchtitan), and the step time includes those collectives.",
        "ZeRO-" + n(p.zero)
            + " 与流水线并行同用时每个微批都要归约或收集。DeepSpeed 不支持，Megatron 只提供 ZeRO-1（分布式优化器）；"
              "PyTorch FSDP2（torchtitan）支持，单步耗时已计入这些集合通信。",
        "Use ZeRO-1 with PP, or drop PP.", "有 PP 时使用 ZeRO-1，或去掉 PP。"));
}

// A MoE layer replays as a CUDA graph only with static shapes: Megatron-Core refuses the "moe"
// graph module with dropless routing ("moe cuda graph is only supported with drop-padding MoE",
// transformer_config.py), and a whole-iteration capture cannot hold the dispatcher's read of the
// token counts. A capacity factor drops and pads every expert to one size.
void cudaGraphsNeedStaticShapes(const RuleInput& in, std::vector<Diagnostic>& out)
{
    const TrainingConfig& t = in.sc.training;
    if (!t.moeGraphed() || !in.sc.model.moe || t.moe_capacity_factor > 0)
        return;
    out.push_back(make(Severity::Error, "cuda_graphs_need_static_shapes", "training.cuda_graphs",
                       "CUDA graphs of " + displayName(t.cuda_graphs).en
                           + " need static shapes, but dropless MoE routing sends each expert a different number "
                             "of tokens every step (Megatron-Core refuses it).",
                       "CUDA 图（" + displayName(t.cuda_graphs).zh
                           + "）要求张量形状固定，而无丢弃的 MoE 路由每步发给每个专家的词元数都不同（Megatron "
                             "不允许）。",
                       "Set a capacity factor (drop and pad, e.g. 1), or graph only attention and the router.",
                       "设置容量因子（丢弃并填充，例如 1），或只把注意力与路由做成 CUDA 图。"));
}

} // namespace

std::vector<DiagnosticRule> rules::features()
{
    // The rule table, one rule per row (not reflowed):
    // clang-format off
    using enum RulePhase;
    using enum RuleWall;
    return {
        {"ep_invalid", "ep_invalid", OnScenario, Layout, {"parallel.ep"}, expertParallelism},
        {"sp_requires_tp", "sp_requires_tp", OnScenario, Layout, {"parallel.sequence_parallel"}, sequenceParallelWithoutTp},
        {"cp_not_divisible", "cp_not_divisible", OnScenario, Layout, {"parallel.cp"}, sequenceOverCp},
        {"fp8_activations_need_fp8", "fp8_activations_need_fp8", OnScenario, Memory, {"training.precision"}, fp8ActivationsWithoutFp8},
        {"cuda_graphs_need_static_shapes", "cuda_graphs_need_static_shapes", OnScenario, Layout, {"training.cuda_graphs"}, cudaGraphsNeedStaticShapes},
        {"fp8_unsupported", "fp8_unsupported", OnScenario, Efficiency, {"training.precision"}, fp8WithoutFp8Gpu},
        {"grad_compression_needs_ddp", "grad_compression_needs_ddp", OnScenario, Layout, {"training.grad_comm"}, sketchNeedsDdp},
        {"grad_compression_accuracy", "grad_compression_accuracy", OnScenario, Communication, {"training.grad_comm"}, compressionAccuracy},
        {"seq_exceeds_positions", "seq_exceeds_positions", OnScenario, Layout, {"training.seq_len"}, sequenceBeyondPositions},
        {"offload_needs_zero3", "offload_needs_zero3", OnScenario, Layout, {"parallel.zero"}, offloadParamsWithoutZero3},
        {"offload_needs_host", "offload_needs_host", OnScenario, Layout, {"parallel.offload"}, offloadWithoutHost},
        {"ep_overlap_unavailable", "ep_overlap_unavailable", OnScenario, Communication,
         {"parallel.ep", "training.recompute", "parallel.schedule"}, epOverlapUnavailable},
        {"zero_with_pp", "zero_with_pp", OnScenario, Communication, {"parallel.zero"}, zeroWithPipeline},
    };
    // clang-format on
}

} // namespace parascope
