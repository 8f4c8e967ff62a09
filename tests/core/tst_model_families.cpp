// More model families from config.json (issue 37 §7): Phi-3, Phi-2 (parallel attention and MLP,
// partial rotary, biases up to lm_head), DeepSeekMoE 16B (a first dense layer, shared and
// fine-grained experts, standard attention), Qwen2.5-VL's language model with its vision tower
// counted apart, and a clear refusal for MiniMax's hybrid linear attention. The configs in
// tests/data/hf/ are written from the published configs' fields; each expected count is derived
// by hand in the comment above it (h hidden, L layers, a heads, g KV heads, f MLP width, V vocab)
// and equals the model card's figure.

#include "io/hf_config_import.h"
#include "model/parameter_count.h"

#include <QtTest>

using namespace parascope;

namespace {

std::optional<HfImport> importFile(const std::string& name, std::vector<InputError>& errors, bool text_only = false)
{
    const std::string file = std::string(PARASCOPE_TEST_DATA) + "/hf/" + name;
    const auto j = readJsonFile(file, errors);
    if (!j)
        return std::nullopt;
    HfImportOptions o;
    o.text_only = text_only;
    return importHfConfig(*j, file, o, errors);
}

ParamCounts counted(const std::string& name, bool text_only = false)
{
    std::vector<InputError> errors;
    const auto m = importFile(name, errors, text_only);
    if (!m) {
        for (const InputError& e : errors)
            qWarning("%s: %s", name.c_str(), e.text().c_str());
        return {};
    }
    return countParameters(m->model, Explain::NumbersOnly);
}

} // namespace

class TstModelFamilies : public QObject {
    Q_OBJECT

private slots:
    void phi3IsLlamaShaped()
    {
        // Phi-3-mini-4k: h 3072, L 32, a = g = 32, f 8192, V 32064, untied, no biases.
        // Layer: 4·3072² = 37,748,736 + 3·3072·8192 = 75,497,472 + 2·3072 → 113,252,352 × 32
        // = 3,624,075,264; + 2·32064·3072 = 197,001,216 + 3072 = 3,821,079,552 (the card's 3.8B).
        QCOMPARE(counted("phi-3-mini-4k-instruct.json").total, std::int64_t(3821079552));
        std::vector<InputError> errors;
        const auto m = importFile("phi-3-mini-4k-instruct.json", errors);
        QVERIFY(m && m->model.sliding_window && m->model.sliding_window->size == 2047
                && m->model.sliding_window->global_every == 0); // every layer slides
    }

    void phi2HasOneNormAndBiasesToTheOutput()
    {
        // phi-2: h 2560, L 32, a 32, f 10240, V 51200. One LayerNorm per layer (attention and MLP
        // side by side), biases on q, k, v, dense, fc1, fc2 and lm_head. Layer: 3·(2560² + 2560)
        // = 19,668,480 + (2560² + 2560) = 6,556,160 + (2560·10240 + 10240) = 26,224,640 +
        // (10240·2560 + 2560) = 26,217,600 + 2·2560 → 78,672,000 × 32 = 2,517,504,000;
        // + embedding 131,072,000 + final LayerNorm 5,120 + lm_head 131,072,000 + 51,200
        // = 2,779,683,840 (the card's 2.7B; 2.78B on the hub).
        QCOMPARE(counted("phi-2.json").total, std::int64_t(2779683840));
        std::vector<InputError> errors;
        const auto m = importFile("phi-2.json", errors);
        QVERIFY(m && m->model.parallel_block && m->model.output_bias && m->model.bias);
        QVERIFY(m->model.mlp == MlpKind::Gelu && m->model.norm == NormKind::LayerNorm);
    }

    void deepSeekMoe16b()
    {
        // deepseek-moe-16b: h 2048, L 28 (layer 0 dense), a = g = 16, f 10944, 64 routed experts
        // of 1408 (6 per token) and 2 shared, V 102400, untied. Attention 4·2048² = 16,777,216,
        // norms 4,096. Dense layer: + 3·2048·10944 = 67,239,936 → 84,021,248. MoE layer: experts
        // 64·3·2048·1408 = 553,648,128 + shared 3·2048·2816 = 17,301,504 + router 64·2048 =
        // 131,072 → 587,862,016 × 27 = 15,872,274,432. + 2·102400·2048 = 419,430,400 + 2,048
        // = 16,375,728,128 (the card's 16.4B). Active: 27·(16,777,216 + 4,096 + 17,301,504 +
        // 6·8,650,752 + 131,072) = 2,325,196,800 + 84,021,248 + 419,432,448 = 2,828,650,496 (2.8B).
        const ParamCounts c = counted("deepseek-moe-16b-base.json");
        QCOMPARE(c.total, std::int64_t(16375728128));
        QCOMPARE(c.active, std::int64_t(2828650496));
    }

    void qwen25VlTextTowerAndItsVisionTowerApart()
    {
        // Without --text-only the vision tower is an error naming vision_config.
        std::vector<InputError> errors;
        QVERIFY(!importFile("qwen2.5-vl-7b-instruct.json", errors));
        QVERIFY(!errors.empty() && errors[0].path == "vision_config");
        errors.clear();
        const auto m = importFile("qwen2.5-vl-7b-instruct.json", errors, true);
        QVERIFY(m);
        // The language model is Qwen2.5-7B's: h 3584, L 28, a 28, g 4, d 128, f 18944, V 152064,
        // q/k/v biases. Layer: 3584² + 3584 + 2·(3584·512 + 512) + 3584² = 29,364,736 +
        // 3·3584·18944 = 203,685,888 + 7,168 → 233,057,792 × 28 = 6,525,618,176; + 2·152064·3584
        // = 1,089,994,752 + 3,584 = 7,615,616,512.
        QCOMPARE(countParameters(m->model, Explain::NumbersOnly).total, std::int64_t(7615616512));
        QVERIFY(m->model.qkv_bias);
        // The vision tower: patch embedding 3·2·14²·1280 = 1,505,280; a block: 2·1280 + (1280·3840
        // + 3840) + (1280² + 1280) + 2·(1280·3420 + 3420) + (3420·1280 + 1280) = 19,702,200, × 32 =
        // 630,470,400; merger 1280 + (5120² + 5120) + (5120·3584 + 3584) = 44,574,464. Together
        // 676,550,144, and with the language model 8,292,166,656 (the hub's 8.29B).
        QCOMPARE(m->vision_params, std::int64_t(676550144));
        QCOMPARE(m->vision_params + 7615616512, std::int64_t(8292166656));
    }

    void miniMaxIsRefusedWithTheReason()
    {
        std::vector<InputError> errors;
        QVERIFY(!importFile("minimax-text-01.json", errors));
        QCOMPARE(errors.size(), std::size_t(1));
        QVERIFY(errors[0].path == "architectures" && errors[0].message.find("linear") != std::string::npos
                && errors[0].message.find("attn_type_list") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TstModelFamilies)
#include "tst_model_families.moc"
