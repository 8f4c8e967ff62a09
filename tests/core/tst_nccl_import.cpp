// nccl-tests import (hand-written logs in the formats nccl-tests writes and people paste: tagged,
// indented, with NCCL INFO lines, the old format, empty reductions, wrong rows, two runs, -J
// JSON) and the engine's use of measured collective bandwidth for groups of the same op, size
// and placement.

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

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::abs(b); }

} // namespace

class TstNcclImport : public QObject {
    Q_OBJECT

private slots:
    void textLogTwoNodes()
    {
        // The log says the collective ("Collective test starting: all_reduce_perf"), 16 ranks on
        // the hosts dgx-a01 and dgx-a02, and 7 sizes. busbw comes from the time column:
        // 2·15/16 · 1,048,576 B / 95.31 µs = 20.628 GB/s (the column rounds it to 20.63).
        std::vector<InputError> errors;
        const auto r = parseNcclTests(slurp("nccl-all_reduce-2x8.log"), "nccl-all_reduce-2x8.log", {}, errors);
        QVERIFY2(r, errors.empty() ? "" : errors[0].text().c_str());
        QVERIFY(r->op == Collective::AllReduce);
        QCOMPARE(r->ranks, 16);
        QCOMPARE(r->nodes, 2);
        QCOMPARE(r->rows.size(), std::size_t(7));
        QCOMPARE(r->rows.front().bytes, 1048576.0);
        QVERIFY(close(r->rows.front().busbw_bytes_per_s, 1.875 * 1048576 / 95.31e-6));
        QVERIFY(close(r->rows.back().busbw_bytes_per_s, 1.875 * 4294967296.0 / 44922.0e-6));
        QCOMPARE(r->avg_busbw_gbps, 105.893);
        QVERIFY(r->warnings.empty());
    }

    void collectiveFromTheFileNameRanksFromTheBandwidths()
    {
        // No "Collective test starting" and no "Using devices": the file name says all_gather,
        // busbw/algbw = 141.39/161.59 = 0.875 = (n − 1)/n gives 8 ranks; no host is named, so the
        // nodes must come from --nodes.
        std::vector<InputError> errors;
        QVERIFY(!parseNcclTests(slurp("nccl_all_gather_perf_1node.txt"), "nccl_all_gather_perf_1node.txt", {}, errors));
        QVERIFY(errors.back().message.find("--nodes") != std::string::npos);
        errors.clear();
        const auto r = parseNcclTests(slurp("nccl_all_gather_perf_1node.txt"), "nccl_all_gather_perf_1node.txt",
                                      NcclTestsOverrides{std::nullopt, 0, 1}, errors);
        QVERIFY(r);
        QVERIFY(r->op == Collective::AllGather);
        QCOMPARE(r->ranks, 8);
        QCOMPARE(r->rows.size(), std::size_t(3));
        QVERIFY(close(r->rows[1].busbw_bytes_per_s, 0.875 * 67108864 / 441.8e-6));
        // The file name in any spelling.
        for (const char* name : {"all-gather.log", "AllGather_2026.txt", "allgather.out"}) {
            const auto again = parseNcclTests(slurp("nccl_all_gather_perf_1node.txt"), name,
                                              NcclTestsOverrides{std::nullopt, 0, 1}, errors);
            QVERIFY2(again && again->op == Collective::AllGather, name);
        }
    }

