// `parascope.scenario/1` input: every error names its JSON path ("parallel.tp: must be an integer
// in 1 … 16777216, got 0"), all errors of a document are reported at once, the text-level limits
// (empty, invalid, too deep, too big, not a file) are errors and not crashes, scenarioToJson round
// trips, and every preset parses.

#include "scenario_fixture.h"
#include "comm/comm_volume.h"
#include "schedule/simulator.h"
#include "types/comm_types.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <regex>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace parascope;
using nlohmann::json;

namespace {

// A small valid scenario that each case breaks in one place.
json base()
{
    return json::parse(R"({
      "schema": "parascope.scenario/1",
      "name": "base",
      "model": "llama2-7b",
      "cluster": "dgx-a100-80g",
      "parallel": { "tp": 2, "pp": 2, "dp": 2, "schedule": "1f1b" },
      "training": { "seq_len": 4096, "micro_batch": 1, "global_batch": 64 }
    })");
}

// A custom model object with every field (the shape of a preset file).
json customModel()
{
    return json::parse(R"({
      "name": "Tiny MoE", "layers": 8, "hidden": 1024, "heads": 16, "kv_heads": 4, "ffn_hidden": 4096,
      "vocab": 32000, "mlp": "swiglu", "norm": "rmsnorm", "bias": false, "tied_embeddings": false,
      "position": "rope",
      "moe": { "experts": 8, "top_k": 2, "ffn_hidden": 2048, "shared_experts": 1, "shared_ffn_hidden": 2048,
               "layer_freq": 1, "first_dense_layers": 1 }
    })");
}

json customCluster()
{
    return json::parse(R"({
      "name": "Lab cluster", "gpus_per_node": 4, "nodes": 2,
      "gpu": { "name": "Lab GPU", "memory_gib": 48, "hbm_gbps": 960,
               "peak_tflops": { "bf16": 181, "fp8": 362, "fp32": 45 } },
      "intra_node": { "bandwidth_gbps": 32, "latency_us": 7.5, "efficiency": 0.8 },
      "inter_node": { "bandwidth_gbps": 12.5, "latency_us": 9.3 },
      "intra_node_link": "pcie"
    })");
}

std::string listErrors(const std::vector<InputError>& errors)
{
    std::string out;
    for (const InputError& e : errors)
        out += "\n  " + e.text();
    return out.empty() ? std::string("\n  (no errors)") : out;
}

// Parses and reads text as a scenario; every error lands in `errors`.
std::optional<Scenario> read(const std::string& text, std::vector<InputError>& errors)
{
    const auto j = parseJsonText(text, errors);
    if (!j)
        return std::nullopt;
    return readScenario(*j, errors);
}

bool contains(const std::string& haystack, const std::string& needle)
{
    return haystack.find(needle) != std::string::npos;
}

const InputError* findError(const std::vector<InputError>& errors, const std::string& path)
{
    for (const InputError& e : errors)
        if (e.path == path)
            return &e;
    return nullptr;
}

std::string presetIds(const std::string& kind)
{
    std::string ids;
    for (const PresetInfo& p : listPresets(kind))
        ids += (ids.empty() ? "" : ", ") + p.id;
    return ids;
}

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

QByteArray utf8(const std::string& s)
{
    return QByteArray::fromStdString(s);
}

} // namespace


// Every value of E has exactly one name, and the name reads back to the value.
template <class E>
bool nameTableRoundTrips(std::string& why)
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
        // The reader names the choices from the table.
        std::vector<InputError> errors;
        nlohmann::json j = scenarioToJson(test::presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 8));
        j["parallel"]["schedule"] = "2f2b";
        QVERIFY(!readScenario(j, errors));
        QVERIFY(!errors.empty());
        QCOMPARE(QString::fromStdString(errors.front().text()),
                 QStringLiteral("parallel.schedule: must be one of gpipe, 1f1b, interleaved, zb-h1, zb-v, dualpipe-v, dualpipe, got \"2f2b\""));
    }

    void baseIsValid();
    void errorNamesPath_data();
    void errorNamesPath();
    void allErrorsAtOnce();
    void missingFieldIsTheOnlyError_data();
    void missingFieldIsTheOnlyError();
    void emptyText();
    void invalidJsonGivesLineAndColumn_data();
    void invalidJsonGivesLineAndColumn();
    void nestingLimit();
    void sizeLimit();
    void readJsonFileRefusesNonFiles();
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

