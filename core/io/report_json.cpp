#include "io/report_json.h"

#include "estimate/diagnostics.h"

#include <cstdio>
#include <sstream>

namespace parascope {

namespace {

nlohmann::json termsToJson(const std::vector<Term>& terms)
{
    nlohmann::json a = nlohmann::json::array();
    for (const Term& t : terms)
        a.push_back({{"name", t.name}, {"value", t.value}, {"unit", t.unit}, {"formula", t.formula},
                     {"substituted", t.substituted}, {"source", t.source}});
    return a;
}

// Bytes and counts are whole numbers in the report; JSON integers when they fit exactly.
nlohmann::json whole(double v)
{
    if (v >= 0 && v < 9.0e15)
        return nlohmann::json(std::int64_t(v + 0.5));
    return nlohmann::json(v);
}

} // namespace

nlohmann::json reportToJson(const Scenario& sc, const Estimate& est, const std::string& lang, bool explain)
{
    nlohmann::json j;
    j["schema"] = kReportSchema;
    j["scenario"] = sc.name;
    j["model"] = {{"params", est.params.total}, {"active_params", est.params.active}};
    if (explain)
        j["model"]["terms"] = termsToJson(est.params.terms);
    j["gpus"] = est.gpus;
    if (!sc.cluster.calibration.empty())
        j["calibration"] = termsToJson(sc.cluster.calibration);
    j["microbatches"] = est.microbatches;

    nlohmann::json stages = nlohmann::json::array();
    for (const StageMemory& s : est.memory.stages) {
        nlohmann::json st = {{"stage", s.stage}, {"layers", s.layers}, {"inflight_microbatches", s.inflight_microbatches},
                             {"weights", whole(s.weights)}, {"gradients", whole(s.gradients)},
                             {"optimizer", whole(s.optimizer)}, {"activations", whole(s.activations)},
                             {"other", whole(s.other)}, {"total", whole(s.total())}};
        if (explain && !s.terms.empty()) // with thousands of stages, only some carry terms
            st["terms"] = termsToJson(s.terms);
        stages.push_back(std::move(st));
    }
    j["memory"] = {{"capacity_bytes", whole(est.memory.capacity_bytes)}, {"peak_bytes", whole(est.memory.peak_bytes)},
                   {"peak_stage", est.memory.peak_stage}, {"fits", est.memory.fits},
                   {"explained_stages", est.memory.explained_stages}, {"stages", std::move(stages)}};

    j["flops"] = {{"model_flops_per_step", est.flops.model_flops_per_step},
                  {"hardware_flops_per_step", est.flops.hardware_flops_per_step},
                  {"convention", est.flops.convention}};
    if (explain)
        j["flops"]["terms"] = termsToJson(est.flops.terms);

    nlohmann::json comm = nlohmann::json::array();
    for (const CommEntry& c : est.communication) {
        nlohmann::json e = {{"group", toString(c.group)}, {"collective", toString(c.collective)}, {"calls_per_step", c.calls_per_step},
                            {"bytes_per_call", whole(c.bytes_per_call)}, {"bytes_per_gpu_per_step", whole(c.bytes_per_gpu_per_step)},
                            {"link", toString(c.link)}, {"purpose", toString(c.purpose)}, {"time_s", c.time_s},
                            {"exposed_s", c.exposed_s}, {"group_size", c.group_size}, {"nodes_spanned", c.nodes_spanned},
                            {"overlap", toString(c.overlap)}};
        if (explain)
            e["terms"] = termsToJson(c.terms);
        comm.push_back(std::move(e));
    }
    j["communication"] = std::move(comm);

    nlohmann::json groups = nlohmann::json::array();
    for (const GroupPlacement& g : est.placement.groups)
        groups.push_back({{"group", toString(g.group)}, {"size", g.size}, {"stride", g.stride}, {"nodes", g.nodes},
                          {"link", toString(g.link)}});
    j["placement"] = {{"gpus", est.placement.gpus}, {"nodes", est.placement.nodes}, {"groups", std::move(groups)}};

    const TimeReport& t = est.time;
    j["time"] = {{"step_s", t.step_s}, {"compute_s", t.compute_s}, {"bubble_s", t.bubble_s},
                 {"bubble_fraction", t.bubble_fraction}, {"exposed_comm_s", t.exposed_comm_s},
                 {"optimizer_s", t.optimizer_s}, {"method", t.method}, {"critical_rank", t.critical_rank}};
    if (!t.note.empty())
        j["time"]["note"] = t.note;
    if (explain)
        j["time"]["terms"] = termsToJson(t.terms);
    const ThroughputReport& th = est.throughput;
    j["throughput"] = {{"tokens_per_s", th.tokens_per_s}, {"model_tflops_per_gpu", th.model_tflops_per_gpu},
                       {"hardware_tflops_per_gpu", th.hardware_tflops_per_gpu}, {"mfu", th.mfu}, {"hfu", th.hfu}};
    if (explain)
        j["throughput"]["terms"] = termsToJson(th.terms);

    nlohmann::json diags = nlohmann::json::array();
    for (const Diagnostic& d : est.diagnostics) {
        nlohmann::json e = {{"severity", toString(d.severity)}, {"code", d.code},
                            {"message", d.message.in(lang)}, {"suggestion", d.suggestion.in(lang)},
                            {"message_en", d.message.en}, {"message_zh", d.message.zh},
                            {"suggestion_en", d.suggestion.en}, {"suggestion_zh", d.suggestion.zh}};
        e["stage"] = d.stage >= 0 ? nlohmann::json(d.stage) : nlohmann::json(nullptr);
        if (!d.knob.empty())
            e["knob"] = d.knob;
        diags.push_back(std::move(e));
    }
    j["diagnostics"] = std::move(diags);
    return j;
}

namespace {

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
    return fmt("%.1f us", s * 1e6);
}

std::string pad(std::string s, std::size_t w, bool right = true)
{
    // Width in terminal columns: count UTF-8 lead bytes; CJK characters take two columns.
    std::size_t cols = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = s[i];
        if ((c & 0xC0) == 0x80)
            continue;
        cols += c >= 0xE3 ? 2 : 1;
    }
    if (cols >= w)
        return s;
    const std::string fill(w - cols, ' ');
    return right ? fill + s : s + fill;
}

} // namespace

