// nccl-tests import (hand-written logs in the documented formats) and the engine's use of
// measured collective bandwidth for groups of the same op, size and placement.

#include "hardware/nccl_tests_import.h"
#include "scenario_fixture.h"

#include <fstream>
#include <sstream>

using namespace parascope;
using namespace parascope::test;

namespace {

std::string slurp(const char* name)
{
    std::ifstream in(std::string(PARASCOPE_TEST_DATA) + "/" + name);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

const CommEntry& entry(const Estimate& e, const std::string& group, const std::string& collective)
{
    for (const CommEntry& c : e.communication)
        if (toString(c.group) == group && toString(c.collective) == collective)
            return c;
    qFatal("missing %s %s", group.c_str(), collective.c_str());
}

} // namespace

class TstNcclImport : public QObject {
    Q_OBJECT

private slots:
    void textLogTwoNodes()
    {
        // The log says the collective ("Collective test starting: all_reduce_perf"), 16 ranks on
        // the hosts dgx-a01 and dgx-a02, and 7 sizes; the out-of-place busbw is taken.
        std::vector<InputError> errors;
        const auto r = parseNcclTests(slurp("nccl-all_reduce-2x8.log"), "nccl-all_reduce-2x8.log", {}, errors);
        QVERIFY2(r, errors.empty() ? "" : errors[0].text().c_str());
        QVERIFY(r->op == Collective::AllReduce);
        QCOMPARE(r->ranks, 16);
        QCOMPARE(r->nodes, 2);
        QCOMPARE(r->rows.size(), std::size_t(7));
        QCOMPARE(r->rows.front().bytes, 1048576.0);
        QCOMPARE(r->rows.front().busbw_bytes_per_s, 20.63e9);
        QCOMPARE(r->rows.back().busbw_bytes_per_s, 179.27e9);
        QCOMPARE(r->avg_busbw_gbps, 105.893);
    }

    void collectiveFromTheFileNameAndRanksFromFlags()
    {
        // No "Collective test starting" and no "Using devices": the file name says all_gather;
        // the ranks must come from --ranks.
        std::vector<InputError> errors;
        QVERIFY(!parseNcclTests(slurp("nccl_all_gather_perf_1node.txt"), "nccl_all_gather_perf_1node.txt", {}, errors));
        QVERIFY(errors.back().message.find("--ranks") != std::string::npos);
        errors.clear();
        const auto r = parseNcclTests(slurp("nccl_all_gather_perf_1node.txt"), "nccl_all_gather_perf_1node.txt",
                                      NcclTestsOverrides{std::nullopt, 8, 1}, errors);
        QVERIFY(r);
        QVERIFY(r->op == Collective::AllGather);
        QCOMPARE(r->rows.size(), std::size_t(3));
        QCOMPARE(r->rows[1].busbw_bytes_per_s, 132.91e9);
    }

    void jsonOutput()
    {
        std::vector<InputError> errors;
        const auto r = parseNcclTests(slurp("nccl-reduce_scatter.json"), "nccl-reduce_scatter.json", {}, errors);
        QVERIFY(r);
        QVERIFY(r->op == Collective::ReduceScatter);
        QCOMPARE(r->ranks, 8);
        QCOMPARE(r->rows.size(), std::size_t(2));
        QCOMPARE(r->rows[1].busbw_bytes_per_s, 137.68e9);
    }

    void unknownCollectiveIsAnError()
    {
        std::vector<InputError> errors;
        QVERIFY(!parseNcclTests("     1024 256 float sum -1 10.0 0.1 0.2 0\n", "log.txt", NcclTestsOverrides{std::nullopt, 8, 1}, errors));
        QVERIFY(errors.back().message.find("--op") != std::string::npos);
        errors.clear();
        QVERIFY(!parseNcclTests("", "empty.txt", {}, errors));
        QVERIFY(errors[0].message.find("empty") != std::string::npos);
    }

    void mergedProfileReadsBack()
    {
        std::vector<InputError> errors;
        const auto r = parseNcclTests(slurp("nccl-all_reduce-2x8.log"), "a.log", {}, errors);
        const nlohmann::json p = mergeIntoProfile(nullptr, {*r}, {"a.log"});
        const auto profile = readHardwareProfile(p, errors);
        QVERIFY2(profile, errors.empty() ? "" : errors[0].text().c_str());
        QCOMPARE(profile->collectives.size(), std::size_t(7));
        QCOMPARE(profile->status, std::string("partial"));
        // Importing again replaces, not duplicates.
        const nlohmann::json twice = mergeIntoProfile(&p, {*r}, {"a.log"});
        QCOMPARE(twice["collectives"].size(), std::size_t(7));
    }

    void measuredBandwidthDrivesTheEngine()
    {
        // Llama-2 7B, TP 8 (no SP): its all-reduces run on 8 ranks of one node. A profile that
        // measured all_reduce on 8 ranks / 1 node at busbw X gives t = 2·7/8·S / X per call; a
        // synthetic profile with half the bandwidth doubles every such time exactly.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 8, 1, 1);
        sc.training.global_batch = 4;
        const auto profile = [](double gbps) {
            nlohmann::json j = {{"schema", "parascope.hardware-profile/1"}, {"status", "partial"},
                                {"collectives", {{{"op", "all_reduce"}, {"ranks", 8}, {"nodes", 1}, {"bytes", 1e6}, {"busbw_gbps", gbps / 2}},
                                                 {{"op", "all_reduce"}, {"ranks", 8}, {"nodes", 1}, {"bytes", 1e9}, {"busbw_gbps", gbps}}}}};
            std::vector<InputError> errors;
            return readHardwareProfile(j, errors).value();
        };
        Scenario full = sc, half = sc;
        full.cluster = calibrate(sc.cluster, profile(200));
        half.cluster = calibrate(sc.cluster, profile(100));
        const CommEntry a = entry(evaluate(full), "tp", "all_reduce");
        const CommEntry b = entry(evaluate(half), "tp", "all_reduce");
        QCOMPARE(b.time_s, 2 * a.time_s);
        // S = 4096·4096·2 = 33.5 MB sits between 1 MB and 1 GB: log-linear busbw
        // 100 + (ln S − ln 1e6)/(ln 1e9 − ln 1e6)·100 GB/s.
        const double S = 4096.0 * 4096 * 2;
        const double bw = 100e9 + (std::log(S) - std::log(1e6)) / (std::log(1e9) - std::log(1e6)) * 100e9;
        QCOMPARE(a.time_s, a.calls_per_step * 1.75 * S / bw);
        const Term* t = findTerm(a.terms, "comm.time_per_call");
        QVERIFY(t && t->source.find("measured") != std::string::npos);
        // A group of another size keeps the datasheet model.
        Scenario tp4 = full;
        tp4.parallel.tp = 4;
        const Estimate e4 = evaluate(tp4); // kept: entry() returns a reference into it
        const Term* t4 = findTerm(entry(e4, "tp", "all_reduce").terms, "comm.time_per_call");
        QVERIFY(t4 && t4->source.find("measured") == std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TstNcclImport)
#include "tst_nccl_import.moc"