void TstScenarioJson::errorNamesPath_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QStringList>("needles"); // each must be in the message

    const auto row = [](const char* name, const json& j, const char* path, QStringList needles) {
        QTest::newRow(name) << utf8(j.dump()) << QString::fromUtf8(path) << needles;
    };
    const auto q = [](const std::string& s) { return QString::fromStdString(s); };

    json j = base();
    j["colour"] = "red";
    row("unknown top-level key", j, "colour", {QStringLiteral("unknown key")});

    j = base();
    j["parallel"]["foo"] = 1;
    row("unknown key in parallel", j, "parallel.foo", {QStringLiteral("unknown key")});

    j = base();
    j["training"]["seqlen"] = 2048;
    row("misspelt training key", j, "training.seqlen", {QStringLiteral("unknown key")});

    j = base();
    j["parallel"]["tp"] = 0;
    row("tp 0", j, "parallel.tp", {QStringLiteral("integer in 1 … "), QStringLiteral("got 0")});

    j = base();
    j["parallel"]["tp"] = "8";
    row("tp as string", j, "parallel.tp", {QStringLiteral("must be an integer"), QStringLiteral("got \"8\"")});

    j = base();
    j["parallel"]["tp"] = 1.5;
    row("float for an integer", j, "parallel.tp", {QStringLiteral("must be an integer"), QStringLiteral("got 1.5")});

    j = base();
    j["parallel"]["zero"] = 4;
    row("zero 4", j, "parallel.zero", {QStringLiteral("0 … 3"), QStringLiteral("got 4")});

    j = base();
    j["parallel"]["sequence_parallel"] = 1;
    row("bool as number", j, "parallel.sequence_parallel", {QStringLiteral("true or false"), QStringLiteral("got 1")});

    j = base();
    j["schema"] = "parascope.scenario/2";
    row("wrong schema", j, "schema",
        {q(std::string("\"") + kScenarioSchema + "\""), QStringLiteral("got \"parascope.scenario/2\"")});

    j = base();
    j.erase("schema");
    row("missing schema", j, "schema", {QStringLiteral("is required")});

    j = base();
    j.erase("model");
    row("missing model", j, "model", {QStringLiteral("is required")});

    j = base();
    j.erase("cluster");
    row("missing cluster", j, "cluster", {QStringLiteral("is required")});

    j = base();
    j["model"] = "llama9-1t";
    {
        QStringList needles{QStringLiteral("unknown preset \"llama9-1t\"")};
        for (const PresetInfo& p : listPresets("models"))
            needles << q(p.id);
        needles << q("known: " + presetIds("models"));
        row("unknown model preset", j, "model", needles);
    }

    j = base();
    j["cluster"] = "dgx-z9000";
    row("unknown cluster preset", j, "cluster", {QStringLiteral("unknown preset \"dgx-z9000\""), q(presetIds("clusters"))});

    j = base();
    j["model"] = 7;
    row("model as number", j, "model", {QStringLiteral("preset id (string) or an object"), QStringLiteral("got 7")});

    j = base();
    j["model"] = customModel();
    j["model"].erase("hidden");
    row("custom model without hidden", j, "model.hidden", {QStringLiteral("is required")});

    j = base();
    j["model"] = customModel();
    j["model"]["moe"]["top_k"] = 9;
    row("top_k > experts", j, "model.moe.top_k", {QStringLiteral("experts (8)"), QStringLiteral("got 9")});

    j = base();
    j["model"] = customModel();
    j["model"]["kv_heads"] = 6;
    row("kv_heads not dividing heads", j, "model.kv_heads", {QStringLiteral("divide heads (16)"), QStringLiteral("got 6")});

    j = base();
    j["model"] = customModel();
    j["model"]["mlp"] = "relu";
    row("bad mlp", j, "model.mlp", {QStringLiteral("swiglu, gelu"), QStringLiteral("got \"relu\"")});

    j = base();
    j["model"] = customModel();
    j["model"]["moe"]["bogus"] = true;
    row("unknown key in model.moe", j, "model.moe.bogus", {QStringLiteral("unknown key")});

    j = base();
    j["model"] = customModel();
    j["model"]["position"] = "learned";
    row("learned positions without max_positions", j, "model.max_positions", {QStringLiteral("is required")});

    j = base();
    j["cluster"] = customCluster();
    j["cluster"].erase("gpu");
    row("custom cluster without gpu", j, "cluster.gpu", {QStringLiteral("is required")});

    j = base();
    j["cluster"] = customCluster();
    j["cluster"]["gpu"]["memory_gib"] = -80;
    row("negative gpu memory", j, "cluster.gpu.memory_gib", {QStringLiteral("must be a number in"), QStringLiteral("got -80")});

    j = base();
    j["cluster"] = customCluster();
    j["cluster"]["inter_node"].erase("bandwidth_gbps");
    row("link without bandwidth", j, "cluster.inter_node.bandwidth_gbps", {QStringLiteral("is required")});

    j = base();
    j["parallel"]["schedule"] = "foo";
    row("bad schedule", j, "parallel.schedule",
        {QStringLiteral("gpipe, 1f1b, interleaved, zb-h1, zb-v, dualpipe-v"), QStringLiteral("got \"foo\"")});

    j = base();
    j["parallel"]["stage_layers"] = json::array({16, "16"});
    row("stage_layers[1] wrong type", j, "parallel.stage_layers[1]",
        {QStringLiteral("must be an integer"), QStringLiteral("got \"16\"")});

    j = base();
    j["parallel"]["stage_layers"] = 32;
    row("stage_layers not an array", j, "parallel.stage_layers", {QStringLiteral("must be an array")});

    j = base();
    j["training"]["global_batch"] = -8;
    row("negative global_batch", j, "training.global_batch", {QStringLiteral("integer in 1 … "), QStringLiteral("got -8")});

    j = base();
    j["training"]["attention_kernel"] = "fa3";
    row("bad attention kernel", j, "training.attention_kernel", {QStringLiteral("cudnn, fa2"), QStringLiteral("got \"fa3\"")});
    j = base();
    j["parallel"]["moe_dispatcher"] = "hybridep";
    row("bad moe dispatcher", j, "parallel.moe_dispatcher", {QStringLiteral("alltoall, deepep"), QStringLiteral("got \"hybridep\"")});
    j = base();
    j["training"]["cross_entropy"] = "chunked";
    row("bad cross entropy", j, "training.cross_entropy", {QStringLiteral("fused, eager"), QStringLiteral("got \"chunked\"")});

    j = base();
    j["parallel"]["zero3_max_live_params"] = -1;
    row("negative zero3_max_live_params", j, "parallel.zero3_max_live_params", {QStringLiteral("got -1")});

    j = base();
    j["training"]["recompute"] = "some";
    row("bad recompute", j, "training.recompute", {QStringLiteral("none, selective, full"), QStringLiteral("got \"some\"")});

    j = base();
    j["parallel"] = json::array({8, 8});
    row("parallel not an object", j, "parallel", {QStringLiteral("must be an object"), QStringLiteral("got an array")});

    row("document not an object", json::array({1, 2}), "", {QStringLiteral("must be an object")});
}

