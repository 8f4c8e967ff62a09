// Model variants beyond MHA/GQA + SwiGLU/GELU: bias on Q/K/V only, qk-norm, attention sinks,
// ALiBi, the parallel block, sliding-window attention, multi-head latent attention (MLA) and
// multi-token prediction (MTP). Every expected number is derived by hand in the comment above it
// from the published architecture (config.json fields named as in Hugging Face).

#include "comm/comm_volume.h"
#include "memory/activation_memory.h"
#include "memory/model_states.h"
#include "model/flops.h"
#include "model/parameter_count.h"
#include "scenario_fixture.h"

using namespace parascope;
using namespace parascope::test;

class TstModelVariants : public QObject {
    Q_OBJECT

    static ModelSpec modelFromJson(const std::string& text)
    {
        std::vector<InputError> errors;
        auto j = parseJsonText(text, errors);
        std::optional<ModelSpec> m;
        if (j)
            m = readModel(*j, "model", errors);
        if (!errors.empty())
            QTest::qFail(errors.front().text().c_str(), __FILE__, __LINE__);
        return m.value_or(ModelSpec{});
    }
    static std::vector<InputError> modelErrors(const std::string& text)
    {
        std::vector<InputError> errors;
        if (auto j = parseJsonText(text, errors))
            readModel(*j, "model", errors);
        return errors;
    }
    static ModelSpec preset(const std::string& id)
    {
        std::vector<InputError> errors;
        return readModel(nlohmann::json(id), "model", errors).value();
    }
    static bool close(double a, double b, double rel = 1e-12) { return std::abs(a - b) <= rel * std::abs(b); }

    // Qwen2-7B (Qwen/Qwen2-7B config.json): h 3584, 28 layers, 28 heads, 4 KV heads, d 128,
    // ffn 18944, vocab 152064, untied, bias on q/k/v only.
    static std::string qwen2()
    {
        return R"({"name":"Qwen2-7B","layers":28,"hidden":3584,"heads":28,"kv_heads":4,"head_dim":128,
                   "ffn_hidden":18944,"vocab":152064,"qkv_bias":true})";
    }
    // Qwen3-8B (Qwen/Qwen3-8B config.json): h 4096, 36 layers, 32 heads, 8 KV heads, d 128,
    // ffn 12288, vocab 151936, untied, RMSNorm over each head's q and k.
    static std::string qwen3()
    {
        return R"({"name":"Qwen3-8B","layers":36,"hidden":4096,"heads":32,"kv_heads":8,"head_dim":128,
                   "ffn_hidden":12288,"vocab":151936,"qk_norm":true})";
    }

