// NCCL collectives of parascope-probe, timed as nccl-tests does (busbw = algbw · factor; method:
// docs/reference/cuda-probe.md). Built without NCCL, every collective is skipped.

#include "probe_cuda.h"
#include "probe_sync.h"

#include <cuda_runtime.h>
#if defined(PROBE_HAVE_NCCL)
#include <nccl.h>
#endif

#include <algorithm>
#include <cstdint>
#include <optional>

namespace probe {

CollectiveTiming collective(int gpus, const std::string& op, const std::vector<double>& sizes, double target_s)
{
    CollectiveTiming out;
#if !defined(PROBE_HAVE_NCCL)
    (void)gpus;
    (void)op;
    (void)sizes;
    (void)target_s;
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
    std::vector<cudaEvent_t> starts(static_cast<std::size_t>(gpus)), ends(static_cast<std::size_t>(gpus));
    for (int i = 0; i < gpus; ++i) {
        cudaSetDevice(i);
        cudaStreamCreate(&streams[std::size_t(i)]);
        cudaEventCreate(&starts[std::size_t(i)]);
        cudaEventCreate(&ends[std::size_t(i)]);
    }
    const bool all_reduce = op == "all_reduce";
    for (double requested : sizes) {
        // Whole float elements: all-reduce's count, or the others' count per rank.
        const std::size_t per_rank = std::size_t(requested) / sizeof(float) / std::size_t(all_reduce ? 1 : gpus);
        if (per_rank == 0)
            continue; // under one element per rank (8 B on 8 GPUs): nothing to time
        const std::size_t count = all_reduce ? per_rank : per_rank * std::size_t(gpus);
        const double S = double(count * sizeof(float));
        std::vector<DeviceBuffer> send(static_cast<std::size_t>(gpus)), recv(static_cast<std::size_t>(gpus));
        bool alloc_ok = true;
        for (int i = 0; i < gpus && alloc_ok; ++i) {
            cudaSetDevice(i);
            alloc_ok = send[std::size_t(i)].alloc(std::size_t(S)) == cudaSuccess
                && recv[std::size_t(i)].alloc(std::size_t(S)) == cudaSuccess;
        }
        if (!alloc_ok) {
            cudaGetLastError();
            break; // larger sizes will not fit either
        }
        const auto launch = [&] {
            ncclGroupStart();
            for (int i = 0; i < gpus; ++i) {
                void* s = send[std::size_t(i)].p;
                void* r = recv[std::size_t(i)].p;
                ncclComm_t c = comms[std::size_t(i)];
                cudaStream_t st = streams[std::size_t(i)];
                if (all_reduce)
                    ncclAllReduce(s, r, count, ncclFloat, ncclSum, c, st);
                else if (op == "all_gather")
                    ncclAllGather(s, r, per_rank, ncclFloat, c, st);
                else if (op == "reduce_scatter")
                    ncclReduceScatter(s, r, per_rank, ncclFloat, ncclSum, c, st);
                else // all_to_all: one chunk to every peer
                    for (int peer = 0; peer < gpus; ++peer) {
                        ncclSend(static_cast<char*>(s) + std::size_t(peer) * per_rank * sizeof(float), per_rank,
                                 ncclFloat, peer, c, st);
                        ncclRecv(static_cast<char*>(r) + std::size_t(peer) * per_rank * sizeof(float), per_rank,
                                 ncclFloat, peer, c, st);
                    }
            }
            ncclGroupEnd();
        };
        // `n` launches between a start and an end event on every rank's stream; the time of one
        // launch is the slowest rank's span / n, nullopt when a stream did not finish in time (a
        // hung collective must not hang the probe).
        const auto timed = [&](int n) -> std::optional<double> {
            for (int i = 0; i < gpus; ++i) {
                cudaSetDevice(i);
                cudaEventRecord(starts[std::size_t(i)], streams[std::size_t(i)]);
            }
            for (int it = 0; it < n; ++it)
                launch();
            for (int i = 0; i < gpus; ++i) {
                cudaSetDevice(i);
                cudaEventRecord(ends[std::size_t(i)], streams[std::size_t(i)]);
            }
            double slowest = 0;
            for (int i = 0; i < gpus; ++i) {
                cudaSetDevice(i);
                cudaEvent_t ev = ends[std::size_t(i)];
                if (waitFor([ev] { return queryState(cudaEventQuery(ev)); }) != 0)
                    return std::nullopt;
                float ms = 0;
                cudaEventElapsedTime(&ms, starts[std::size_t(i)], ev);
                slowest = std::max(slowest, double(ms) / 1e3);
            }
            return slowest / n;
        };
        const std::optional<double> warm = timed(5); // warm-up: connections, protocol choice
        if (!warm) {
            // Streams and communicators are left as they are: destroying them would wait too.
            out.skipped = "timed out: the collective did not finish in time";
            return out;
        }
        const std::optional<double> t = timed(iterationsFor(*warm, target_s, 5, 10000));
        if (!t) {
            out.skipped = "timed out: the collective did not finish in time";
            return out;
        }
        out.size_seconds.emplace_back(S, *t);
    }
    for (int i = 0; i < gpus; ++i) {
        cudaSetDevice(i);
        cudaEventDestroy(starts[std::size_t(i)]);
        cudaEventDestroy(ends[std::size_t(i)]);
        cudaStreamDestroy(streams[std::size_t(i)]);
        ncclCommDestroy(comms[std::size_t(i)]);
    }
    return out;
#endif
}

} // namespace probe
