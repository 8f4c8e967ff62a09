// The memory-management view (issue 38 §6, estimate/allocator_view.h): allocated vs reserved
// over the step, the allocator's fragmentation reserve with and without expandable segments, and
// CPU offload's PCIe copies — by hand, against the memory table, in the report and in the file.

#include "estimate/allocator_view.h"
#include "io/report_json.h"
#include "io/scenario_json.h"
#include "memory/other_memory.h"
#include "types/knobs.h"
#include "scenario_fixture.h"

using namespace parascope;
using namespace parascope::test;

namespace {

bool near(double a, double b, double rel = 1e-9) { return std::abs(a - b) <= rel * std::abs(b); }

} // namespace

class TstMemoryManagement : public QObject {
    Q_OBJECT

private slots:
    void reservedNeverFallsAndEndsAtTheTable()
    {
        // Llama 2 7B, TP 2 × PP 2 × DP 2 on H100, 1F1B: stage 0 holds the most activations.
        const Scenario sc = presetScenario("llama2-7b", "dgx-h100", 2, 2, 2);
        const Estimate e = evaluate(sc);
        const AllocatorView a = allocatorView(sc, e);
        const StageMemory& st = e.memory.stages[std::size_t(a.rank)];
        QCOMPARE(st.total(), e.memory.peak_bytes);
        // The caching allocator's reserve: 0.05 of the activations (Megatron's ×1.05), the same
        // bytes as the memory table's other.fragmentation term.
        QVERIFY(near(a.reserve_bytes, 0.05 * st.activations));
        QVERIFY(near(findTerm(st.terms, "other.fragmentation")->value, a.reserve_bytes));
        QVERIFY(near(a.reserved_peak, st.total()));
        QVERIFY(near(a.allocated_peak, st.total() - 0.05 * st.activations));
        // Under expandable segments it would be one 2 MiB page per stream, 2 streams: 4 MiB.
        QCOMPARE(a.other_reserve_bytes, 4.0 * (1 << 20));
        // Over the step: allocated rises with each forward and falls after the backward;
        // reserved is the most allocated so far plus its reserve — never below allocated, never
        // falling, and at the end the table's total.
        QVERIFY(a.allocated.size() > 4);
        QCOMPARE(a.allocated.size(), a.reserved.size());
        double peak = 0;
        for (std::size_t i = 0; i < a.allocated.size(); ++i) {
            peak = std::max(peak, a.allocated[i].bytes);
            QVERIFY(a.reserved[i].bytes >= a.allocated[i].bytes);
            if (i > 0)
                QVERIFY(a.reserved[i].bytes >= a.reserved[i - 1].bytes);
        }
        QVERIFY(near(peak, a.allocated_peak));
        QVERIFY(a.allocated.back().bytes < a.allocated_peak); // the activations are freed
        QVERIFY(near(a.reserved.back().bytes, st.total())); // … and stay reserved
        // At t = 0 nothing is saved yet: allocated = the states and buffers, reserve 0.
        QVERIFY(near(a.allocated.front().bytes, st.total() - st.activations - a.reserve_bytes));
        QVERIFY(near(a.reserved.front().bytes, a.allocated.front().bytes));
    }

    void expandableSegmentsKeepAPagePerStream()
    {
        Scenario sc = presetScenario("llama2-7b", "dgx-h100", 2, 2, 2);
        const Estimate caching = evaluate(sc);
        sc.overheads.allocator = AllocatorKind::Expandable;
        const Estimate expandable = evaluate(sc);
        const AllocatorView a = allocatorView(sc, expandable);
        const StageMemory& st = expandable.memory.stages[std::size_t(a.rank)];
        QCOMPARE(a.reserve_bytes, 2 * 2.0 * (1 << 20));
        QVERIFY(near(a.other_reserve_bytes, 0.05 * st.activations));
        // The peak drops by the caching reserve less the pages: 0.05 · activations − 4 MiB.
        const double act = caching.memory.stages[std::size_t(a.rank)].activations;
        QVERIFY(near(caching.memory.peak_bytes - expandable.memory.peak_bytes, 0.05 * act - 4.0 * (1 << 20)));
        const Term* t = findTerm(st.terms, "other.fragmentation");
        QVERIFY(t && t->formula.find("2 MiB page") != std::string::npos
                && t->source.find("GMLake") != std::string::npos);
    }