std::string textReport(const Scenario& sc, const Estimate& est, const std::string& lang)
{
    const bool zh = lang.rfind("zh", 0) == 0;
    const auto T = [zh](const char* en, const char* cn) { return std::string(zh ? cn : en); };
    std::ostringstream o;
    const ParallelConfig& p = sc.parallel;
    const TrainingConfig& t = sc.training;
    o << "ParaScope — " << (sc.name.empty() ? sc.model.name : sc.name) << "\n";
    o << T("Model: ", "模型：") << sc.model.name << "  " << fmt("%.3f", double(est.params.total) / 1e9) << " B "
      << T("params", "参数");
    if (est.params.active != est.params.total)
        o << " (" << fmt("%.3f", double(est.params.active) / 1e9) << " B " << T("active", "激活") << ")";
    o << "\n";
    o << T("Cluster: ", "集群：") << est.gpus << " × " << sc.cluster.gpu.name << " (" << est.placement.nodes << " "
      << T("nodes", "节点") << ", " << sc.cluster.gpus_per_node << T(" GPUs/node", " GPU/节点") << ")\n";
    for (const Term& c : sc.cluster.calibration)
        o << T("  calibrated ", "  已校准 ") << c.name.substr(c.name.find('.') + 1) << " = " << num(c.value) << "  ["
          << c.substituted << "; " << c.source << "]\n";
    o << T("Parallel: ", "并行：") << "TP " << p.tp << " · PP " << p.pp << " · DP " << p.dp << " · CP " << p.cp << " · EP " << p.ep;
    if (p.schedule == ScheduleKind::Interleaved)
        o << " · VPP " << p.vpp;
    o << " · ZeRO-" << p.zero << (p.sequence_parallel ? " · SP" : "") << " · " << toString(p.schedule) << "\n";
    o << T("Training: ", "训练：") << "seq " << t.seq_len << " · micro batch " << t.micro_batch << " · global batch "
      << t.global_batch << " (" << est.microbatches << T(" microbatches", " 个微批") << ") · " << toString(t.precision)
      << " · " << T("recompute ", "重计算 ") << toString(t.recompute) << "\n\n";

    o << T("Memory per GPU (GiB)", "每块 GPU 内存 (GiB)") << ", " << T("capacity ", "容量 ") << gib(est.memory.capacity_bytes) << "\n";
    o << pad(T("stage", "阶段"), 6, false) << pad(T("layers", "层数"), 7) << pad(T("weights", "权重"), 9)
      << pad(T("grads", "梯度"), 9) << pad(T("optim", "优化器"), 9) << pad(T("activ", "激活"), 9)
      << pad(T("other", "其他"), 9) << pad(T("total", "合计"), 9) << "\n";
    const std::size_t max_rows = 16;
    const auto& stages = est.memory.stages;
    for (std::size_t i = 0; i < stages.size(); ++i) {
        if (stages.size() > max_rows && i == max_rows / 2) {
            o << "  … " << stages.size() - max_rows << T(" more stages", " 个阶段省略") << " …\n";
            i = stages.size() - max_rows / 2;
        }
        const StageMemory& s = stages[i];
        o << pad(std::to_string(s.stage), 6, false) << pad(std::to_string(s.layers), 7) << pad(gib(s.weights), 9)
          << pad(gib(s.gradients), 9) << pad(gib(s.optimizer), 9) << pad(gib(s.activations), 9) << pad(gib(s.other), 9)
          << pad(gib(s.total()), 9) << (s.total() > est.memory.capacity_bytes ? T("  OOM", "  超出") : "") << "\n";
    }
    o << T("Peak: stage ", "峰值：阶段 ") << est.memory.peak_stage << T(", ", "，") << gib(est.memory.peak_bytes) << " GiB "
      << (est.memory.fits ? T("(fits)", "（放得下）") : T("(does NOT fit)", "（放不下）")) << "\n\n";

    o << T("Communication per GPU per step", "每块 GPU 每步通信") << "\n";
    o << pad(T("group", "组"), 6, false) << pad(T("collective", "集合通信"), 16, false) << pad(T("purpose", "用途"), 12, false)
      << pad(T("link", "链路"), 8, false) << pad("n", 6) << pad(T("calls", "次数"), 9) << pad(T("GB sent", "发送 GB"), 10)
      << pad(T("link time", "链路时间"), 12) << pad(T("exposed", "暴露"), 12) << "\n";
    for (const CommEntry& c : est.communication) {
        o << pad(toString(c.group), 6, false) << pad(toString(c.collective), 16, false) << pad(toString(c.purpose), 12, false)
          << pad(toString(c.link), 8, false) << pad(std::to_string(c.group_size), 6) << pad(fmt("%.0f", c.calls_per_step), 9)
          << pad(fmt("%.2f", c.bytes_per_gpu_per_step / 1e9), 10) << pad(seconds(c.time_s), 12)
          << pad(seconds(c.exposed_s), 12) << "\n";
    }
    if (est.communication.empty())
        o << T("  (none: a single GPU)", "  （无：单块 GPU）") << "\n";
    o << "\n";

    const TimeReport& tr = est.time;
    const ThroughputReport& th = est.throughput;
    const bool simulated = tr.method.rfind("simulated", 0) == 0;
    o << (simulated ? T("Step (simulated): ", "步长（事件仿真）：") : T("Step (closed form): ", "步长（解析估计）："))
      << seconds(tr.step_s) << " = " << T("compute ", "计算 ")
      << seconds(tr.compute_s) << " + " << T("bubble ", "气泡 ") << seconds(tr.bubble_s) << " + "
      << T("exposed comm ", "暴露通信 ") << seconds(tr.exposed_comm_s) << " + " << T("optimizer ", "优化器 ")
      << seconds(tr.optimizer_s) << "\n";
    if (!tr.note.empty())
        o << "  (" << tr.note << ")\n";
    o << T("Bubble (idle / step): ", "气泡（空闲/步长）：") << fmt("%.1f %%", tr.bubble_fraction * 100) << "   "
      << T("Tokens/s: ", "吞吐 tokens/s：") << fmt("%.0f", th.tokens_per_s) << "   MFU " << fmt("%.1f %%", th.mfu * 100)
      << "   HFU " << fmt("%.1f %%", th.hfu * 100) << "\n";
    o << T("FLOPs: ", "FLOPs 口径：")
      << (zh ? "Megatron 通用公式（2024）：只计矩阵乘，注意力按非因果全量计，反向 = 2×前向；对 GPT 即 Narayanan 2021 式 (3)"
             : est.flops.convention)
      << "\n\n";

    o << T("What breaks", "问题诊断") << " (" << est.diagnostics.size() << ")\n";
    if (est.diagnostics.empty())
        o << T("  nothing: this configuration is valid and fits.", "  无：该配置有效且放得下。") << "\n";
    for (const Diagnostic& d : est.diagnostics) {
        const char* tag = d.severity == Severity::Error ? (zh ? "错误" : "ERROR")
                        : d.severity == Severity::Warning ? (zh ? "警告" : "WARN") : (zh ? "提示" : "INFO");
        o << "  [" << tag << "] " << d.code << ": " << d.message.in(lang) << "\n";
        o << "      → " << d.suggestion.in(lang) << "\n";
    }
    return o.str();
}

} // namespace parascope
