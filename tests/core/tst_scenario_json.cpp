// `parascope.scenario/1` input: a custom model and cluster read, every enum's name table round
// trips, scenarioToJson round trips, and every preset parses (the catalogue is the files). That
// every error names its JSON path ("parallel.tp: must be an integer in 1 … 16777216, got 0") and
// all errors of a document are reported at once is tst_scenario_json_errors; the text-level
// limits (empty, invalid, too deep, too big, not a file) are tst_scenario_json_limits.

#include "scenario_fixture.h"
#include "scenario_json_cases.h"
#include "comm/comm_volume.h"
#include "schedule/simulator.h"
#include "types/comm_types.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace parascope;
using nlohmann::json;
using parascope::test::base;
using parascope::test::customCluster;
using parascope::test::customModel;
using parascope::test::listErrors;
using parascope::test::read;
using parascope::test::utf8;

namespace {

// Same document, numbers equal to 1e-12 relative (a save/load cycle may move the last bit).
bool nearlyEqual(const json& a, const json& b)
{
    if (a.is_number() && b.is_number()) {
        const double x = a.get<double>(), y = b.get<double>();
        return x == y || std::fabs(x - y) <= 1e-12 * std::max(std::fabs(x), std::fabs(y));
    }
    if (a.type() != b.type())
        return false;
    if (a.is_object()) {
        if (a.size() != b.size())
            return false;
        for (auto it = a.begin(); it != a.end(); ++it)
            if (!b.contains(it.key()) || !nearlyEqual(it.value(), b.at(it.key())))
                return false;
        return true;
    }
    if (a.is_array()) {
        if (a.size() != b.size())
            return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!nearlyEqual(a[i], b[i]))
                return false;
        return true;
    }
    return a == b;
}

} // namespace

// Every value of E has exactly one name, and the name reads back to the value.
template <class E> bool nameTableRoundTrips(std::string& why)
{
    std::set<std::string> seen;
    std::set<int> values;
    for (const EnumName<E>& n : enumNames(E{})) {
        if (!seen.insert(n.name).second || !values.insert(int(n.value)).second) {
            why = std::string("duplicate ") + n.name;
            return false;
        }
        if (enumFromName<E>(n.name) != n.value || std::string(toString(n.value)) != n.name) {
            why = std::string("does not round-trip: ") + n.name;
            return false;
        }
    }
    if (enumFromName<E>("no such name")) {
        why = "accepts an unknown name";
        return false;
    }
    return true;
}

class TstScenarioJson : public QObject {
    Q_OBJECT

private slots:
    void enumNameTablesRoundTrip()
    {
        std::string why;
        QVERIFY2(nameTableRoundTrips<ScheduleKind>(why), why.c_str());
        QVERIFY2(nameTableRoundTrips<Recompute>(why), why.c_str());
        QVERIFY2(nameTableRoundTrips<Precision>(why), why.c_str());
        QVERIFY2(nameTableRoundTrips<GradDtype>(why), why.c_str());
        QVERIFY2(nameTableRoundTrips<Optimizer>(why), why.c_str());
        QVERIFY2(nameTableRoundTrips<MlpKind>(why), why.c_str());
        QVERIFY2(nameTableRoundTrips<NormKind>(why), why.c_str());
        QVERIFY2(nameTableRoundTrips<PositionKind>(why), why.c_str());
        QVERIFY2(nameTableRoundTrips<Severity>(why), why.c_str());
        QVERIFY2(nameTableRoundTrips<Link>(why), why.c_str());
        QVERIFY2(nameTableRoundTrips<Overlap>(why), why.c_str());
        QVERIFY2(nameTableRoundTrips<OpType>(why), why.c_str());
        QVERIFY2(nameTableRoundTrips<Group>(why), why.c_str());
        QVERIFY2(nameTableRoundTrips<Collective>(why), why.c_str());
        QVERIFY2(nameTableRoundTrips<Purpose>(why), why.c_str());
        QVERIFY2(nameTableRoundTrips<TpOverlap>(why), why.c_str());
        // The reader names the choices from the table.
        std::vector<InputError> errors;
        nlohmann::json j = scenarioToJson(test::presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 8));
        j["parallel"]["schedule"] = "2f2b";
        QVERIFY(!readScenario(j, errors));
        QVERIFY(!errors.empty());
        QCOMPARE(QString::fromStdString(errors.front().text()),
                 QStringLiteral("parallel.schedule: must be one of gpipe, 1f1b, interleaved, zb-h1, zb-v, dualpipe-v, "
                                "dualpipe, got \"2f2b\""));
    }

    void baseIsValid();
    void roundTrip_data();
    void roundTrip();
    void everyPresetParses_data();
    void everyPresetParses();
    void presetCatalogueMatchesFiles();
};

