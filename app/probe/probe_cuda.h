#pragma once
// The CUDA half of parascope-probe: measurements that need a GPU, behind plain C++ types so
// the host side (main.cpp, compiled by the C++ compiler) never sees a CUDA header.

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace probe {

struct Status {
    int code = 0; // cudaError_t / cublasStatus_t / ncclResult_t value, 0 = success
    std::string message;
    bool ok() const { return code == 0; }
    bool outOfMemory = false;
    bool timedOut = false; // a kernel or copy did not finish in time (the GPU may be hung)
};

// How every measurement waits for the GPU: `query` returns 1 while the work runs, 0 when it is
// done, < 0 on an error. Returns 0, −1 (error) or 1 (timed out). Implemented on the host side
// (main.cpp) with the engine's waitWithTimeout, so the timeout policy is tested without a GPU.
int waitForGpu(const std::function<int()>& query);

// Launches per timing so that one lasts at least target_s (parascope::iterationsFor, on the
// host side like waitForGpu, so that the policy is tested without a GPU).
int iterationsFor(double one_s, double target_s, int min_iters, int max_iters);

// True once any wait timed out. From then on buffers are not freed (cudaFree would wait for the
// hung work) and the probe stops measuring, writes what it has and exits without the runtime's
// teardown.
bool gpuHung();

Status deviceCount(int& n);
int runtimeVersion();
int driverVersion();

struct DeviceInfo {
    std::string name;
    double total_bytes = 0;
    int sms = 0, cc_major = 0, cc_minor = 0;
    int mem_clock_khz = 0, bus_width_bits = 0;
};
Status deviceInfo(int dev, DeviceInfo& out);

// Timed samples (seconds per repetition) of one bandwidth test.
struct Timing {
    Status status;
    std::vector<double> seconds;
    double bytes = 0; // buffer size used
};

// SM kernels over arrays of `bytes` each (16-byte loads, several in flight per thread).
Timing hbmCopy(int dev, double bytes, int samples);
Timing hbmTriad(int dev, double bytes, int samples);
// Copy engine, device to device (cudaMemcpyAsync).
Timing copyEngine(int dev, double bytes, int samples);
// Pinned host ↔ device.
Timing hostDevice(int dev, double bytes, int samples, bool to_device);
// GPU ↔ GPU: one-way (src → dst) or both ways at once.
Timing peerCopy(int src, int dst, double bytes, int samples, bool both_ways, bool& p2p_access);

// cuBLASLt GEMM, random data, best heuristic algorithm; dtype: bf16, fp16, tf32, fp32.
Timing gemm(int dev, const std::string& dtype, int m, int n, int k, int samples);

// NCCL collectives over all local GPUs (single process); op: all_reduce, all_gather,
// reduce_scatter, all_to_all. Timed with CUDA events on every rank's stream over as many
// launches as last target_s (nccl-tests' method); a size is the total buffer (all-gather's
// output, reduce-scatter's input), rounded down to whole float elements per rank. Returns
// (bytes, seconds) per size; empty when NCCL is absent.
struct CollectiveTiming {
    Status status;
    std::string skipped; // why, when not measured
    std::vector<std::pair<double, double>> size_seconds;
};
CollectiveTiming collective(int gpus, const std::string& op, const std::vector<double>& sizes, double target_s);

} // namespace probe
