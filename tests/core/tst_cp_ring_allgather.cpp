// PyTorch's context parallelism with its allgather rotation (parallel.cp_comm ring_allgather, as
// torchtitan runs it) and GQA's repeat_kv (training.repeat_kv), derived by hand from
// torch/distributed/tensor/experimental/_attention.py and torchtitan's model.py: the K/V width CP
// moves, the gathers and gradient sends per step, what of them the blocks hide, the fp32 merges
// and gradient sums, and the K/V repeat copy.

#include "by_hand.h"
#include "io/scenario_json.h"
#include "memory/activation_memory.h"
#include "time/layer_cost.h"
#include "time/layer_ops.h"

#include <QtTest>

#include <algorithm>

using namespace parascope;
using namespace parascope::test;

namespace {

// Llama 3.1 8B (L 32, h = q = o = 4096, 32 query heads and 8 KV heads of 128: k = v = 1024) on
// the DGX H100 preset (HBM 3350e9·0.9 B/s), CP 4, TP 1, s = 32768 (8192 tokens per GPU), micro
// batch 1, one microbatch, bf16, no recompute, K and V repeated to the query heads.
Scenario llama8bCp4()
{
    return scenarioFromJson(
        R"({"schema":"parascope.scenario/1","model":"llama3.1-8b","cluster":"dgx-h100",
            "parallel":{"tp":1,"pp":1,"dp":1,"cp":4,"cp_comm":"ring_allgather"},
            "training":{"seq_len":32768,"micro_batch":1,"global_batch":1,"precision":"bf16",
                        "recompute":"none","repeat_kv":true}})");
}

constexpr double kHbm = 3350e9 * 0.9;

const CommEntry* entry(const std::vector<CommEntry>& plan, Collective c)
{
    const auto it = std::find_if(plan.begin(), plan.end(),
                                 [&](const CommEntry& e) { return e.group == Group::Cp && e.collective == c; });
    return it == plan.end() ? nullptr : &*it;
}

} // namespace

class TstCpRingAllGather : public QObject {
    Q_OBJECT

private slots:
    // K and V as SDPA takes them: repeated, 4096 + 4096 = 8192 per token; GQA's own 1024 + 1024
    // = 2048 without repeat_kv. Per layer and pass one all-gather of all s = 32768 tokens' K and
    // V: S = 32768 · 8192 · 2 = 536 870 912 B; forward and backward: 2 · 32 = 64 calls (96 with
    // a full recompute). The fp32 K/V gradients go on after each of the 4 blocks: 4 · 32 = 128
    // sends of (s/cp) · 8192 · 4 = 8192 · 8192 · 4 = 268 435 456 B.
    void theGathersAndGradientSendsByHand()
    {
        Scenario sc = llama8bCp4();
        QCOMPARE(kernelKvWidth(sc.model, sc.parallel, sc.training.repeat_kv), 8192.0);
        const std::vector<CommEntry> plan = evaluate(sc).communication;
        const CommEntry* ag = entry(plan, Collective::AllGather);
        const CommEntry* send = entry(plan, Collective::SendRecv);
        QVERIFY(ag && send);
        QCOMPARE(ag->bytes_per_call, 536870912.0);
        QCOMPARE(ag->calls_per_step, 64.0);
        QCOMPARE(send->bytes_per_call, 268435456.0);
        QCOMPARE(send->calls_per_step, 128.0);
        QCOMPARE(send->purpose, Purpose::Gradients);
        QVERIFY(!entry(plan, Collective::ReduceScatter)); // not Llama 3's reduce-scatter
        sc.training.recompute = Recompute::Full;
        QCOMPARE(entry(evaluate(sc).communication, Collective::AllGather)->calls_per_step, 96.0);
        sc.training.repeat_kv = false;
        QCOMPARE(kernelKvWidth(sc.model, sc.parallel, sc.training.repeat_kv), 2048.0);
        QCOMPARE(entry(evaluate(sc).communication, Collective::AllGather)->bytes_per_call, 134217728.0);
        // TP 8 splits the 32 query heads to 4 per rank: repeated K and V 8192/8 = 1024; the 8
        // KV heads alone one per rank, 256.
        sc.parallel.tp = 8;
        QCOMPARE(kernelKvWidth(sc.model, sc.parallel, sc.training.repeat_kv), 256.0);
        sc.training.repeat_kv = true;
        QCOMPARE(kernelKvWidth(sc.model, sc.parallel, sc.training.repeat_kv), 1024.0);
    }

    // The gather runs beside the first block, 1/cp of the attention; each gradient send beside
    // the next block, the last after all: forward max(0, AG − A_f/4); backward
    // max(0, AG − A_b/4) + 3·max(0, send − A_b/4) + send.
    void theBlocksHideWhatTheyCan()
    {
        const Scenario sc = llama8bCp4();
        const std::vector<LayerOp> ops = layerOps(sc, layerOpRates(sc), false);
        const LayerOp* attention = findOp(ops, "attention");
        QVERIFY(attention);
        const double A_f = attention->forward_s, A_b = attention->input_grad_s;
        for (const double scale : {0.1, 1.0, 3.0}) {
            layer_cost::LayerComm lc;
            lc.cp_ag = scale * A_f / 4 * 1.5, lc.cp_dkv = scale * A_b / 4 * 0.8;
            const layer_cost::LayerCost c = layer_cost::layerCost(sc, ops, lc, false);
            const double f = std::max(0.0, lc.cp_ag - A_f / 4);
            const double b = std::max(0.0, lc.cp_ag - A_b / 4) + 3 * std::max(0.0, lc.cp_dkv - A_b / 4) + lc.cp_dkv;
            QVERIFY2(near(c.cp_f, f), qPrintable(versus("forward", c.cp_f, f)));
            QVERIFY2(near(c.cp_b, b), qPrintable(versus("backward", c.cp_b, b)));
        }
    }

