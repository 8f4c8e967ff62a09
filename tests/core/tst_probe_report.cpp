// The probe's pure parts: statistics, byte and FLOP accounting, theoretical HBM bandwidth, the
// profile JSON it writes (read back by the engine), exit codes; and, where the probe was built,
// the binary itself on this machine (no GPU in CI: exit 2 with a no_gpu profile).

#include "hardware/probe_report.h"

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
        QCOMPARE(waitWithTimeout([&] { ++polls; return 1; }, 0.05, 0.001), WaitResult::TimedOut);
        QVERIFY(polls >= 2);
        // Work that finishes on the third poll, and work that fails.
        polls = 0;
        QCOMPARE(waitWithTimeout([&] { return ++polls < 3 ? 1 : 0; }, 60, 0.0001), WaitResult::Done);
        QCOMPARE(polls, 3);
        QCOMPARE(waitWithTimeout([] { return -1; }, 60), WaitResult::Failed);
    }

    void binaryWithoutAGpu()
    {
#if defined(PARASCOPE_PROBE)
        const QString out = QDir::temp().filePath(QStringLiteral("parascope-probe-test-%1.json").arg(QCoreApplication::applicationPid()));
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