void TstScenarioJson::errorNamesPath()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, path);
    QFETCH(QStringList, needles);

    std::vector<InputError> errors;
    const auto sc = read(text.toStdString(), errors);
    QVERIFY2(!sc, "an invalid scenario was accepted");
    const InputError* e = findError(errors, path.toStdString());
    QVERIFY2(e, ("no error at \"" + path.toStdString() + "\":" + listErrors(errors)).c_str());
    for (const QString& n : needles)
        QVERIFY2(contains(e->message, n.toStdString()),
                 ("\"" + e->message + "\" does not mention \"" + n.toStdString() + "\"").c_str());
    // text() is "path: message" (or just the message for the document).
    QCOMPARE(QString::fromStdString(e->text()),
             path.isEmpty() ? QString::fromStdString(e->message) : path + QStringLiteral(": ") + QString::fromStdString(e->message));
}

void TstScenarioJson::allErrorsAtOnce()
{
    json j = base();
    j["colour"] = "red";
    j["parallel"]["tp"] = 0;
    j["parallel"]["schedule"] = "foo";
    j["training"]["global_batch"] = -1;
    j["model"] = customModel();
    j["model"]["moe"]["top_k"] = 99;

    std::vector<InputError> errors;
    QVERIFY(!read(j.dump(), errors));
    const std::set<std::string> want = {"colour", "parallel.tp", "parallel.schedule", "training.global_batch",
                                        "model.moe.top_k"};
    std::set<std::string> got;
    for (const InputError& e : errors) {
        got.insert(e.path);
        QVERIFY2(!e.message.empty(), e.path.c_str());
    }
    for (const std::string& p : want)
        QVERIFY2(got.count(p), ("missing error at " + p + ":" + listErrors(errors)).c_str());
    QCOMPARE(errors.size(), want.size()); // and no spurious follow-up errors

    // The same through a file: readScenarioFile reports them all too.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string file = dir.filePath(QStringLiteral("bad.parascope.json")).toStdString();
    {
        std::ofstream out(file);
        out << j.dump(2);
    }
    std::vector<InputError> file_errors;
    QVERIFY(!readScenarioFile(file, file_errors));
    QCOMPARE(file_errors.size(), want.size());
}

