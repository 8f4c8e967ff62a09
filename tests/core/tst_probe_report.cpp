// The probe's pure parts: statistics, byte and FLOP accounting, theoretical HBM bandwidth, the
// profile JSON it writes (read back by the engine), exit codes; and, where the probe was built,
// the binary itself on this machine (no GPU in CI: exit 2 with a no_gpu profile).

#include "hardware/probe_report.h"
#include "io/scenario_json.h"
#include "time/gemm_shapes.h"

#include <QtTest>

#include <fstream>

using namespace parascope;

class TstProbeReport : public QObject {
    Q_OBJECT

private slots:
    void statistics()
    {
        SampleStats s = sampleStats({0.3, 0.1, 0.2});
        QCOMPARE(s.median, 0.2);
        QCOMPARE(s.best, 0.1);
        QCOMPARE(s.worst, 0.3);
        QCOMPARE(s.samples, 3);
        s = sampleStats({4, 1, 3, 2}); // even: mean of the middle two
        QCOMPARE(s.median, 2.5);
        QCOMPARE(sampleStats({}).samples, 0);
    }

    void accounting()
    {
        // BabelStream: copy moves 2n (read + write), triad 3n; GEMM 2·M·N·K FLOPs.
        QCOMPARE(copyBytes(1e9), 2e9);
        QCOMPARE(triadBytes(1e9), 3e9);
        QCOMPARE(gemmFlops(8192, 8192, 8192), 2.0 * 8192 * 8192 * 8192);
        // Theoretical HBM = 2 · clock · bus / 8 (cuda-probe.md): H200 3201 MHz × 6144 bit =
        // 4.917 TB/s; A100 80 GB 1593 MHz × 5120 bit = 2.039 TB/s.
        QCOMPARE(theoreticalHbmBytesPerS(3201e6, 6144), 2 * 3201e6 * 6144 / 8);
        QVERIFY(std::abs(theoreticalHbmBytesPerS(1593e6, 5120) / 1e12 - 2.039) < 0.001);
        QCOMPARE(theoreticalHbmBytesPerS(0, 5120), 0.0);
    }

    void profileRoundTrip()
    {
        ProbeResult r;
        r.probe_version = "test";
        r.runtime_version = 13000;
        ProbeDevice d;
        d.index = 0;
        d.name = "NVIDIA H200";
        d.memory_bytes = 150754820096.0;
        d.sms = 132;
        d.compute_capability = "9.0";
        d.copy_bytes_per_s = 4.3e12;
        d.gemm.push_back({"bf16", 8192, 8192, 8192, 790e12});
        r.devices.push_back(d); // triad, theoretical, PCIe … unknown
        ProbeLink link;
        link.src = 0;
        link.dst = 1;
        link.p2p_access = true;
        link.unidirectional_bytes_per_s = 396e9; // two-way and topology unknown
        r.links.push_back(link);
        r.collectives.push_back({Collective::AllReduce, 8, 1, 8589934592.0, 365e9});
        r.skipped.emplace_back("gemm fp8", "not measured");
        const nlohmann::json j = probeResultToJson(r);
        // Unknown values are null, never 0.
        QVERIFY(j["devices"][0]["hbm"]["triad_gbps"].is_null());
        QVERIFY(j["devices"][0]["pcie"]["gen"].is_null());
        QVERIFY(j["links"][0]["bidirectional_gbps"].is_null());
        QVERIFY(j["links"][0]["topology"].is_null());
        QCOMPARE(j["devices"][0]["hbm"]["copy_gbps"].get<double>(), 4300.0);
        std::vector<InputError> errors;
        const auto p = readHardwareProfile(j, errors);
        QVERIFY2(p, errors.empty() ? "" : errors[0].text().c_str());
        QCOMPARE(p->device_name, std::string("NVIDIA H200"));
        QCOMPARE(*p->hbm_copy_bytes_per_s, 4.3e12);
        QCOMPARE(p->gemm.size(), std::size_t(1));
        QCOMPARE(p->gemm[0].flops_per_s, 790e12);
        QCOMPARE(*p->p2p_unidirectional_bytes_per_s, 396e9);
        QCOMPARE(p->collectives.size(), std::size_t(1));
        QCOMPARE(probeExitCode(r), 0);
        r.status = "partial";
        QCOMPARE(probeExitCode(r), 3);
        r.status = "no_gpu";
        QCOMPARE(probeExitCode(r), 2);
    }

