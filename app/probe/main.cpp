// parascope-probe: measures the local GPUs (HBM, host↔device, GPU↔GPU, GEMM, collectives) and
// writes a parascope.hardware-profile/1 JSON for `parascope-cli evaluate --profile` and the GUI.
//   parascope-probe [--quick] [--out FILE] [--shape MxNxK]... [--scenario FILE]
// Exit codes: 0 ok, 2 no usable GPU (the JSON is still written, status no_gpu), 3 partial
// (something failed or was skipped on error), 1 usage or internal error. Progress on stderr.

#include "comm/collective_cost.h"
#include "hardware/probe_report.h"
#include "io/atomic_file.h"
#include "io/scenario_json.h"
#include "time/gemm_shapes.h"
#include "nvml_loader.h"
#include "parascope/version.h"
#include "probe_cuda.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

namespace {

constexpr double MiB = 1 << 20;

const char* kUsage
    = "usage: parascope-probe [--quick] [--out FILE] [--shape MxNxK]... [--scenario FILE] [--timeout S]\n"
      "  --quick       small buffers and few samples (about 20 s on one GPU)\n"
      "  --out FILE    write the profile there (default: standard output)\n"
      "  --shape MxNxK also time this GEMM shape\n"
      "  --scenario F  also time the GEMMs of this parascope.scenario/1 file's layers (QKV, attention\n"
      "                output, MLP or expert up and down, as one GPU runs them), in its precision\n"
      "  --timeout S   give up on a kernel or copy after S seconds (default 60): the GPU is then\n"
      "                left alone and the profile written with what was measured\n"
      "exit codes: 0 ok, 2 no usable GPU (profile still written), 3 partial, 1 usage/internal error\n";

void progress(const std::string& what)
{
    std::fprintf(stderr, "[parascope-probe] %s\n", what.c_str());
    std::fflush(stderr);
}

struct Options {
    bool quick = false;
    std::string out;
    std::vector<std::array<int, 3>> shapes;
    std::vector<std::array<int, 3>> scenario_shapes; // --scenario: timed in the scenario's precision
    std::string scenario_dtype = "bf16";
};

double g_timeout_s = 60; // --timeout

parascope::ProbeAttempt attemptOf(const probe::Status& s) { return {s.ok(), s.outOfMemory, s.timedOut, s.message}; }

// Runs a bandwidth test with the engine's policy (parascope::runWithSmallerSizes): halving the
// buffer on out-of-memory down to a floor, then skipping with the reason.
template <typename F>
probe::Timing withFallback(F run, double bytes, double floor, parascope::ProbeResult& r, const std::string& what)
{
    probe::Timing t;
    parascope::runWithSmallerSizes(
        [&](double b) {
            t = run(b);
            return attemptOf(t.status);
        },
        bytes, floor, r, what);
    return t;
}

} // namespace

int probe::waitForGpu(const std::function<int()>& query)
{
    switch (parascope::waitWithTimeout(query, g_timeout_s)) {
    case parascope::WaitResult::Done: return 0;
    case parascope::WaitResult::Failed: return -1;
    case parascope::WaitResult::TimedOut: return 1;
    }
    return -1;
}

int probe::iterationsFor(double one_s, double target_s, int min_iters, int max_iters)
{
    return parascope::iterationsFor(one_s, target_s, min_iters, max_iters);
}