    void taggedIndentedWithNcclInfoLines()
    {
        // mpirun --tag-output's "[1,0]<stdout>:" before every line, NCCL_DEBUG=INFO lines inside
        // the log: 8 ranks on node-07 and node-12, 6 sizes. The 1 KiB row: its busbw column says
        // 0.06 GB/s, the time 1.75 · 1024 B / 31.62 µs = 0.05667 GB/s.
        std::vector<InputError> errors;
        const auto r = parseNcclTests(slurp("nccl/tagged-all_reduce-2x4.log"), "tagged-all_reduce-2x4.log", {}, errors);
        QVERIFY2(r, errors.empty() ? "" : errors[0].text().c_str());
        QVERIFY(r->op == Collective::AllReduce); // from the file name: the log has no "test starting" line
        QCOMPARE(r->ranks, 8);
        QCOMPARE(r->nodes, 2);
        QCOMPARE(r->rows.size(), std::size_t(6));
        QVERIFY(close(r->rows.front().busbw_bytes_per_s, 1.75 * 1024 / 31.62e-6));
        QVERIFY(std::abs(r->rows.front().busbw_bytes_per_s / 0.06e9 - 1) > 0.05); // the column was 6 % off
        QCOMPARE(r->avg_busbw_gbps, 32.565);
        // Indented as pasted from Markdown, in the old format (no root column, an error column).
        const auto old
            = parseNcclTests(slurp("nccl/old-format-all_gather.txt"), "old-format-all_gather.txt", {}, errors);
        QVERIFY2(old, errors.empty() ? "" : errors[0].text().c_str());
        QVERIFY(old->op == Collective::AllGather);
        QCOMPARE(old->ranks, 8);
        QCOMPARE(old->nodes, 1);
        QCOMPARE(old->rows.size(), std::size_t(3));
        QVERIFY(close(old->rows.back().busbw_bytes_per_s, 0.875 * 134217728 / 1006.3e-6));
        // srun --label's "0: " prefix reads the same.
        std::string labelled;
        std::istringstream in(slurp("nccl-all_reduce-2x8.log"));
        for (std::string line; std::getline(in, line);)
            labelled += "0: " + line + "\n";
        const auto srun = parseNcclTests(labelled, "job.out", {}, errors);
        QVERIFY(srun && srun->ranks == 16 && srun->rows.size() == 7);
    }

    void alltoallWithAnEmptyReductionSkipsWrongRows()
    {
        // alltoall rows leave the redop column empty; the 16 MiB row has #wrong = 1 and is
        // skipped with a warning naming it. 8 ranks on one host: 0.875 · 1 MiB / 29.87 µs.
        std::vector<InputError> errors;
        const auto r = parseNcclTests(slurp("nccl/alltoall-empty-redop.log"), "a.log", {}, errors);
        QVERIFY2(r, errors.empty() ? "" : errors[0].text().c_str());
        QVERIFY(r->op == Collective::AllToAll);
        QCOMPARE(r->ranks, 8);
        QCOMPARE(r->nodes, 1);
        QCOMPARE(r->rows.size(), std::size_t(3));
        QVERIFY(close(r->rows.front().busbw_bytes_per_s, 0.875 * 1048576 / 29.87e-6));
        QCOMPARE(r->rows[2].bytes, 67108864.0);
        QCOMPARE(r->warnings.size(), std::size_t(1));
        QVERIFY2(r->warnings[0].en.find("16777216 B") != std::string::npos, r->warnings[0].en.c_str());
        QVERIFY(r->warnings[0].zh.find("16777216 B") != std::string::npos);
        // A row whose results were not checked (#wrong N/A) is skipped likewise.
        const auto na = parseNcclTests(
            "# Collective test starting: all_reduce_perf\n"
            "#  Rank  0 Group  0 Pid 1 on h device 0 [0] GPU\n#  Rank  1 Group  0 Pid 2 on h device 1 [0] GPU\n"
            "  1048576 262144 float sum -1 12.04 87.09 87.09 N/A 11.98 87.53 87.53 N/A\n"
            "  4194304 1048576 float sum -1 27.61 151.91 151.91 0 27.50 152.52 152.52 0\n",
            "x.log", {}, errors);
        QVERIFY(na && na->rows.size() == 1 && na->warnings.size() == 1);
    }

    void oldFormatErrorColumnIsAMagnitude()
    {
        // Before #wrong, the column after busbw is the largest error (2e-06 for float sums): the
        // sizes are kept, judged by "Out of bounds values : 0 OK". 16 ranks on 2 hosts from the
        // device block; busbw from the time: 2·15/16 · 536870912 B / 27890.5 µs.
        std::vector<InputError> errors;
        const auto r = parseNcclTests(slurp("nccl/old-format-all_reduce-2x8.log"), "ar.log", {}, errors);
        QVERIFY2(r, errors.empty() ? "" : errors[0].text().c_str());
        QVERIFY(r->op == Collective::AllReduce);
        QCOMPARE(r->ranks, 16);
        QCOMPARE(r->nodes, 2);
        QCOMPARE(r->rows.size(), std::size_t(4));
        QVERIFY(close(r->rows.back().busbw_bytes_per_s, 1.875 * 536870912 / 27890.5e-6));
        QVERIFY(r->warnings.empty());
    }