void TstScenarioJson::baseIsValid()
{
    std::vector<InputError> errors;
    QVERIFY2(read(base().dump(), errors), listErrors(errors).c_str());
    QVERIFY2(errors.empty(), listErrors(errors).c_str());

    json j = base();
    j["model"] = customModel();
    j["cluster"] = customCluster();
    j["parallel"] = {{"tp", 2}, {"pp", 2}, {"dp", 4}, {"ep", 2}};
    const auto sc = read(j.dump(), errors);
    QVERIFY2(sc && errors.empty(), listErrors(errors).c_str());
    QCOMPARE(sc->model.id, std::string("custom"));
    QCOMPARE(sc->model.head_dim, std::int64_t(1024 / 16)); // default hidden/heads
    QVERIFY(sc->model.moe.has_value());
    QCOMPARE(sc->model.moe->experts, 8);
    QCOMPARE(sc->cluster.nodes, 2);
    QVERIFY(sc->cluster.intra_is_pcie);
    QCOMPARE(sc->cluster.gpu.memory_bytes, 48 * test::GiB);
}

void TstScenarioJson::roundTrip_data()
{
    QTest::addColumn<QByteArray>("text");

    std::ifstream in(PARASCOPE_SOURCE_DIR "/resources/scenarios/default.parascope.json");
    std::stringstream ss;
    ss << in.rdbuf();
    QVERIFY(!ss.str().empty());
    QTest::newRow("default scenario") << utf8(ss.str());

    json j = base();
    j["model"] = customModel();
    j["cluster"] = customCluster();
    j["parallel"] = {{"tp", 2},
                     {"pp", 2},
                     {"dp", 2},
                     {"ep", 2},
                     {"sequence_parallel", true},
                     {"zero", 1},
                     {"stage_layers", {3, 5}},
                     {"tp_comm_overlap", true},
                     {"tp_overlap", "async_tp"},
                     {"overlap_grad_reduce", false},
                     {"moe_dispatcher", "deepep"}};
    j["training"] = {{"seq_len", 2048},      {"micro_batch", 2},    {"global_batch", 64},
                     {"grad_dtype", "fp32"}, {"recompute", "full"}, {"precision", "bf16"}};
    j["overheads"]
        = {{"cuda_context_gib", 0.75}, {"workspace_gib", 0.125}, {"nccl_buffer_mib", 64}, {"fragmentation", 0.1}};
    QTest::newRow("custom model and cluster") << utf8(j.dump());

    j = base();
    j["model"] = "gpt3-175b";
    j["cluster"] = customCluster();
    j["cluster"]["gpu"] = "h100-sxm"; // a preset GPU inside a custom cluster
    j["parallel"] = {{"tp", 4}, {"pp", 4}, {"dp", 1}, {"vpp", 2}, {"schedule", "interleaved"}};
    j["training"] = {{"seq_len", 2048}, {"global_batch", 16}};
    QTest::newRow("learned positions, preset gpu in custom cluster") << utf8(j.dump());

    // The kernel-level fields: an inline GPU with its attention and FP8 GEMM curves (block scales
    // included), the FA2 kernel, torchtitan's op SAC with TP and its batch-first layout, DeepSpeed's
    // live-parameter cap.
    j = base();
    j["cluster"] = customCluster();
    j["cluster"]["gpu"].update({{"attention_efficiency", 0.5},
                                {"attention_efficiency_fa2", 0.35},
                                {"attention_half_seq", 600},
                                {"attention_half_head_dim", 30},
                                {"gemm_half_gflop", 8},
                                {"gemm_half_gflop_fp8", 40},
                                {"fp8_block_gemm_ratio", 0.8}});
    j["parallel"] = {{"tp", 2},
                     {"dp", 4},
                     {"sequence_parallel", true},
                     {"zero", 3},
                     {"zero3_max_live_params", 1e8},
                     {"activation_layout", "bsh"},
                     {"zero3_sharding", "per_parameter"}};
    j["training"] = {{"seq_len", 4096},           {"global_batch", 16},       {"precision", "fp8"},
                     {"attention_kernel", "fa2"}, {"recompute", "selective"}, {"recompute_modules", {"every_other_mm"}},
                     {"cross_entropy", "eager"}};
    QTest::newRow("attention kernel, op SAC, live-parameter cap") << utf8(j.dump());
}

