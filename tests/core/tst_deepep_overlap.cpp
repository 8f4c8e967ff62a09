// Combined 1F1B with DeepEP, derived by hand: the dispatch and combine a partner pass hides still
// hold parallel.deepep_sms of the GPU's SMs (Megatron --moe-deepep-num-sms, default 20), so the
// compute beside them runs on the rest (time/layer_cost.cpp exposeEp, deepEpSmShare); and the
// field's reading, writing, bounds and Megatron import.

#include "by_hand.h"
#include "io/megatron_args_import.h"
#include "io/scenario_json.h"

#include <QtTest>

#include <algorithm>

using namespace parascope;
using namespace parascope::test;

namespace {

// tst_step_by_hand_moe's Mixtral 8x7B on one DGX H100 node (EP 8, m = 2 microbatches on one
// rank, selective recompute), with DeepEP's dispatcher.
Scenario mixtralDeepEp()
{
    Scenario sc = mixtralEp8OnH100();
    sc.parallel.moe_dispatcher = MoeDispatcher::DeepEp;
    return sc;
}

const Term* term(const Estimate& e, const char* name)
{
    const auto it
        = std::find_if(e.time.terms.begin(), e.time.terms.end(), [&](const Term& t) { return t.name == name; });
    return it == e.time.terms.end() ? nullptr : &*it;
}

} // namespace

class TestDeepEpOverlap : public QObject {
    Q_OBJECT

private slots:
    // Without overlap every all-to-all is exposed: m·L·4 calls of t_a2a (the plan's entry).
    // Combined 1F1B on one rank runs F0 alone, F1 beside B0, B1 alone: the pair hides its
    // dispatch and combine, 4·t_a2a per layer, half of all of them (tst_step_by_hand_moe). DeepEP
    // holds k = 20 of H100's N = 132 SMs while they run, so the compute beside them takes
    // k/(N − k) = 20/112 = 0.17857 of that time longer: the step saves (1 − 20/112) of the half.
    void deepEpSlowsThePartnersCompute()
    {
        Scenario sc = mixtralDeepEp();
        QCOMPARE(sc.cluster.gpu.sm_count, 132);
        QCOMPARE(sc.parallel.deepep_sms, 20);
        const Estimate plain = evaluate(sc);
        const CommEntry* ep = findComm(plain, Group::Ep, Collective::AllToAll);
        QVERIFY(ep);
        const double L = 32, m = 2, t = ep->time_s / ep->calls_per_step, share = 20.0 / 112.0;
        QCOMPARE(ep->calls_per_step, 4 * L * m);
        const double hidden = m * L * 4 * t / 2;
        sc.parallel.ep_comm_overlap = true;
        const Estimate overlapped = evaluate(sc);
        QVERIFY(!overlapped.has("ep_overlap_unavailable"));
        const double saved = plain.time.step_s - overlapped.time.step_s, hand = hidden * (1 - share);
        QVERIFY2(near(saved, hand, 1e-9), qPrintable(versus("step saved", saved, hand)));
        const Term* sm = term(overlapped, "time.ep_overlap_sm_share");
        QVERIFY(sm);
        QVERIFY2(near(sm->value, share * 4 * t), qPrintable(versus("per layer and pair", sm->value, share * 4 * t)));
        QVERIFY(!term(plain, "time.ep_overlap_sm_share"));
        // 40 SMs: 40/92 of the hidden time.
        sc.parallel.deepep_sms = 40;
        const double saved40 = plain.time.step_s - evaluate(sc).time.step_s;
        QVERIFY2(near(saved40, hidden * (1 - 40.0 / 92.0), 1e-9),
                 qPrintable(versus("40 SMs", saved40, hidden * 52 / 92)));
        // The all-to-all dispatcher's NCCL kernels: no SM figure, no charge (half saved, as before).
        sc.parallel.moe_dispatcher = MoeDispatcher::AllToAll;
        QVERIFY(!term(evaluate(sc), "time.ep_overlap_sm_share"));
    }

    void theFieldIsReadWrittenAndBounded()
    {
        const char* json = R"({"schema":"parascope.scenario/1","model":"mixtral-8x7b","cluster":"dgx-h100",
            "parallel":{"dp":8,"ep":8,"moe_dispatcher":"deepep","deepep_sms":24}})";
        const Scenario sc = scenarioFromJson(json);
        QCOMPARE(sc.parallel.deepep_sms, 24);
        QCOMPARE(scenarioToJson(sc)["parallel"]["deepep_sms"].get<int>(), 24);
        // An edited GPU is written inline, its SM count with it, and read back.
        Scenario edited = sc;
        edited.cluster.id = "my-cluster"; // presets are written by id; an edited cluster inline
        edited.cluster.gpu.id = "my-gpu";
        edited.cluster.gpu.sm_count = 114;
        const nlohmann::json out = scenarioToJson(edited);
        QCOMPARE(out["cluster"]["gpu"]["sm_count"].get<int>(), 114);
        QCOMPARE(scenarioFromJson(out.dump()).cluster.gpu.sm_count, 114);
        std::vector<InputError> errors;
        nlohmann::json bad = nlohmann::json::parse(json);
        bad["parallel"]["deepep_sms"] = 132;
        QVERIFY(!readScenario(bad, errors));
        QVERIFY(std::any_of(errors.begin(), errors.end(), [](const InputError& e) {
            return e.path == "parallel.deepep_sms" && e.message.find("132 SMs") != std::string::npos;
        }));
    }

    void megatronImportReadsTheSmCount()
    {
        std::vector<InputError> errors;
        MegatronImportOptions options;
        options.gpus = 8;
        options.vocab = 32000;
        const auto imp = importMegatronArgs(
            "--num-layers 4 --hidden-size 1024 --num-attention-heads 8 --seq-length 1024 --max-position-embeddings "
            "1024 "
            "--micro-batch-size 1 --global-batch-size 8 --num-experts 8 --moe-router-topk 2 "
            "--expert-model-parallel-size 8 "
            "--moe-token-dispatcher-type flex --moe-flex-dispatcher-backend deepep --moe-deepep-num-sms 24 --bf16",
            "deepep", options, errors);
        QVERIFY2(imp && errors.empty(), errors.empty() ? "no import" : errors.front().text().c_str());
        QCOMPARE(imp->scenario["parallel"]["deepep_sms"].get<int>(), 24);
        const auto used = imp->summary["used"];
        QVERIFY(std::find(used.begin(), used.end(), "--moe-deepep-num-sms") != used.end());
    }
};

QTEST_GUILESS_MAIN(TestDeepEpOverlap)
#include "tst_deepep_overlap.moc"
