// The text report (parascope-cli evaluate's default output), section by section: header,
// memory per stage, communication, time, the layer's ops, the walls, the textbook's figures and
// the diagnostics. The JSON report is io/report_json.cpp.

#include "io/report_json.h"
#include "estimate/allocator_view.h"
#include "io/error_bands.h"

#include "io/comm_report.h"
#include "io/textbook_report.h"

#include "schedule/schedule_table.h"
#include "estimate/diagnostics.h"
#include "estimate/display_names.h"
#include "io/layer_ops_report.h"
#include "util/text_columns.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace parascope {

namespace {

// The text report names each PP boundary up to this many; beyond, only the counts per link.
constexpr std::size_t kListedBoundaries = 16;

std::string fmt(const char* f, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

std::string gib(double bytes) { return fmt("%.2f", bytes / double(1ull << 30)); }

std::string seconds(double s)
{
    if (s >= 1)
        return fmt("%.3f s", s);
    if (s >= 1e-3)
        return fmt("%.2f ms", s * 1e3);
    return fmt("%.1f µs", s * 1e6);
}

// time.note in Chinese: the engine writes it in English (time/step_time.cpp); these are its forms.
std::string noteZh(const TimeReport& t)
{
    const std::string& note = t.note;
    long long simulated = 0, total = 0;
    if (std::sscanf(note.c_str(), "simulated %lld of %lld microbatches", &simulated, &total) == 2)
        return "模拟了 " + std::to_string(total) + " 个微批中的 " + std::to_string(simulated)
            + " 个，其余按稳态周期外推";
    if (note.rfind("closed form requested", 0) == 0)
        return "按要求使用解析估计";
    if (note.rfind("the schedule cannot run", 0) == 0) {
        std::string why = "调度要求不满足";
        if (note.find("vpp ≥ 2") != std::string::npos)
            why = "交错式 1F1B 需要 VPP ≥ 2";
        else if (note.find("multiple of pp") != std::string::npos)
            why = "交错式 1F1B 要求微批数是 PP 的整数倍";
        else if (note.find("even pp") != std::string::npos)
            why = "DualPipe 需要偶数的 PP";
        else if (note.find("even number of microbatches") != std::string::npos)
            why = "DualPipe 需要偶数个微批，且至少 2·PP 个";
        else if (note.find("2·pp") != std::string::npos)
            why = "DualPipeV 至少需要 2·PP 个微批";
        else if (note.find("at least one") != std::string::npos)
            why = "至少需要一个流水线阶段和一个微批";
        return "该调度无法运行（" + why + "），改用解析估计";
    }
    if (note.rfind("the pipeline is too large", 0) == 0)
        return "流水线过大，无法逐项模拟，改用解析估计";
    if (note.rfind("the schedule deadlocks", 0) == 0)
        return "该调度发生死锁，改用解析估计";
    return t.method == "closed-form" ? "解析估计" : "事件模拟";
}

} // namespace

// The text report, section by section (textReport puts them together).
namespace {

// The fabric's what-ifs (network.*), when they are not the DGX design.
std::string fabricText(const FabricSpec& f, bool zh)
{
    std::string nics
        = f.nics_per_node > 0 ? std::to_string(f.nics_per_node) : std::string(zh ? "每 GPU 一块" : "one per GPU");
    std::string out = zh ? "每节点网卡 " + nics : "NICs per node " + nics;
    if (f.nodes_per_leaf > 0)
        out += zh ? "，每个叶交换机 " + std::to_string(f.nodes_per_leaf) + " 个节点，上行收敛比 "
                + std::to_string(f.oversubscription) + ":1"
                  : ", " + std::to_string(f.nodes_per_leaf) + " nodes per leaf switch, uplinks "
                + std::to_string(f.oversubscription) + ":1 oversubscribed";
    return out;
}

void headerText(std::ostringstream& o, const Scenario& sc, const Estimate& est, bool zh)
{
    [[maybe_unused]] const auto T = [zh](const char* en, const char* cn) { return std::string(zh ? cn : en); };
    [[maybe_unused]] const auto L = [zh](const Localized& l) { return zh ? l.zh : l.en; };
    const ParallelConfig& p = sc.parallel;
    const TrainingConfig& t = sc.training;
    // The scenario's own name is the file's (English) label; the Chinese report names the model
    // and, like the GUI's title, nothing that a --set may have left behind.
    o << "ParaScope — " << (zh || sc.name.empty() ? sc.model.name : sc.name) << "\n";
    if (zh) {
        const double mtp = double(est.params.mtp_modules * est.params.mtp_module);
        o << "模型：" << sc.model.name << "，" << fmt("%.1f", double(est.params.total) / 1e8) << " 亿参数"
          << (mtp > 0 ? "（含 MTP 模块 " + fmt("%.1f", mtp / 1e8) + " 亿；不含为 "
                      + fmt("%.1f", (double(est.params.total) - mtp) / 1e8) + " 亿）"
                      : "");
        if (est.params.active != est.params.total)
            o << "（激活参数 " << fmt("%.1f", double(est.params.active) / 1e8) << " 亿）";
        o << "\n";
        o << "集群：" << est.gpus << " × " << sc.cluster.gpu.name << "（" << est.placement.nodes << " 个节点，每节点 "
          << sc.cluster.gpus_per_node << " 块 GPU）\n";
        if (!sc.cluster.fabric.isDefault())
            o << "  网络：" << fabricText(sc.cluster.fabric, true) << "\n";
        for (const Term& c : sc.cluster.calibration)
            o << "  已校准 " << c.name << " = " << num(c.value) << "（推导与来源见机器可读报告）\n";
    } else {
        const double mtp = double(est.params.mtp_modules * est.params.mtp_module);
        o << "Model: " << sc.model.name << "  " << fmt("%.3f", double(est.params.total) / 1e9) << " B params"
          << (mtp > 0 ? " with the MTP module (" + fmt("%.3f", (double(est.params.total) - mtp) / 1e9)
                      + " B without, MTP " + fmt("%.3f", mtp / 1e9) + " B)"
                      : "");
        if (est.params.active != est.params.total)
            o << " (" << fmt("%.3f", double(est.params.active) / 1e9) << " B active)";
        o << "\n";
        o << "Cluster: " << est.gpus << " × " << sc.cluster.gpu.name << " ("
          << countOf(est.placement.nodes, "node", "nodes") << ", " << sc.cluster.gpus_per_node
          << (sc.cluster.gpus_per_node == 1 ? " GPU/node)\n" : " GPUs/node)\n");
        if (!sc.cluster.fabric.isDefault())
            o << "  Network: " << fabricText(sc.cluster.fabric, false) << "\n";
        for (const Term& c : sc.cluster.calibration)
            o << "  calibrated " << c.name.substr(c.name.find('.') + 1) << " = " << num(c.value) << "  ["
              << c.substituted << "; " << c.source << "]\n";
    }
    o << T("Parallel: ", "并行：") << "TP " << p.tp << " · PP " << p.pp << " · DP " << p.dp << " · CP " << p.cp
      << " · EP " << p.ep;
    if (scheduleRow(p.schedule).chunks_from_vpp)
        o << " · VPP " << p.vpp;
    o << " · ZeRO-" << p.zero << (p.sequence_parallel ? " · SP" : "") << " · "
      << (zh ? displayName(p.schedule).zh : std::string(toString(p.schedule))) << "\n";
    if (zh)
        o << "训练：序列长度 " << t.seq_len << " · 微批大小 " << t.micro_batch << " · 全局批大小 " << t.global_batch
          << "（" << est.microbatches << " 个微批）· " << displayName(t.precision).zh << " · "
          << displayName(t.recompute).zh << "\n\n";
    else
        o << "Training: seq " << t.seq_len << " · micro batch " << t.micro_batch << " · global batch " << t.global_batch
          << " (" << countOf(est.microbatches, "microbatch", "microbatches") << ") · " << toString(t.precision)
          << " · recompute " << toString(t.recompute) << "\n\n";
}

// A stage's mark in the memory table: out of memory, or inside the band the model cannot resolve.
template <class Tr> std::string stageMark(MemoryVerdict v, const Tr& T)
{
    return v == MemoryVerdict::OutOfMemory ? T("  OOM", "  显存溢出")
        : v == MemoryVerdict::Borderline   ? T("  borderline", "  临界")
                                           : std::string();
}

// The peak's verdict in three states (memory_verdict.h), the band said with the borderline one.
template <class Tr> std::string verdictText(const MemoryReport& m, const Tr& T)
{
    switch (m.verdict) {
    case MemoryVerdict::Fits: return T(" (fits)", "（放得下）");
    case MemoryVerdict::Borderline:
        return T(" (borderline: within ±", "（临界：在容量 ±") + gib(kMemoryBandFraction * m.capacity_bytes)
            + T(" GiB of the capacity, which the memory model cannot resolve)", " GiB 之内，显存模型无法分辨）");
    case MemoryVerdict::OutOfMemory: break;
    }
    return T(" (does NOT fit)", "（放不下）");
}

// Bytes as the allocator lines show them: MiB below a GiB, else GiB.
std::string bytesText(double b)
{
    return b < double(1ull << 30) ? fmt("%.0f MiB", b / double(1ull << 20)) : gib(b) + " GiB";
}

// The memory-management view's peaks (estimate/allocator_view.h) and CPU offload's PCIe copies.
void allocatorText(std::ostringstream& o, const Scenario& sc, const Estimate& est, bool zh)
{
    const auto T = [zh](const char* en, const char* cn) { return std::string(zh ? cn : en); };
    const AllocatorView a = allocatorView(sc, est);
    if (est.memory.stages.empty())
        return;
    const bool caching = a.allocator == AllocatorKind::Caching;
    o << T("Allocator (", "显存分配器（") << (zh ? (caching ? "缓存分配器" : "可扩展段") : toString(a.allocator))
      << T("): stage ", "）：阶段 ") << a.rank << T(" allocated ", " 已分配 ") << gib(a.allocated_peak)
      << T(" GiB, reserved ", " GiB，已预留 ") << gib(a.reserved_peak) << T(" GiB (fragmentation ", " GiB（碎片 ")
      << bytesText(a.reserve_bytes)
      << (caching ? T("; expandable_segments would keep ", "；改用可扩展段只留 ")
                  : T("; the caching allocator would keep ", "；改用缓存分配器会留 "))
      << bytesText(a.other_reserve_bytes) << T(")", "）") << "\n";
    if (a.pcie.bytes_per_s > 0)
        o << T("CPU offload over PCIe per step: ", "CPU 卸载每步 PCIe 传输：") << T("to the host ", "传到主机 ")
          << bytesText(a.pcie.d2h_bytes) << T(", back ", "，传回 ") << bytesText(a.pcie.h2d_bytes) << T(", ", "，")
          << seconds(a.pcie.seconds()) << "\n";
}

void memoryText(std::ostringstream& o, const Scenario& sc, const Estimate& est, bool zh)
{
    [[maybe_unused]] const auto T = [zh](const char* en, const char* cn) { return std::string(zh ? cn : en); };
    [[maybe_unused]] const auto L = [zh](const Localized& l) { return zh ? l.zh : l.en; };
    o << T("Memory per GPU (GiB), capacity ", "每块 GPU 显存（GiB），容量 ") << gib(est.memory.capacity_bytes) << "\n";
    o << padColumns(T("stage", "阶段"), 6, false) << padColumns(T("layers", "层数"), 7)
      << padColumns(T("weights", "权重"), 9) << padColumns(T("grads", "梯度"), 9) << padColumns(T("optim", "优化器"), 9)
      << padColumns(T("activ", "激活"), 9) << padColumns(T("other", "其他"), 9) << padColumns(T("total", "合计"), 9)
      << "\n";
    const std::size_t max_rows = 16;
    const auto& stages = est.memory.stages;
    for (std::size_t i = 0; i < stages.size(); ++i) {
        if (stages.size() > max_rows && i == max_rows / 2) {
            o << "  … " << stages.size() - max_rows << T(" more stages", " 个阶段省略") << " …\n";
            i = stages.size() - max_rows / 2;
        }
        const StageMemory& s = stages[i];
        o << padColumns(std::to_string(s.stage), 6, false) << padColumns(std::to_string(s.layers), 7)
          << padColumns(gib(s.weights), 9) << padColumns(gib(s.gradients), 9) << padColumns(gib(s.optimizer), 9)
          << padColumns(gib(s.activations), 9) << padColumns(gib(s.other), 9) << padColumns(gib(s.total()), 9)
          << stageMark(memoryVerdict(s.total(), est.memory.capacity_bytes), T) << "\n";
    }
    o << T("Peak: stage ", "峰值：阶段 ") << est.memory.peak_stage << T(", ", "，") << gib(est.memory.peak_bytes)
      << " GiB" << verdictText(est.memory, T) << "\n";
    if (sc.parallel.offload != Offload::None)
        o << T("CPU offload (", "CPU 卸载（")
          << (sc.parallel.offload == Offload::Params ? T("parameters, gradients, optimizer", "参数、梯度、优化器状态")
                                                     : T("optimizer states", "优化器状态"))
          << T("): host memory per node ", "）：每个节点主机内存 ") << gib(est.memory.cpu_bytes_per_node) << " / "
          << gib(est.memory.host_capacity_bytes) << " GiB"
          << (est.memory.fits_host ? T(" (fits)", "（放得下）") : T(" (does NOT fit)", "（放不下）")) << "\n";
    allocatorText(o, sc, est, zh);
    o << "\n";
}

void communicationText(std::ostringstream& o, const Estimate& est, bool zh)
{
    [[maybe_unused]] const auto T = [zh](const char* en, const char* cn) { return std::string(zh ? cn : en); };
    [[maybe_unused]] const auto L = [zh](const Localized& l) { return zh ? l.zh : l.en; };
    o << T("Communication per GPU per step", "每块 GPU 每步通信") << "\n";
    o << padColumns(T("group", "组"), zh ? 9 : 6, false) << padColumns(T("collective", "集合通信"), 16, false)
      << padColumns(T("purpose", "用途"), 12, false) << padColumns(T("link", "链路"), 8, false)
      << padColumns(T("algorithm", "算法"), zh ? 10 : 13, false) << padColumns(T("n", "规模"), 6)
      << padColumns(T("calls", "次数"), 9) << padColumns(T("GiB sent", "发送 GiB"), 10)
      << padColumns(T("busbw GB/s", "总线带宽 GB/s"), 14) << padColumns(T("link time", "链路时间"), 12)
      << padColumns(T("exposed", "未重叠"), 12) << "\n";
    for (const CommEntry& c : est.communication) {
        o << padColumns(zh ? displayName(c.group).zh : toString(c.group), zh ? 9 : 6, false)
          << padColumns(zh ? displayName(c.collective).zh : toString(c.collective), 16, false)
          << padColumns(zh ? displayName(c.purpose).zh : toString(c.purpose), 12, false)
          << padColumns(zh ? displayName(c.link).zh : toString(c.link), 8, false)
          << padColumns(zh ? displayName(c.algorithm).zh : toString(c.algorithm), zh ? 10 : 13, false)
          << padColumns(std::to_string(c.group_size), 6) << padColumns(fmt("%.0f", c.calls_per_step), 9)
          << padColumns(fmt("%.2f", c.bytes_per_gpu_per_step / double(1ull << 30)), 10) // GiB, as the GUI and lessons
          << padColumns(fmt("%.1f", c.busbw_bytes_per_s / 1e9), 14) << padColumns(seconds(c.time_s), 12)
          << padColumns(seconds(c.exposed_s), 12) << "\n";
    }
    if (est.communication.empty())
        o << T("  (none: a single GPU)", "  （无：单块 GPU）") << "\n";
    if (const auto& pb = est.placement.pp_boundaries; !pb.empty()) {
        const bool mixed
            = std::any_of(pb.begin(), pb.end(), [&](const PipelineBoundary& b) { return b.link != pb.front().link; });
        o << T("PP stage boundaries: ", "PP 阶段边界：")
          << (mixed ? boundaryLinks(pb).in(zh ? "zh" : "en")
                    : displayName(pb.front().link).in(zh ? "zh" : "en") + " ×" + std::to_string(pb.size()));
        if (mixed && pb.size() <= kListedBoundaries)
            o << T(" (", "（") << boundaryList(pb).in(zh ? "zh" : "en") << T(")", "）");
        o << "\n";
    }
    o << "\n";
}

void timeText(std::ostringstream& o, const Scenario& sc, const Estimate& est, bool zh)
{
    [[maybe_unused]] const auto T = [zh](const char* en, const char* cn) { return std::string(zh ? cn : en); };
    [[maybe_unused]] const auto L = [zh](const Localized& l) { return zh ? l.zh : l.en; };
    const TimeReport& tr = est.time;
    const ThroughputReport& th = est.throughput;
    const bool simulated = tr.method.rfind("simulated", 0) == 0;
    o << (simulated ? T("Step (simulated): ", "单步耗时（事件模拟）：")
                    : T("Step (closed form): ", "单步耗时（解析估计）："))
      << seconds(tr.step_s) << " = " << T("compute (mean rank) ", "计算（各 rank 平均）") << seconds(tr.mean_compute_s)
      << " + " << T("uneven stages ", "阶段负载不均 ") << seconds(tr.uneven_s) << " + " << T("bubble ", "气泡 ")
      << seconds(tr.bubble_s) << " + " << T("exposed comm ", "未重叠通信 ") << seconds(tr.exposed_comm_s) << " + "
      << T("optimizer ", "优化器 ") << seconds(tr.optimizer_s) << "\n";
    if (!tr.note.empty())
        o << (zh ? "  （" + noteZh(tr) + "）" : "  (" + tr.note + ")") << "\n";
    // How sure: the validated error of the scenario's class (error_bands.h).
    const Localized band = bandText(bandFor(builtInBands(), sc));
    o << T("  How sure: ", "  可信度：") << L(band) << T("; tokens/s and MFU alike\n", "；吞吐与 MFU 同此\n");
    if (zh)
        o << "气泡占比（最重阶段的空闲时间/单步耗时）：" << formatPercent(tr.bubble_fraction) << "   吞吐："
          << fmt("%.0f", th.tokens_per_s) << " tokens/s   MFU " << formatPercent(th.mfu) << "   HFU "
          << formatPercent(th.hfu) << "\n";
    else
        o << "Bubble (the heaviest stage's idle / step): " << formatPercent(tr.bubble_fraction)
          << "   Tokens/s: " << fmt("%.0f", th.tokens_per_s) << "   MFU " << formatPercent(th.mfu) << "   HFU "
          << formatPercent(th.hfu) << "\n";
    o << T("FLOPs: ", "FLOPs 口径：")
      << (zh ? "Megatron 通用公式（2024）：只计矩阵乘，注意力按非因果全量计，反向 = 2×前向；对 GPT 类模型即 Narayanan "
               "等（2021）的式（3）"
             : est.flops.convention)
      << "\n\n";
}

void wallsText(std::ostringstream& o, const Estimate& est, bool zh)
{
    [[maybe_unused]] const auto T = [zh](const char* en, const char* cn) { return std::string(zh ? cn : en); };
    [[maybe_unused]] const auto L = [zh](const Localized& l) { return zh ? l.zh : l.en; };
    o << T("The four walls", "四面墙") << "\n";
    for (const auto& [name, w] : {std::pair{T("memory", "显存墙"), &est.walls.memory},
                                  {T("communication", "通信墙"), &est.walls.communication},
                                  {T("efficiency", "效率墙"), &est.walls.efficiency},
                                  {T("stability", "稳定性墙"), &est.walls.stability}}) {
        const char* verdict = w->verdict == WallVerdict::Hit ? (zh ? "撞墙" : "HIT")
            : w->verdict == WallVerdict::Near                ? (zh ? "接近" : "near")
                                                             : (zh ? "正常" : "ok");
        o << "  " << padColumns(name, 14, false) << padColumns(verdict, 6, false) << L(w->explanation) << "\n";
    }
    o << "\n";
}

void diagnosticsText(std::ostringstream& o, const Estimate& est, bool zh)
{
    [[maybe_unused]] const auto T = [zh](const char* en, const char* cn) { return std::string(zh ? cn : en); };
    [[maybe_unused]] const auto L = [zh](const Localized& l) { return zh ? l.zh : l.en; };
    o << T("What breaks (", "问题诊断（") << est.diagnostics.size() << T(")", "）") << "\n";
    if (est.diagnostics.empty())
        o << T("  nothing: this configuration is valid and fits.", "  无：该配置有效且放得下。") << "\n";
    for (const Diagnostic& d : est.diagnostics) {
        const char* tag = d.severity == Severity::Error ? (zh ? "错误" : "ERROR")
            : d.severity == Severity::Warning           ? (zh ? "警告" : "WARN")
                                                        : (zh ? "提示" : "INFO");
        o << "  [" << tag << "] " << d.code << (zh ? "：" : ": ") << L(d.message) << "\n";
        if (!L(d.suggestion).empty())
            o << "      → " << L(d.suggestion) << "\n";
    }
}

} // namespace

std::string textReport(const Scenario& sc, const Estimate& est, const std::string& lang)
{
    const bool zh = lang.rfind("zh", 0) == 0;
    std::ostringstream o;
    headerText(o, sc, est, zh);
    memoryText(o, sc, est, zh);
    communicationText(o, est, zh);
    timeText(o, sc, est, zh);
    o << layerOpsText(sc.model, est.time, lang);
    wallsText(o, est, zh);
    o << textbookText(textbookRows(sc, est), lang);
    diagnosticsText(o, est, zh);
    return o.str();
}

} // namespace parascope