    // The ring's last rank: E_o = E_q = 8192 · 4096 = 33 554 432, E_kv = 8192 · 8192 = 67 108 864.
    // Forward E_o · (12 + 38 · 3) = 4 227 858 432 B = 1.4023 ms; backward E_q · (10 + 40) +
    // E_kv · (20 + 39 + 32) = 1 677 721 600 + 6 106 906 624 = 7 784 628 224 B = 2.5820 ms.
    // repeat_kv: 8192 · (2048 + 8192) · 2 = 167 772 160 B = 55.65 µs forward, twice that in the
    // backward (the copies rebuilt, the gradients summed back), once with a full recompute (its
    // forward rebuilt them). Neither without CP's ring rotation or without repeat_kv; no merges
    // for Ulysses's all-to-all.
    void theMergesAndTheRepeatByHand()
    {
        Scenario sc = llama8bCp4();
        const std::vector<LayerOp> ops = layerOps(sc, layerOpRates(sc), false);
        const LayerOp* merge = findOp(ops, "cp_ring_merge");
        const LayerOp* repeat = findOp(ops, "kv_repeat");
        QVERIFY(merge && repeat);
        QCOMPARE(merge->bytes, 4227858432.0);
        QVERIFY2(near(merge->forward_s, 4227858432.0 / kHbm),
                 qPrintable(versus("merge", merge->forward_s, 4227858432.0 / kHbm)));
        QVERIFY(near(merge->forward_s, 1.4023e-3, 1e-4));
        QVERIFY(near(merge->input_grad_s, 7784628224.0 / kHbm));
        QCOMPARE(repeat->bytes, 167772160.0);
        QVERIFY(near(repeat->forward_s, 55.65e-6, 1e-3));
        QVERIFY(near(repeat->input_grad_s, 2 * repeat->forward_s));
        QCOMPARE(std::string(merge->term), std::string("time.attention_copies"));
        // The stage (compute apart from communication): without repeat_kv the copies go, 3 ·
        // 167 772 160 B, and the gradient sums shrink with E_kv = 8192 · 2048: (67 108 864 −
        // 16 777 216) · 91 = 4 580 179 968 B; 32 layers.
        const double with = firstStageOpCost(sc).compute_s;
        sc.training.repeat_kv = false;
        const double fewer = 32 * (3 * 167772160.0 + 4580179968.0) / kHbm;
        const double less = with - firstStageOpCost(sc).compute_s;
        QVERIFY2(near(less, fewer, 1e-6), qPrintable(versus("stage compute", less, fewer)));
        QVERIFY(!findOp(layerOps(sc, layerOpRates(sc), false), "kv_repeat"));
        sc.training.repeat_kv = true;
        sc.training.recompute = Recompute::Full;
        const std::vector<LayerOp> full_ops = layerOps(sc, layerOpRates(sc), false);
        const LayerOp* full = findOp(full_ops, "kv_repeat");
        QVERIFY(full && near(full->input_grad_s, full->forward_s));
        sc.parallel.cp_comm = CpComm::P2p;
        QVERIFY(!findOp(layerOps(sc, layerOpRates(sc), false), "cp_ring_merge"));
        sc.parallel.cp_comm = CpComm::A2a;
        QVERIFY(!findOp(layerOps(sc, layerOpRates(sc), false), "cp_ring_merge"));
    }

    // torch.compile's partitioner and op SAC keep K and V before the expansion: repeat_kv leaves
    // the kept activations as they are.
    void theKeptActivationsStayAtTheKvWidth()
    {
        Scenario sc = llama8bCp4();
        const double with = layerActivation(sc.model, sc.training, sc.parallel, false).stored;
        sc.training.repeat_kv = false;
        QCOMPARE(layerActivation(sc.model, sc.training, sc.parallel, false).stored, with);
    }

    // Both settings round-trip through the scenario file; a misspelt CP kind names the allowed ones.
    void theScenarioFileKeepsThem()
    {
        const Scenario sc = llama8bCp4();
        const nlohmann::json j = scenarioToJson(sc);
        QCOMPARE(j["training"]["repeat_kv"].get<bool>(), true);
        QCOMPARE(j["parallel"]["cp_comm"].get<std::string>(), std::string("ring_allgather"));
        std::vector<InputError> errors;
        const std::optional<Scenario> back = readScenario(j, errors);
        QVERIFY(back && errors.empty());
        QVERIFY(back->training.repeat_kv);
        QCOMPARE(back->parallel.cp_comm, CpComm::RingAllGather);
        nlohmann::json bad = j;
        bad["parallel"]["cp_comm"] = "ring-allgather";
        QVERIFY(!readScenario(bad, errors));
        QVERIFY(!errors.empty());
        QVERIFY(errors.front().message.find("ring_allgather") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TstCpRingAllGather)
#include "tst_cp_ring_allgather.moc"
