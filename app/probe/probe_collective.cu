// NCCL collectives of parascope-probe, timed as nccl-tests does (busbw = algbw · factor; method:
// docs/reference/cuda-probe.md). Built without NCCL, every collective is skipped.

#include "probe_cuda.h"
#include "probe_sync.h"

#include <cuda_runtime.h>
#if defined(PROBE_HAVE_NCCL)
#include <nccl.h>
#endif

#include <chrono>
#include <cstdint>

namespace probe {

CollectiveTiming collective(int gpus, const std::string& op, const std::vector<double>& sizes, int iters)
{
    CollectiveTiming out;
#if !defined(PROBE_HAVE_NCCL)
    (void)gpus;
    (void)op;
    (void)sizes;
    (void)iters;
    out.skipped = "built without NCCL";
    return out;
#else
    if (gpus < 2) {
        out.skipped = "single_gpu";
        return out;
    }
    std::vector<ncclComm_t> comms(static_cast<std::size_t>(gpus), nullptr);
    std::vector<int> devs(static_cast<std::size_t>(gpus));
    for (int i = 0; i < gpus; ++i)
        devs[std::size_t(i)] = i;
    if (ncclCommInitAll(comms.data(), gpus, devs.data()) != ncclSuccess) {
        out.skipped = "ncclCommInitAll failed";
        return out;
    }
    std::vector<cudaStream_t> streams(static_cast<std::size_t>(gpus));
    for (int i = 0; i < gpus; ++i) {
        cudaSetDevice(i);
        cudaStreamCreate(&streams[std::size_t(i)]);
    }
    for (double S : sizes) {
        std::vector<DeviceBuffer> send(static_cast<std::size_t>(gpus)), recv(static_cast<std::size_t>(gpus));
        bool alloc_ok = true;
        for (int i = 0; i < gpus && alloc_ok; ++i) {
            cudaSetDevice(i);
            alloc_ok = send[std::size_t(i)].alloc(std::size_t(S)) == cudaSuccess && recv[std::size_t(i)].alloc(std::size_t(S)) == cudaSuccess;
        }
        if (!alloc_ok) {
            cudaGetLastError();
            break; // larger sizes will not fit either
        }
        const std::size_t count = std::size_t(S) / sizeof(float);
        const std::size_t per_rank = count / std::size_t(gpus);
        const auto launch = [&] {
            ncclGroupStart();
            for (int i = 0; i < gpus; ++i) {
                void* s = send[std::size_t(i)].p;
                void* r = recv[std::size_t(i)].p;
                ncclComm_t c = comms[std::size_t(i)];
                cudaStream_t st = streams[std::size_t(i)];
                if (op == "all_reduce")
                    ncclAllReduce(s, r, count, ncclFloat, ncclSum, c, st);
                else if (op == "all_gather")
                    ncclAllGather(s, r, per_rank, ncclFloat, c, st);
                else if (op == "reduce_scatter")
                    ncclReduceScatter(s, r, per_rank, ncclFloat, ncclSum, c, st);
                else // all_to_all: one chunk to every peer
                    for (int peer = 0; peer < gpus; ++peer) {
                        ncclSend(static_cast<char*>(s) + std::size_t(peer) * per_rank * sizeof(float), per_rank, ncclFloat, peer, c, st);
                        ncclRecv(static_cast<char*>(r) + std::size_t(peer) * per_rank * sizeof(float), per_rank, ncclFloat, peer, c, st);
                    }
            }
            ncclGroupEnd();
        };
        // True when every stream finished in time (a hung collective must not hang the probe).
        const auto sync = [&] {
            bool in_time = true;
            for (int i = 0; i < gpus && in_time; ++i) {
                cudaSetDevice(i);
                cudaStream_t st = streams[std::size_t(i)];
                in_time = waitFor([st] { return queryState(cudaStreamQuery(st)); }) <= 0;
            }
            return in_time;
        };
        launch(); // warm-up
        if (!sync()) {
            // Streams and communicators are left as they are: destroying them would wait too.
            out.skipped = "timed out: the collective did not finish in time";
            return out;
        }
        const auto t0 = std::chrono::steady_clock::now();
        for (int it = 0; it < iters; ++it)
            launch();
        if (!sync()) {
            // Streams and communicators are left as they are: destroying them would wait too.
            out.skipped = "timed out: the collective did not finish in time";
            return out;
        }
        const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / iters;
        out.size_seconds.emplace_back(S, t);
    }
    for (int i = 0; i < gpus; ++i) {
        cudaSetDevice(i);
        cudaStreamDestroy(streams[std::size_t(i)]);
        ncclCommDestroy(comms[std::size_t(i)]);
    }
    return out;
#endif
}

} // namespace probe
