#include "hardware/probe_report.h"

#include <cmath>

#include "types/term.h"

#include <chrono>
#include <thread>

#include <algorithm>

namespace parascope {

SampleStats sampleStats(std::vector<double> s)
{
    SampleStats out;
    out.samples = int(s.size());
    if (s.empty())
        return out;
    std::sort(s.begin(), s.end());
    const std::size_t n = s.size();
    out.median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    out.best = s.front();
    out.worst = s.back();
    return out;
}

double theoreticalHbmBytesPerS(double mem_clock_hz, int bus_width_bits)
{
    if (mem_clock_hz <= 0 || bus_width_bits <= 0)
        return 0;
    return 2 * mem_clock_hz * bus_width_bits / 8;
}

namespace {

// A measurement: null when unknown, and null too when it is not a positive finite number (a
// kernel that failed can time 0 s or produce 0 bytes/s; the profile reader refuses such values).
nlohmann::json opt(const std::optional<double>& v, double scale = 1)
{
    return v && std::isfinite(*v) && *v > 0 ? nlohmann::json(*v / scale) : nlohmann::json(nullptr);
}

nlohmann::json opt(const std::optional<int>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

} // namespace

nlohmann::json probeResultToJson(const ProbeResult& r)
{
    nlohmann::json j;
    j["schema"] = kHardwareProfileSchema;
    j["status"] = r.status;
    j["probe"] = {{"version", r.probe_version}, {"mode", r.quick ? "quick" : "full"}};
    j["versions"] = {{"cuda_runtime", opt(r.runtime_version)}, {"cuda_driver", opt(r.driver_version)}};
    if (r.error_code)
        j["error"] = {{"cuda_code", *r.error_code}, {"message", r.error_message}};
    j["units"] = {{"bandwidth", "GB/s, 1e9 bytes/s"}, {"flops", "TFLOP/s, 1e12"}};
    j["statistic"] = "median of timed samples (best alongside where given); HBM bytes: copy 2n, triad 3n";
    nlohmann::json devices = nlohmann::json::array();
    for (const ProbeDevice& d : r.devices) {
        nlohmann::json gemm = nlohmann::json::array();
        for (const MeasuredGemm& g : d.gemm)
            gemm.push_back({{"dtype", g.dtype}, {"m", g.m}, {"n", g.n}, {"k", g.k}, {"tflops", g.flops_per_s / 1e12}});
        devices.push_back(
            {{"index", d.index},
             {"name", d.name},
             {"memory_bytes", opt(d.memory_bytes)},
             {"sms", opt(d.sms)},
             {"compute_capability",
              d.compute_capability.empty() ? nlohmann::json(nullptr) : nlohmann::json(d.compute_capability)},
             {"hbm",
              {{"theoretical_gbps", opt(d.theoretical_hbm_bytes_per_s, 1e9)},
               {"copy_gbps", opt(d.copy_bytes_per_s, 1e9)},
               {"triad_gbps", opt(d.triad_bytes_per_s, 1e9)},
               {"copy_best_gbps", opt(d.copy_best_bytes_per_s, 1e9)},
               {"triad_best_gbps", opt(d.triad_best_bytes_per_s, 1e9)},
               {"copy_engine_gbps", opt(d.copy_engine_bytes_per_s, 1e9)},
               {"bytes", d.hbm_array_bytes > 0 ? nlohmann::json(d.hbm_array_bytes) : nlohmann::json(nullptr)}}},
             {"host_to_device_gbps", opt(d.h2d_bytes_per_s, 1e9)},
             {"device_to_host_gbps", opt(d.d2h_bytes_per_s, 1e9)},
             {"pcie", {{"gen", opt(d.pcie_gen)}, {"width", opt(d.pcie_width)}}},
             {"nvlink", {{"active_links", opt(d.nvlink_active_links)}, {"version", opt(d.nvlink_version)}}},
             {"gemm", gemm}});
    }
    j["devices"] = devices;
    nlohmann::json links = nlohmann::json::array();
    for (const ProbeLink& l : r.links)
        links.push_back({{"src", l.src},
                         {"dst", l.dst},
                         {"kind", l.p2p_access ? "p2p" : "staged"},
                         {"topology", l.topology ? nlohmann::json(*l.topology) : nlohmann::json(nullptr)},
                         {"unidirectional_gbps", opt(l.unidirectional_bytes_per_s, 1e9)},
                         {"bidirectional_gbps", opt(l.bidirectional_bytes_per_s, 1e9)}});
    j["links"] = links;
    nlohmann::json coll = nlohmann::json::array();
    for (const MeasuredCollective& c : r.collectives)
        coll.push_back({{"op", toString(c.op)},
                        {"ranks", c.ranks},
                        {"nodes", c.nodes},
                        {"bytes", c.bytes},
                        {"busbw_gbps", opt(c.busbw_bytes_per_s, 1e9)},
                        {"algorithm", "nccl"}});
    j["collectives"] = coll;
    nlohmann::json fits = nlohmann::json::array();
    for (const CollectiveFit& f : r.collective_fits)
        fits.push_back({{"op", toString(f.op)},
                        {"ranks", f.ranks},
                        {"nodes", f.nodes},
                        {"alpha_us", f.alpha_s * 1e6},
                        {"busbw_gbps", f.busbw_bytes_per_s / 1e9},
                        {"points", f.points},
                        {"max_relative_error", f.max_relative_error}});
    j["collective_fits"] = fits;
    nlohmann::json skipped = nlohmann::json::array();
    for (const auto& [what, why] : r.skipped)
        skipped.push_back({{"what", what}, {"reason", why}});
    j["skipped"] = skipped;
    j["warnings"] = r.warnings;
    return j;
}

std::vector<double> collectiveSizes(bool quick, double max_bytes)
{
    std::vector<double> out;
    for (double s = 8; s <= max_bytes; s *= quick ? 8 : 2)
        out.push_back(s);
    return out;
}

int iterationsFor(double one_s, double target_s, int min_iters, int max_iters)
{
    if (!(one_s > 0) || !std::isfinite(one_s))
        return max_iters;
    const double n = std::ceil(target_s / one_s);
    return int(std::clamp(n, double(min_iters), double(max_iters)));
}

int probeExitCode(const ProbeResult& r)
{
    if (r.status == "no_gpu")
        return 2;
    if (r.status == "partial")
        return 3;
    return 0;
}

double runWithSmallerSizes(const std::function<ProbeAttempt(double bytes)>& attempt, double bytes, double floor,
                           ProbeResult& result, const std::string& what)
{
    ProbeAttempt a;
    double b = bytes;
    for (; b >= floor; b /= 2) {
        a = attempt(b);
        if (a.ok)
            return b;
        if (!a.out_of_memory)
            break; // a timeout or another failure: retrying smaller would not help
        if (b / 2 >= floor)
            result.warnings.push_back(what + ": out of memory at " + num(b / double(1 << 20)) + " MiB, retrying at "
                                      + num(b / 2 / double(1 << 20)) + " MiB");
    }
    std::string why = a.message.empty() ? "failed" : a.message;
    if (a.out_of_memory)
        why = "out of memory even at " + num(floor / double(1 << 20)) + " MiB (" + why + ")";
    else if (a.timed_out)
        why = "timed out: " + why;
    result.skipped.emplace_back(what, why);
    if (result.status == "ok")
        result.status = "partial";
    return 0;
}

WaitResult waitWithTimeout(const std::function<int()>& query, double timeout_s, double poll_s)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    for (;;) {
        const int state = query();
        if (state == 0)
            return WaitResult::Done;
        if (state < 0)
            return WaitResult::Failed;
        if (std::chrono::steady_clock::now() >= deadline)
            return WaitResult::TimedOut;
        std::this_thread::sleep_for(std::chrono::duration<double>(poll_s));
    }
}

} // namespace parascope