    void offloadCopiesOverPcie()
    {
        // ZeRO-1 over DP 8, optimizer offloaded: each GPU's shard is Ψ/8; after the backward its
        // bf16 gradients go to the host (2 B each), after the CPU step the bf16 weights come back
        // (2 B each), at PCIe × efficiency.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 8);
        sc.parallel.zero = 1;
        sc.parallel.offload = Offload::Optimizer;
        const Estimate e = evaluate(sc);
        const double shard = double(e.params.total) / 8;
        const PcieTraffic& p = e.time.offload_pcie;
        QVERIFY(p.bytes_per_s > 0);
        QVERIFY(near(p.bytes_per_s, sc.cluster.host.pcie_bytes_per_s * sc.cluster.host.pcie_efficiency));
        QVERIFY(near(p.d2h_bytes, shard * 2));
        QVERIFY(near(p.h2d_bytes, shard * 2));
        QVERIFY(near(p.d2h_bytes / p.bytes_per_s, findTerm(e.time.terms, "time.offload_gradients")->value));
        // Parameters offloaded (ZeRO-3): every gather copies the shard first, each forward and
        // again each backward (reshard_after_forward): 2 · m copies of Ψ/8 · 2 B.
        sc.parallel.zero = 3;
        sc.parallel.offload = Offload::Params;
        const Estimate params = evaluate(sc);
        const double m = double(sc.microbatches());
        QVERIFY(near(params.time.offload_pcie.h2d_bytes, 2 * m * shard * 2));
        // Without offload nothing crosses.
        QCOMPARE(evaluate(presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 8)).time.offload_pcie.seconds(), 0.0);
    }

    void reportFileAndKnobAgree()
    {
        Scenario sc = presetScenario("llama2-7b", "dgx-h100", 2, 2, 2);
        // --set overheads.allocator=1 is expandable_segments.
        const Knob* k = findKnob("overheads.allocator");
        QVERIFY(k);
        k->set(sc, 1);
        QCOMPARE(sc.overheads.allocator, AllocatorKind::Expandable);
        std::string why;
        QVERIFY(applyKnobAssignment(sc, "overheads.allocator=caching", why));
        QCOMPARE(sc.overheads.allocator, AllocatorKind::Caching);
        QVERIFY(!applyKnobAssignment(sc, "overheads.allocator=buddy", why));
        QCOMPARE(why, std::string("overheads.allocator: \"buddy\" is not one of caching, expandable_segments"));
        QVERIFY(applyKnobAssignment(sc, "overheads.allocator=expandable_segments", why));
        // The file keeps it, and a wrong name is an error at its key.
        const nlohmann::json j = scenarioToJson(sc);
        QCOMPARE(j["overheads"]["allocator"].get<std::string>(), std::string("expandable_segments"));
        std::vector<InputError> errors;
        QCOMPARE(readScenario(j, errors)->overheads.allocator, AllocatorKind::Expandable);
        nlohmann::json bad = j;
        bad["overheads"]["allocator"] = "buddy";
        errors.clear();
        (void)readScenario(bad, errors);
        QVERIFY(!errors.empty() && errors.front().path == "overheads.allocator");
        // The JSON report carries the view's peaks.
        const Estimate e = evaluate(sc);
        const AllocatorView a = allocatorView(sc, e);
        const nlohmann::json r = reportToJson(sc, e);
        const nlohmann::json& al = r["memory"]["allocator"];
        QCOMPARE(al["kind"].get<std::string>(), std::string("expandable_segments"));
        QCOMPARE(al["stage"].get<int>(), a.rank);
        QVERIFY(std::abs(al["reserved_peak_bytes"].get<double>() - a.reserved_peak) <= 1);
        QVERIFY(std::abs(al["reserve_bytes"].get<double>() - a.reserve_bytes) <= 1);
    }
};

QTEST_GUILESS_MAIN(TstMemoryManagement)
#include "tst_memory_management.moc"
