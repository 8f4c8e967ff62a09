// The GPU measurements of parascope-probe (method: docs/reference/cuda-probe.md,
// after nvbandwidth, BabelStream, mamf-finder and nccl-tests). Only the CUDA runtime, cuBLASLt
// and (optionally) NCCL are used, never libcuda directly, so the binary starts without a driver.

#include "probe_cuda.h"
#include "probe_sync.h"
#include "probe_timing.cuh"

#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

namespace probe {

namespace {
bool g_hung = false; // see gpuHung()
} // namespace

// waitForGpu(), remembering a timeout (probe_sync.h).
int waitFor(const std::function<int()>& query)
{
    const int r = waitForGpu(query);
    if (r > 0)
        g_hung = true;
    return r;
}

// An event or stream query as waitForGpu() wants it: 0 done, 1 still running, −1 failed.
int queryState(cudaError_t e) { return e == cudaSuccess ? 0 : e == cudaErrorNotReady ? 1 : -1; }

namespace {

// Copy with 16-byte accesses, 4 independent loads in flight per thread (grid-stride).
__global__ void copyKernel(const uint4* __restrict__ src, uint4* __restrict__ dst, std::size_t n)
{
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    std::size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        const uint4 a = src[i], b = src[i + stride], c = src[i + 2 * stride], d = src[i + 3 * stride];
        dst[i] = a;
        dst[i + stride] = b;
        dst[i + 2 * stride] = c;
        dst[i + 3 * stride] = d;
    }
    for (; i < n; i += stride)
        dst[i] = src[i];
}

// Triad a = b + s·c on float4.
__global__ void triadKernel(float4* __restrict__ a, const float4* __restrict__ b, const float4* __restrict__ c, float s,
                            std::size_t n)
{
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const float4 x = b[i], y = c[i];
        a[i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
    }
}

} // namespace

DeviceBuffer::~DeviceBuffer()
{
    if (p && !g_hung) // after a timeout cudaFree would wait for the hung work: leak instead
        cudaFree(p);
}

bool gpuHung() { return g_hung; }

Status deviceCount(int& n)
{
    n = 0;
    return fromCuda(cudaGetDeviceCount(&n));
}

int runtimeVersion()
{
    int v = 0;
    cudaRuntimeGetVersion(&v);
    return v;
}

int driverVersion()
{
    int v = 0;
    cudaDriverGetVersion(&v);
    return v;
}

Status deviceInfo(int dev, DeviceInfo& out)
{
    cudaDeviceProp prop{};
    const cudaError_t e = cudaGetDeviceProperties(&prop, dev);
    if (e != cudaSuccess)
        return fromCuda(e);
    out.name = prop.name;
    out.total_bytes = double(prop.totalGlobalMem);
    cudaDeviceGetAttribute(&out.sms, cudaDevAttrMultiProcessorCount, dev);
    cudaDeviceGetAttribute(&out.cc_major, cudaDevAttrComputeCapabilityMajor, dev);
    cudaDeviceGetAttribute(&out.cc_minor, cudaDevAttrComputeCapabilityMinor, dev);
    cudaDeviceGetAttribute(&out.mem_clock_khz, cudaDevAttrMemoryClockRate, dev);
    cudaDeviceGetAttribute(&out.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, dev);
    return {};
}

Timing hbmCopy(int dev, double bytes, int samples)
{
    Timing out;
    out.bytes = bytes;
    PROBE_TRY(cudaSetDevice(dev));
    const std::size_t n = std::size_t(bytes) / sizeof(uint4);
    DeviceBuffer a, b;
    PROBE_TRY(a.alloc(n * sizeof(uint4)));
    PROBE_TRY(b.alloc(n * sizeof(uint4)));
    fillRandom<float><<<gridFor(dev), 256>>>(static_cast<float*>(a.p), n * 4, 1);
    const int grid = gridFor(dev);
    out.status = timeSamples(2, samples, out.seconds, [&] {
        copyKernel<<<grid, 256>>>(static_cast<const uint4*>(a.p), static_cast<uint4*>(b.p), n);
        return cudaGetLastError();
    });
    return out;
}

Timing hbmTriad(int dev, double bytes, int samples)
{
    Timing out;
    out.bytes = bytes;
    PROBE_TRY(cudaSetDevice(dev));
    const std::size_t n = std::size_t(bytes) / sizeof(float4);
    DeviceBuffer a, b, c;
    PROBE_TRY(a.alloc(n * sizeof(float4)));
    PROBE_TRY(b.alloc(n * sizeof(float4)));
    PROBE_TRY(c.alloc(n * sizeof(float4)));
    fillRandom<float><<<gridFor(dev), 256>>>(static_cast<float*>(b.p), n * 4, 2);
    fillRandom<float><<<gridFor(dev), 256>>>(static_cast<float*>(c.p), n * 4, 3);
    const int grid = gridFor(dev);
    out.status = timeSamples(2, samples, out.seconds, [&] {
        triadKernel<<<grid, 256>>>(static_cast<float4*>(a.p), static_cast<const float4*>(b.p),
                                   static_cast<const float4*>(c.p), 0.4f, n);
        return cudaGetLastError();
    });
    return out;
}

