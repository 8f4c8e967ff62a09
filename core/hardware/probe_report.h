#pragma once
// The pure half of parascope-probe: statistics over timed samples, how many bytes each
// bandwidth test moves, FLOP counting, and the `parascope.hardware-profile/1` JSON it writes.
// No CUDA here, so all of it is unit-tested on machines without a GPU.

#include "types/gpu_spec.h"
#include "hardware/hardware_profile.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace parascope {

struct SampleStats {
    double median = 0, best = 0, worst = 0; // of the samples (seconds: best = shortest)
    int samples = 0;
};
SampleStats sampleStats(std::vector<double> seconds);

// Bytes that cross HBM per element-array size n (BabelStream accounting): copy reads a and
// writes b (2n); triad reads b and c and writes a (3n). nvbandwidth's device_local_copy counts
// the size once: compare with care.
inline double copyBytes(double n) { return 2 * n; }
inline double triadBytes(double n) { return 3 * n; }
// Theoretical HBM bandwidth: 2 (DDR) · memory clock · bus width / 8.
double theoreticalHbmBytesPerS(double mem_clock_hz, int bus_width_bits);
inline double gemmFlops(double m, double n, double k) { return 2 * m * n * k; }

struct ProbeDevice {
    int index = 0;
    std::string name;
    std::optional<double> memory_bytes;
    std::optional<int> sms;
    std::string compute_capability;
    std::optional<double> theoretical_hbm_bytes_per_s;
    std::optional<double> copy_bytes_per_s, triad_bytes_per_s, copy_engine_bytes_per_s; // medians
    std::optional<double> copy_best_bytes_per_s, triad_best_bytes_per_s; // best samples
    double hbm_array_bytes = 0;
    std::optional<double> h2d_bytes_per_s, d2h_bytes_per_s;
    std::vector<MeasuredGemm> gemm;
    std::optional<int> pcie_gen, pcie_width, nvlink_active_links, nvlink_version;
};

struct ProbeLink {
    int src = 0, dst = 0;
    bool p2p_access = false;
    std::optional<std::string> topology; // NVML common ancestor (SINGLE, NODE, SYSTEM, …)
    std::optional<double> unidirectional_bytes_per_s, bidirectional_bytes_per_s;
};

// The message sizes the probe sweeps: from 8 B doubling to max_bytes (nccl-tests -b 8 -e MAX -f
// 2); quick: ×8 steps (8 B, 64 B, … ).
std::vector<double> collectiveSizes(bool quick, double max_bytes);

// Launches per timing so that one timing lasts at least target_s and launch costs are amortised
// (one launch of one_s measured in the warm-up), within [min_iters, max_iters].
int iterationsFor(double one_s, double target_s, int min_iters = 1, int max_iters = 1000);

struct ProbeResult {
    std::string status = "ok"; // ok, partial, no_gpu
    std::string probe_version;
    bool quick = false;
    std::optional<int> runtime_version, driver_version;
    std::optional<int> error_code;
    std::string error_message;
    std::vector<ProbeDevice> devices;
    std::vector<ProbeLink> links;
    std::vector<MeasuredCollective> collectives;
    std::vector<CollectiveFit> collective_fits;
    std::vector<std::pair<std::string, std::string>> skipped; // what, why
    std::vector<std::string> warnings;
};

// Unknown values are null, never 0 (DESIGN.md).
nlohmann::json probeResultToJson(const ProbeResult& r);

// Exit code of the probe for a result: 0 ok, 2 no usable GPU, 3 partial.
int probeExitCode(const ProbeResult& r);

// ---- The probe's policies, pure so that they are tested without a GPU ------------------------

// How one attempt at a measurement went.
struct ProbeAttempt {
    bool ok = true;
    bool out_of_memory = false; // the buffers did not fit: worth retrying smaller
    bool timed_out = false; // a kernel did not finish in time: the device is left alone
    std::string message; // why, when not ok
};

// Runs `attempt(bytes)`; on out-of-memory halves the size down to `floor` (each retry a
// warning); what still fails is skipped with its reason and makes the result "partial".
// Returns the size that worked, 0 if none.
double runWithSmallerSizes(const std::function<ProbeAttempt(double bytes)>& attempt, double bytes, double floor,
                           ProbeResult& result, const std::string& what);

// Polls `query` (1 = still running, 0 = done, < 0 = failed) until it is no longer running or
// `timeout_s` has passed, sleeping `poll_s` in between. The probe waits for every kernel this
// way, so a hung kernel becomes a skipped measurement instead of a hung probe.
enum class WaitResult { Done, Failed, TimedOut };
WaitResult waitWithTimeout(const std::function<int()>& query, double timeout_s, double poll_s = 0.001);

} // namespace parascope