void TstScenarioJson::missingFieldIsTheOnlyError_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("path");
    const auto row = [](const char* name, const char* erase_in_model, const char* path) {
        json j = base();
        j["model"] = customModel();
        j["model"].erase(erase_in_model);
        QTest::newRow(name) << utf8(j.dump()) << QString::fromUtf8(path);
    };
    row("layers", "layers", "model.layers");
    row("ffn_hidden", "ffn_hidden", "model.ffn_hidden");
    row("vocab", "vocab", "model.vocab");
    // The next three are known to add a follow-up error computed from the placeholder value 1 (see below).
    row("hidden", "hidden", "model.hidden");
    row("heads", "heads", "model.heads");
    json j = base();
    j["model"] = customModel();
    j["model"]["moe"].erase("experts");
    QTest::newRow("moe.experts") << utf8(j.dump()) << QStringLiteral("model.moe.experts");
}

void TstScenarioJson::missingFieldIsTheOnlyError()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, path);
    std::vector<InputError> errors;
    QVERIFY(!read(text.toStdString(), errors));
    const InputError* e = findError(errors, path.toStdString());
    QVERIFY2(e && e->message == "is required", listErrors(errors).c_str());
    // Known bug in readModel (core/io/scenario_json.cpp): a missing required field is replaced by 1
    // and then used in cross-field checks, which report values the user never wrote:
    //   no hidden      → "model.head_dim: is required when hidden (1) is not divisible by heads (16)"
    //   no heads       → "model.kv_heads: must divide heads (1), got 4"
    //   no moe.experts → "model.moe.top_k: must be ≤ experts (1), got 2"
    QVERIFY2(errors.size() == 1, listErrors(errors).c_str());
}

void TstScenarioJson::emptyText()
{
    for (const std::string text : {"", "   \n\t\r\n"}) {
        std::vector<InputError> errors;
        QVERIFY(!parseJsonText(text, errors));
        QCOMPARE(errors.size(), std::size_t(1));
        QVERIFY2(contains(errors[0].message, "empty"), errors[0].message.c_str());
        QVERIFY(errors[0].path.empty());
    }
}

void TstScenarioJson::invalidJsonGivesLineAndColumn_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("first"); // the reported column lies within the offending token
    QTest::addColumn<int>("last");
    // Line 3 is `  "model": ,`: the stray comma is its 12th character.
    QTest::newRow("missing value") << QByteArray("{\n  \"schema\": \"parascope.scenario/1\",\n  \"model\": ,\n}") << 3 << 12 << 12;
    // Line 2 is `  "tp": 8 "pp": 2`: the string "pp" where a comma should be is characters 11-14.
    QTest::newRow("missing comma") << QByteArray("{\n  \"tp\": 8 \"pp\": 2\n}") << 2 << 11 << 14;
    // Unterminated object: the text ends after the 9 characters of line 2 (`  "tp": 8`): column 10.
    QTest::newRow("unterminated") << QByteArray("{\n  \"tp\": 8") << 2 << 10 << 10;
    // A bad literal on line 1: `{"tp": tru}`, the literal starts at 8 and breaks at the `}` (11).
    QTest::newRow("bad literal") << QByteArray("{\"tp\": tru}") << 1 << 8 << 11;
}

void TstScenarioJson::invalidJsonGivesLineAndColumn()
{
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(int, first);
    QFETCH(int, last);
    std::vector<InputError> errors;
    QVERIFY(!parseJsonText(text.toStdString(), errors));
    QCOMPARE(errors.size(), std::size_t(1));
    const std::string& m = errors[0].message;
    QVERIFY2(errors[0].path.empty(), errors[0].path.c_str());
    QVERIFY2(contains(m, "not valid JSON"), m.c_str());
    const std::regex re(R"(line (\d+), column (\d+))");
    std::smatch at;
    QVERIFY2(std::regex_search(m, at, re), m.c_str());
    QVERIFY2(std::stoi(at[1].str()) == line, m.c_str());
    const int column = std::stoi(at[2].str());
    QVERIFY2(column >= first && column <= last,
             (m + " (expected column " + std::to_string(first) + "…" + std::to_string(last) + ")").c_str());
}

