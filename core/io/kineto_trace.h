#pragma once
// A measured training step from a PyTorch profiler trace: the Chrome trace JSON that Kineto
// writes (torch.profiler's export_chrome_trace, tensorboard_trace_handler; one file per rank).
// What is read: the GPU's kernels, copies and sets ("ph": "X", cat kernel / gpu_memcpy /
// gpu_memset, pid = the device, tid = the stream), the CPU's "ProfilerStep#N" annotations that
// mark the steps, the runtime launches whose correlation id ties each kernel to the step that
// launched it, "deviceProperties" (the GPU's name) and "distributedInfo" (rank, world size).
//
// Each kernel gets a kind from its name (kernelKind: NCCL kernels are communication, flash /
// fmha / sdpa kernels attention, cuBLAS / CUTLASS kernels GEMMs, multi-tensor-apply and Adam
// kernels, or anything under an "Optimizer.step" annotation, the optimizer). A step runs on the
// GPU from its first kernel to the next step's first kernel; over it the trace gives the kernel
// time of each kind, the communication no compute kernel overlaps (exposed) and the time the GPU
// runs nothing (idle: pipeline bubbles, host waits).

#include "io/trace_events.h"
#include "types/comm_types.h"
#include "types/diagnostic.h"
#include "util/json_reader.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace parascope {

enum class KernelKind { Gemm, Attention, OtherCompute, Optimizer, Communication, Memcpy };
inline constexpr EnumName<KernelKind> kKernelKindNames[] = {{KernelKind::Gemm, "gemm"},
                                                            {KernelKind::Attention, "attention"},
                                                            {KernelKind::OtherCompute, "other"},
                                                            {KernelKind::Optimizer, "optimizer"},
                                                            {KernelKind::Communication, "communication"},
                                                            {KernelKind::Memcpy, "memcpy"}};
constexpr std::span<const EnumName<KernelKind>> enumNames(KernelKind) { return kKernelKindNames; }
inline const char* toString(KernelKind k) { return nameOf(k); }

// The kind of a GPU kernel from its name (a memcpy or memset is KernelKind::Memcpy by category).
KernelKind kernelKind(const std::string& name);
// The collective of an NCCL kernel ("ncclDevKernel_AllGather_RING_LL", "ncclKernel_SendRecv"),
// none for other kernels. All-to-all runs as NCCL send/receive kernels: it counts as SendRecv.
std::optional<Collective> ncclCollective(const std::string& name);

struct MeasuredKernel {
    std::string name;
    KernelKind kind = KernelKind::OtherCompute;
    long long stream = 0;
    double start_s = 0, end_s = 0; // from the start of the step's window
};

// Per step, in seconds: kernel time by kind (streams that overlap both count), and over the
// step's window the time some compute kernel runs, communication runs with no compute
// kernel beside it, copies run alone, and nothing runs.
struct StepTotals {
    double window_s = 0;
    std::map<KernelKind, double> kernel_s;
    std::map<Collective, double> collective_s; // NCCL kernel time by collective
    double compute_busy_s = 0, exposed_comm_s = 0, exposed_memcpy_s = 0, idle_s = 0;
};

struct MeasuredStep {
    long long number = -1; // N of "ProfilerStep#N"; −1 when the trace has no step marks
    double start_s = 0, end_s = 0; // the window on the GPU, from the trace's first GPU event
    StepTotals totals;
};

struct KinetoOptions {
    int device = -1; // −1: the one GPU the trace has kernels on
};

struct MeasuredTrace {
    std::string gpu_name; // deviceProperties[device].name, when present
    int device = 0;
    int rank = -1, world_size = 0; // distributedInfo, when present
    std::vector<MeasuredStep> steps; // the steps measured (each followed by the next one's kernels)
    double step_s = 0; // their median window
    StepTotals mean; // their mean totals
    std::vector<MeasuredKernel> kernels; // the first measured step's GPU work (at most kMaxKernels)
    bool kernels_truncated = false;
    std::vector<Localized> warnings;

    static constexpr std::size_t kMaxKernels = 200000;
};

// The largest trace read, and the deepest nesting: one step of a large model on one GPU is
// 10–300 MB of JSON.
inline constexpr std::size_t kMaxTraceBytes = std::size_t(1) << 30;

// Bounds on a trace's times (µs): beyond them a number is no measurement.
inline constexpr double kMaxTraceTimeUs = 1e17, kMaxTraceDurationUs = 1e12;

std::optional<MeasuredTrace> readKinetoTrace(const TraceDocument& trace, const KinetoOptions& options,
                                             std::vector<InputError>& errors);
// The same from a parsed document (tests, the fuzzer).
std::optional<MeasuredTrace> readKinetoTrace(const nlohmann::json& trace, const KinetoOptions& options,
                                             std::vector<InputError>& errors);
// Reads the file (refusing a gzip-compressed one with how to decompress it) and the trace.
std::optional<MeasuredTrace> readKinetoTraceFile(const std::string& file, const KinetoOptions& options,
                                                 std::vector<InputError>& errors);

} // namespace parascope
