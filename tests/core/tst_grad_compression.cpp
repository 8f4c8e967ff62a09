// Gradient compression on the data-parallel wire (comm/grad_compression.h), derived by hand:
// PowerSGD's r·(n + m) of n·m elements per matrix, top-k's all-gather that grows with the
// data-parallel size, their compress passes and error-feedback memory, the file and --set.

#include "comm/grad_compression.h"
#include "estimate/evaluate.h"
#include "io/scenario_json.h"
#include "memory/model_states.h"
#include "types/knobs.h"
#include "scenario_fixture.h"

using namespace parascope;
using namespace parascope::test;

namespace {

bool near(double a, double b, double rel = 1e-9) { return std::abs(a - b) <= rel * std::abs(b); }

const CommEntry* dpGradients(const Estimate& e)
{
    for (const CommEntry& c : e.communication)
        if ((c.group == Group::Dp || c.group == Group::DpCp) && c.purpose == Purpose::Gradients)
            return &c;
    return nullptr;
}

double sent(const CommEntry& c) { return c.calls_per_step * c.bytes_per_call; }

double termValue(const Estimate& e, const std::string& name)
{
    for (const Term& t : e.time.terms)
        if (t.name == name)
            return t.value;
    return -1;
}

Scenario ddp(int dp, GradComm c)
{
    Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 4, 1, dp);
    sc.parallel.zero = 0;
    sc.training.global_batch = 4 * dp;
    sc.training.grad_comm = c;
    return sc;
}

} // namespace