void TstScenarioJson::roundTrip()
{
    QFETCH(QByteArray, text);
    std::vector<InputError> errors;
    const auto a = read(text.toStdString(), errors);
    QVERIFY2(a && errors.empty(), listErrors(errors).c_str());

    // Through text, as a saved file would go.
    const json ja = scenarioToJson(*a);
    QCOMPARE(QString::fromStdString(ja.value("schema", "")), QString::fromUtf8(kScenarioSchema));
    const auto b = read(ja.dump(2), errors);
    QVERIFY2(b && errors.empty(), (listErrors(errors) + "\n" + ja.dump(2)).c_str());
    // A fixed point: writing the re-read scenario gives the same document.
    const json jb = scenarioToJson(*b);
    QVERIFY2(nearlyEqual(ja, jb), json::diff(ja, jb).dump().c_str());
    // Unit conversions are rounded to 12 significant digits, so save → load → save is exact.
    QVERIFY2(jb == ja, json::diff(ja, jb).dump().c_str());

    QCOMPARE(b->name, a->name);
    QCOMPARE(b->model.id, a->model.id);
    QCOMPARE(b->cluster.id, a->cluster.id);
    QCOMPARE(b->cluster.gpu.id, a->cluster.gpu.id);
    QVERIFY(b->parallel.stage_layers == a->parallel.stage_layers);

    // The same evaluation, exactly.
    const Estimate ea = evaluate(*a), eb = evaluate(*b);
    QVERIFY(ea.params.total > 0);
    QVERIFY(ea.params.total == eb.params.total);
    QVERIFY(ea.params.active == eb.params.active);
    QVERIFY(ea.memory.capacity_bytes == eb.memory.capacity_bytes);
    QVERIFY(ea.memory.peak_bytes == eb.memory.peak_bytes);
    QCOMPARE(ea.memory.stages.size(), eb.memory.stages.size());
    for (std::size_t s = 0; s < ea.memory.stages.size(); ++s)
        QVERIFY2(ea.memory.stages[s].total() == eb.memory.stages[s].total(), std::to_string(s).c_str());
    QVERIFY(ea.flops.model_flops_per_step == eb.flops.model_flops_per_step);
    QCOMPARE(ea.communication.size(), eb.communication.size());
    for (std::size_t i = 0; i < ea.communication.size(); ++i) {
        QVERIFY(ea.communication[i].bytes_per_gpu_per_step == eb.communication[i].bytes_per_gpu_per_step);
        QVERIFY2(ea.communication[i].time_s == eb.communication[i].time_s, toString(ea.communication[i].collective));
    }
    QVERIFY2(ea.time.step_s == eb.time.step_s,
             (std::to_string(ea.time.step_s) + " vs " + std::to_string(eb.time.step_s)).c_str());
    QVERIFY(ea.throughput.tokens_per_s == eb.throughput.tokens_per_s);
    QVERIFY(ea.throughput.mfu == eb.throughput.mfu);
    QCOMPARE(ea.diagnostics.size(), eb.diagnostics.size());
    for (std::size_t i = 0; i < ea.diagnostics.size(); ++i)
        QVERIFY(ea.diagnostics[i].code == eb.diagnostics[i].code
                && ea.diagnostics[i].message.en == eb.diagnostics[i].message.en);
}

void TstScenarioJson::everyPresetParses_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("id");
    for (const char* kind : {"models", "gpus", "clusters"}) {
        const auto presets = listPresets(kind);
        QVERIFY2(!presets.empty(), kind);
        for (const PresetInfo& p : presets)
            QTest::newRow((std::string(kind) + "/" + p.id).c_str())
                << QString::fromUtf8(kind) << QString::fromStdString(p.id);
    }
}

void TstScenarioJson::everyPresetParses()
{
    QFETCH(QString, kind);
    QFETCH(QString, id);
    const std::string k = kind.toStdString(), i = id.toStdString();
    const PresetInfo* p = findPreset(k, i);
    QVERIFY(p);
    QCOMPARE(p->kind, k);
    QVERIFY2(!p->name.empty() && p->name != i, "a preset has a display name");
    QVERIFY2(!p->source.empty(), "a preset cites its source");

    // Both as the object it is and by its id, with no error.
    for (const json& j : {p->json, json(i)}) {
        std::vector<InputError> errors;
        bool ok = false;
        if (k == "models") {
            const auto m = readModel(j, "model", errors);
            ok = m && m->layers > 0 && m->hidden > 0 && m->heads > 0 && m->vocab > 0 && m->heads % m->kv_heads == 0;
            if (m && j.is_string())
                QCOMPARE(m->id, i);
        } else if (k == "gpus") {
            const auto g = readGpu(j, "cluster.gpu", errors);
            ok = g && g->memory_bytes > 0 && g->peak_bf16_flops > 0 && g->hbm_bytes_per_s > 0;
        } else {
            const auto c = readCluster(j, "cluster", errors);
            ok = c && c->gpus_per_node > 0 && c->gpu.memory_bytes > 0 && c->intra_node.bytes_per_s > 0
                && c->inter_node.bytes_per_s > 0;
        }
        QVERIFY2(errors.empty(), listErrors(errors).c_str());
        QVERIFY(ok);
    }
}

void TstScenarioJson::presetCatalogueMatchesFiles()
{
    // Every file under resources/presets/<kind>/ is compiled in, and nothing else.
    namespace fs = std::filesystem;
    for (const char* kind : {"models", "gpus", "clusters"}) {
        std::set<std::string> files, ids;
        for (const auto& e : fs::directory_iterator(fs::path(PARASCOPE_SOURCE_DIR) / "resources" / "presets" / kind))
            if (e.path().extension() == ".json")
                files.insert(e.path().stem().string());
        std::vector<std::string> order;
        for (const PresetInfo& p : listPresets(kind)) {
            ids.insert(p.id);
            order.push_back(p.id);
        }
        QVERIFY2(files == ids, kind);
        QVERIFY2(std::is_sorted(order.begin(), order.end()), kind);
        QVERIFY(!findPreset(kind, "no-such-preset"));
    }
    QVERIFY(listPresets("lessons-that-do-not-exist").empty());
}

QTEST_GUILESS_MAIN(TstScenarioJson)
#include "tst_scenario_json.moc"