Timing copyEngine(int dev, double bytes, int samples)
{
    Timing out;
    out.bytes = bytes;
    PROBE_TRY(cudaSetDevice(dev));
    DeviceBuffer a, b;
    PROBE_TRY(a.alloc(std::size_t(bytes)));
    PROBE_TRY(b.alloc(std::size_t(bytes)));
    out.status = timeSamples(1, samples, out.seconds,
                             [&] { return cudaMemcpyAsync(b.p, a.p, std::size_t(bytes), cudaMemcpyDeviceToDevice); });
    return out;
}

Timing hostDevice(int dev, double bytes, int samples, bool to_device)
{
    Timing out;
    out.bytes = bytes;
    PROBE_TRY(cudaSetDevice(dev));
    void* host = nullptr;
    PROBE_TRY(cudaHostAlloc(&host, std::size_t(bytes), cudaHostAllocDefault));
    DeviceBuffer d;
    const cudaError_t e = d.alloc(std::size_t(bytes));
    if (e != cudaSuccess) {
        cudaFreeHost(host);
        out.status = fromCuda(e);
        return out;
    }
    out.status = timeSamples(1, samples, out.seconds, [&] {
        return to_device ? cudaMemcpyAsync(d.p, host, std::size_t(bytes), cudaMemcpyHostToDevice)
                         : cudaMemcpyAsync(host, d.p, std::size_t(bytes), cudaMemcpyDeviceToHost);
    });
    if (!g_hung)
        cudaFreeHost(host);
    return out;
}

Timing peerCopy(int src, int dst, double bytes, int samples, bool both_ways, bool& p2p_access)
{
    Timing out;
    out.bytes = bytes;
    int can = 0;
    cudaDeviceCanAccessPeer(&can, dst, src);
    p2p_access = can != 0;
    DeviceBuffer a, b, a2, b2;
    PROBE_TRY(cudaSetDevice(src));
    if (p2p_access) {
        const cudaError_t e = cudaDeviceEnablePeerAccess(dst, 0);
        if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled)
            PROBE_TRY(e);
        cudaGetLastError();
    }
    PROBE_TRY(a.alloc(std::size_t(bytes)));
    PROBE_TRY(a2.alloc(std::size_t(bytes)));
    PROBE_TRY(cudaSetDevice(dst));
    if (p2p_access) {
        const cudaError_t e = cudaDeviceEnablePeerAccess(src, 0);
        if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled)
            PROBE_TRY(e);
        cudaGetLastError();
    }
    PROBE_TRY(b.alloc(std::size_t(bytes)));
    PROBE_TRY(b2.alloc(std::size_t(bytes)));
    PROBE_TRY(cudaSetDevice(src));
    // Timed on the streams with events (nvbandwidth): the second direction's stream waits for
    // the start event, each stream records its end; a timing is the later end, over `iters`
    // copies per direction (launch cost amortised).
    cudaStream_t s1 = nullptr, s2 = nullptr;
    cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
    cudaEvent_t start = nullptr, end1 = nullptr, end2 = nullptr;
    cudaEventCreate(&start);
    cudaEventCreate(&end1);
    cudaEventCreate(&end2);
    int iters = 1;
    for (int i = 0; i < samples + 1; ++i) { // the first timing is the warm-up and picks iters
        const int n = i == 0 ? 1 : iters;
        cudaEventRecord(start, s1);
        cudaStreamWaitEvent(s2, start, 0);
        cudaError_t e = cudaSuccess;
        for (int r = 0; r < n && e == cudaSuccess; ++r) {
            e = cudaMemcpyPeerAsync(b.p, dst, a.p, src, std::size_t(bytes), s1);
            if (both_ways && e == cudaSuccess)
                e = cudaMemcpyPeerAsync(a2.p, src, b2.p, dst, std::size_t(bytes), s2);
        }
        cudaEventRecord(end1, s1);
        cudaEventRecord(end2, s2);
        const Status w1 = waitEvent(end1);
        const Status w2 = w1.ok() ? waitEvent(end2) : w1;
        if (e != cudaSuccess) {
            out.status = fromCuda(e);
            break;
        }
        if (!w1.ok() || !w2.ok()) {
            out.status = !w1.ok() ? w1 : w2;
            if (out.status.timedOut)
                out.status.message = "the peer copy did not finish in time";
            break;
        }
        float ms1 = 0, ms2 = 0;
        cudaEventElapsedTime(&ms1, start, end1);
        cudaEventElapsedTime(&ms2, start, end2);
        const double t = double(both_ways ? std::max(ms1, ms2) : ms1) / 1e3;
        if (i == 0)
            iters = iterationsFor(t, 0.02, 1, 100);
        else
            out.seconds.push_back(t / n);
    }
    if (!g_hung) {
        cudaEventDestroy(start);
        cudaEventDestroy(end1);
        cudaEventDestroy(end2);
        cudaStreamDestroy(s1);
        cudaStreamDestroy(s2);
    }
    return out;
}

} // namespace probe
