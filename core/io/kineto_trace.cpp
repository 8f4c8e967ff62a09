#include "io/kineto_trace.h"

#include "types/term.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>

namespace parascope {

namespace {

std::string lower(std::string s)
{
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool has(const std::string& s, const char* needle) { return s.find(needle) != std::string::npos; }

struct Interval {
    double a = 0, b = 0;
};

// Total length of a union of intervals (sorted and merged here).
double unionLength(std::vector<Interval> v)
{
    std::sort(v.begin(), v.end(), [](const Interval& x, const Interval& y) { return x.a < y.a; });
    double total = 0, a = 0, b = 0;
    bool open = false;
    for (const Interval& i : v) {
        if (open && i.a <= b) {
            b = std::max(b, i.b);
            continue;
        }
        if (open)
            total += b - a;
        a = i.a, b = i.b, open = true;
    }
    return open ? total + (b - a) : total;
}

struct GpuEvent {
    std::string name;
    KernelKind kind = KernelKind::OtherCompute;
    long long stream = 0;
    double start = 0, end = 0; // seconds from the trace's first GPU event
    double launch = 0; // the CPU launch (correlation), or the start when unknown
    bool launched_in_optimizer = false;
};

struct Range {
    double start = 0, end = 0; // seconds, absolute (µs / 1e6)
    long long number = -1;
};

bool inAny(const std::vector<Range>& ranges, double t)
{
    return std::any_of(ranges.begin(), ranges.end(), [&](const Range& r) { return t >= r.start && t <= r.end; });
}

StepTotals totalsOver(const std::vector<const GpuEvent*>& events, double w0, double w1)
{
    StepTotals t;
    t.window_s = w1 - w0;
    std::vector<Interval> compute, comm, copies;
    for (const GpuEvent* e : events) {
        t.kernel_s[e->kind] += e->end - e->start;
        if (e->kind == KernelKind::Communication)
            if (const std::optional<Collective> c = ncclCollective(e->name))
                t.collective_s[*c] += e->end - e->start;
        const Interval clipped{std::max(w0, e->start), std::min(w1, e->end)};
        if (clipped.b <= clipped.a)
            continue;
        (e->kind == KernelKind::Communication ? comm
             : e->kind == KernelKind::Memcpy  ? copies
                                              : compute)
            .push_back(clipped);
    }
    t.compute_busy_s = unionLength(compute);
    std::vector<Interval> busy = compute;
    busy.insert(busy.end(), comm.begin(), comm.end());
    const double with_comm = unionLength(busy);
    busy.insert(busy.end(), copies.begin(), copies.end());
    const double all = unionLength(busy);
    t.exposed_comm_s = with_comm - t.compute_busy_s;
    t.exposed_memcpy_s = all - with_comm;
    t.idle_s = std::max(0.0, t.window_s - all);
    return t;
}

void accumulate(StepTotals& into, const StepTotals& t, double w)
{
    into.window_s += w * t.window_s;
    for (const auto& [k, v] : t.kernel_s)
        into.kernel_s[k] += w * v;
    for (const auto& [k, v] : t.collective_s)
        into.collective_s[k] += w * v;
    into.compute_busy_s += w * t.compute_busy_s;
    into.exposed_comm_s += w * t.exposed_comm_s;
    into.exposed_memcpy_s += w * t.exposed_memcpy_s;
    into.idle_s += w * t.idle_s;
}

std::string ms(double s) { return num(s * 1e3) + " ms"; }

// A GPU event (kernel, copy or set) as read, before the device is chosen.
struct RawGpu {
    const TraceEvent* e;
    std::string cat;
    int device;
    double ts, dur;
};

// What one pass over the trace's events collects.
struct TraceScan {
    std::unordered_map<long long, double> launches; // correlation id → CPU launch time (s)
    std::vector<Range> step_marks, optimizer_cpu;
    std::map<int, std::vector<Range>> optimizer_gpu; // per device
    std::vector<RawGpu> gpu;
    std::size_t malformed = 0;
    std::string first_malformed;
};

// Sorts one well-formed event into the scan by its category and name.
void classifyEvent(const TraceEvent& e, double ts, double dur, TraceScan& scan)
{
    const std::string cat = lower(e.cat);
    const std::string& name = e.name;
    const double t0 = ts * 1e-6, t1 = (ts + dur) * 1e-6;
    const int device = int(std::clamp<long long>(e.device                                    ? *e.device
                                                     : e.pid && *e.pid >= 0 && *e.pid < 1024 ? *e.pid
                                                                                             : 0,
                                                 -1, 1 << 20));
    if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset" || cat == "memcpy" || cat == "memset") {
        scan.gpu.push_back({&e, cat, device, ts, dur});
    } else if (cat == "cuda_runtime" || cat == "cuda_driver" || cat == "runtime") {
        if (e.correlation)
            scan.launches[*e.correlation] = t0;
    } else if (cat == "user_annotation" && name.rfind("ProfilerStep#", 0) == 0) {
        char* end = nullptr;
        const long long n = std::strtoll(name.c_str() + 13, &end, 10);
        scan.step_marks.push_back({t0, t1, end && *end == '\0' ? n : -1});
    } else if (name.rfind("Optimizer.step", 0) == 0) {
        if (cat == "gpu_user_annotation")
            scan.optimizer_gpu[device].push_back({t0, t1});
        else
            scan.optimizer_cpu.push_back({t0, t1});
    }
}

// One pass over the events; false (with the error) on a time no trace holds.
bool scanEvents(const TraceDocument& doc, TraceScan& scan, std::vector<InputError>& errors)
{
    for (const TraceEvent& e : doc.events) {
        const double ts = e.ts.value_or(std::nan("")), dur = e.dur.value_or(std::nan(""));
        if (!std::isfinite(ts) || !std::isfinite(dur) || dur < 0) {
            if (scan.malformed++ == 0)
                scan.first_malformed = "traceEvents[" + std::to_string(e.index) + "]";
            continue;
        }
        // Microseconds since some epoch (Kineto: the Unix epoch, ~1.7e15): a time beyond 1e17 µs
        // (3,000 years) or a duration beyond 1e12 µs (11 days) is no measurement, and sums of
        // such numbers overflow into inf and NaN.
        if (std::abs(ts) > kMaxTraceTimeUs || dur > kMaxTraceDurationUs) {
            errors.push_back(
                {"traceEvents[" + std::to_string(e.index) + "]." + (std::abs(ts) > kMaxTraceTimeUs ? "ts" : "dur"),
                 num(std::abs(ts) > kMaxTraceTimeUs ? ts : dur)
                     + " µs is not a time a trace holds (|ts| ≤ 1e17 µs, "
                       "dur ≤ 1e12 µs)"});
            return false;
        }
        classifyEvent(e, ts, dur, scan);
    }
    return true;
}

// "0, 1, 3": the devices that have GPU work.
std::string deviceList(const std::map<int, std::size_t>& per_device)
{
    std::string list;
    for (const auto& [d, n] : per_device)
        list += (list.empty() ? "" : ", ") + std::to_string(d);
    return list;
}

// The device: asked for, or the only one with GPU work.
std::optional<int> chooseDevice(const std::vector<RawGpu>& gpu, const KinetoOptions& options,
                                std::vector<InputError>& errors)
{
    std::map<int, std::size_t> per_device;
    for (const RawGpu& r : gpu)
        ++per_device[r.device];
    if (per_device.empty()) {
        errors.push_back({"traceEvents",
                          "no GPU kernels (events with \"cat\": \"kernel\"): record the trace with "
                          "ProfilerActivity.CUDA"});
        return std::nullopt;
    }
    if (options.device >= 0) {
        if (!per_device.count(options.device)) {
            errors.push_back({"--device",
                              "the trace has no kernels on GPU " + std::to_string(options.device) + "; it has GPUs "
                                  + deviceList(per_device)});
            return std::nullopt;
        }
        return options.device;
    }
    if (per_device.size() > 1) {
        errors.push_back(
            {"--device", "the trace has kernels on GPUs " + deviceList(per_device) + ": choose one with --device N"});
        return std::nullopt;
    }
    return per_device.begin()->first;
}

// The device's GPU work, in seconds from its first event, sorted by start.
std::vector<GpuEvent> deviceWork(TraceScan& scan, int device)
{
    double origin = 0;
    bool first = true;
    for (const RawGpu& r : scan.gpu)
        if (r.device == device && (first || r.ts * 1e-6 < origin)) {
            origin = r.ts * 1e-6;
            first = false;
        }
    std::vector<GpuEvent> work;
    work.reserve(scan.gpu.size());
    const std::vector<Range>& gpu_opt = scan.optimizer_gpu[device];
    for (const RawGpu& r : scan.gpu) {
        if (r.device != device)
            continue;
        const TraceEvent& e = *r.e;
        GpuEvent g;
        g.name = e.name;
        g.kind = r.cat == "kernel" ? kernelKind(g.name) : KernelKind::Memcpy;
        g.stream = e.stream ? *e.stream : e.tid.value_or(0);
        const double abs_start = r.ts * 1e-6;
        g.start = abs_start - origin;
        g.end = (r.ts + r.dur) * 1e-6 - origin;
        const auto launch = e.correlation ? scan.launches.find(*e.correlation) : scan.launches.end();
        g.launch = launch != scan.launches.end() ? launch->second : abs_start;
        // Under an "Optimizer.step" annotation (CPU launch or GPU range), compute is optimizer work.
        if (g.kind != KernelKind::Communication && g.kind != KernelKind::Memcpy
            && (inAny(scan.optimizer_cpu, g.launch) || inAny(gpu_opt, abs_start)))
            g.kind = KernelKind::Optimizer;
        work.push_back(std::move(g));
    }
    std::sort(work.begin(), work.end(), [](const GpuEvent& a, const GpuEvent& b) { return a.start < b.start; });
    return work;
}

// Steps: each ProfilerStep#N's kernels (those it launched); or the whole trace as one step.
// step_marks must be sorted by start.
std::vector<std::vector<const GpuEvent*>> workPerStep(const std::vector<GpuEvent>& work,
                                                      const std::vector<Range>& step_marks)
{
    std::vector<std::vector<const GpuEvent*>> per_step(std::max<std::size_t>(1, step_marks.size()));
    for (const GpuEvent& g : work) {
        if (step_marks.empty()) {
            per_step[0].push_back(&g);
            continue;
        }
        const auto it = std::upper_bound(step_marks.begin(), step_marks.end(), g.launch,
                                         [](double t, const Range& r) { return t < r.start; });
        if (it == step_marks.begin())
            continue;
        const std::size_t s = std::size_t(it - step_marks.begin()) - 1;
        if (g.launch <= step_marks[s].end)
            per_step[s].push_back(&g);
    }
    return per_step;
}

struct Window {
    std::size_t index;
    double start, end;
    bool closed;
};

// A step's window runs from its first kernel to the next step's first kernel; a step with
// no next step ends at its last kernel (the host time before a next step is not in the trace).
std::vector<Window> stepWindows(const std::vector<std::vector<const GpuEvent*>>& per_step,
                                const std::vector<Range>& step_marks)
{
    std::vector<Window> windows;
    for (std::size_t s = 0; s < per_step.size(); ++s) {
        if (per_step[s].empty())
            continue;
        double last = 0;
        for (const GpuEvent* g : per_step[s])
            last = std::max(last, g->end);
        windows.push_back({s, per_step[s].front()->start, last, false});
    }
    for (std::size_t w = 0; w + 1 < windows.size(); ++w)
        if (!step_marks.empty() && step_marks[windows[w + 1].index].number == step_marks[windows[w].index].number + 1) {
            windows[w].end = std::max(windows[w].end, windows[w + 1].start);
            windows[w].closed = true;
        }
    return windows;
}

// Measures the closed windows (or all, when none is closed) into out; returns their lengths.
std::vector<double> measureSteps(MeasuredTrace& out, const std::vector<Window>& windows, bool any_closed,
                                 const std::vector<std::vector<const GpuEvent*>>& per_step,
                                 const std::vector<Range>& step_marks)
{
    std::vector<double> lengths;
    for (const Window& w : windows) {
        if (any_closed && !w.closed)
            continue;
        MeasuredStep st;
        st.number = step_marks.empty() ? -1 : step_marks[w.index].number;
        st.start_s = w.start;
        st.end_s = w.end;
        st.totals = totalsOver(per_step[w.index], w.start, w.end);
        lengths.push_back(w.end - w.start);
        if (out.steps.empty()) {
            for (const GpuEvent* g : per_step[w.index]) {
                if (out.kernels.size() >= MeasuredTrace::kMaxKernels) {
                    out.kernels_truncated = true;
                    break;
                }
                out.kernels.push_back({g->name, g->kind, g->stream, g->start - w.start, g->end - w.start});
            }
        }
        out.steps.push_back(std::move(st));
    }
    return lengths;
}

// The median step, the mean totals, and a warning when the steps differ by over 10 %.
void summarizeSteps(MeasuredTrace& out, std::vector<double> sorted)
{
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    out.step_s = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    for (const MeasuredStep& st : out.steps)
        accumulate(out.mean, st.totals, 1.0 / double(n));
    if (n > 1 && sorted.back() > 1.1 * sorted.front())
        out.warnings.push_back(
            {"the steps differ: " + ms(sorted.front()) + " to " + ms(sorted.back()) + "; the median is used",
             "各步时间不同：" + ms(sorted.front()) + " 至 " + ms(sorted.back()) + "；取中位数"});
}
} // namespace

KernelKind kernelKind(const std::string& name)
{
    const std::string n = lower(name);
    if (has(n, "nccl"))
        return KernelKind::Communication;
    // Attention before GEMMs: cuDNN's fused attention and CUTLASS's fmha carry GEMM words too.
    if (has(n, "flash") || has(n, "fmha") || has(n, "sdpa") || has(n, "attn") || has(n, "attention"))
        return KernelKind::Attention;
    if (has(n, "multi_tensor_apply") || has(n, "adam") || has(n, "optimizer"))
        return KernelKind::Optimizer;
    if (has(n, "gemm") || has(n, "cutlass") || has(n, "xmma") || has(n, "nvjet") || has(n, "cublas") || has(n, "matmul")
        || has(n, "wgmma"))
        return KernelKind::Gemm;
    return KernelKind::OtherCompute;
}

std::optional<Collective> ncclCollective(const std::string& name)
{
    const std::string n = lower(name);
    if (!has(n, "nccl"))
        return std::nullopt;
    static const std::pair<const char*, Collective> names[] = {{"reducescatter", Collective::ReduceScatter},
                                                               {"reduce_scatter", Collective::ReduceScatter},
                                                               {"allreduce", Collective::AllReduce},
                                                               {"all_reduce", Collective::AllReduce},
                                                               {"allgather", Collective::AllGather},
                                                               {"all_gather", Collective::AllGather},
                                                               {"alltoall", Collective::SendRecv},
                                                               {"sendrecv", Collective::SendRecv},
                                                               {"_send", Collective::SendRecv},
                                                               {"_recv", Collective::SendRecv},
                                                               {"broadcast", Collective::Broadcast},
                                                               {"_reduce", Collective::Reduce}};
    for (const auto& [needle, op] : names)
        if (has(n, needle))
            return op;
    return std::nullopt;
}

std::optional<MeasuredTrace> readKinetoTrace(const nlohmann::json& trace, const KinetoOptions& options,
                                             std::vector<InputError>& errors)
{
    const std::optional<TraceDocument> doc = traceDocumentFromJson(trace, errors);
    return doc ? readKinetoTrace(*doc, options, errors) : std::nullopt;
}

std::optional<MeasuredTrace> readKinetoTrace(const TraceDocument& doc, const KinetoOptions& options,
                                             std::vector<InputError>& errors)
{
    MeasuredTrace out;
    TraceScan scan;
    if (!scanEvents(doc, scan, errors))
        return std::nullopt;
    if (scan.malformed > 0)
        out.warnings.push_back(
            {num(double(scan.malformed))
                 + " complete events without a valid ts or dur were skipped (the first: " + scan.first_malformed + ")",
             "跳过了 " + num(double(scan.malformed)) + " 个缺少有效 ts 或 dur 的事件（第一个：" + scan.first_malformed
                 + "）"});

    const std::optional<int> device = chooseDevice(scan.gpu, options, errors);
    if (!device)
        return std::nullopt;
    out.device = *device;
    for (const auto& [id, gpu_name] : doc.devices)
        if (id == out.device)
            out.gpu_name = gpu_name;
    out.rank = doc.rank.value_or(-1);
    out.world_size = doc.world_size.value_or(0);

    const std::vector<GpuEvent> work = deviceWork(scan, out.device);
    std::vector<Range>& step_marks = scan.step_marks;
    std::sort(step_marks.begin(), step_marks.end(), [](const Range& a, const Range& b) { return a.start < b.start; });
    const std::vector<std::vector<const GpuEvent*>> per_step = workPerStep(work, step_marks);
    if (step_marks.empty())
        out.warnings.push_back(
            {"the trace has no ProfilerStep#N annotations (torch.profiler's prof.step()): the whole trace is "
             "taken as one step, from its first GPU event to its last",
             "跟踪中没有 ProfilerStep#N 标注（torch.profiler 的 prof.step()）：整个跟踪按一步计算，"
             "从第一个 GPU 事件到最后一个"});

    const std::vector<Window> windows = stepWindows(per_step, step_marks);
    if (windows.empty()) {
        errors.push_back({"traceEvents", "no GPU kernel was launched inside a ProfilerStep#N annotation"});
        return std::nullopt;
    }
    const bool any_closed = std::any_of(windows.begin(), windows.end(), [](const Window& w) { return w.closed; });
    if (!any_closed && !step_marks.empty())
        out.warnings.push_back(
            {"only one step was recorded: its time runs from its first kernel to its last, without the "
             "host time before the next step; record two or more (schedule active ≥ 2)",
             "只记录了一步：其时间从第一个内核算到最后一个内核，不含下一步之前的主机时间；"
             "请记录两步以上（schedule 的 active ≥ 2）"});
    summarizeSteps(out, measureSteps(out, windows, any_closed, per_step, step_marks));
    return out;
}

std::optional<MeasuredTrace> readKinetoTraceFile(const std::string& file, const KinetoOptions& options,
                                                 std::vector<InputError>& errors)
{
    const std::optional<std::string> text = readTextFile(file, errors, kMaxTraceBytes);
    if (!text)
        return std::nullopt;
    if (text->size() >= 2 && (unsigned char)(*text)[0] == 0x1f && (unsigned char)(*text)[1] == 0x8b) {
        errors.push_back(
            {"",
             "is gzip-compressed (tensorboard_trace_handler writes .pt.trace.json.gz): decompress it first, "
             "gunzip -k "
                 + file});
        return std::nullopt;
    }
    const std::optional<TraceDocument> doc = readTraceDocument(*text, errors);
    return doc ? readKinetoTrace(*doc, options, errors) : std::nullopt;
}

} // namespace parascope
