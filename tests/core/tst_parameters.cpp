// Exact parameter counts of every preset, against the published numbers (sources per preset in
// resources/presets/models/*.json, "source" and "published_params").

#include "model/parameter_count.h"
#include "io/scenario_json.h"

#include <QtTest>

using namespace parascope;

class TstParameters : public QObject {
    Q_OBJECT

    static ModelSpec model(const std::string& id)
    {
        std::vector<InputError> errors;
        auto m = readModel(nlohmann::json(id), "model", errors);
        if (!m)
            qFatal("preset %s does not load", id.c_str());
        return *m;
    }

private slots:
    void exactPublishedCounts_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<qint64>("expected");
        // Exact counts from the Hugging Face checkpoints (safetensors total):
        // Llama-2 7B  = 32·(4·4096² + 3·4096·11008 + 2·4096) + 2·32000·4096 + 4096 = 6,738,415,616
        QTest::newRow("llama2-7b") << QStringLiteral("llama2-7b") << qint64(6738415616);
        // Llama-2 13B = 40·(4·5120² + 3·5120·13824 + 2·5120) + 2·32000·5120 + 5120 = 13,015,864,320
        QTest::newRow("llama2-13b") << QStringLiteral("llama2-13b") << qint64(13015864320);
        // Llama-2 70B (GQA 8 KV heads): 80·(2·8192² + 2·8192·1024 + 3·8192·28672 + 2·8192)
        //   + 2·32000·8192 + 8192 = 68,976,648,192
        QTest::newRow("llama2-70b") << QStringLiteral("llama2-70b") << qint64(68976648192);
        // Llama-3.1 8B: 32·(2·4096² + 2·4096·1024 + 3·4096·14336 + 2·4096) + 2·128256·4096 + 4096
        QTest::newRow("llama3.1-8b") << QStringLiteral("llama3.1-8b") << qint64(8030261248);
        // Llama-3.1 70B: 80·(2·8192² + 2·8192·1024 + 3·8192·28672 + 2·8192) + 2·128256·8192 + 8192
        QTest::newRow("llama3.1-70b") << QStringLiteral("llama3.1-70b") << qint64(70553706496);
        // Llama-3.1 405B: 126·(2·16384² + 2·16384·1024 + 3·16384·53248 + 2·16384) + 2·128256·16384 + 16384
        QTest::newRow("llama3.1-405b") << QStringLiteral("llama3.1-405b") << qint64(405853388800);
        // Mixtral 8x7B: 32·(2·4096² + 2·4096·1024 + 8·3·4096·14336 + 4096·8 + 2·4096) + 2·32000·4096 + 4096
        QTest::newRow("mixtral-8x7b") << QStringLiteral("mixtral-8x7b") << qint64(46702792704);
    }

    void exactPublishedCounts()
    {
        QFETCH(QString, id);
        QFETCH(qint64, expected);
        const ModelSpec m = model(id.toStdString());
        QCOMPARE(qint64(countParameters(m).total), expected);
    }

    void roundedPublishedCounts_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("published");
        QTest::addColumn<double>("unit"); // the precision the source rounds to
        // Narayanan et al. 2021 Table 1 (billions, one decimal). GPT with learned positions, tied
        // embeddings, LayerNorm and biases: P = 12·L·h² + 13·L·h + (V + s)·h + 2h, V = 51200, s = 2048
        // (Narayanan eq. 2 plus the final LayerNorm). E.g. 1.7B: 12·24·2304² + 13·24·2304
        // + 53248·2304 + 4608 = 1,652,230,656 → "1.7"; 1T: 1,008,038,758,400 → "1008.0".
        const struct {
            const char* id;
            double b;
        } table[] = {{"megatron-gpt-1.7b", 1.7},   {"megatron-gpt-3.6b", 3.6},   {"megatron-gpt-7.5b", 7.5},
                     {"megatron-gpt-18b", 18.4},   {"megatron-gpt-39b", 39.1},   {"megatron-gpt-76b", 76.1},
                     {"megatron-gpt-145b", 145.6}, {"megatron-gpt-310b", 310.1}, {"megatron-gpt-530b", 529.6},
                     {"megatron-gpt-1t", 1008.0}};
        for (const auto& row : table)
            QTest::newRow(row.id) << QString::fromLatin1(row.id) << row.b * 1e9 << 0.1e9;
        // GPT-3 175B: Brown et al. 2020 Table 2.1 shape, vocab 50257, 2048 positions:
        // 12·96·12288² + 13·96·12288 + (50257 + 2048)·12288 + 2·12288 = 174,604,259,328,
        // "174.6B" in Narayanan et al. 2021 Table 2.
        QTest::newRow("gpt3-175b") << QStringLiteral("gpt3-175b") << 174.6e9 << 0.1e9;
    }

    void roundedPublishedCounts()
    {
        QFETCH(QString, id);
        QFETCH(double, published);
        QFETCH(double, unit);
        const double count = double(countParameters(model(id.toStdString())).total);
        QVERIFY2(
            std::abs(count - published) <= unit / 2,
            qPrintable(
                QStringLiteral("%1: %2 does not round to %3").arg(id).arg(count, 0, 'f', 0).arg(published, 0, 'f', 0)));
    }

    // Every shipped preset states a published count; the engine must reproduce it to the
    // precision it was published with. MTP modules are published apart from the main model
    // (DeepSeek-V3: "671B of the main model weights and 14B of the MTP module").
    void everyPresetMatchesItsPublishedCount()
    {
        for (const PresetInfo& p : listPresets("models")) {
            QVERIFY2(p.json.contains("published_params"), p.id.c_str());
            const double published = p.json["published_params"].get<double>();
            const ParamCounts c = countParameters(model(p.id));
            const double count = double(c.total - c.mtp_modules * c.mtp_module);
            QVERIFY2(std::abs(count - published) <= 0.05e9, (p.id + " count " + std::to_string(count)).c_str());
        }
    }

    void mixtralActiveParameters()
    {
        // Two of eight experts per token: 32·(2·4096² + 2·4096·1024 + 2·3·4096·14336 + 4096·8
        // + 2·4096) + 2·32000·4096 + 4096 = 12,879,925,248 ("12.9B active", Jiang et al. 2024).
        const ParamCounts c = countParameters(model("mixtral-8x7b"));
        QCOMPARE(qint64(c.active), qint64(12879925248));
        QCOMPARE(c.moe_layers, 32);
        QCOMPARE(c.dense_layers, 0);
    }

    void denseActiveEqualsTotal()
    {
        const ParamCounts c = countParameters(model("llama2-70b"));
        QCOMPARE(c.active, c.total);
    }

    void moeLayerFrequencyAndSharedExperts()
    {
        // A custom MoE: 4 layers, the first dense, then MoE every 2nd layer → layers 1 and 3 are MoE.
        ModelSpec m = model("llama2-7b");
        m.layers = 4;
        m.moe = MoeSpec{8, 2, 1024, 1, 2048, 2, 1};
        QVERIFY(!m.isMoeLayer(0));
        QVERIFY(m.isMoeLayer(1));
        QVERIFY(!m.isMoeLayer(2));
        QVERIFY(m.isMoeLayer(3));
        const ParamCounts c = countParameters(m);
        QCOMPARE(c.moe_layers, 2);
        // Routed: 8 experts × 3·4096·1024; shared: 1 × 3·4096·2048; router 4096·8.
        QCOMPARE(c.moe_layer.routed_experts, std::int64_t(8) * 3 * 4096 * 1024);
        QCOMPARE(c.moe_layer.dense_mlp, std::int64_t(3) * 4096 * 2048);
        QCOMPARE(c.moe_layer.router, std::int64_t(4096) * 8);
        QCOMPARE(c.moe_layer.active_experts, std::int64_t(2) * 3 * 4096 * 1024);
    }

    void biasesAndLayerNormCount()
    {
        // GPT layer with biases: attention 4h² + 4h, GELU MLP 8h² + 5h (f = 4h), two LayerNorms 4h
        // → 12h² + 13h per layer (Narayanan et al. 2021 eq. 2).
        const ModelSpec m = model("megatron-gpt-1.7b");
        const ParamCounts c = countParameters(m);
        const std::int64_t h = 2304;
        QCOMPARE(c.dense_layer.total(), 12 * h * h + 13 * h);
        QCOMPARE(c.output_layer, std::int64_t(0)); // tied
        QCOMPARE(c.position_embedding, std::int64_t(2048) * h);
    }
};

QTEST_GUILESS_MAIN(TstParameters)
#include "tst_parameters.moc"
