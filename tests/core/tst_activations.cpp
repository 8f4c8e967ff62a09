// Activation memory per layer (Korthikanti et al. 2022, Table 2) and in-flight microbatches per
// pipeline stage under each schedule.

#include "memory/activation_memory.h"
#include "schedule/pipeline_closed_form.h"
#include "scenario_fixture.h"

using namespace parascope;
using namespace parascope::test;

class TstActivations : public QObject {
    Q_OBJECT

    // GPT-3 175B shape: s = 2048, b = 1, h = 12288, a = 96, MHA, GELU, ffn = 4h (Table 2's model).
    static ModelSpec gpt()
    {
        std::vector<InputError> errors;
        return readModel(nlohmann::json("gpt3-175b"), "model", errors).value();
    }
    static TrainingConfig training(Recompute r, bool flash = false)
    {
        TrainingConfig t;
        t.seq_len = 2048;
        t.micro_batch = 1;
        t.recompute = r;
        t.flash_attention = flash;
        return t;
    }
    static ParallelConfig parallel(int tp, bool sp)
    {
        ParallelConfig p;
        p.tp = tp;
        p.sequence_parallel = sp;
        return p;
    }

private slots:
    void recomputeModules()
    {
        // Llama-2 7B (h = q = kv = 4096, f = 11008 SwiGLU), TP 1, flash attention, s·b = 4096.
        // Selective = core_attn: per token 10h + (2q + 4kv + 2q) + 6f = 40,960 + 32,768 + 66,048
        // = 139,776 bytes (the log-sum-exp is rebuilt with the attention). + layernorm drops the
        // two norm outputs (QKV and MLP inputs, 4h = 16,384) → 123,392; + mlp drops the MLP's
        // 6f → 57,344.
        std::vector<InputError> errors;
        const ModelSpec llama = readModel(nlohmann::json("llama2-7b"), "model", errors).value();
        TrainingConfig t = training(Recompute::Selective, true);
        t.seq_len = 4096;
        const ParallelConfig p = parallel(1, false);
        QCOMPARE(layerActivation(llama, t, p, false).stored, 4096.0 * 139776);
        t.recompute_modules |= unsigned(RecomputeModule::Layernorm);
        QCOMPARE(layerActivation(llama, t, p, false).stored, 4096.0 * 123392);
        t.recompute_modules |= unsigned(RecomputeModule::Mlp);
        QCOMPARE(layerActivation(llama, t, p, false).stored, 4096.0 * 57344);
        QCOMPARE(layerActivation(llama, t, p, false).recomputed, 4096.0 * (16384 + 66048));
        // Without core_attn the flash log-sum-exp (4a = 128 bytes) is kept.
        t.recompute_modules = unsigned(RecomputeModule::Layernorm);
        QCOMPARE(layerActivation(llama, t, p, false).stored, 4096.0 * (123392 + 128));

        // Mixtral 8x7B MoE layer: each of the k = 2 routed slots keeps 4h + 6f_e = 102,400 bytes;
        // moe_act drops the SwiGLU product 2f_e = 28,672 of each: −57,344 per token.
        const ModelSpec mixtral = readModel(nlohmann::json("mixtral-8x7b"), "model", errors).value();
        TrainingConfig tm = training(Recompute::Selective, true);
        tm.seq_len = 4096;
        const double before = layerActivation(mixtral, tm, p, true).stored;
        tm.recompute_modules |= unsigned(RecomputeModule::MoeAct);
        QCOMPARE(before - layerActivation(mixtral, tm, p, true).stored, 4096.0 * 57344);
        // moe (Megatron --recompute-modules moe) checkpoints the whole block: the router's fp32
        // probabilities 4E = 32 and both slots 2·102,400 go, 204,832 per token (moe_act's part
        // included: set with it or alone, the same).
        TrainingConfig block = training(Recompute::Selective, true);
        block.seq_len = 4096;
        block.recompute_modules |= unsigned(RecomputeModule::Moe);
        QCOMPARE(before - layerActivation(mixtral, block, p, true).stored, 4096.0 * 204832);
        block.recompute_modules |= unsigned(RecomputeModule::MoeAct);
        QCOMPARE(before - layerActivation(mixtral, block, p, true).stored, 4096.0 * 204832);
        // A dense layer has no MoE block to drop.
        t.recompute_modules = unsigned(RecomputeModule::CoreAttn) | unsigned(RecomputeModule::Moe);
        QCOMPARE(layerActivation(llama, t, p, false).stored, 4096.0 * 139776);
    }