class TstGradCompression : public QObject {
    Q_OBJECT

private slots:
    void powerSgdRatioByHand()
    {
        // Llama-2 7B: h = 4096, 32 heads of 128 (MHA), SwiGLU f = 11,008. One layer's matrices:
        // QKV 4096 × 12,288, out 4096 × 4096, gate+up 4096 × 22,016, down 11,008 × 4096.
        //   rank 4, TP 1: 4·(16,384 + 8192 + 26,112 + 15,104) = 263,168 sent of
        //   4096·(12,288 + 4096 + 22,016 + 11,008) = 202,375,168 → 0.00130040
        //   TP 4 (QKV 4096 × 3072, out 1024 × 4096, up 4096 × 5504, down 2752 × 4096):
        //   4·(7168 + 5120 + 9600 + 6848) = 114,944 of 4096·12,352 = 50,593,792 → 0.00227190
        const ModelSpec m = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 1).model;
        QVERIFY(near(powerSgdRatio(m, 1, 4), 263168.0 / 202375168.0));
        QVERIFY(near(powerSgdRatio(m, 4, 4), 114944.0 / 50593792.0));
        QVERIFY(near(powerSgdRatio(m, 4, 4), 0.0022719, 1e-4));
        // Linear in the rank until the sketch is as large as the matrix.
        QVERIFY(near(powerSgdRatio(m, 1, 8), 2 * powerSgdRatio(m, 1, 4)));
        QCOMPARE(powerSgdRatio(m, 1, 100000), 1.0);
    }

    void powerSgdSendsTheSketch()
    {
        // DDP, TP 4 · DP 4: the gradients (bf16) would be all-reduced whole; PowerSGD all-reduces
        // P and Q, ratio · the same bytes, in twice the calls.
        const Estimate plain = evaluate(ddp(4, GradComm::Same));
        const Estimate low = evaluate(ddp(4, GradComm::PowerSgd));
        const CommEntry *a = dpGradients(plain), *b = dpGradients(low);
        QVERIFY(a && b);
        QCOMPARE(b->collective, Collective::AllReduce);
        QVERIFY(near(sent(*b), sent(*a) * powerSgdRatio(ddp(4, GradComm::Same).model, 4, 4)));
        QCOMPARE(b->calls_per_step, 2 * a->calls_per_step);
        QVERIFY(b->time_s < a->time_s);
        // Its passes over the gradients: 9 for PowerSGD, 8 for top-k, on the same Ψ and HBM.
        const Estimate sparse = evaluate(ddp(4, GradComm::TopK));
        QVERIFY(near(termValue(sparse, "time.grad_compress") / termValue(low, "time.grad_compress"), 8.0 / 9.0));
        QVERIFY(low.has("grad_compression_accuracy") && !plain.has("grad_compression_accuracy"));
    }

    void topKIsGatheredAndGrowsWithDp()
    {
        // Top-k keeps 1 ‰: each rank's k = Ψ/1000 values (2 B) and indices (4 B) are all-gathered,
        // so the all-gather's size is n · 0.006 · Ψ against the all-reduce's 2 · Ψ: 4 · 0.003 =
        // 0.012 of it at DP 4. Each GPU receives (n − 1)/n of the gathered size, (n − 1) · 0.006 ·
        // Ψ: DP 16 receives (16 − 1)/(4 − 1) = 5 times what DP 4 does, where the all-reduce's
        // 2(n − 1)/n · 2Ψ barely moves.
        const Estimate plain = evaluate(ddp(4, GradComm::Same));
        const Estimate four = evaluate(ddp(4, GradComm::TopK));
        const Estimate sixteen = evaluate(ddp(16, GradComm::TopK));
        const CommEntry *a = dpGradients(plain), *b = dpGradients(four), *c = dpGradients(sixteen);
        QVERIFY(a && b && c);
        QCOMPARE(b->collective, Collective::AllGather);
        QVERIFY(near(sent(*b), 0.012 * sent(*a)));
        QVERIFY(near(c->bytes_per_gpu_per_step, 5 * b->bytes_per_gpu_per_step));
    }

    void errorFeedbackMemory()
    {
        // Bytes per parameter the gradients hold: bf16 2; PowerSGD's error at the same width, 2
        // more; top-k's fp32 residual, 4 more; 1-bit's fp32 error, 4 more.
        TrainingConfig t;
        QCOMPARE(stateBytes(t).gradients, 2.0);
        t.grad_comm = GradComm::PowerSgd;
        QCOMPARE(stateBytes(t).gradients, 4.0);
        t.grad_comm = GradComm::TopK;
        QCOMPARE(stateBytes(t).gradients, 6.0);
        t.grad_comm = GradComm::OneBit;
        QCOMPARE(stateBytes(t).gradients, 6.0);
    }

    void underZeroTheSketchDoesNotApply()
    {
        Scenario sc = ddp(4, GradComm::PowerSgd);
        sc.parallel.zero = 1;
        const Estimate e = evaluate(sc);
        QVERIFY(e.has("grad_compression_needs_ddp"));
        const CommEntry* g = dpGradients(e);
        QVERIFY(g && g->collective == Collective::ReduceScatter);
        sc.training.grad_comm = GradComm::Same;
        QVERIFY(near(sent(*dpGradients(evaluate(sc))), sent(*g)));
        QCOMPARE(termValue(e, "time.grad_compress"), -1.0);
    }

    void theFileAndSetCarryTheSettings()
    {
        Scenario sc = ddp(4, GradComm::Same);
        std::string why;
        for (const char* set : {"training.grad_comm=powersgd", "training.powersgd_rank=8", "training.topk_permille=5"})
            QVERIFY2(applyKnobAssignment(sc, set, why), why.c_str());
        QCOMPARE(sc.training.grad_comm, GradComm::PowerSgd);
        const nlohmann::json j = scenarioToJson(sc);
        QCOMPARE(j["training"]["grad_comm"].get<std::string>(), std::string("powersgd"));
        QCOMPARE(j["training"]["powersgd_rank"].get<int>(), 8);
        std::vector<InputError> errors;
        const auto back = readScenario(j, errors);
        QVERIFY(back && errors.empty());
        QCOMPARE(back->training.powersgd_rank, 8);
        QCOMPARE(back->training.topk_permille, 5);
        nlohmann::json bad = j;
        bad["training"]["topk_permille"] = 0;
        errors.clear();
        QVERIFY(!readScenario(bad, errors));
        QCOMPARE(errors.front().path, std::string("training.topk_permille"));
    }
};

QTEST_APPLESS_MAIN(TstGradCompression)
#include "tst_grad_compression.moc"
