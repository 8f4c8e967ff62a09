// Calibration from a hardware profile: each measured number replaces the datasheet-derived
// efficiency it measures, and the change is recorded as a Term.

#include "hardware/hardware_profile.h"
#include "scenario_fixture.h"

using namespace parascope;
using namespace parascope::test;

class TstCalibration : public QObject {
    Q_OBJECT

    static HardwareProfile profile()
    {
        std::vector<InputError> errors;
        auto p = readHardwareProfileFile(std::string(PARASCOPE_TEST_DATA) + "/profile-a100-80g.json", errors);
        if (!p)
            qFatal("fixture profile does not load: %s", errors.empty() ? "?" : errors[0].text().c_str());
        return *p;
    }

private slots:
    void readsTheFixture()
    {
        const HardwareProfile p = profile();
        QCOMPARE(p.status, std::string("ok"));
        QCOMPARE(p.gemm.size(), std::size_t(3));
        QCOMPARE(p.collectives.size(), std::size_t(3));
        QCOMPARE(*p.hbm_copy_bytes_per_s, 1800e9);
    }

    void calibratesTheCluster()
    {
        const ClusterSpec before = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 1).cluster;
        const ClusterSpec after = calibrate(before, profile());
        // GEMM: bf16 240 TFLOP/s at 4096³ (g1 = 2·4096³) and 262.1 at 8192³ (g2 = 2·8192³) of
        // 312: the curve eff_max·g/(g + g_half) through both gives
        // g_half = (e2 − e1)/(e1/g1 − e2/g2) and eff_max = e1·(g1 + g_half)/g1.
        const double g1 = 2.0 * 4096 * 4096 * 4096, g2 = 2.0 * 8192 * 8192 * 8192;
        const double e1 = 240.0 / 312, e2 = 262.1 / 312;
        const double half = (e2 - e1) / (e1 / g1 - e2 / g2);
        QCOMPARE(after.gpu.gemm_half_flops, half);
        QCOMPARE(after.gpu.gemm_efficiency, e1 * (g1 + half) / g1);
        QVERIFY(half > 1e10 && half < 2e10); // ≈ 14.7 GFLOP
        // The curve passes through both measurements.
        QVERIFY(std::abs(after.gpu.gemm_efficiency * g2 / (g2 + half) - e2) < 1e-12);
        // HBM: 1800 of 2039 GB/s.
        QCOMPARE(after.gpu.hbm_efficiency, 1800.0 / 2039);
        // NVLink: the largest single-node all-reduce, busbw 230 of 300 GB/s.
        QCOMPARE(after.intra_node.efficiency, 230.0 / 300);
        // Network: 2 nodes × 8 ranks, busbw 188 GB/s ÷ 8 ranks per node = 23.5 of 25 GB/s per GPU.
        QCOMPARE(after.inter_node.efficiency, 188.0 / 8 / 25);
        QCOMPARE(after.calibration.size(), std::size_t(7)); // + g_half and the 3 measured collectives
        for (const Term& t : after.calibration)
            QVERIFY(t.source.find("A100-SXM4-80GB (fixture)") != std::string::npos);
        QVERIFY(before.calibration.empty());

        // Calibration changes time, not memory: the same scenario on both clusters.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 8, 1, 1);
        const Estimate a = evaluate(sc);
        sc.cluster = after;
        const Estimate b = evaluate(sc);
        QCOMPARE(b.memory.peak_bytes, a.memory.peak_bytes);
        // The measured GEMM curve (0.851 max, half at 14.7 GFLOP) is below the datasheet-derived
        // 0.869 (half at 2 GFLOP), and the measured HBM copy (1800 GB/s) below 0.9·2039 = 1835:
        // compute takes longer.
        QVERIFY(b.time.compute_s > a.time.compute_s);
    }

    void badProfileNamesPaths()
    {
        std::vector<InputError> errors;
        QVERIFY(!readHardwareProfileFile(std::string(PARASCOPE_TEST_DATA) + "/bad-profile.json", errors));
        std::string all;
        for (const InputError& e : errors)
            all += e.text() + "\n";
        QVERIFY2(all.find("status: must be one of ok, partial, no_gpu") != std::string::npos, all.c_str());
        QVERIFY2(all.find("devices[0].gemm[0].dtype: must be one of") != std::string::npos, all.c_str());
        QVERIFY2(all.find("devices[0].gemm[0].tflops: must be a positive number, or null") != std::string::npos,
                 all.c_str());
    }

    void zeroMeasurementsAreRefused()
    {
        // A probe kernel that failed can write 0: before, copy_gbps 0 calibrated the HBM to 0 B/s
        // and the report printed -nan (null in JSON) with exit 0. Each zero names its path.
        std::vector<InputError> errors;
        const auto p
            = readHardwareProfile(nlohmann::json::parse(R"({"schema":"parascope.hardware-profile/1","status":"ok",
            "devices":[{"name":"GPU","memory_bytes":0,"hbm":{"copy_gbps":0},"gemm":[{"dtype":"bf16","m":8192,"n":8192,"k":8192,"tflops":0}]}],
            "links":[{"src":0,"dst":1,"unidirectional_gbps":0}],
            "collectives":[{"op":"all_reduce","ranks":8,"bytes":1e9,"busbw_gbps":0}]})"),
                                  errors);
        QVERIFY(!p);
        std::string all;
        for (const InputError& e : errors)
            all += e.text() + "\n";
        for (const char* path : {"devices[0].memory_bytes", "devices[0].hbm.copy_gbps", "devices[0].gemm[0].tflops",
                                 "links[0].unidirectional_gbps", "collectives[0].busbw_gbps"})
            QVERIFY2(all.find(std::string(path) + ": must be a positive number") != std::string::npos,
                     (path + std::string(":\n") + all).c_str());
    }

    void nullMeansUnknown()
    {
        std::vector<InputError> errors;
        const auto p
            = readHardwareProfile(nlohmann::json::parse(R"({"schema":"parascope.hardware-profile/1","status":"no_gpu",
            "reason":"no CUDA driver","devices":[{"name":"none","memory_bytes":null,"hbm":{"copy_gbps":null}}]})"),
                                  errors);
        QVERIFY(p);
        QVERIFY(!p->hbm_copy_bytes_per_s);
        const ClusterSpec c = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 1).cluster;
        QVERIFY(calibrate(c, *p).calibration.empty());
    }
};

QTEST_GUILESS_MAIN(TstCalibration)
#include "tst_calibration.moc"
