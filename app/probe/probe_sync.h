#pragma once
// Waiting for the GPU with the probe's timeout, shared by the measurements in probe.cu and the
// NCCL collectives in probe_collective.cu.

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>

namespace probe {

// waitForGpu() (probe_cuda.h), remembering a timeout so that gpuHung() reports it.
int waitFor(const std::function<int()>& query);

// RAII device buffer; not freed after a timeout (cudaFree would wait for the hung work).
struct DeviceBuffer {
    void* p = nullptr;
    cudaError_t alloc(std::size_t bytes) { return cudaMalloc(&p, bytes); }
    DeviceBuffer() = default;
    DeviceBuffer(DeviceBuffer&& o) noexcept
        : p(o.p)
    {
        o.p = nullptr;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer();
};

// An event or stream query as waitForGpu() wants it: 0 done, 1 still running, −1 failed.
int queryState(cudaError_t e);

} // namespace probe
