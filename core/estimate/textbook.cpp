#include "estimate/textbook.h"

#include "estimate/display_names.h"
#include "types/term.h"

#include <algorithm>
#include <cmath>

namespace parascope {

namespace {

constexpr double kGiB = double(1ull << 30);

// The peak stage's memory, or an empty one.
StageMemory peakStage(const Estimate& est)
{
    const auto& s = est.memory.stages;
    return est.memory.peak_stage >= 0 && std::size_t(est.memory.peak_stage) < s.size()
        ? s[std::size_t(est.memory.peak_stage)]
        : StageMemory{};
}

double groupBytes(const Estimate& est, std::initializer_list<Group> groups)
{
    double b = 0;
    for (const CommEntry& c : est.communication)
        if (std::find(groups.begin(), groups.end(), c.group) != groups.end())
            b += c.bytes_per_gpu_per_step;
    return b;
}

void memoryRows(std::vector<TextbookRow>& out, const Scenario& sc, const Estimate& est)
{
    const double P = double(est.params.total);
    const StageMemory st = peakStage(est);
    const double states = (st.weights + st.gradients + st.optimizer) / kGiB;
    const std::string stage = std::to_string(est.memory.peak_stage);
    const Localized engine_states{"peak stage " + stage + ": weights + gradients + optimizer states per GPU",
                                  "峰值阶段 " + stage + "：每块 GPU 的权重 + 梯度 + 优化器状态"};
    out.push_back(
        {"model_states",
         {"model states", "模型状态"},
         {"2P + 2P + 12P = 16P bytes", "2P + 2P + 12P = 16P 字节"},
         16 * P / kGiB,
         states,
         TextbookUnit::GiB,
         engine_states,
         {"the whole model on one GPU: TP, PP and ZeRO each divide it (here TP " + std::to_string(sc.parallel.tp)
              + ", PP " + std::to_string(sc.parallel.pp) + ", ZeRO-" + std::to_string(sc.parallel.zero) + ")",
          "整个模型放在一块 GPU 上：TP、PP 和 ZeRO 都会切分它（此处 TP " + std::to_string(sc.parallel.tp) + "、PP "
              + std::to_string(sc.parallel.pp) + "、ZeRO-" + std::to_string(sc.parallel.zero) + "）"}});
    out.push_back(
        {"adamw_4b",
         {"AdamW state", "AdamW 状态"},
         {"4 B per parameter", "每参数 4 B"},
         4 * P / kGiB,
         st.optimizer / kGiB,
         TextbookUnit::GiB,
         {"peak stage " + stage + ": the optimizer states per GPU", "峰值阶段 " + stage + "：每块 GPU 的优化器状态"},
         {"4 B is one fp32 copy; mixed-precision Adam keeps three (master weights, m, v): 12 B, before ZeRO "
          "and the layout divide them",
          "4 B 只是一份 FP32；混合精度 Adam 保存三份（主权重、m、v）：12 B，且尚未按 ZeRO 和并行布局切分"}});
    const double B = double(sc.training.global_batch), S = double(sc.training.seq_len);
    const double H = double(sc.model.hidden), L = double(sc.model.layers);
    out.push_back(
        {"activations",
         {"activations", "激活"},
         {"B·S·H·L (B the global batch)", "B·S·H·L（B 为全局批大小）"},
         B * S * H * L / kGiB,
         st.activations / kGiB,
         TextbookUnit::GiB,
         {"peak stage " + stage + ": the in-flight microbatches' activations",
          "峰值阶段 " + stage + "：在途微批的激活"},
         {"elements, not bytes, and about 34 of them per token and hidden unit per layer (Korthikanti et al. "
          "2022); only the microbatches in flight are held, not the whole global batch; TP, SP, CP and PP "
          "split them, recompute drops some",
          "这是元素个数而非字节数，每层每个 token 每个隐藏单元约有 34 个（Korthikanti 等 2022）；只保存在途的微批，"
          "而不是整个全局批；TP、SP、CP 和 PP 会切分，重计算会丢弃一部分"}});
    out.push_back(
        {"weights_fit",
         {"\"the model fits\": weights alone", "“放得下”：只算权重"},
         {"2P bytes (bf16 weights)", "2P 字节（BF16 权重）"},
         2 * P / kGiB,
         est.memory.peak_bytes / kGiB,
         TextbookUnit::GiB,
         {"the peak GPU's memory: states, activations and workspace", "峰值 GPU 的显存：模型状态、激活和工作空间"},
         {"gradients, optimizer states and activations: \"7B fits on 80 GB\" counts the weights only; "
          "a 7B model on plain data parallelism needs far more (lesson 5)",
          "梯度、优化器状态和激活：“7B 能放进 80 GB”只算了权重；7B 模型纯数据并行需要的远不止于此（教学案例 5）"}});
}

void trafficRows(std::vector<TextbookRow>& out, const Scenario& sc, const Estimate& est)
{
    const double P = double(est.params.total), N = double(sc.parallel.dp);
    const double grad_bytes = 2; // the chapter's P in bf16 bytes
    const double dp = groupBytes(est, {Group::Dp, Group::Edp}) / kGiB;
    const Localized engine_dp{"bytes each GPU sends per step in the DP collectives (buckets, ZeRO, microbatches)",
                              "每块 GPU 每步在 DP 集合通信中发送的字节（分桶、ZeRO、微批）"};
    out.push_back({"dp_traffic",
                   {"DP traffic", "DP 通信量"},
                   {"2·P·DP", "2·P·DP"},
                   2 * P * grad_bytes * N / kGiB,
                   dp,
                   TextbookUnit::GiB,
                   engine_dp,
                   {"2·P·DP is the total over all DP GPUs, not one GPU's traffic: each GPU of a ring sends 2(N−1)/N·P",
                    "2·P·DP 是全部 DP GPU 的总和，不是单块 GPU 的通信量：环形算法中每块 GPU 发送 2(N−1)/N·P"}});
    out.push_back(
        {"ring_traffic",
         {"ring AllReduce per GPU", "环形 AllReduce 每块 GPU"},
         {"2(N−1)/N·P", "2(N−1)/N·P"},
         N > 1 ? 2 * (N - 1) / N * P * grad_bytes / kGiB : 0,
         dp,
         TextbookUnit::GiB,
         engine_dp,
         {"one AllReduce of bf16 gradients per step: PP and TP give each GPU only its share of P, ZeRO splits "
          "it into ReduceScatter + AllGather, ZeRO-2/3 repeat it per microbatch, fp32 gradients double it",
          "每步一次 BF16 梯度的 AllReduce：PP 与 TP 让每块 GPU 只负责 P 的一部分，ZeRO 把它拆成 ReduceScatter + "
          "AllGather，ZeRO-2/3 每个微批都要做，FP32 梯度则加倍"}});
    const double B = double(sc.training.global_batch), S = double(sc.training.seq_len), H = double(sc.model.hidden);
    out.push_back({"tp_traffic",
                   {"TP traffic", "TP 通信量"},
                   {"2·B·S·H·TP", "2·B·S·H·TP"},
                   sc.parallel.tp > 1 ? 2 * B * S * H * double(sc.parallel.tp) / kGiB : 0,
                   groupBytes(est, {Group::Tp}) / kGiB,
                   TextbookUnit::GiB,
                   {"bytes each GPU sends per step in its TP group", "每块 GPU 每步在 TP 组内发送的字节"},
                   {"elements, not bytes; 4 collectives per layer (2 forward, 2 backward) over L layers of a stage; "
                    "each GPU sends (TP−1)/TP of a buffer, not TP times it; B is split into the microbatches of DP "
                    "replicas",
                    "这是元素个数而非字节数；每层 4 次集合通信（前向 2 次、反向 2 次），乘以一个阶段的层数；每块 GPU "
                    "发送缓冲区的 "
                    "(TP−1)/TP，而不是 TP 倍；B 要分给各 DP 副本的微批"}});
}

void timeRows(std::vector<TextbookRow>& out, const Scenario& sc, const Estimate& est)
{
    double comm = 0;
    for (const CommEntry& c : est.communication)
        comm += c.time_s;
    const double compute = est.time.compute_s;
    out.push_back({"comm_share",
                   {"communication share of the step", "通信占单步耗时的比例"},
                   {"volume ÷ bandwidth, nothing overlapped", "通信量 ÷ 带宽，完全不重叠"},
                   compute + comm > 0 ? comm / (compute + comm) : 0,
                   est.time.step_s > 0 ? est.time.exposed_comm_s / est.time.step_s : 0,
                   TextbookUnit::Fraction,
                   {"exposed communication ÷ step: what the simulated timeline cannot hide",
                    "未重叠通信 ÷ 单步耗时：模拟时间线中无法掩盖的部分"},
                   {"overlap: DP gradients reduce during the backward, PP sends beside compute, and TP, PP and DP "
                    "use different links at once; the chapter's \"69 % communication\" adds every volume on one link",
                    "重叠：DP 梯度在反向传播中归约，PP 发送与计算并行，TP、PP、DP 同时使用不同链路；教材的“69 % "
                    "是通信”把所有通信量"
                    "加在一条链路上"}});
    const double tokens = double(sc.training.global_batch) * double(sc.training.seq_len);
    out.push_back({"sequences",
                   {"sequences per step", "每步序列数"},
                   {"tokens ÷ 1000 (\"2M tokens ≈ 2000 sequences\")", "token 数 ÷ 1000（“2M token ≈ 2000 条序列”）"},
                   tokens / 1000,
                   double(sc.training.global_batch),
                   TextbookUnit::Sequences,
                   {"the global batch: sequences of " + std::to_string(sc.training.seq_len) + " tokens",
                    "全局批大小：每条 " + std::to_string(sc.training.seq_len) + " 个 token 的序列"},
                   {"a sequence is seq_len tokens, not 1000: 2M tokens are 512 sequences of 4096",
                    "一条序列有 seq_len 个 token，而不是 1000 个：2M token 是 512 条 4096 长的序列"}});
}

} // namespace

std::vector<TextbookRow> textbookRows(const Scenario& sc, const Estimate& est)
{
    std::vector<TextbookRow> out;
    memoryRows(out, sc, est);
    trafficRows(out, sc, est);
    timeRows(out, sc, est);
    return out;
}

std::string textbookValue(double v, TextbookUnit unit, const std::string& lang)
{
    const bool zh = lang.rfind("zh", 0) == 0;
    switch (unit) {
    case TextbookUnit::GiB: return formatBytes(v * kGiB);
    case TextbookUnit::Fraction: return formatPercent(v);
    case TextbookUnit::Sequences: return num(std::round(v)) + (zh ? " 条序列" : " sequences");
    }
    return num(v);
}

} // namespace parascope