void TstScenarioJson::nestingLimit()
{
    // `depth` arrays, the innermost holding one value (or nothing).
    const auto nested = [](int depth, bool empty = false) {
        return std::string(std::size_t(depth), '[') + (empty ? "" : "1") + std::string(std::size_t(depth), ']');
    };

    // Deeper than the limit, even far deeper: an error, not a stack overflow.
    for (int depth : {65, 100, 100000}) {
        std::vector<InputError> errors;
        QVERIFY2(!parseJsonText(nested(depth), errors), std::to_string(depth).c_str());
        QCOMPARE(errors.size(), std::size_t(1));
        QVERIFY2(contains(errors[0].message, "nested deeper than 64 levels"), errors[0].message.c_str());
    }
    // Objects count the same way.
    {
        std::string objects;
        for (int i = 0; i < 65; ++i)
            objects += "{\"a\":";
        objects += "1" + std::string(65, '}');
        std::vector<InputError> errors;
        QVERIFY(!parseJsonText(objects, errors));
        QVERIFY2(errors.size() == 1 && contains(errors[0].message, "nested deeper"), listErrors(errors).c_str());
    }
    // Inside a scenario, too.
    {
        std::string deep = base().dump();
        deep.insert(deep.size() - 1, ",\"x\":" + nested(200));
        std::vector<InputError> errors;
        QVERIFY(!read(deep, errors));
        QVERIFY2(errors.size() == 1 && contains(errors[0].message, "nested deeper"), listErrors(errors).c_str());
    }

    // 64 levels is allowed.
    std::vector<InputError> errors;
    QVERIFY2(parseJsonText(nested(64), errors), listErrors(errors).c_str());
    QVERIFY(errors.empty());
    // A custom limit.
    QVERIFY(parseJsonText(nested(3), errors, 1024, 3));
    QVERIFY(!parseJsonText(nested(4), errors, 1024, 3));
    QVERIFY2(contains(errors.back().message, "deeper than 3 levels"), errors.back().message.c_str());

    // nlohmann passes depth 0 for the outermost container: a 65th container is refused even
    // when it is empty (no value inside it to trip the check).
    errors.clear();
    QVERIFY(!parseJsonText(nested(65, true), errors));
}

void TstScenarioJson::sizeLimit()
{
    const std::string text = base().dump();
    QVERIFY(text.size() > 100);
    std::vector<InputError> errors;
    QVERIFY(parseJsonText(text, errors, text.size())); // exactly at the limit: fine
    QVERIFY(errors.empty());
    QVERIFY(!parseJsonText(text, errors, 100));
    QCOMPARE(errors.size(), std::size_t(1));
    QVERIFY2(contains(errors[0].message, "limit"), errors[0].message.c_str());
    // Sizes under 1 MiB are printed in bytes or KiB, never as "0 MiB".
    QVERIFY2(!contains(errors[0].message, "limit is 0 MiB"), errors[0].message.c_str());

    // The default limit is 16 MiB; the message gives both sizes.
    errors.clear();
    const std::string big = "[" + std::string(17u << 20, ' ') + "]";
    QVERIFY(!parseJsonText(big, errors));
    QCOMPARE(errors.size(), std::size_t(1));
    QVERIFY2(contains(errors[0].message, "17.0 MiB") && contains(errors[0].message, "16.0 MiB"), errors[0].message.c_str());

    // Through a file, with a small limit.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string file = dir.filePath(QStringLiteral("s.parascope.json")).toStdString();
    {
        std::ofstream out(file);
        out << text;
    }
    errors.clear();
    QVERIFY(readJsonFile(file, errors)); // default limit
    QVERIFY2(errors.empty(), listErrors(errors).c_str());
    QVERIFY(!readJsonFile(file, errors, 100));
    QCOMPARE(errors.size(), std::size_t(1));
    QVERIFY2(contains(errors[0].message, file) && contains(errors[0].message, "limit"), errors[0].message.c_str());
}

