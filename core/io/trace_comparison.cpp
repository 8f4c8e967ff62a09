#include "io/trace_comparison.h"

#include "io/error_bands.h"

#include <cctype>

namespace parascope {

namespace {

Localized labelOf(const std::string& key)
{
    static const std::pair<const char*, Localized> labels[] = {
        {"step", {"step time", "单步耗时"}},
        {"gemm", {"GEMMs (matrix multiplies)", "矩阵乘（GEMM）"}},
        {"attention", {"attention kernels", "注意力内核"}},
        {"other_compute",
         {"other compute (elementwise, norms, casts, routing)", "其他计算（逐元素、归一化、类型转换、路由）"}},
        {"optimizer", {"optimizer step", "优化器更新"}},
        {"exposed_communication", {"exposed communication", "未重叠通信"}},
        {"copies", {"copies alone (memcpy, memset)", "单独的拷贝（memcpy、memset）"}},
        {"idle", {"idle (bubble, waits)", "空闲（气泡、等待）"}},
        {"communication", {"communication kernels, overlapped or not", "通信内核（含已重叠）"}},
        {"comm.all_reduce", {"  all-reduce", "  AllReduce"}},
        {"comm.all_gather", {"  all-gather", "  AllGather"}},
        {"comm.reduce_scatter", {"  reduce-scatter", "  ReduceScatter"}},
        {"comm.send_recv", {"  send/receive (pipeline, all-to-all)", "  点对点收发（流水线、All-to-All）"}},
        {"comm.broadcast", {"  broadcast", "  Broadcast"}},
        {"comm.reduce", {"  reduce", "  Reduce"}},
    };
    for (const auto& [k, l] : labels)
        if (key == k)
            return l;
    return {key, key};
}

// Measured collectives and the plan's, in the measured trace's buckets: NCCL runs all-to-all
// as send/receive kernels.
std::string bucketOf(Collective c)
{
    switch (c) {
    case Collective::AllReduce: return "comm.all_reduce";
    case Collective::AllGather: return "comm.all_gather";
    case Collective::ReduceScatter: return "comm.reduce_scatter";
    case Collective::AllToAll:
    case Collective::SendRecv: return "comm.send_recv";
    case Collective::Broadcast: return "comm.broadcast";
    case Collective::Reduce: return "comm.reduce";
    }
    return "comm.send_recv";
}

// The GPU's family in a name as CUDA and the presets write it: "NVIDIA H100 80GB HBM3" and
// "H100 SXM5 80GB" are both H100 (letters then three digits: A100, H800, GH200, B200).
std::string gpuFamily(const std::string& name)
{
    for (std::size_t i = 0; i < name.size(); ++i) {
        std::size_t j = i;
        while (j < name.size() && std::isupper(static_cast<unsigned char>(name[j])))
            ++j;
        std::size_t k = j;
        while (k < name.size() && std::isdigit(static_cast<unsigned char>(name[k])))
            ++k;
        if (j > i && j - i <= 2 && k - j == 3 && (i == 0 || name[i - 1] == ' ' || name[i - 1] == '-'))
            return name.substr(i, k - i);
    }
    return {};
}

double kernel(const StepTotals& t, KernelKind k)
{
    const auto it = t.kernel_s.find(k);
    return it == t.kernel_s.end() ? 0.0 : it->second;
}

} // namespace

const TraceRow* TraceComparison::row(const std::string& key) const
{
    for (const TraceRow& r : rows)
        if (r.key == key)
            return &r;
    return nullptr;
}

// Why the trace cannot be this scenario's job: another GPU type, another job size, or no
// attention kernels where the model spends a tenth of its step in attention (a recommender's
// trace against a transformer).
static std::vector<Localized> jobMismatches(const Scenario& sc, const Estimate& est, const MeasuredTrace& trace,
                                            const TraceComparison& c)
{
    std::vector<Localized> out;
    const std::string traced = gpuFamily(trace.gpu_name), planned = gpuFamily(sc.cluster.gpu.name);
    if (!traced.empty() && !planned.empty() && traced != planned)
        out.push_back({"the trace ran on " + trace.gpu_name + "; the scenario's GPU is " + sc.cluster.gpu.name,
                       "跟踪运行于 " + trace.gpu_name + "；场景的 GPU 是 " + sc.cluster.gpu.name});
    if (trace.world_size > 0 && trace.world_size != est.gpus)
        out.push_back(
            {"the trace comes from a job of " + num(double(trace.world_size)) + " GPUs; the scenario has "
                 + num(double(est.gpus)),
             "跟踪来自 " + num(double(trace.world_size)) + " 张 GPU 的作业；场景有 " + num(double(est.gpus)) + " 张"});
    const TraceRow* attention = c.row("attention");
    const TraceRow* step = c.row("step");
    if (attention && step && attention->measured_s == 0 && step->simulated_s > 0
        && attention->simulated_s > 0.1 * step->simulated_s)
        out.push_back({"the trace runs no attention kernels; the scenario's model spends "
                           + num(100 * attention->simulated_s / step->simulated_s) + " % of its step in attention",
                       "跟踪中没有注意力内核；场景的模型有 " + num(100 * attention->simulated_s / step->simulated_s)
                           + " % 的单步时间在注意力上"});
    return out;
}

TraceComparison compareWithTrace(const Scenario& sc, const Estimate& est, const MeasuredTrace& trace)
{
    TraceComparison c;
    const TimeReport& t = est.time;
    const StepTotals& m = trace.mean;
    const auto add = [&](const std::string& key, double sim, double meas, bool part) {
        c.rows.push_back({key, sim, meas, part, labelOf(key)});
    };
    add("step", t.step_s, trace.step_s, false);
    // The time some compute kernel runs, shared by the kinds' kernel time.
    const double gemm = kernel(m, KernelKind::Gemm), attention = kernel(m, KernelKind::Attention);
    const double other = kernel(m, KernelKind::OtherCompute), optimizer = kernel(m, KernelKind::Optimizer);
    const double compute_kernels = gemm + attention + other + optimizer;
    const double share = compute_kernels > 0 ? m.compute_busy_s / compute_kernels : 0;
    add("gemm", t.compute_kinds.gemm_s, gemm * share, true);
    add("attention", t.compute_kinds.attention_s, attention * share, true);
    add("other_compute", t.compute_kinds.other_s, other * share, true);
    add("optimizer", t.optimizer_s, optimizer * share, true);
    add("exposed_communication", t.exposed_comm_s, m.exposed_comm_s, true);
    add("copies", 0, m.exposed_memcpy_s, true);
    add("idle", t.idle_s + t.compute_kinds.host_wait_s, m.idle_s, true);

    double plan_total = 0;
    std::map<std::string, double> plan;
    for (const CommEntry& e : est.communication) {
        plan_total += e.time_s;
        plan[bucketOf(e.collective)] += e.time_s;
    }
    std::map<std::string, double> measured;
    for (const auto& [op, s] : m.collective_s)
        measured[bucketOf(op)] += s;
    add("communication", plan_total, kernel(m, KernelKind::Communication), false);
    for (const char* key : {"comm.all_reduce", "comm.all_gather", "comm.reduce_scatter", "comm.send_recv",
                            "comm.broadcast", "comm.reduce"})
        if (plan[key] > 0 || measured[key] > 0)
            add(key, plan[key], measured[key], false);

    c.step_error = trace.step_s > 0 ? (t.step_s - trace.step_s) / trace.step_s : 0;
    // How sure the simulated step is, beside the measured one (the band every step time carries).
    const Localized band = bandText(bandFor(builtInBands(), sc));
    c.notes.push_back({"the simulated step carries " + band.en, "模拟的单步耗时误差范围 " + band.zh});
    if (sc.parallel.pp > 1)
        c.notes.push_back({"simulated: pipeline rank " + num(double(t.critical_rank))
                               + " (the critical one); measured: the GPU "
                                 "that wrote the trace"
                               + (trace.rank >= 0 ? " (rank " + num(double(trace.rank)) + ")" : std::string()),
                           "模拟：流水线 rank " + num(double(t.critical_rank)) + "（关键 rank）；实测：写出跟踪的 GPU"
                               + (trace.rank >= 0 ? "（rank " + num(double(trace.rank)) + "）" : std::string())});
    c.different_job = jobMismatches(sc, est, trace, c);
    return c;
}

nlohmann::json traceComparisonToJson(const Scenario& sc, const MeasuredTrace& trace, const TraceComparison& c)
{
    nlohmann::json j;
    j["schema"] = kTraceComparisonSchema;
    j["scenario"] = sc.name;
    nlohmann::json steps = nlohmann::json::array();
    for (const MeasuredStep& s : trace.steps)
        steps.push_back({{"number", s.number}, {"start_s", s.start_s}, {"step_s", s.end_s - s.start_s}});
    j["trace"] = {{"gpu", trace.gpu_name},          {"device", trace.device},    {"rank", trace.rank},
                  {"world_size", trace.world_size}, {"steps", std::move(steps)}, {"step_s", trace.step_s}};
    j["step_error"] = c.sameJob() ? nlohmann::json(c.step_error) : nlohmann::json(nullptr);
    j["uncertainty"] = uncertaintyJson(sc, "en"); // the simulated step's band
    nlohmann::json different = nlohmann::json::array();
    for (const Localized& d : c.different_job)
        different.push_back(d.en);
    j["different_job"] = std::move(different);
    nlohmann::json rows = nlohmann::json::array();
    for (const TraceRow& r : c.rows)
        rows.push_back({{"key", r.key},
                        {"simulated_s", r.simulated_s},
                        {"measured_s", r.measured_s},
                        {"part_of_step", r.part_of_step}});
    j["rows"] = std::move(rows);
    nlohmann::json notes = nlohmann::json::array();
    for (const Localized& n : c.notes)
        notes.push_back(n.en);
    for (const Localized& w : trace.warnings)
        notes.push_back(w.en);
    j["notes"] = std::move(notes);
    return j;
}

} // namespace parascope