private slots:
    void qkvBiasCountsQwen2()
    {
        // Attention: q 3584·3584 + 3584, k and v 3584·512 + 512 each, o 3584·3584 (no bias)
        // = 12,845,056 + 3,584 + 2·1,835,520 + 12,845,056 = 29,364,736.
        // Layer: + MLP 3·3584·18944 = 203,685,888 + norms 2·3584 → 233,057,792; × 28
        // = 6,525,618,176; + embedding and output 2·152064·3584 = 1,090,002,944 + final norm
        // 3584 = 7,615,616,512 (Qwen2-7B's checkpoint total, "7.62B").
        const ParamCounts c = countParameters(modelFromJson(qwen2()));
        QCOMPARE(c.dense_layer.attention, std::int64_t(29364736));
        QCOMPARE(c.total, std::int64_t(7615616512));
    }

    void qkNormCountsQwen3()
    {
        // Attention: q 4096·4096, k and v 4096·1024 each, o 4096·4096 = 41,943,040, + q_norm and
        // k_norm of d = 128 each, whole on every TP rank. Layer: + 3·4096·12288 + 2·4096
        // = 192,946,432; × 36 = 6,946,071,552; + 2·151936·4096 + 4096 = 8,190,735,360 (Qwen3-8B).
        const ParamCounts c = countParameters(modelFromJson(qwen3()));
        QCOMPARE(c.dense_layer.attention, std::int64_t(41943040));
        QCOMPARE(c.dense_layer.attention_replicated, std::int64_t(256));
        QCOMPARE(c.total, std::int64_t(8190735360));
        // qk-norm keeps each norm's input: + 2q + 2k bytes per token in the TP-split part.
        const TrainingConfig t;
        ParallelConfig p;
        ModelSpec plain = modelFromJson(qwen3());
        plain.qk_norm = false;
        const double extra
            = layerActivation(modelFromJson(qwen3()), t, p, false).stored - layerActivation(plain, t, p, false).stored;
        QVERIFY(close(extra, double(t.seq_len) * t.micro_batch * (2 * 4096 + 2 * 1024)));
    }

    void sinksAndAlibi()
    {
        // Attention sinks (GPT-OSS): one logit per head and layer, split by TP with the heads.
        // ALiBi adds no parameter (a fixed slope per head).
        const ModelSpec base = modelFromJson(qwen3());
        ModelSpec sinks = base;
        sinks.attention_sinks = true;
        QCOMPARE(countParameters(sinks).dense_layer.attention - countParameters(base).dense_layer.attention,
                 std::int64_t(32));
        const ModelSpec alibi = modelFromJson(
            R"({"layers":2,"hidden":1024,"heads":16,"ffn_hidden":4096,"vocab":1000,"position":"alibi"})");
        const ModelSpec rope = modelFromJson(
            R"({"layers":2,"hidden":1024,"heads":16,"ffn_hidden":4096,"vocab":1000,"position":"rope"})");
        QCOMPARE(countParameters(alibi).total, countParameters(rope).total);
    }

    void parallelBlock()
    {
        // GPT-J style: one norm per layer; 1 all-reduce per layer and direction instead of 2;
        // activations keep one norm input and one shared input (10h → 6h per token).
        const std::string shape = R"({"layers":4,"hidden":4096,"heads":32,"ffn_hidden":16384,"vocab":50400,
                                      "mlp":"gelu","norm":"layernorm","bias":true)";
        const ModelSpec serial = modelFromJson(shape + "}");
        const ModelSpec parallel = modelFromJson(shape + R"(,"parallel_block":true})");
        QCOMPARE(countParameters(serial).dense_layer.norms, std::int64_t(4 * 4096));
        QCOMPARE(countParameters(parallel).dense_layer.norms, std::int64_t(2 * 4096));
        QCOMPARE(tpCollectivesPerLayer(parallel), 1.0);
        TrainingConfig t;
        t.seq_len = 2048;
        const ParallelConfig p;
        const double saved
            = layerActivation(serial, t, p, false).stored - layerActivation(parallel, t, p, false).stored;
        QVERIFY(close(saved, 2048.0 * 4 * 4096));

        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 8, 1, 1);
        const double serial_calls = [&] {
            for (const CommEntry& e : evaluate(sc).communication)
                if (e.group == Group::Tp)
                    return e.calls_per_step;
            return 0.0;
        }();
        sc.model.parallel_block = true;
        for (const CommEntry& e : evaluate(sc).communication)
            if (e.group == Group::Tp)
                QCOMPARE(e.calls_per_step, serial_calls / 2);
    }

    void slidingWindowKeys()
    {
        // 2 layers, every 2nd global: layer 0 slides over w = 1024 keys, layer 1 sees all s = 4096.
        // Causal average keys of the sliding layer: (w(w+1)/2 + (s − w)·w)/s
        // = (524,800 + 3,145,728)/4096 = 896.125, doubled as the full count doubles a causal
        // layer: 1792.25 (= 2w − w(w − 1)/s). Mean over the layers: (4096 + 1792.25)/2 = 2944.125.
        const ModelSpec m = modelFromJson(R"({"layers":2,"hidden":1024,"heads":8,"ffn_hidden":4096,"vocab":1000,
                                               "sliding_window":{"size":1024,"global_every":2}})");
        QVERIFY(m.isSlidingLayer(0));
        QVERIFY(!m.isSlidingLayer(1));
        QCOMPARE(attendedKeys(m, 4096), 2944.125);
        // Attention scores: 4·keys·q per token.
        QCOMPARE(layerForwardFlops(m, 4096, false).attention_scores, 4 * 2944.125 * 1024);
        // A window as long as the sequence changes nothing; every layer sliding: 1792.25.
        ModelSpec all = m;
        all.sliding_window->global_every = 0;
        QCOMPARE(attendedKeys(all, 4096), 1792.25);
        all.sliding_window->size = 8192;
        QCOMPARE(attendedKeys(all, 4096), 4096.0);
    }

    void mlaDeepSeekV3()
    {
        // DeepSeek-V3 (deepseek-ai/DeepSeek-V3 config.json): h 7168, 128 heads, q_lora 1536,
        // kv_lora 512, d_nope 128, d_rope 64, d_v 128.
        // TP-split: q_b 1536·128·192 = 37,748,736; kv_b 512·128·256 = 16,777,216;
        //   o 128·128·7168 = 117,440,512 → 171,966,464.
        // Whole: q_a 7168·1536 = 11,010,048; kv_a 7168·576 = 4,128,768; norms 1536 + 512
        //   → 15,140,864. Attention per layer: 187,107,328.
        const ModelSpec m = preset("deepseek-v3");
        const ParamCounts c = countParameters(m);
        QCOMPARE(c.dense_layer.attention, std::int64_t(171966464));
        QCOMPARE(c.dense_layer.attention_replicated, std::int64_t(15140864));
        // Dense layer (first 3): + 3·7168·18432 = 396,361,728 + norms 2·7168 → 583,483,392.
        // MoE layer: + (256 + 1)·3·7168·2048 = 11,318,329,344 + router 7168·256 + bias 256
        //   = 1,835,264 + norms 14,336 → 11,507,286,272.
        // Main model: 3·583,483,392 + 58·11,507,286,272 + 2·129280·7168 + 7168
        //   = 1,750,450,176 + 667,422,603,776 + 1,853,358,080 + 7,168 = 671,026,419,200, the
        //   report's "671B".
        QCOMPARE(c.dense_layers, 3);
        QCOMPARE(c.moe_layers, 58);
        QCOMPARE(c.dense_layer.total(), std::int64_t(583483392));
        QCOMPARE(c.moe_layer.total(), std::int64_t(11507286272));
        QCOMPARE(c.total - c.mtp_module, std::int64_t(671026419200));
        // MTP module: enorm + hnorm 2·7168, eh_proj 2·7168·7168 = 102,760,448, one MoE layer,
        // final norm 7168: 21,504 + 102,760,448 + 11,507,286,272 = 11,610,068,224.
        QCOMPARE(c.mtp_module, std::int64_t(11610068224));

        // FLOPs per token and layer: 2·Σ projections = 2·187,105,280 = 374,210,560;
        // scores 2·s·(128·192 + 128·128) = 81,920·s.
        const LayerForwardFlops f = layerForwardFlops(m, 4096, false);
        QCOMPARE(f.attention_linear, 374210560.0);
        QCOMPARE(f.attention_scores, 81920.0 * 4096);

        // Activations per token of a dense layer (TP 1, no recompute, flash): whole 10h + latents
        // (4·1536 + 2·576 + 2·512 = 8,320) = 80,000; Q and K 2·24,576 each, V and output 2·16,384
        // each = 163,840; MLP 6·18432 = 110,592; log-sum-exp 4·128 = 512 → 354,944 bytes.
        TrainingConfig t;
        t.seq_len = 4096;
        t.recompute = Recompute::None;
        t.flash_attention = true;
        ParallelConfig p;
        QVERIFY(close(layerActivation(m, t, p, false).stored, 4096.0 * 354944));
        // TP 8 with SP: the whole part and the latents split by SP, the rest by TP.
        p.tp = 8;
        p.sequence_parallel = true;
        QVERIFY(close(layerActivation(m, t, p, false).stored, 4096.0 * 354944 / 8));
        p.sequence_parallel = false;
        QVERIFY(close(layerActivation(m, t, p, false).stored, 4096.0 * (80000 + (163840 + 110592 + 512) / 8.0)));
    }

    void mlaContextParallelSendsKeysAndValues()
    {
        // Ring attention with MLA sends K (a·(d_nope + d_rope)) and V (a·d_v) per token after the
        // up projection: S = (s/cp)·b·(24,576 + 16,384)/tp·2 bytes; s 4096, cp 2, tp 8:
        // 2048·40,960/8·2 = 20,971,520.
        Scenario sc = presetScenario("deepseek-v3", "hgx-h800", 8, 1, 1);
        sc.parallel.cp = 2;
        sc.parallel.ep = 1;
        sc.training.seq_len = 4096;
        sc.training.micro_batch = 1;
        for (const CommEntry& e : evaluate(sc).communication)
            if (e.group == Group::Cp)
                QCOMPARE(e.bytes_per_call, 20971520.0);
    }

    void mtpOnTheOutputStage()
    {
        // A small untied model with one MTP module on PP 2: the output stage holds, besides its
        // layers, output layer and final norm, the module (TP-split: attention + MLP + eh_proj;
        // whole: norms) and a copy of the word embedding for the next tokens.
        const ModelSpec m = modelFromJson(R"({"layers":4,"hidden":1024,"heads":8,"ffn_hidden":4096,"vocab":32000,
                                               "mtp_modules":1})");
        const ParamCounts c = countParameters(m);
        // Layer: attention 4·1024² = 4,194,304, MLP 3·1024·4096 = 12,582,912, norms 2048.
        // Module: 3 norms 3072 + eh_proj 2·1024² = 2,097,152 + layer 16,779,264 = 18,879,488.
        QCOMPARE(c.mtp_module, std::int64_t(18879488));
        ParallelConfig p;
        p.pp = 2;
        p.tp = 2;
        StageLayers last{1, 2, 0, false, true};
        StageLayers without = last;
        const StageParams with_mtp = stageParams(c, last, p);
        ModelSpec no_mtp = m;
        no_mtp.mtp_modules = 0;
        const StageParams plain = stageParams(countParameters(no_mtp), without, p);
        // (4,194,304 + 12,582,912 + 2,097,152)/2 + 2048 + 3072 + 32000·1024/2 = 9,437,184 + 5,120
        // + 16,384,000 = 25,826,304.
        QCOMPARE(with_mtp.dense - plain.dense, 25826304.0);

        // FLOPs: 3·tokens·(layer forward + 4h² + 2·h·V) more per step.
        Scenario sc = scenarioFromJson(R"({"schema":"parascope.scenario/1","model":{"layers":4,"hidden":1024,"heads":8,
            "ffn_hidden":4096,"vocab":32000,"mtp_modules":1},"cluster":"dgx-h100","parallel":{"tp":1,"pp":2,"dp":1},
            "training":{"seq_len":2048,"micro_batch":1,"global_batch":8,"recompute":"none"}})");
        const double with_flops = evaluate(sc).flops.model_flops_per_step;
        const double layer = layerForwardFlops(sc.model, 2048, false).total();
        sc.model.mtp_modules = 0;
        const double without_flops = evaluate(sc).flops.model_flops_per_step;
        QVERIFY(close(with_flops - without_flops, 3 * 8 * 2048 * (layer + 4.0 * 1024 * 1024 + 2.0 * 1024 * 32000)));
    }

    void variantsSurviveSaveAndLoad()
    {
        const ModelSpec m = modelFromJson(R"({"layers":4,"hidden":1024,"heads":8,"ffn_hidden":4096,"vocab":32000,
            "qkv_bias":true,"attention_sinks":true,"parallel_block":true,"position":"alibi",
            "sliding_window":{"size":128,"global_every":2},"mtp_modules":2})");
        Scenario sc = presetScenario("llama2-7b", "dgx-h100", 1, 1, 1);
        sc.model = m;
        std::vector<InputError> errors;
        const std::optional<Scenario> back = readScenario(scenarioToJson(sc), errors);
        QVERIFY(errors.empty());
        QCOMPARE(countParameters(back->model).total, countParameters(m).total);
        QVERIFY(back->model.qkv_bias && back->model.attention_sinks && back->model.parallel_block);
        QCOMPARE(back->model.sliding_window->size, std::int64_t(128));
        QCOMPARE(back->model.mtp_modules, 2);
        QCOMPARE(back->model.position, PositionKind::Alibi);

        sc.model = preset("deepseek-v3");
        const std::optional<Scenario> mla = readScenario(scenarioToJson(sc), errors);
        QVERIFY(errors.empty());
        QCOMPARE(countParameters(mla->model).total, countParameters(sc.model).total);
    }

    void everyVariantInOneScenario()
    {
        // tests/data/model-variants.parascope.json (also a fuzz seed) combines MLA, MoE with
        // shared experts and an expert bias, MTP, a sliding window, sinks, FP8 blockwise, recompute
        // modules and a capacity factor: it evaluates without an error and survives save → load.
        const Scenario sc = scenarioFromFile("model-variants.parascope.json");
        const Estimate e = evaluate(sc);
        for (const Diagnostic& d : e.diagnostics)
            QVERIFY2(d.severity != Severity::Error, d.code.c_str());
        QVERIFY(e.time.step_s > 0);
        std::vector<InputError> errors;
        const std::optional<Scenario> back = readScenario(scenarioToJson(sc), errors);
        QVERIFY(errors.empty());
        QCOMPARE(scenarioToJson(*back).dump(), scenarioToJson(sc).dump());
        QCOMPARE(evaluate(*back).time.step_s, e.time.step_s);
    }

    void inconsistentVariantsAreErrors()
    {
        const std::string mla
            = R"("mla":{"q_lora_rank":64,"kv_lora_rank":32,"qk_nope_head_dim":16,"qk_rope_head_dim":8,"v_head_dim":16})";
        const std::string base = R"({"layers":2,"hidden":256,"heads":8,"ffn_hidden":512,"vocab":1000,)";
        const struct {
            std::string json, path;
        } cases[] = {
            {base + mla + R"(,"head_dim":32})", "model.head_dim"},
            {base + mla + R"(,"kv_heads":2})", "model.kv_heads"},
            {base + mla + R"(,"qk_norm":true})", "model.qk_norm"},
            {base + R"("mla":{"kv_lora_rank":32,"qk_rope_head_dim":8,"v_head_dim":16}})", "model.mla.qk_nope_head_dim"},
            {base + R"("sliding_window":{"global_every":2}})", "model.sliding_window.size"},
            {base + R"("sliding_window":{"size":0}})", "model.sliding_window.size"},
            {base + R"("mtp_modules":-1})", "model.mtp_modules"},
            {base + R"("position":"xpos"})", "model.position"},
        };
        for (const auto& c : cases) {
            const std::vector<InputError> errors = modelErrors(c.json);
            QVERIFY2(!errors.empty(), c.json.c_str());
            QCOMPARE(QString::fromStdString(errors.front().path), QString::fromStdString(c.path));
        }
    }
};

QTEST_GUILESS_MAIN(TstModelVariants)
#include "tst_model_variants.moc"