    void recomputeModulesInFiles()
    {
        const auto read = [](const std::string& training, std::vector<InputError>& errors) {
            auto j = parseJsonText(
                R"({"schema":"parascope.scenario/1","model":"llama2-7b","cluster":"dgx-h100","training":)" + training
                    + "}",
                errors);
            return j ? readScenario(*j, errors) : std::nullopt;
        };
        std::vector<InputError> errors;
        const auto sc = read(R"({"recompute":"selective","recompute_modules":["layernorm","moe_act","moe"]})", errors);
        QVERIFY(errors.empty());
        QCOMPARE(sc->training.recompute_modules,
                 unsigned(RecomputeModule::Layernorm) | unsigned(RecomputeModule::MoeAct)
                     | unsigned(RecomputeModule::Moe));
        const nlohmann::json back = scenarioToJson(*sc)["training"]["recompute_modules"];
        QCOMPARE(back, (nlohmann::json{"layernorm", "moe_act", "moe"}));
        read(R"({"recompute":"selective","recompute_modules":["layernorm","norm"]})", errors);
        QCOMPARE(QString::fromStdString(errors.at(0).path), QStringLiteral("training.recompute_modules[1]"));
        errors.clear();
        read(R"({"recompute":"full","recompute_modules":["mlp"]})", errors);
        QCOMPARE(QString::fromStdString(errors.at(0).path), QStringLiteral("training.recompute_modules"));
    }