int main(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick") {
            o.quick = true;
        } else if (a == "--out" && i + 1 < argc) {
            o.out = argv[++i];
        } else if (a == "--shape" && i + 1 < argc) {
            int m = 0, n = 0, k = 0;
            if (std::sscanf(argv[++i], "%dx%dx%d", &m, &n, &k) != 3 || m < 1 || n < 1 || k < 1 || m > 65536 || n > 65536
                || k > 65536) {
                std::fprintf(stderr, "parascope-probe: --shape needs MxNxK with each in 1 … 65536\n%s", kUsage);
                return 1;
            }
            o.shapes.push_back({m, n, k});
        } else if (a == "--scenario" && i + 1 < argc) {
            std::vector<parascope::InputError> errors;
            const auto sc = parascope::readScenarioFile(argv[++i], errors);
            if (!sc) {
                for (const parascope::InputError& e : errors)
                    std::fprintf(stderr, "parascope-probe: %s: %s\n", argv[i], e.text().c_str());
                return 1;
            }
            for (const parascope::GemmShape& g : parascope::scenarioGemmShapes(*sc))
                if (g.m <= 1 << 20 && g.n <= 1 << 20 && g.k <= 1 << 20)
                    o.scenario_shapes.push_back({int(g.m), int(g.n), int(g.k)});
            o.scenario_dtype = sc->training.precision == parascope::Precision::Fp8 ? "fp8" : "bf16";
        } else if (a == "--timeout" && i + 1 < argc) {
            char* end = nullptr;
            g_timeout_s = std::strtod(argv[++i], &end);
            if (!end || *end || !(g_timeout_s >= 0.01 && g_timeout_s <= 86400)) {
                std::fprintf(stderr, "parascope-probe: --timeout needs seconds between 0.01 and 86400\n%s", kUsage);
                return 1;
            }
        } else if (a == "--version") {
            std::printf("parascope-probe %s\n", parascope::versionText().c_str());
            return 0;
        } else if (a == "--help" || a == "-h") {
            std::printf("%s", kUsage);
            return 0;
        } else {
            std::fprintf(stderr, "parascope-probe: unknown argument %s\n%s", a.c_str(), kUsage);
            return 1;
        }
    }

    parascope::ProbeResult r;
    r.probe_version = parascope::versionText();
    r.quick = o.quick;
    r.runtime_version = probe::runtimeVersion();
    int gpus = 0;
    const probe::Status count = probe::deviceCount(gpus);
    if (const int drv = probe::driverVersion(); drv > 0)
        r.driver_version = drv;
    if (!count.ok() || gpus == 0) {
        r.status = "no_gpu";
        r.error_code = count.code;
        r.error_message = count.ok() ? "no CUDA device" : count.message;
        r.skipped.emplace_back("all measurements", "no usable GPU: " + r.error_message);
        progress("no usable GPU: " + r.error_message);
    } else {
        const probe::Nvml nvml;
        if (!nvml.available())
            r.skipped.emplace_back("nvml", nvml.why());
        const int samples = o.quick ? 5 : 10;
        const double hbm_bytes = o.quick ? 256 * MiB : 1024 * MiB;
        const double host_bytes = o.quick ? 64 * MiB : 512 * MiB;
        // After a timeout the GPU is left alone: the rest is skipped, once, with the reason.
        bool stop_noted = false;
        const auto stopped = [&] {
            if (!probe::gpuHung())
                return false;
            if (!stop_noted)
                r.skipped.emplace_back("remaining measurements",
                                       "a kernel or copy did not finish within " + std::to_string(g_timeout_s)
                                           + " s; the GPU may be hung");
            stop_noted = true;
            r.status = "partial";
            return true;
        };
        for (int dev = 0; dev < gpus && !stopped(); ++dev) {
            parascope::ProbeDevice d;
            d.index = dev;
            probe::DeviceInfo info;
            if (const probe::Status s = probe::deviceInfo(dev, info); !s.ok()) {
                r.skipped.emplace_back("device " + std::to_string(dev), s.message);
                r.status = "partial";
                continue;
            }
            d.name = info.name;
            d.memory_bytes = info.total_bytes;
            d.sms = info.sms;
            d.compute_capability = std::to_string(info.cc_major) + "." + std::to_string(info.cc_minor);
            if (const double th = parascope::theoreticalHbmBytesPerS(info.mem_clock_khz * 1e3, info.bus_width_bits);
                th > 0)
                d.theoretical_hbm_bytes_per_s = th;
            else
                r.warnings.push_back("GPU " + std::to_string(dev)
                                     + ": memory clock or bus width not reported; theoretical HBM unknown");
            d.pcie_gen = nvml.pcieGeneration(dev);
            d.pcie_width = nvml.pcieWidth(dev);
            d.nvlink_active_links = nvml.activeNvlinks(dev);
            d.nvlink_version = nvml.nvlinkVersion(dev);
            const std::string tag = "GPU " + std::to_string(dev) + " (" + d.name + ")";

            progress(tag + ": HBM copy and triad");
            auto copy = withFallback([&](double b) { return probe::hbmCopy(dev, b, samples); }, hbm_bytes, 64 * MiB, r,
                                     "hbm copy, " + tag);
            if (copy.status.ok()) {
                d.hbm_array_bytes = copy.bytes;
                d.copy_bytes_per_s = parascope::copyBytes(copy.bytes) / parascope::sampleStats(copy.seconds).median;
                d.copy_best_bytes_per_s = parascope::copyBytes(copy.bytes) / parascope::sampleStats(copy.seconds).best;
            }
            auto triad = withFallback([&](double b) { return probe::hbmTriad(dev, b, samples); }, hbm_bytes, 64 * MiB,
                                      r, "hbm triad, " + tag);
            if (triad.status.ok()) {
                d.triad_bytes_per_s = parascope::triadBytes(triad.bytes) / parascope::sampleStats(triad.seconds).median;
                d.triad_best_bytes_per_s
                    = parascope::triadBytes(triad.bytes) / parascope::sampleStats(triad.seconds).best;
            }
            auto ce = withFallback([&](double b) { return probe::copyEngine(dev, b, samples); }, hbm_bytes, 64 * MiB, r,
                                   "copy engine, " + tag);
            if (ce.status.ok())
                d.copy_engine_bytes_per_s = parascope::copyBytes(ce.bytes) / parascope::sampleStats(ce.seconds).median;

            if (stopped()) {
                r.devices.push_back(std::move(d));
                break;
            }
            progress(tag + ": host <-> device (pinned)");
            auto h2d = withFallback([&](double b) { return probe::hostDevice(dev, b, 3, true); }, host_bytes, 16 * MiB,
                                    r, "host to device, " + tag);
            if (h2d.status.ok())
                d.h2d_bytes_per_s = h2d.bytes / parascope::sampleStats(h2d.seconds).median;
            auto d2h = withFallback([&](double b) { return probe::hostDevice(dev, b, 3, false); }, host_bytes, 16 * MiB,
                                    r, "device to host, " + tag);
            if (d2h.status.ok())
                d.d2h_bytes_per_s = d2h.bytes / parascope::sampleStats(d2h.seconds).median;

            std::vector<std::array<int, 3>> shapes = {{4096, 4096, 4096}};
            if (!o.quick)
                shapes.push_back({8192, 8192, 8192});
            shapes.insert(shapes.end(), o.shapes.begin(), o.shapes.end());
            for (const char* dtype : {"bf16", "fp16", "tf32", "fp32"}) {
                for (const auto& [m, n, k] : shapes) {
                    if (stopped())
                        break;
                    if (std::strcmp(dtype, "fp32") == 0 && m * double(n) * k > 4096.0 * 4096 * 4096 && o.quick)
                        continue;
                    progress(tag + ": GEMM " + dtype + " " + std::to_string(m) + "x" + std::to_string(n) + "x"
                             + std::to_string(k));
                    const probe::Timing g = probe::gemm(dev, dtype, m, n, k, o.quick ? 5 : 20);
                    if (!g.status.ok() || g.seconds.empty()) {
                        r.skipped.emplace_back(std::string("gemm ") + dtype + ", " + tag, g.status.message);
                        r.status = "partial";
                        continue;
                    }
                    d.gemm.push_back({dtype, double(m), double(n), double(k),
                                      parascope::gemmFlops(m, n, k) / parascope::sampleStats(g.seconds).median});
                }
            }
            if (info.cc_major * 10 + info.cc_minor >= 89) {
                for (const auto& [m, n, k] : shapes) {
                    progress(tag + ": GEMM fp8 " + std::to_string(m) + "x" + std::to_string(n) + "x"
                             + std::to_string(k));
                    const probe::Timing g = probe::gemm(dev, "fp8", m, n, k, o.quick ? 5 : 20);
                    if (!g.status.ok() || g.seconds.empty()) {
                        r.skipped.emplace_back("gemm fp8, " + tag, g.status.message);
                        r.status = "partial";
                        continue;
                    }
                    d.gemm.push_back({"fp8", double(m), double(n), double(k),
                                      parascope::gemmFlops(m, n, k) / parascope::sampleStats(g.seconds).median});
                }
            } else {
                r.skipped.emplace_back("gemm fp8, " + tag, "fp8 tensor cores need compute capability 8.9 or newer");
            }
            // The scenario's own GEMMs, in its precision.
            for (const auto& [m, n, k] : o.scenario_shapes) {
                if (stopped())
                    break;
                const std::string dtype
                    = o.scenario_dtype == "fp8" && info.cc_major * 10 + info.cc_minor < 89 ? "bf16" : o.scenario_dtype;
                progress(tag + ": scenario GEMM " + dtype + " " + std::to_string(m) + "x" + std::to_string(n) + "x"
                         + std::to_string(k));
                const probe::Timing g = probe::gemm(dev, dtype, m, n, k, o.quick ? 5 : 20);
                if (!g.status.ok() || g.seconds.empty()) {
                    r.skipped.emplace_back("gemm " + dtype + " (scenario), " + tag, g.status.message);
                    r.status = "partial";
                    continue;
                }
                d.gemm.push_back({dtype, double(m), double(n), double(k),
                                  parascope::gemmFlops(m, n, k) / parascope::sampleStats(g.seconds).median});
            }
            r.devices.push_back(std::move(d));
        }

        if (stopped()) {
            // nothing more on a hung GPU
        } else if (gpus < 2) {
            r.skipped.emplace_back("peer copies", "single_gpu");
            r.skipped.emplace_back("collectives", "single_gpu");
        } else {
            const double peer_bytes = o.quick ? 64 * MiB : 512 * MiB;
            for (int a = 0; a < gpus; ++a)
                for (int b = 0; b < gpus; ++b) {
                    if (a == b || stopped())
                        continue;
                    progress("peer copy GPU " + std::to_string(a) + " -> GPU " + std::to_string(b));
                    parascope::ProbeLink l;
                    l.src = a;
                    l.dst = b;
                    l.topology = nvml.topology(a, b);
                    const probe::Timing one = probe::peerCopy(a, b, peer_bytes, 3, false, l.p2p_access);
                    if (one.status.ok())
                        l.unidirectional_bytes_per_s = one.bytes / parascope::sampleStats(one.seconds).median;
                    const probe::Timing two = probe::peerCopy(a, b, peer_bytes, 3, true, l.p2p_access);
                    if (two.status.ok())
                        l.bidirectional_bytes_per_s = 2 * two.bytes / parascope::sampleStats(two.seconds).median;
                    if (!one.status.ok() || !two.status.ok()) {
                        r.skipped.emplace_back("peer copy " + std::to_string(a) + "->" + std::to_string(b),
                                               one.status.ok() ? two.status.message : one.status.message);
                        r.status = "partial";
                    }
                    r.links.push_back(l);
                }
            // From 8 B (latency) to 256 MiB / 1 GiB (bandwidth), as nccl-tests -b 8 -f 2 sweeps.
            const std::vector<double> sizes = parascope::collectiveSizes(o.quick, o.quick ? 256 * MiB : 1024 * MiB);
            using parascope::Collective;
            for (const Collective kind :
                 {Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter, Collective::AllToAll}) {
                const struct {
                    const char* name;
                    Collective kind;
                } op{parascope::toString(kind), kind};
                if (stopped())
                    break;
                progress(std::string("NCCL ") + op.name + " over " + std::to_string(gpus) + " GPUs");
                const probe::CollectiveTiming c = probe::collective(gpus, op.name, sizes, o.quick ? 0.005 : 0.02);
                if (!c.skipped.empty()) {
                    r.skipped.emplace_back(std::string("collective ") + op.name, c.skipped);
                    continue;
                }
                // nccl-tests: algbw = S/t, busbw = algbw · factor (2(n−1)/n all-reduce, (n−1)/n others).
                for (const auto& [bytes, seconds] : c.size_seconds)
                    r.collectives.push_back(
                        {op.kind, gpus, 1, bytes, bytes / seconds * parascope::busFactor(op.kind, gpus)});
                // α (latency) and the asymptotic busbw of the sweep (parascope::fitAlphaBeta).
                if (const auto fit = parascope::fitAlphaBeta(op.kind, gpus, 1, c.size_seconds))
                    r.collective_fits.push_back(*fit);
            }
        }
    }

    const std::string text = parascope::probeResultToJson(r).dump(2) + "\n";
    int code = parascope::probeExitCode(r);
    if (o.out.empty()) {
        std::cout << text << std::flush;
    } else if (const std::string error = parascope::writeFileAtomically(o.out, text); !error.empty()) {
        std::fprintf(stderr, "parascope-probe: %s\n", error.c_str());
        code = 1;
    }
    // With hung work on a GPU the CUDA runtime's teardown would wait for it: leave at once.
    if (probe::gpuHung())
        std::_Exit(code);
    return code;
}