    void outOfMemoryRetriesSmallerThenSkips()
    {
        // The probe's policy, without a GPU: a device where only 100 MiB fit. From 256 MiB the
        // test halves to 128 (still too big) and 64 MiB (fits): two warnings, no skip.
        constexpr double MiB = 1 << 20;
        ProbeResult r;
        std::vector<double> tried;
        const auto fitsBelow100 = [&](double bytes) {
            tried.push_back(bytes / MiB);
            ProbeAttempt a;
            a.ok = bytes <= 100 * MiB;
            a.out_of_memory = !a.ok;
            a.message = a.ok ? "" : "out of memory";
            return a;
        };
        QCOMPARE(runWithSmallerSizes(fitsBelow100, 256 * MiB, 16 * MiB, r, "hbm copy"), 64 * MiB);
        QCOMPARE(tried, (std::vector<double>{256, 128, 64}));
        QCOMPARE(r.warnings.size(), std::size_t(2));
        QVERIFY(r.skipped.empty());
        QCOMPARE(r.status, std::string("ok"));

        // Nothing fits down to the floor: skipped, saying so, and the profile is partial.
        tried.clear();
        QCOMPARE(runWithSmallerSizes(fitsBelow100, 1024 * MiB, 512 * MiB, r, "copy engine"), 0.0);
        QCOMPARE(tried, (std::vector<double>{1024, 512}));
        QCOMPARE(r.skipped.size(), std::size_t(1));
        QCOMPARE(r.skipped[0].first, std::string("copy engine"));
        QVERIFY(r.skipped[0].second.find("out of memory even at 512 MiB") != std::string::npos);
        QCOMPARE(r.status, std::string("partial"));
        QCOMPARE(probeExitCode(r), 3);
    }

    void timeoutIsNotRetried()
    {
        ProbeResult r;
        int calls = 0;
        const auto hangs = [&](double) {
            ++calls;
            ProbeAttempt a;
            a.ok = false;
            a.timed_out = true;
            a.message = "the GPU did not finish the work in time";
            return a;
        };
        QCOMPARE(runWithSmallerSizes(hangs, 256.0 * (1 << 20), 1 << 20, r, "hbm triad"), 0.0);
        QCOMPARE(calls, 1);
        QVERIFY(r.skipped[0].second.rfind("timed out: ", 0) == 0);
        QCOMPARE(r.status, std::string("partial"));
    }

    void waitingHasADeadline()
    {
        // A kernel that never finishes: the wait gives up (here after 50 ms) instead of hanging.
        int polls = 0;
        QCOMPARE(waitWithTimeout(
                     [&] {
                         ++polls;
                         return 1;
                     },
                     0.05, 0.001),
                 WaitResult::TimedOut);
        QVERIFY(polls >= 2);
        // Work that finishes on the third poll, and work that fails.
        polls = 0;
        QCOMPARE(waitWithTimeout([&] { return ++polls < 3 ? 1 : 0; }, 60, 0.0001), WaitResult::Done);
        QCOMPARE(polls, 3);
        QCOMPARE(waitWithTimeout([] { return -1; }, 60), WaitResult::Failed);
    }

    // The sweep nccl-tests runs (-b 8 -f 2), and launches amortised over a timing of ≥ 20 ms.
    void sweepAndIterations()
    {
        const std::vector<double> full = collectiveSizes(false, 1 << 30);
        QCOMPARE(full.size(), std::size_t(28)); // 8 B = 2^3 … 1 GiB = 2^30, doubling
        QCOMPARE(full.front(), 8.0);
        QCOMPARE(full.back(), double(1 << 30));
        const std::vector<double> quick = collectiveSizes(true, 256 << 20);
        QCOMPARE(quick.size(), std::size_t(9)); // 2^3, 2^6, … 2^27 (≤ 2^28), ×8
        QCOMPARE(quick[1], 64.0);
        // A 1 GiB copy of 0.7 ms: ⌈20 / 0.7⌉ = 29 launches per timing; a 1 s GEMM: 1; an 8-byte
        // collective of 10 µs: 2000, capped at 1000; an untimed one (0 s): the cap.
        QCOMPARE(iterationsFor(0.7e-3, 0.02), 29);
        QCOMPARE(iterationsFor(1.0, 0.02), 1);
        QCOMPARE(iterationsFor(10e-6, 0.02, 5, 1000), 1000);
        QCOMPARE(iterationsFor(0, 0.02, 5, 100), 100);
    }