    void korthikantiTable2_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<bool>("sp");
        QTest::addColumn<int>("recompute");
        QTest::addColumn<double>("expected");
        const double s = 2048, b = 1, h = 12288, a = 96, t = 8;
        const double sbh = s * b * h;
        QTest::newRow("no parallelism: sbh(34 + 5as/h)")
            << 1 << false << int(Recompute::None) << sbh * (34 + 5 * a * s / h);
        QTest::newRow("TP: sbh(10 + 24/t + 5as/(ht))")
            << 8 << false << int(Recompute::None) << sbh * (10 + 24 / t + 5 * a * s / (h * t));
        QTest::newRow("TP+SP: sbh(34/t + 5as/(ht))")
            << 8 << true << int(Recompute::None) << sbh * (34 / t + 5 * a * s / (h * t));
        QTest::newRow("TP + selective: sbh(10 + 24/t)")
            << 8 << false << int(Recompute::Selective) << sbh * (10 + 24 / t);
        QTest::newRow("TP+SP + selective: sbh·34/t") << 8 << true << int(Recompute::Selective) << sbh * 34 / t;
        QTest::newRow("full recompute: 2sbh") << 8 << false << int(Recompute::Full) << 2 * sbh;
        QTest::newRow("full recompute + SP: 2sbh/t") << 8 << true << int(Recompute::Full) << 2 * sbh / t;
    }

    void korthikantiTable2()
    {
        QFETCH(int, tp);
        QFETCH(bool, sp);
        QFETCH(int, recompute);
        QFETCH(double, expected);
        const LayerActivation a = layerActivation(gpt(), training(Recompute(recompute)), parallel(tp, sp), false);
        QCOMPARE(a.stored, expected);
        QVERIFY(!a.term.formula.empty());
        QVERIFY(a.term.source.find("Korthikanti") != std::string::npos);
    }

    void flashAttentionKeepsOnlyLogSumExp()
    {
        // Flash attention stores no s×s scores: 5as per token becomes the fp32 log-sum-exp 4a.
        const double s = 2048, h = 12288, a = 96;
        const LayerActivation f = layerActivation(gpt(), training(Recompute::None, true), parallel(1, false), false);
        QCOMPARE(f.stored, s * (34 * h + 4 * a));
    }

    void gqaAndSwiglu()
    {
        // Llama-2 70B, s = 4096, TP 8 + SP, selective: per token
        // (10h + 2q + 4kv + 2q + 6f)/t = (10·8192 + 4·8192 + 4·1024 + 6·28672)/8 = 36,352 bytes.
        std::vector<InputError> errors;
        const ModelSpec m = readModel(nlohmann::json("llama2-70b"), "model", errors).value();
        TrainingConfig t = training(Recompute::Selective, true);
        t.seq_len = 4096;
        const LayerActivation a = layerActivation(m, t, parallel(8, true), false);
        QCOMPARE(a.stored, 4096.0 * 36352);
    }

    void contextParallelSplitsTheSequence()
    {
        // CP = 4 gives each rank s/4 tokens: with flash attention the per-layer bytes are exactly 1/4.
        ParallelConfig p = parallel(1, false);
        const double full = layerActivation(gpt(), training(Recompute::None, true), p, false).stored;
        p.cp = 4;
        QCOMPARE(layerActivation(gpt(), training(Recompute::None, true), p, false).stored, full / 4);
    }

    void moeLayer()
    {
        // Mixtral, s = 4096, b = 1, no TP, selective: per token 8h (10h minus the fc1 input copy)
        // + router 4·E + Q, K, V, O (2q + 4kv + 2q) + top_k·(4h + 6·f_e).
        std::vector<InputError> errors;
        const ModelSpec m = readModel(nlohmann::json("mixtral-8x7b"), "model", errors).value();
        TrainingConfig t = training(Recompute::Selective, true);
        t.seq_len = 4096;
        const double h = 4096, kv = 1024, f = 14336;
        const double per_token = 8 * h + 4 * 8 + (4 * h + 4 * kv) + 2 * (4 * h + 6 * f);
        QCOMPARE(layerActivation(m, t, parallel(1, false), true).stored, 4096 * per_token);
    }

    void inflightMicrobatchesPerSchedule()
    {
        // 1F1B: stage i holds min(p − i, m); GPipe: m; interleaved rank 0: p·(1 + (p−1)/(p·v))
        // (Korthikanti §4.2.3).
        auto v = inflightMicrobatches(ScheduleKind::OneFOneB, 8, 1, 64);
        QCOMPARE(v[0], 8.0);
        QCOMPARE(v[7], 1.0);
        v = inflightMicrobatches(ScheduleKind::OneFOneB, 8, 1, 4); // m < p
        QCOMPARE(v[0], 4.0);
        QCOMPARE(v[6], 2.0);
        v = inflightMicrobatches(ScheduleKind::GPipe, 4, 1, 16);
        QCOMPARE(v[3], 16.0);
        v = inflightMicrobatches(ScheduleKind::Interleaved, 8, 2, 64);
        QCOMPARE(v[0], 8 * (1 + 7.0 / 16));
        // ZB-H1 keeps activations until W, which rank i delays by i iterations: p on every rank.
        v = inflightMicrobatches(ScheduleKind::ZbH1, 4, 1, 16);
        QCOMPARE(v[1], 4.0);
        QCOMPARE(v[3], 4.0);
    }

    void firstStageHoldsAboutAllLayers()
    {
        // Korthikanti: under 1F1B the first stage holds p microbatches of L/p layers, i.e. one
        // microbatch's activations for all L layers, whatever p is (embedding extras aside).
        double per_layer = 0;
        for (int pp : {2, 4, 8}) {
            Scenario sc = presetScenario("llama2-70b", "dgx-a100-80g", 8, pp, 1);
            sc.training.global_batch = 64;
            const Estimate e = evaluate(sc);
            const StageMemory& s0 = e.memory.stages[0];
            const double emb = findTerm(s0.terms, "activations.embedding")->value;
            per_layer = findTerm(s0.terms, "activations.per_layer")->value;
            QCOMPARE(s0.activations, pp * (emb + 80.0 / pp * per_layer));
            QCOMPARE(s0.activations - pp * emb, 80 * per_layer);
        }
    }

    void fullRecomputeAddsOneLayerWorkingSet()
    {
        // Full recompute keeps 2sbh per layer and rebuilds one layer at a time in the backward.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 1);
        sc.training.global_batch = 1;
        sc.training.recompute = Recompute::Full;
        const Estimate e = evaluate(sc);
        const StageMemory& s = e.memory.stages[0];
        const double sbh2 = 2.0 * 4096 * 4096;
        const double working = findTerm(s.terms, "activations.recompute_working_set")->value;
        const double emb = findTerm(s.terms, "activations.embedding")->value;
        QCOMPARE(s.activations, 32 * sbh2 + emb + working);
        // The working set is one layer without recompute and with flash attention:
        // s·(10h + 4h + 4kv·... ) — here MHA: 10h + 8h + 6f + 4a per token.
        QCOMPARE(working, 4096.0 * (10 * 4096 + 8 * 4096 + 6 * 11008 + 4 * 32));
    }
};

QTEST_GUILESS_MAIN(TstActivations)
#include "tst_activations.moc"
