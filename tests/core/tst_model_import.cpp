// Importing models from where users have them (issue 16, part 1): Hugging Face config.json files
// (tests/data/hf/, written from the published configs' fields) and Megatron-LM argument lists
// (tests/data/megatron/). Every expected count is derived by hand in the comment above it from
// the config's fields (h hidden, L layers, a heads, g KV heads, d head dim, f MLP width, V vocab)
// and equals the checkpoint's published total.

#include "io/hf_config_import.h"
#include "io/megatron_args_import.h"
#include "io/model_json.h"
#include "io/scenario_json.h"
#include "model/parameter_count.h"

#include <QtTest>

using namespace parascope;

namespace {

std::string dataFile(const std::string& name) { return std::string(PARASCOPE_TEST_DATA) + "/" + name; }

std::optional<HfImport> importFile(const std::string& name, std::vector<InputError>& errors, bool text_only = false)
{
    const auto j = readJsonFile(dataFile("hf/" + name), errors);
    if (!j)
        return std::nullopt;
    HfImportOptions o;
    o.text_only = text_only;
    return importHfConfig(*j, dataFile("hf/" + name), o, errors);
}

ModelSpec imported(const std::string& name)
{
    std::vector<InputError> errors;
    const auto m = importFile(name, errors);
    if (!m) {
        for (const InputError& e : errors)
            qWarning("%s: %s", name.c_str(), e.text().c_str());
        return {};
    }
    return m->model;
}

std::int64_t total(const std::string& name) { return countParameters(imported(name), Explain::NumbersOnly).total; }

bool mentions(const std::vector<InputError>& errors, const std::string& path, const std::string& words = "")
{
    for (const InputError& e : errors)
        if (e.path.find(path) != std::string::npos && e.message.find(words) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestModelImport : public QObject {
    Q_OBJECT
private slots:
    void denseCountsEqualTheCheckpoints()
    {
        // Llama 3.1 8B: h 4096, L 32, a 32, g 8, d 128, f 14336, V 128256, untied.
        // Layer: q 4096² + k, v 2·4096·1024 + o 4096² = 41,943,040; MLP 3·4096·14336 = 176,160,768;
        // norms 2·4096 → 218,112,000 × 32 = 6,979,584,000; + 2·128256·4096 = 1,050,673,152 + 4096
        // = 8,030,261,248 (the checkpoint's total).
        QCOMPARE(total("llama-3.1-8b.json"), std::int64_t(8030261248));
        // Llama 3.2 1B: h 2048, L 16, a 32, g 8, d 64, f 8192, tied. Layer: 2·2048² + 2·2048·512
        // = 10,485,760 + 3·2048·8192 = 50,331,648 + 4096 → 60,821,504 × 16 = 973,144,064;
        // + 128256·2048 = 262,668,288 (once: tied) + 2048 = 1,235,814,400.
        QCOMPARE(total("llama-3.2-1b.json"), std::int64_t(1235814400));
        // Mistral 7B v0.1: as Llama 3.1 8B's layers, V 32000: 6,979,584,000 + 2·32000·4096
        // = 262,144,000 + 4096 = 7,241,732,096.
        QCOMPARE(total("mistral-7b-v0.1.json"), std::int64_t(7241732096));
        // Qwen2-7B (bias on q, k, v): 7,615,616,512 (tst_model_variants derives it term by term).
        QCOMPARE(total("qwen2-7b.json"), std::int64_t(7615616512));
        // Qwen3-8B (explicit head_dim, qk-norm): 8,190,735,360 (tst_model_variants).
        QCOMPARE(total("qwen3-8b.json"), std::int64_t(8190735360));
        // GPT-2: h 768, L 12, V 50257, 1024 positions, biases, LayerNorm, tied. Layer: c_attn
        // 768·2304 + 2304, c_proj 768² + 768, c_fc 768·3072 + 3072, c_proj 3072·768 + 768, two
        // LayerNorms 4·768 → 7,087,872 × 12 = 85,054,464; + wte 38,597,376 + wpe 786,432 + ln_f
        // 1536 = 124,439,808.
        QCOMPARE(total("gpt2.json"), std::int64_t(124439808));
        // Gemma 7B: h 3072, L 28, a = g = 16, d 256, f 24576, tied. Layer: 4·3072·4096 = 50,331,648
        // + 3·3072·24576 = 226,492,416 + 6144 → 276,830,208 × 28 = 7,751,245,824; + 256000·3072
        // = 786,432,000 + 3072 = 8,537,680,896.
        QCOMPARE(total("gemma-7b.json"), std::int64_t(8537680896));
        // Gemma 2 9B: h 3584, L 42, a 16, g 8, d 256, f 14336, tied, four norms per layer.
        // Layer: q, o 2·3584·4096 + k, v 2·3584·2048 = 44,040,192; MLP 154,140,672; norms 4·3584
        // → 198,195,200 × 42 = 8,324,198,400; + 917,504,000 + 3584 = 9,241,705,984.
        QCOMPARE(total("gemma-2-9b.json"), std::int64_t(9241705984));
        // Gemma 3 1B: h 1152, L 26, a 4, g 1, d 256, f 6912, tied, qk-norm, four norms.
        // Layer: 2·1152·1024 + 2·1152·256 = 2,949,120 + q/k norms 512 + 3·1152·6912 = 23,887,872
        // + 4·1152 → 26,842,112 × 26 = 697,894,912; + 262144·1152 = 301,989,888 + 1152
        // = 999,885,952.
        QCOMPARE(total("gemma-3-1b-it.json"), std::int64_t(999885952));
    }

    void moeCountsEqualTheCheckpoints()
    {
        // Mixtral 8x7B: 46,702,792,704 (tst_parameters derives its active count, 12,879,925,248).
        QCOMPARE(total("mixtral-8x7b-v0.1.json"), std::int64_t(46702792704));
        // Qwen1.5-MoE-A2.7B: h 2048, L 24, a = g = 16, 60 experts of 1408, one shared of 5632
        // with a gate h→1, bias on q, k, v. Layer: 3·(2048² + 2048) + 2048² = 16,783,360; experts
        // 60·3·2048·1408 = 519,045,120; shared 3·2048·5632 = 34,603,008; gate 2048; router
        // 2048·60 = 122,880; norms 4096 → 570,560,512 × 24 = 13,693,452,288; + 2·151936·2048
        // = 622,329,856 + 2048 = 14,315,784,192.
        QCOMPARE(total("qwen1.5-moe-a2.7b.json"), std::int64_t(14315784192));
        // Qwen3-30B-A3B: h 2048, L 48, a 32, g 4, d 128, 128 experts of 768, qk-norm.
        // Layer: 2·2048·4096 + 2·2048·512 = 18,874,368 + 256 + 128·3·2048·768 = 603,979,776
        // + router 262,144 + 4096 → 623,120,640 × 48 = 29,909,790,720; + 622,329,856 + 2048
        // = 30,532,122,624.
        QCOMPARE(total("qwen3-30b-a3b.json"), std::int64_t(30532122624));
        // GPT-OSS-20B: h 2880, L 24, a 64, g 8, d 64, 32 experts of 2880, biases everywhere,
        // sinks. Attention q 2880·4096 + 4096, k, v 2880·512 + 512, o 4096·2880 + 2880 = 26,550,080
        // + sinks 64; expert: gate+up 2880·5760 + 5760, down 2880² + 2880 = 24,891,840 × 32
        // = 796,538,880; router 2880·32 + 32 = 92,192; norms 5760 → 823,186,976 × 24
        // = 19,756,487,424; + 2·201088·2880 = 1,158,266,880 + 2880 = 20,914,757,184.
        QCOMPARE(total("gpt-oss-20b.json"), std::int64_t(20914757184));
        // DeepSeek-V2-Lite: h 2048, L 27 (1 dense), a 16, MLA without a query latent (kv_lora 512,
        // nope 128, rope 64, v 128), 64 routed + 2 shared experts of 1408, dense f 10944.
        // Attention: q 2048·16·192 = 6,291,456, kv_a 2048·576 = 1,179,648, kv_b 512·16·256
        // = 2,097,152, o 2048·2048 = 4,194,304, kv norm 512 → 13,763,072. Dense layer: + 3·2048·10944
        // = 67,239,936 + 4096 → 81,007,104. MoE layer: + 66·3·2048·1408 = 570,949,632 + router
        // 131,072 + 4096 → 584,847,872. Total 81,007,104 + 26·584,847,872 + 2·102400·2048 + 2048
        // = 15,706,484,224.
        QCOMPARE(total("deepseek-v2-lite.json"), std::int64_t(15706484224));
        // DeepSeek-V3: the main model 671,026,419,200 and one MTP module 11,610,068,224, both
        // derived in tst_model_variants::multiHeadLatentAttention.
        const ParamCounts v3 = countParameters(imported("deepseek-v3.json"), Explain::NumbersOnly);
        QCOMPARE(v3.total - v3.mtp_module, std::int64_t(671026419200));
        QCOMPARE(v3.mtp_module, std::int64_t(11610068224));
    }

    void variantsMapFromTheirFields()
    {
        const ModelSpec qwen_moe = imported("qwen1.5-moe-a2.7b.json");
        QVERIFY(qwen_moe.qkv_bias && !qwen_moe.bias);
        QVERIFY(qwen_moe.moe && qwen_moe.moe->shared_expert_gate && qwen_moe.moe->shared_experts == 1);
        const ModelSpec gemma2 = imported("gemma-2-9b.json");
        QVERIFY(gemma2.post_norms && gemma2.tied_embeddings && !gemma2.qk_norm);
        QVERIFY(gemma2.sliding_window && gemma2.sliding_window->size == 4096
                && gemma2.sliding_window->global_every == 2);
        const ModelSpec gemma3 = imported("gemma-3-1b-it.json");
        QVERIFY(gemma3.qk_norm && gemma3.post_norms);
        QVERIFY(gemma3.sliding_window && gemma3.sliding_window->size == 512
                && gemma3.sliding_window->global_every == 6);
        const ModelSpec oss = imported("gpt-oss-20b.json");
        QVERIFY(oss.attention_sinks && oss.bias && oss.moe && oss.moe->top_k == 4);
        QVERIFY(oss.sliding_window && oss.sliding_window->size == 128 && oss.sliding_window->global_every == 2);
        const ModelSpec mistral = imported("mistral-7b-v0.1.json");
        QVERIFY(mistral.sliding_window && mistral.sliding_window->global_every == 0); // every layer slides
        QVERIFY(!imported("mixtral-8x7b-v0.1.json").sliding_window); // "sliding_window": null
        const ModelSpec v3 = imported("deepseek-v3.json");
        QVERIFY(v3.mla && v3.mla->q_lora_rank == 1536 && v3.mtp_modules == 1);
        QVERIFY(v3.moe && v3.moe->first_dense_layers == 3 && v3.moe->expert_bias);
        QVERIFY(!imported("deepseek-v2-lite.json").moe->expert_bias); // topk_method "greedy"
        const ModelSpec gpt2 = imported("gpt2.json");
        QVERIFY(gpt2.position == PositionKind::Learned && gpt2.max_positions == 1024 && gpt2.mlp == MlpKind::Gelu);
        // The name comes from the file (these configs carry no _name_or_path).
        QCOMPARE(imported("qwen3-8b.json").name, std::string("qwen3-8b"));
    }

    void multimodalNeedsTextOnly()
    {
        std::vector<InputError> errors;
        QVERIFY(!importFile("gemma-3-4b-it.json", errors));
        QVERIFY(mentions(errors, "vision_config", "--text-only"));
        errors.clear();
        const auto text = importFile("gemma-3-4b-it.json", errors, true);
        QVERIFY(text);
        // text_config lists only what differs from Gemma3TextConfig: a 8, g 4, d 256, V 262208
        // are its defaults. h 2560, L 34, f 10240: layer 2·2560·2048 + 2·2560·1024 = 15,728,640
        // + 512 + 3·2560·10240 = 78,643,200 + 4·2560 → 94,382,592 × 34 = 3,209,008,128;
        // + 262208·2560 = 671,252,480 + 2560 = 3,880,263,168 (the language model alone).
        QCOMPARE(countParameters(text->model, Explain::NumbersOnly).total, std::int64_t(3880263168));
        QVERIFY(text->model.sliding_window && text->model.sliding_window->size == 1024);
    }

    void unmappedFieldsAreErrorsNamingThem()
    {
        const auto errorsFor = [](nlohmann::json j) {
            std::vector<InputError> errors;
            const auto m = importHfConfig(j, "x/config.json", {}, errors);
            if (m)
                errors.push_back({"", "imported"});
            return errors;
        };
        std::vector<InputError> errors;
        const nlohmann::json llama = *readJsonFile(dataFile("hf/llama-3.1-8b.json"), errors);
        nlohmann::json j = llama;
        j["architectures"] = {"FalconForCausalLM"};
        QVERIFY(mentions(errorsFor(j), "architectures", "FalconForCausalLM"));
        j = llama;
        j["attention_bias"] = true; // q, k, v, o biases without MLP biases: no field expresses it
        QVERIFY(mentions(errorsFor(j), "attention_bias", "no ParaScope field"));
        j["mlp_bias"] = true; // both: every linear layer has a bias
        QVERIFY(mentions(errorsFor(j), "", "imported"));
        j = llama;
        j.erase("intermediate_size");
        QVERIFY(mentions(errorsFor(j), "intermediate_size", "missing"));
        j = llama;
        j["num_key_value_heads"] = 7;
        QVERIFY(mentions(errorsFor(j), "kv_heads", "divide"));
        const nlohmann::json moe = *readJsonFile(dataFile("hf/qwen3-30b-a3b.json"), errors);
        j = moe;
        j["mlp_only_layers"] = {0, 47};
        QVERIFY(mentions(errorsFor(j), "mlp_only_layers"));
        j = moe;
        j["use_sliding_window"] = true;
        QVERIFY(mentions(errorsFor(j), "use_sliding_window"));
        const nlohmann::json oss = *readJsonFile(dataFile("hf/gpt-oss-20b.json"), errors);
        j = oss;
        j["layer_types"][0] = "full_attention"; // layers 0 and 1 full, then alternating: no period
        QVERIFY(mentions(errorsFor(j), "layer_types", "every N-th"));
        QVERIFY(mentions(errorsFor(nlohmann::json::array()), "", "JSON object"));
        QVERIFY(mentions(errorsFor(nlohmann::json{{"hidden_size", 8}}), "architectures", "missing"));
    }

    void modelNameFromWhereTheFileIs()
    {
        QCOMPARE(modelNameFromPath("/home/u/.cache/huggingface/hub/models--Qwen--Qwen3-8B/snapshots/ab12/config.json"),
                 std::string("Qwen3-8B"));
        QCOMPARE(modelNameFromPath("/data/Mixtral-8x7B-v0.1/config.json"), std::string("Mixtral-8x7B-v0.1"));
        QCOMPARE(modelNameFromPath("llama-3.1-8b.json"), std::string("llama-3.1-8b"));
        QCOMPARE(modelNameFromPath("Qwen3-8B.config.json"), std::string("Qwen3-8B"));
        std::vector<InputError> errors;
        nlohmann::json j = *readJsonFile(dataFile("hf/qwen3-8b.json"), errors);
        j["_name_or_path"] = "Qwen/Qwen3-8B";
        QCOMPARE(importHfConfig(j, "config.json", {}, errors)->model.name, std::string("Qwen3-8B"));
    }

    // The presets a 2026 course shows, each with its exact count; where the test data has the
    // model's config.json, the preset is exactly what importing that config gives.
    void presetsHaveTheirExactCounts()
    {
        std::vector<InputError> errors;
        const auto preset = [&](const char* id) {
            const auto m = readModel(nlohmann::json(id), "model", errors);
            return m ? *m : ModelSpec{};
        };
        const auto count = [&](const char* id) { return countParameters(preset(id), Explain::NumbersOnly).total; };
        for (const auto& [id, file] :
             {std::pair{"qwen3-8b", "qwen3-8b.json"}, std::pair{"qwen3-30b-a3b", "qwen3-30b-a3b.json"},
              std::pair{"gpt-oss-20b", "gpt-oss-20b.json"}}) {
            nlohmann::json a = modelToJson(preset(id)), b = modelToJson(imported(file));
            a.erase("name");
            b.erase("name");
            QVERIFY2(a == b, id);
        }
        QCOMPARE(count("qwen3-8b"), std::int64_t(8190735360));
        QCOMPARE(count("qwen3-30b-a3b"), std::int64_t(30532122624));
        QCOMPARE(count("gpt-oss-20b"), std::int64_t(20914757184));
        // Qwen3-32B: h 5120, L 64, a 64, g 8, d 128, f 25600. Layer: 2·5120·8192 + 2·5120·1024
        // = 94,371,840 + 256 + 3·5120·25600 = 393,216,000 + 10,240 → 487,598,336 × 64
        // = 31,206,293,504; + 2·151936·5120 = 1,555,824,640 + 5120 = 32,762,123,264.
        QCOMPARE(count("qwen3-32b"), std::int64_t(32762123264));
        // Qwen3-235B-A22B: h 4096, L 94, a 64, g 4, 128 experts of 1536. Layer: 2·4096·8192
        // + 2·4096·512 = 71,303,168 + 256 + 128·3·4096·1536 = 2,415,919,104 + router 524,288
        // + 8192 → 2,487,755,008 × 94 = 233,848,970,752; + 2·151936·4096 = 1,244,659,712 + 4096
        // = 235,093,634,560.
        QCOMPARE(count("qwen3-235b-a22b"), std::int64_t(235093634560));
        // Mixtral 8x22B: h 6144, L 56, a 48, g 8, 8 experts of 16384, V 32768. Layer: 2·6144²
        // + 2·6144·1024 = 88,080,384 + 8·3·6144·16384 = 2,415,919,104 + router 49,152 + 12,288
        // → 2,504,060,928 × 56 = 140,227,411,968; + 2·32768·6144 = 402,653,184 + 6144
        // = 140,630,071,296 ("141B").
        QCOMPARE(count("mixtral-8x22b"), std::int64_t(140630071296));
        // GPT-OSS-120B: as GPT-OSS-20B with L 36 and 128 experts. Layer: 26,550,144 + 128·24,891,840
        // = 3,186,155,520 + router 2880·128 + 128 = 368,768 + 5760 → 3,213,080,192 × 36
        // = 115,670,886,912; + 1,158,266,880 + 2880 = 116,829,156,672 (the card's 116.83B).
        QCOMPARE(count("gpt-oss-120b"), std::int64_t(116829156672));
        // Gemma 2 27B: h 4608, L 46, a 32, g 16, d 128, f 36864, tied, four norms. Layer:
        // 2·4608·4096 + 2·4608·2048 = 56,623,104 + 3·4608·36864 = 509,607,936 + 4·4608
        // → 566,249,472 × 46 = 26,047,475,712; + 256000·4608 = 1,179,648,000 + 4608
        // = 27,227,128,320.
        QCOMPARE(count("gemma2-27b"), std::int64_t(27227128320));
        // Gemma 3 27B's language model: h 5376, L 62, a 32, g 16, d 128, f 21504, V 262208, tied,
        // qk-norm, four norms. Layer: 2·5376·4096 + 2·5376·2048 = 66,060,288 + 256 + 3·5376·21504
        // = 346,816,512 + 4·5376 → 412,898,560 × 62 = 25,599,710,720 (the report's 25,600M
        // non-embedding) + 262208·5376 = 1,409,630,208 + 5376 = 27,009,346,304.
        QCOMPARE(count("gemma3-27b"), std::int64_t(27009346304));
        QVERIFY(errors.empty());
    }

    void megatronScriptBecomesAScenario()
    {
        std::vector<InputError> errors;
        const std::string script = *readTextFile(dataFile("megatron/llama3_8b.sh"), errors);
        MegatronImportOptions o;
        o.vocab = 128256;
        const auto r = importMegatronArgs(script, "llama3_8b", o, errors);
        QVERIFY2(r, errors.empty() ? "" : errors.front().text().c_str());
        const auto sc = readScenario(r->scenario, errors);
        QVERIFY(sc);
        // torchrun --nproc_per_node $GPUS_PER_NODE (8) --nnodes $NUM_NODES (2): 16 GPUs; TP 2 ·
        // PP 2 → DP 4. The arrays' flags, $SEQ and ${MASTER_ADDR:-localhost} are read.
        QCOMPARE(sc->parallel.tp, 2);
        QCOMPARE(sc->parallel.pp, 2);
        QCOMPARE(sc->parallel.dp, 4);
        QVERIFY(sc->parallel.sequence_parallel);
        QCOMPARE(sc->parallel.zero, 1); // --use-distributed-optimizer
        QCOMPARE(sc->training.seq_len, std::int64_t(8192));
        QCOMPARE(sc->training.global_batch, std::int64_t(128));
        QCOMPARE(sc->training.precision, Precision::Fp8);
        QCOMPARE(sc->training.fp8_recipe, Fp8Recipe::Tensorwise);
        QVERIFY(sc->training.recomputes(RecomputeModule::CoreAttn)
                && sc->training.recomputes(RecomputeModule::Layernorm));
        // 128256 is already a multiple of 128 · TP 2 = 256 (501 · 256): no padding; the model is
        // Llama 3.1 8B's, 8,030,261,248 parameters.
        QCOMPARE(sc->model.vocab, std::int64_t(128256));
        QCOMPARE(countParameters(sc->model, Explain::NumbersOnly).total, std::int64_t(8030261248));
        QVERIFY(!sc->model.tied_embeddings && !sc->model.bias && sc->model.norm == NormKind::RmsNorm);
    }

    void megatronArgumentListWithMoe()
    {
        std::vector<InputError> errors;
        const std::string args = *readTextFile(dataFile("megatron/deepseek_v3_args.txt"), errors);
        MegatronImportOptions o;
        o.gpus = 2048;
        const auto r = importMegatronArgs(args, "deepseek_v3", o, errors);
        QVERIFY2(r, errors.empty() ? "" : errors.front().text().c_str());
        const auto sc = readScenario(r->scenario, errors);
        QVERIFY(sc);
        // 2048 GPUs / (TP 2 · PP 16) = DP 64; "([0]*3+[1]*58)": 3 dense layers, then MoE.
        QCOMPARE(sc->parallel.dp, 64);
        QCOMPARE(sc->parallel.vpp, 2);
        QCOMPARE(sc->parallel.schedule, ScheduleKind::Interleaved);
        QCOMPARE(sc->parallel.moe_dispatcher, MoeDispatcher::DeepEp);
        QVERIFY(sc->parallel.account_for_embedding_in_pipeline_split
                && sc->parallel.account_for_loss_in_pipeline_split);
        QVERIFY(sc->model.mla && sc->model.mtp_modules == 1);
        QCOMPARE(sc->model.moe->first_dense_layers, 3);
        // 129280 = 20 · (3232 · TP 2): no padding; the main model is DeepSeek-V3's.
        const ParamCounts c = countParameters(sc->model, Explain::NumbersOnly);
        QCOMPARE(c.total - c.mtp_module, std::int64_t(671026419200));
    }

    void megatronDefaultsAndErrors()
    {
        std::vector<InputError> errors;
        MegatronImportOptions o;
        o.gpus = 8;
        // GPT-style defaults: LayerNorm, biases, learned positions, tied; ffn 4h; the vocabulary
        // padded to a multiple of 128 · TP 2 = 256: 50257 → 197 · 256 = 50432.
        const std::string gpt
            = "--num-layers 24 --hidden-size 2048 --num-attention-heads 16 --seq-length 2048 "
              "--max-position-embeddings 2048 --vocab-size 50257 --tensor-model-parallel-size 2 --fp16";
        auto r = importMegatronArgs(gpt, "gpt", o, errors);
        QVERIFY(r);
        QCOMPARE(r->scenario["model"]["vocab"].get<std::int64_t>(), std::int64_t(50432));
        QCOMPARE(r->scenario["model"]["ffn_hidden"].get<std::int64_t>(), std::int64_t(8192));
        QCOMPARE(r->scenario["model"]["norm"].get<std::string>(), std::string("layernorm"));
        QCOMPARE(r->scenario["model"]["position"].get<std::string>(), std::string("learned"));
        QVERIFY(r->scenario["model"]["bias"].get<bool>() && r->scenario["model"]["tied_embeddings"].get<bool>());
        QCOMPARE(r->scenario["parallel"]["dp"].get<int>(), 4);
        QCOMPARE(r->scenario["training"]["global_batch"].get<int>(), 4); // micro batch 1 · DP 4
        // SwiGLU's default width: int(4·4096·2/3 / 64)·64 = 10880.
        r = importMegatronArgs("--num-layers 2 --hidden-size 4096 --num-attention-heads 32 --seq-length 4096 --swiglu "
                               "--position-embedding-type rope --vocab-size 32000",
                               "x", o, errors);
        QVERIFY(r);
        QCOMPARE(r->scenario["model"]["ffn_hidden"].get<std::int64_t>(), std::int64_t(10880));
        QVERIFY(errors.empty());
        // Errors name the flag and its line.
        r = importMegatronArgs(
            "--num-layers 2 --hidden-size 64\n--num-attention-heads 4 --seq-length $SEQ --vocab-size 100", "x", o,
            errors);
        QVERIFY(!r && mentions(errors, "line 2: --seq-length", "$SEQ is not set"));
        errors.clear();
        r = importMegatronArgs("--num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 64", "x", o,
                               errors);
        QVERIFY(!r && mentions(errors, "--vocab-size", "--vocab N"));
        errors.clear();
        r = importMegatronArgs(
            "--num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 64 --vocab-size 64", "x", {}, errors);
        QVERIFY(!r && mentions(errors, "--gpus"));
        errors.clear();
        r = importMegatronArgs(
            "--num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 64 --vocab-size 64 "
            "--recompute-granularity full --recompute-method block --recompute-num-layers 1",
            "x", o, errors);
        QVERIFY(!r && mentions(errors, "--recompute-num-layers", "every layer"));
        errors.clear();
        r = importMegatronArgs("--hidden-size 64", "x", o, errors);
        QVERIFY(!r && mentions(errors, "--num-layers", "required"));
        errors.clear();
        // $(( … )) arithmetic, as launch scripts compute the world size.
        r = importMegatronArgs(
            "N=2\nG=4\ntorchrun --nnodes $N --nproc-per-node $((G*2)) pretrain_gpt.py --num-layers 2 "
            "--hidden-size 64 --num-attention-heads 4 --seq-length 64 --vocab-size 64",
            "x", {}, errors);
        QVERIFY2(r, errors.empty() ? "" : errors.front().text().c_str());
        QCOMPARE(r->scenario["parallel"]["dp"].get<int>(), 16);
    }
};

QTEST_GUILESS_MAIN(TestModelImport)
#include "tst_model_import.moc"