    void alltoallRanksFromTheNumbersAndTheNodes()
    {
        // No device block. The 2-decimal columns alone give 4.93 / 5.01 → n = 1/(1 − 0.984) ≈ 63,
        // which does not split over 8 nodes. From the time, 8388608 B / 1675.00 µs = 5.008 GB/s,
        // and n = 61…65 all print busbw 4.93 (63/64·5.008 = 4.930; 62/63·5.008 = 4.929): the
        // digits cannot tell them apart, so the import says so and asks; with --nodes 8 only 64
        // is a multiple of 8.
        std::vector<InputError> errors;
        const std::string log = slurp("nccl/alltoall-8x8-no-devices.log");
        QVERIFY(!parseNcclTests(log, "a2a.log", {}, errors));
        QVERIFY2(errors.size() == 1 && errors[0].text().find("fit 61, 62, 63, 64, 65 ranks alike") != std::string::npos
                     && errors[0].text().find("--nodes") != std::string::npos,
                 errors.empty() ? "" : errors[0].text().c_str());
        errors.clear();
        NcclTestsOverrides o;
        o.nodes = 8;
        const auto r = parseNcclTests(log, "a2a.log", o, errors);
        QVERIFY2(r, errors.empty() ? "" : errors[0].text().c_str());
        QVERIFY(r->op == Collective::AllToAll);
        QCOMPARE(r->ranks, 64);
        QVERIFY(close(r->rows.back().busbw_bytes_per_s, 63.0 / 64 * 8388608 / 1675.00e-6));
        // A rank count that does not split over the nodes is refused, naming both.
        errors.clear();
        o.ranks = 60;
        QVERIFY(!parseNcclTests(log, "a2a.log", o, errors));
        QVERIFY(!errors.empty()
                && errors[0].text().find("60 ranks do not split evenly over 8 nodes") != std::string::npos);
    }

    void ranksAndHostsFromNcclInfoLines()
    {
        // pdsh's "h100-a: " before each table line, no device block: NCCL_DEBUG=INFO's
        // "nranks 16" and the two hosts that print "host:pid:tid" give 16 ranks on 2 nodes.
        std::vector<InputError> errors;
        const auto r = parseNcclTests(slurp("nccl/all_gather-info-lines-2x8.log"), "ag.log", {}, errors);
        QVERIFY2(r, errors.empty() ? "" : errors[0].text().c_str());
        QVERIFY(r->op == Collective::AllGather);
        QCOMPARE(r->ranks, 16);
        QCOMPARE(r->nodes, 2);
        QCOMPARE(r->rows.size(), std::size_t(2));
        QVERIFY(close(r->rows.back().busbw_bytes_per_s, 15.0 / 16 * 134217728 / 2890.50e-6));
    }

    void twoRunsInOneFileAreRefused()
    {
        std::vector<InputError> errors;
        QVERIFY(!parseNcclTests(slurp("nccl/two-runs.log"), "two-runs.log", {}, errors));
        QCOMPARE(errors.size(), std::size_t(1));
        const std::string& m = errors[0].message;
        QVERIFY2(m.find("2 runs") != std::string::npos && m.find("all_reduce from line 1") != std::string::npos
                     && m.find("all_gather from line 13") != std::string::npos,
                 m.c_str());
        // Sizes that start over without a header are a second run too.
        errors.clear();
        QVERIFY(!parseNcclTests(
            "  4194304 1048576 float sum -1 27.61 151.91 151.91 0\n  1048576 262144 float sum -1 12.04 87.09 87.09 0\n",
            "all_reduce.log", NcclTestsOverrides{std::nullopt, 2, 1}, errors));
        QVERIFY(errors[0].message.find("2 runs") != std::string::npos);
    }