void TstScenarioJson::readJsonFileRefusesNonFiles()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string d = dir.path().toStdString();

    std::vector<InputError> errors;
    QVERIFY(!readJsonFile(d, errors));
    QCOMPARE(errors.size(), std::size_t(1));
    QVERIFY2(contains(errors[0].message, d) && contains(errors[0].message, "directory"), errors[0].message.c_str());

    errors.clear();
    const std::string missing = d + "/nope.parascope.json";
    QVERIFY(!readJsonFile(missing, errors));
    QCOMPARE(errors.size(), std::size_t(1));
    QVERIFY2(contains(errors[0].message, missing) && contains(errors[0].message, "no such file"), errors[0].message.c_str());

    errors.clear();
    QVERIFY(!readScenarioFile(missing, errors));
    QCOMPARE(errors.size(), std::size_t(1));

    // A file with broken JSON: the message names the file and the position.
    const std::string broken = d + "/broken.parascope.json";
    {
        std::ofstream out(broken);
        out << "{\n  \"schema\": }";
    }
    errors.clear();
    QVERIFY(!readScenarioFile(broken, errors));
    QCOMPARE(errors.size(), std::size_t(1));
    QVERIFY2(contains(errors[0].message, broken) && contains(errors[0].message, "line 2"), errors[0].message.c_str());
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
    j["parallel"] = {{"tp", 2}, {"pp", 2}, {"dp", 2}, {"ep", 2}, {"sequence_parallel", true}, {"zero", 1},
                     {"stage_layers", {3, 5}}, {"tp_comm_overlap", true}, {"overlap_grad_reduce", false},
                     {"moe_dispatcher", "deepep"}};
    j["training"] = {{"seq_len", 2048}, {"micro_batch", 2}, {"global_batch", 64}, {"grad_dtype", "fp32"},
                     {"recompute", "full"}, {"precision", "bf16"}};
    j["overheads"] = {{"cuda_context_gib", 0.75}, {"workspace_gib", 0.125}, {"nccl_buffer_mib", 64}, {"fragmentation", 0.1}};
    QTest::newRow("custom model and cluster") << utf8(j.dump());

    j = base();
    j["model"] = "gpt3-175b";
    j["cluster"] = customCluster();
    j["cluster"]["gpu"] = "h100-sxm"; // a preset GPU inside a custom cluster
    j["parallel"] = {{"tp", 4}, {"pp", 4}, {"dp", 1}, {"vpp", 2}, {"schedule", "interleaved"}};
    j["training"] = {{"seq_len", 2048}, {"global_batch", 16}};
    QTest::newRow("learned positions, preset gpu in custom cluster") << utf8(j.dump());

    // The kernel-level fields: an inline GPU with its attention and FP8 GEMM curves, the FA2
    // kernel, torchtitan's op SAC with TP, DeepSpeed's live-parameter cap.
    j = base();
    j["cluster"] = customCluster();
    j["cluster"]["gpu"].update({{"attention_efficiency", 0.5}, {"attention_efficiency_fa2", 0.35}, {"attention_half_seq", 600},
                                {"attention_half_head_dim", 30}, {"gemm_half_gflop", 8}, {"gemm_half_gflop_fp8", 40}});
    j["parallel"] = {{"tp", 2}, {"dp", 4}, {"sequence_parallel", true}, {"zero", 3}, {"zero3_max_live_params", 1e8}};
    j["training"] = {{"seq_len", 4096}, {"global_batch", 16}, {"precision", "fp8"}, {"attention_kernel", "fa2"},
                     {"recompute", "selective"}, {"recompute_modules", {"every_other_mm"}}, {"cross_entropy", "eager"}};
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
        QVERIFY2(ea.communication[i].time_s == eb.communication[i].time_s,
                 toString(ea.communication[i].collective));
    }
    QVERIFY2(ea.time.step_s == eb.time.step_s, (std::to_string(ea.time.step_s) + " vs " + std::to_string(eb.time.step_s)).c_str());
    QVERIFY(ea.throughput.tokens_per_s == eb.throughput.tokens_per_s);
    QVERIFY(ea.throughput.mfu == eb.throughput.mfu);
    QCOMPARE(ea.diagnostics.size(), eb.diagnostics.size());
    for (std::size_t i = 0; i < ea.diagnostics.size(); ++i)
        QVERIFY(ea.diagnostics[i].code == eb.diagnostics[i].code && ea.diagnostics[i].message.en == eb.diagnostics[i].message.en);
}

void TstScenarioJson::everyPresetParses_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("id");
    for (const char* kind : {"models", "gpus", "clusters"}) {
        const auto presets = listPresets(kind);
        QVERIFY2(!presets.empty(), kind);
        for (const PresetInfo& p : presets)
            QTest::newRow((std::string(kind) + "/" + p.id).c_str()) << QString::fromUtf8(kind) << QString::fromStdString(p.id);
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
