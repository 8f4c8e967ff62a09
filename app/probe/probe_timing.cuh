#pragma once
// What the probe's timings share (probe.cu, probe_gemm.cu): CUDA errors as a Status, waiting for
// an event under the probe's deadline, a timed loop of launches between two events, a
// pseudo-random fill, and a grid that covers the GPU.

#include "probe_cuda.h"
#include "probe_sync.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace probe {

inline Status fromCuda(cudaError_t e)
{
    Status s;
    s.code = int(e);
    if (e != cudaSuccess) {
        s.message = cudaGetErrorString(e);
        s.outOfMemory = e == cudaErrorMemoryAllocation;
        cudaGetLastError(); // clear a sticky-free error so the next test can run
    }
    return s;
}

// Waits for an event with the probe's timeout (waitForGpu) instead of blocking forever.
inline Status waitEvent(cudaEvent_t ev)
{
    const int r = waitFor([ev] { return queryState(cudaEventQuery(ev)); });
    if (r > 0) {
        Status s;
        s.code = -2;
        s.timedOut = true;
        s.message = "the GPU did not finish the work in time";
        return s;
    }
    return fromCuda(r == 0 ? cudaSuccess : cudaGetLastError());
}

#define PROBE_TRY(expr)                                                                                                \
    do {                                                                                                               \
        const cudaError_t e_ = (expr);                                                                                 \
        if (e_ != cudaSuccess) {                                                                                       \
            out.status = fromCuda(e_);                                                                                 \
            return out;                                                                                                \
        }                                                                                                              \
    } while (0)

struct Events {
    cudaEvent_t a = nullptr, b = nullptr;
    Events()
    {
        cudaEventCreate(&a);
        cudaEventCreate(&b);
    }
    ~Events()
    {
        cudaEventDestroy(a);
        cudaEventDestroy(b);
    }
    double seconds()
    {
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        return double(ms) / 1e3;
    }
};

// Times `work` (which queues GPU work and returns its launch status) between two events on the
// stream, as nvbandwidth and nccl-tests do: the warm-ups first (the last one timed alone to pick
// how many launches one timing amortises, iterationsFor), then `samples` timings of that many
// launches each, every wait under the probe's deadline. Stops at the first error or timeout.
template <typename Work>
Status timeSamples(int warmups, int samples, std::vector<double>& seconds, Work work, double target_s = 0.02)
{
    Events ev;
    int iters = 1;
    for (int i = 0; i < warmups + samples; ++i) {
        const bool warmup = i < warmups;
        const int n = warmup ? 1 : iters;
        cudaEventRecord(ev.a);
        cudaError_t launched = cudaSuccess;
        for (int r = 0; r < n && launched == cudaSuccess; ++r)
            launched = work();
        cudaEventRecord(ev.b);
        const Status waited = waitEvent(ev.b);
        if (launched != cudaSuccess)
            return fromCuda(launched);
        if (!waited.ok())
            return waited;
        if (warmup)
            iters = iterationsFor(ev.seconds(), target_s, 1, 1000);
        else
            seconds.push_back(ev.seconds() / n);
    }
    return {};
}

// Pseudo-random fill (never zeros: zeros make GEMMs look faster than they are).
__device__ inline float hashToUnit(std::uint64_t i)
{
    i ^= i >> 33;
    i *= 0xff51afd7ed558ccdULL;
    i ^= i >> 33;
    i *= 0xc4ceb9fe1a85ec53ULL;
    i ^= i >> 33;
    return float(i & 0xffffff) / float(0xffffff) * 2.0f - 1.0f;
}

template <typename T> __global__ void fillRandom(T* p, std::size_t n, std::uint64_t seed)
{
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        p[i] = T(hashToUnit(i + seed * 0x9e3779b97f4a7c15ULL));
}

// Blocks for grid-stride kernels: 8 per SM.
inline int gridFor(int dev)
{
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    return std::max(1, sms) * 8;
}

} // namespace probe