    void bareTableTheNumbersTell()
    {
        // A table pasted without its '#' header, named all-reduce.log: busbw/algbw = 185.81/106.18
        // = 1.75 = 2(n − 1)/n → 8 ranks; the nodes must be given.
        std::vector<InputError> errors;
        const auto r = parseNcclTests(slurp("nccl/all-reduce-bare.log"), "all-reduce-bare.log",
                                      NcclTestsOverrides{std::nullopt, 0, 1}, errors);
        QVERIFY2(r, errors.empty() ? "" : errors[0].text().c_str());
        QVERIFY(r->op == Collective::AllReduce);
        QCOMPARE(r->ranks, 8);
        // Without a name the numbers say it too: busbw > algbw is an all-reduce.
        const auto unnamed = parseNcclTests(slurp("nccl/all-reduce-bare.log"), "bench.txt",
                                            NcclTestsOverrides{std::nullopt, 0, 1}, errors);
        QVERIFY(unnamed && unnamed->op == Collective::AllReduce);
        // An all-gather's count is per rank (size = 8·count·4 B), an all-to-all's is not.
        const auto gather = parseNcclTests(slurp("nccl/old-format-all_gather.txt"), "bench.txt", {}, errors);
        QVERIFY(gather && gather->op == Collective::AllGather);
        const auto a2a = parseNcclTests(slurp("nccl/alltoall-empty-redop.log"), "bench.txt", {}, errors);
        QVERIFY(a2a && a2a->op == Collective::AllToAll); // the header says it; the numbers agree
    }

    void jsonOutput()
    {
        // -J: the collective from argv[0] (./build/reduce_scatter_perf), 8 ranks on gpu-n01 and
        // gpu-n02 from config.devices, the out-of-place results: 0.875 · 256 MiB / 5520.8 µs.
        std::vector<InputError> errors;
        const auto r = parseNcclTests(slurp("nccl/reduce_scatter-J.json"), "rs.json", {}, errors);
        QVERIFY2(r, errors.empty() ? "" : errors[0].text().c_str());
        QVERIFY(r->op == Collective::ReduceScatter);
        QCOMPARE(r->ranks, 8);
        QCOMPARE(r->nodes, 2);
        QCOMPARE(r->rows.size(), std::size_t(2));
        QVERIFY(close(r->rows[1].busbw_bytes_per_s, 0.875 * 268435456 / 5520.8e-6));
        QCOMPARE(r->avg_busbw_gbps, 40.8);
    }

    void unknownCollectiveIsAnError()
    {
        // busbw = algbw: a broadcast, a reduce or a send/receive; the numbers cannot tell which.
        std::vector<InputError> errors;
        QVERIFY(!parseNcclTests("     1024 256 float sum -1 10.0 0.1 0.1 0\n", "log.txt",
                                NcclTestsOverrides{std::nullopt, 8, 1}, errors));
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
            nlohmann::json j
                = {{"schema", "parascope.hardware-profile/1"},
                   {"status", "partial"},
                   {"collectives",
                    {{{"op", "all_reduce"}, {"ranks", 8}, {"nodes", 1}, {"bytes", 1e6}, {"busbw_gbps", gbps / 2}},
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
        // So does a group of the same size on another node count: 8 ranks measured over two nodes
        // never stand in for TP 8 on one node's NVLink.
        nlohmann::json two_nodes = {
            {"schema", "parascope.hardware-profile/1"},
            {"status", "partial"},
            {"collectives", {{{"op", "all_reduce"}, {"ranks", 8}, {"nodes", 2}, {"bytes", 1e9}, {"busbw_gbps", 40}}}}};
        std::vector<InputError> errors;
        Scenario across = sc;
        across.cluster = calibrate(sc.cluster, readHardwareProfile(two_nodes, errors).value());
        const Estimate e8 = evaluate(across);
        const Term* t8 = findTerm(entry(e8, "tp", "all_reduce").terms, "comm.time_per_call");
        QVERIFY(t8 && t8->source.find("measured") == std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TstNcclImport)
#include "tst_nccl_import.moc"