    // t(S) = α + factor·S/busbw. An 8-GPU all-reduce with α = 25 µs and busbw 150 GB/s
    // (factor 2·7/8 = 1.75): the fit returns both exactly; with ±3 % noise within a few percent;
    // a pure bandwidth curve gives α = 0, never a negative latency.
    void alphaBetaFit()
    {
        const double alpha = 25e-6, busbw = 150e9, factor = 1.75;
        std::vector<std::pair<double, double>> pts, noisy, no_latency;
        int i = 0;
        for (double S : collectiveSizes(false, 1 << 30)) {
            const double t = alpha + factor * S / busbw;
            pts.push_back({S, t});
            noisy.push_back({S, t * (i++ % 2 ? 1.03 : 0.97)});
            no_latency.push_back({S, factor * S / busbw});
        }
        const auto f = fitAlphaBeta(Collective::AllReduce, 8, 1, pts);
        QVERIFY(f);
        QVERIFY(std::abs(f->alpha_s / alpha - 1) < 1e-9);
        QVERIFY(std::abs(f->busbw_bytes_per_s / busbw - 1) < 1e-9);
        QCOMPARE(f->points, 28);
        QVERIFY(f->max_relative_error < 1e-9);
        const auto g = fitAlphaBeta(Collective::AllReduce, 8, 1, noisy);
        QVERIFY(g && std::abs(g->alpha_s / alpha - 1) < 0.05 && std::abs(g->busbw_bytes_per_s / busbw - 1) < 0.05);
        QVERIFY(g->max_relative_error > 0.02 && g->max_relative_error < 0.06);
        const auto h = fitAlphaBeta(Collective::AllReduce, 8, 1, no_latency);
        QVERIFY(h && h->alpha_s >= 0 && h->alpha_s < 1e-15 && std::abs(h->busbw_bytes_per_s / busbw - 1) < 1e-9);
        QVERIFY(!fitAlphaBeta(Collective::AllReduce, 8, 1, {{8, 1e-5}})); // one point: no line
        QVERIFY(!fitAlphaBeta(Collective::AllReduce, 1, 1, pts)); // one rank: no collective
    }

    // calibrate() takes each link's latency per ring step from the α of the all-reduces measured
    // down to small sizes: one node of 8 (α = 25 µs over 2·7 = 14 steps → 1.786 µs per NVLink
    // step); 2 nodes of 8 with α = 14·1.786 µs + 2·(2 − 1)·5 µs = 35 µs → 5 µs per network step.
    void latencyFromTheFit()
    {
        HardwareProfile p;
        for (double S : collectiveSizes(false, 1 << 30)) {
            p.collectives.push_back({Collective::AllReduce, 8, 1, S, 1.75 * S / (25e-6 + 1.75 * S / 150e9)});
            const double f16 = 2.0 * 15 / 16;
            p.collectives.push_back({Collective::AllReduce, 16, 2, S, f16 * S / (35e-6 + f16 * S / 40e9)});
        }
        std::vector<InputError> errors;
        const auto cluster = readCluster(nlohmann::json("dgx-h100"), "cluster", errors);
        QVERIFY(cluster);
        const ClusterSpec c = calibrate(*cluster, p);
        QVERIFY(std::abs(c.intra_node.latency_s - 25e-6 / 14) < 1e-12);
        QVERIFY(std::abs(c.inter_node.latency_s - 5e-6) < 1e-11);
        bool named = false;
        for (const Term& t : c.calibration)
            named = named || t.name == "calibration.inter_node_latency";
        QVERIFY(named);
        // Measured only from 1 MiB up (the old probe): no latency is claimed.
        HardwareProfile big;
        for (double S = 1 << 20; S <= (1 << 30); S *= 4)
            big.collectives.push_back({Collective::AllReduce, 8, 1, S, 1.75 * S / (25e-6 + 1.75 * S / 150e9)});
        QCOMPARE(calibrate(*cluster, big).intra_node.latency_s, cluster->intra_node.latency_s);
    }

