#include "estimate/display_names.h"

#include "schedule/schedule_table.h"

#include "util/decimal_text.h"

namespace parascope {

namespace {

// `v` with `decimals` digits after the point, then `unit` (printf's rounding without its locale
// and format parsing, util/decimal_text.h; search formats many of these).
std::string fixed(double v, int decimals, const char* unit) { return fixedText(v, decimals) + unit; }

} // namespace

std::string formatFixed(double v, int decimals, const char* unit) { return fixed(v, decimals, unit); }

std::string formatBytes(double bytes)
{
    const double gib = bytes / double(1ull << 30);
    if (gib >= 1024)
        return fixed(gib / 1024, 2, " TiB");
    if (gib >= 1)
        return fixed(gib, 1, " GiB");
    return fixed(bytes / double(1 << 20), 0, " MiB");
}

std::string formatSeconds(double s)
{
    if (s >= 1)
        return fixed(s, 2, " s");
    if (s >= 1e-3)
        return fixed(s * 1e3, 1, " ms");
    return fixed(s * 1e6, 0, " µs");
}

std::string formatPercent(double fraction) { return fixed(fraction * 100, 1, " %"); }

std::string countOf(long long n, const char* singular, const char* plural)
{
    return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

Localized displayName(ScheduleKind v) { return scheduleRow(v).label; }

Localized displayName(Recompute v)
{
    switch (v) {
    case Recompute::None: return {"no recompute", "不重计算"};
    case Recompute::Selective: return {"selective recompute", "选择性重计算"};
    case Recompute::Full: return {"full recompute", "完全重计算"};
    }
    return {"?", "?"};
}

Localized displayName(Precision v)
{
    switch (v) {
    case Precision::Bf16: return {"BF16", "BF16"};
    case Precision::Fp16: return {"FP16", "FP16"};
    case Precision::Fp8: return {"FP8", "FP8"};
    case Precision::Fp32: return {"FP32", "FP32"};
    }
    return {"?", "?"};
}

Localized displayName(OpRate v)
{
    switch (v) {
    case OpRate::Gemm: return {"GEMM", "矩阵乘"};
    case OpRate::Bf16Gemm: return {"GEMM (BF16)", "矩阵乘（BF16）"};
    case OpRate::Attention: return {"fused attention", "融合注意力"};
    case OpRate::Memory: return {"memory-bound", "访存受限"};
    case OpRate::Host: return {"host-bound", "主机受限"};
    }
    return {"?", "?"};
}

Localized displayName(Fp8Recipe v)
{
    switch (v) {
    case Fp8Recipe::Delayed: return {"Delayed scaling", "延迟缩放"};
    case Fp8Recipe::Tensorwise: return {"Current scaling (per tensor)", "当前缩放（逐张量）"};
    case Fp8Recipe::Blockwise: return {"Block scaling (1×128)", "分块缩放（1×128）"};
    case Fp8Recipe::Mxfp8: return {"MXFP8 (1×32)", "MXFP8（1×32）"};
    }
    return {"?", "?"};
}

Localized displayName(CpComm v)
{
    switch (v) {
    case CpComm::P2p: return {"ring (P2P)", "环形（P2P）"};
    case CpComm::A2a: return {"All-to-All (Ulysses)", "All-to-All（Ulysses）"};
    case CpComm::AllGather: return {"AllGather of K/V", "AllGather（K/V）"};
    case CpComm::RingAllGather: return {"ring, K/V AllGather (PyTorch)", "环形，K/V AllGather（PyTorch）"};
    }
    return {"?", "?"};
}

Localized displayName(TpOverlap v)
{
    switch (v) {
    case TpOverlap::Userbuffers: return {"userbuffers (Transformer Engine)", "userbuffers（Transformer Engine）"};
    case TpOverlap::AsyncTp: return {"async TP (PyTorch, GEMMs in chunks)", "异步 TP（PyTorch，矩阵乘分块）"};
    }
    return {"?", "?"};
}

Localized displayName(AsyncPipeline v)
{
    switch (v) {
    case AsyncPipeline::Flush: return {"flush (PipeDream-Flush)", "刷新（PipeDream-Flush）"};
    case AsyncPipeline::PipeDream: return {"PipeDream (weight stashing)", "PipeDream（权重暂存）"};
    case AsyncPipeline::TwoBw: return {"PipeDream-2BW (2 versions)", "PipeDream-2BW（双缓冲权重）"};
    }
    return {"?", "?"};
}

Localized displayName(GradComm v)
{
    switch (v) {
    case GradComm::Same: return {"as the gradients", "与梯度相同"};
    case GradComm::Bf16: return {"BF16", "BF16"};
    case GradComm::Fp8: return {"FP8", "FP8"};
    case GradComm::OneBit: return {"1-bit (error feedback)", "1 比特（误差补偿）"};
    case GradComm::PowerSgd: return {"PowerSGD (low rank)", "PowerSGD（低秩）"};
    case GradComm::TopK: return {"top-k (sparse)", "Top-k（稀疏）"};
    }
    return {"?", "?"};
}

Localized displayName(Offload v)
{
    switch (v) {
    case Offload::None: return {"none", "不卸载"};
    case Offload::Optimizer: return {"optimizer states", "优化器状态"};
    case Offload::Params: return {"params + grads + optimizer", "参数 + 梯度 + 优化器"};
    }
    return {"?", "?"};
}

Localized displayName(ActivationLayout v)
{
    switch (v) {
    case ActivationLayout::Sbh:
        return {"[s, b, h] (Megatron-LM: SP in place)", "[s, b, h]（Megatron-LM：序列并行原地收发）"};
    case ActivationLayout::Bsh:
        return {"[b, s, h] (PyTorch DTensor: SP copies)", "[b, s, h]（PyTorch：序列并行需重排拷贝）"};
    }
    return {"?", "?"};
}

Localized displayName(Zero3Sharding v)
{
    switch (v) {
    case Zero3Sharding::Flat:
        return {"flat buffer (FSDP1, DeepSpeed, Megatron-FSDP: gathered in place)", "整块缓冲（FSDP1 等：原地聚合）"};
    case Zero3Sharding::PerParameter:
        return {"per parameter (PyTorch FSDP2: copied out after each gather)",
                "逐参数分片（PyTorch FSDP2：每次聚合后拷出）"};
    }
    return {"?", "?"};
}

Localized displayName(MoeDispatcher v)
{
    switch (v) {
    case MoeDispatcher::AllToAll: return {"All-to-All (per expert)", "All-to-All（按专家）"};
    case MoeDispatcher::DeepEp: return {"DeepEP (per GPU / node)", "DeepEP（按卡 / 节点）"};
    }
    return {"?", "?"};
}

Localized displayName(CudaGraphs v)
{
    switch (v) {
    case CudaGraphs::None: return {"none (eager)", "不用（逐个启动）"};
    case CudaGraphs::Partial: return {"attention and router", "注意力与路由"};
    case CudaGraphs::Layers: return {"whole layers", "整层"};
    case CudaGraphs::FullIteration: return {"whole iteration", "整个迭代"};
    }
    return {"?", "?"};
}

Localized displayName(RecomputeModule v)
{
    switch (v) {
    case RecomputeModule::CoreAttn: return {"core attention", "核心注意力"};
    case RecomputeModule::Layernorm: return {"norms", "归一化层"};
    case RecomputeModule::MoeAct: return {"experts' activation", "专家激活函数"};
    case RecomputeModule::Mlp: return {"dense MLP", "稠密前馈层"};
    case RecomputeModule::SharedExperts: return {"shared experts", "共享专家"};
    case RecomputeModule::MlaUpProj: return {"latent attention's up-projections", "潜在注意力上投影"};
    case RecomputeModule::EveryOtherMm:
        return {"every other matmul (torchtitan op SAC)", "隔一个矩阵乘（torchtitan 算子级）"};
    case RecomputeModule::Moe: return {"the whole MoE block", "整个专家层"};
    }
    return {"?", "?"};
}

Localized displayName(AttentionKernel v)
{
    switch (v) {
    case AttentionKernel::Cudnn: return {"cuDNN / FA3", "cuDNN / FA3"};
    case AttentionKernel::Fa2: return {"FA2 (PyTorch SDPA)", "FA2（PyTorch SDPA）"};
    }
    return {"?", "?"};
}

Localized displayName(Group v)
{
    switch (v) {
    case Group::Tp: return {"TP", "TP"};
    case Group::Cp: return {"CP", "CP"};
    case Group::Ep: return {"EP", "EP"};
    case Group::Dp: return {"DP", "DP"};
    case Group::DpCp: return {"DP·CP", "DP·CP"};
    case Group::Edp: return {"expert DP", "专家 DP"};
    case Group::Pp: return {"PP", "PP"};
    }
    return {"?", "?"};
}

Localized displayName(Collective v)
{
    switch (v) {
    case Collective::AllReduce: return {"AllReduce", "AllReduce"};
    case Collective::AllGather: return {"AllGather", "AllGather"};
    case Collective::ReduceScatter: return {"ReduceScatter", "ReduceScatter"};
    case Collective::AllToAll: return {"All-to-All", "All-to-All"};
    case Collective::SendRecv: return {"send/receive", "点对点收发"};
    case Collective::Broadcast: return {"broadcast", "广播"};
    case Collective::Reduce: return {"reduce", "归约"};
    }
    return {"?", "?"};
}

Localized displayName(Purpose v)
{
    switch (v) {
    case Purpose::Activations: return {"activations", "激活"};
    case Purpose::Gradients: return {"gradients", "梯度"};
    case Purpose::Parameters: return {"parameters", "参数"};
    case Purpose::Kv: return {"keys/values", "键值"};
    case Purpose::Tokens: return {"tokens", "词元"};
    }
    return {"?", "?"};
}

Localized displayName(CollectiveAlgorithm v)
{
    switch (v) {
    case CollectiveAlgorithm::Ring: return {"ring", "环形"};
    case CollectiveAlgorithm::Tree: return {"double binary tree", "双二叉树"};
    case CollectiveAlgorithm::Nvls: return {"NVLS", "NVLS"};
    case CollectiveAlgorithm::Hierarchical: return {"hierarchical", "分层"};
    case CollectiveAlgorithm::FlatRing: return {"flat ring", "单环"};
    case CollectiveAlgorithm::BinomialTree: return {"binomial tree", "二项树"};
    case CollectiveAlgorithm::Pairwise: return {"pairwise exchange", "两两交换"};
    case CollectiveAlgorithm::DeepEp: return {"DeepEP", "DeepEP"};
    case CollectiveAlgorithm::PointToPoint: return {"point-to-point", "点对点"};
    }
    return {"?", "?"};
}

Localized displayName(Link v)
{
    switch (v) {
    case Link::NvLink: return {"NVLink", "NVLink"};
    case Link::Network: return {"network", "网络"};
    case Link::Pcie: return {"PCIe", "PCIe"};
    }
    return {"?", "?"};
}

Localized boundaryLinks(const std::vector<PipelineBoundary>& boundaries)
{
    Localized out;
    for (Link link : {Link::NvLink, Link::Pcie, Link::Network}) {
        long long n = 0;
        for (const PipelineBoundary& b : boundaries)
            n += b.link == link ? 1 : 0;
        if (n == 0)
            continue;
        if (n == (long long)boundaries.size())
            return displayName(link);
        const std::string count = " ×" + std::to_string(n);
        out.en += (out.en.empty() ? "" : ", ") + displayName(link).en + count;
        out.zh += (out.zh.empty() ? "" : "，") + displayName(link).zh + count;
    }
    return out;
}

Localized boundaryList(const std::vector<PipelineBoundary>& boundaries)
{
    Localized out;
    for (const PipelineBoundary& b : boundaries) {
        const std::string pair = std::to_string(b.from_rank) + "→" + std::to_string(b.to_rank) + " ";
        out.en += (out.en.empty() ? "" : ", ") + pair + displayName(b.link).en;
        out.zh += (out.zh.empty() ? "" : "，") + pair + displayName(b.link).zh;
    }
    return out;
}

} // namespace parascope