    // --scenario's GEMMs. Llama-2 70B (h 8192, 64 heads, 8 KV heads of 128, SwiGLU f 28672) on
    // TP 8, seq 4096, micro batch 1: M = 4096; QKV N = (8192 + 2·1024)/8 = 1280, K = 8192;
    // attention out N = 8192, K = 8192/8 = 1024; MLP up (gate + up) N = 2·28672/8 = 7168,
    // K = 8192; down N = 8192, K = 28672/8 = 3584.
    void scenarioGemms()
    {
        std::vector<InputError> errors;
        nlohmann::json j = {{"schema", "parascope.scenario/1"},
                            {"model", "llama2-70b"},
                            {"cluster", "dgx-a100-80g"},
                            {"parallel", {{"tp", 8}, {"pp", 8}, {"dp", 8}}},
                            {"training", {{"seq_len", 4096}, {"micro_batch", 1}, {"global_batch", 512}}}};
        const auto sc = readScenario(j, errors);
        QVERIFY(sc);
        const std::vector<GemmShape> g = scenarioGemmShapes(*sc);
        QCOMPARE(g.size(), std::size_t(4));
        const auto is = [](const GemmShape& s, std::int64_t m, std::int64_t n, std::int64_t k) {
            return s.m == m && s.n == n && s.k == k;
        };
        QVERIFY(is(g[0], 4096, 8192, 1024) && g[0].name == "attention out");
        QVERIFY(is(g[1], 4096, 1280, 8192) && g[1].name == "qkv");
        QVERIFY(is(g[2], 4096, 7168, 8192));
        QVERIFY(is(g[3], 4096, 8192, 3584));
        // Mixtral 8x7B on EP 8 (TP 1): each expert sees 8·4096·2/8 = 8192 tokens; up N 2·14336,
        // K 4096; down N 4096, K 14336.
        j["model"] = "mixtral-8x7b";
        j["parallel"] = {{"tp", 1}, {"pp", 1}, {"dp", 8}, {"ep", 8}};
        const auto moe = readScenario(j, errors);
        QVERIFY(moe);
        const std::vector<GemmShape> e = scenarioGemmShapes(*moe);
        QVERIFY(std::any_of(e.begin(), e.end(),
                            [&](const GemmShape& s) { return s.name == "expert up" && is(s, 8192, 28672, 4096); }));
        QVERIFY(std::any_of(e.begin(), e.end(),
                            [&](const GemmShape& s) { return s.name == "expert down" && is(s, 8192, 4096, 14336); }));
        QVERIFY(std::none_of(e.begin(), e.end(),
                             [](const GemmShape& s) { return s.name == "mlp up"; })); // every layer is MoE
    }

    void binaryWithoutAGpu()
    {
#if defined(PARASCOPE_PROBE)
        const QString out = QDir::temp().filePath(
            QStringLiteral("parascope-probe-test-%1.json").arg(QCoreApplication::applicationPid()));
        QProcess p;
        p.start(QStringLiteral(PARASCOPE_PROBE), {QStringLiteral("--quick"), QStringLiteral("--out"), out});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit, "the probe crashed");
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const nlohmann::json j = nlohmann::json::parse(f.readAll().toStdString());
        std::vector<InputError> errors;
        QVERIFY(readHardwareProfile(j, errors));
        if (p.exitCode() == 2) { // no driver or no GPU (CI): still a profile, saying why
            QCOMPARE(j["status"].get<std::string>(), std::string("no_gpu"));
            QVERIFY(j.contains("error"));
            QVERIFY(!j["skipped"].empty());
        } else { // a GPU machine
            QVERIFY(p.exitCode() == 0 || p.exitCode() == 3);
            QVERIFY(!j["devices"].empty());
        }
        f.remove();
        p.start(QStringLiteral(PARASCOPE_PROBE), {QStringLiteral("--shape"), QStringLiteral("8x8")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        p.start(QStringLiteral(PARASCOPE_PROBE), {QStringLiteral("--timeout"), QStringLiteral("0")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        // --scenario: a file that is not a scenario is refused before anything is measured.
        p.start(QStringLiteral(PARASCOPE_PROBE),
                {QStringLiteral("--scenario"), QStringLiteral(PARASCOPE_TEST_DATA "/profile-a100-80g.json")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        p.start(QStringLiteral(PARASCOPE_PROBE), {QStringLiteral("--help")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
#else
        QSKIP("parascope-probe is not built here (no CUDA compiler)");
#endif
    }
};

QTEST_GUILESS_MAIN(TstProbeReport)
#include "tst_probe_report.moc"
