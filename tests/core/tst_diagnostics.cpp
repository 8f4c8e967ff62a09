// "What breaks": every diagnostic code that core/estimate/diagnostics*.cpp can emit has a scenario
// file tests/data/diag-<code>[-variant].parascope.json that triggers it. For each file: the code is
// there with the right severity (and stage, for out_of_memory), its message and suggestion exist in
// English and Chinese, and the invalid scenario still gets every number. A clean scenario has no
// errors. The comments in cases() say why each file triggers its code, with the arithmetic.

#include "estimate/diagnostics.h"
#include "schedule/pipeline_closed_form.h"
#include "types/knobs.h"
#include "scenario_fixture.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace parascope;

namespace {

struct Case {
    const char* file;     // under tests/data
    const char* code;     // the diagnostic it must raise
    const char* severity; // "error" | "warning"
    int stage;            // the pipeline stage the diagnostic names (−1: none)
    // Other error-severity codes the file raises on purpose (the file is otherwise valid and fits).
    std::vector<std::string> other_errors;
    // A change made after reading, for what only an edited scenario can hold (the reader refuses
    // it in a file): nullptr for none.
    void (*edit)(Scenario&) = nullptr;
};

// One row per (code, variant). Why each file triggers its code:
const std::vector<Case>& cases()
{
    static const std::vector<Case> list = {
        // Cluster of 12 nodes × 8 = 96 GPUs, but tp·pp·dp·cp = 8·4·4·1 = 128 ≠ 96: an error because
        // the cluster says how many nodes it has (96 % (8·4·1) = 0, so the suggestion is dp = 3).
        {"diag-gpu_count_mismatch.parascope.json", "gpu_count_mismatch", "error", -1, {}},
        // Preset cluster (nodes not fixed): tp·dp = 4·3 = 12 GPUs > 8 per node and 12 % 8 = 4, so the
        // last node is half empty: a warning.
        {"diag-gpu_count_mismatch-partial-node.parascope.json", "gpu_count_mismatch", "warning", -1, {}},
        // Llama-2 13B has 40 heads; 40 % 16 = 8 ≠ 0. Its 40 KV heads (MHA) fail the same way, so
        // kv_heads_not_divisible_by_tp comes too (any TP dividing the KV heads divides the heads).
        {"diag-heads_not_divisible_by_tp.parascope.json", "heads_not_divisible_by_tp", "error", -1,
         {"kv_heads_not_divisible_by_tp"}},
        // Llama-2 70B: 64 heads % 16 = 0, but its 8 KV heads (GQA groups) % 16 = 8 ≠ 0.
        {"diag-kv_heads_not_divisible_by_tp.parascope.json", "kv_heads_not_divisible_by_tp", "error", -1, {}},
        // Llama-2 7B has 32 layers; PP = 64 > 32, so stages 32 … 63 hold no layer.
        {"diag-pp_exceeds_layers.parascope.json", "pp_exceeds_layers", "error", -1, {}},
        // Llama-3.1 405B has 126 layers; 126 % 16 = 14: 14 stages get 8 layers and 2 get 7
        // (14·8 + 2·7 = 126). Uneven but runnable: a warning.
        {"diag-layers_not_divisible_by_pp.parascope.json", "layers_not_divisible_by_pp", "warning", -1, {}},
        // parallel.stage_layers [19, 20, 20, 19] add up to 78, Llama-2 70B has 80: an error. A file
        // saying so is refused by the reader (tests/data/bad-stage_layers-sum); the app can still
        // hold it after a model change, so the file has a valid [20, 20, 20, 20] and the test edits it.
        {"diag-layers_not_divisible_by_pp-stage-layers.parascope.json", "layers_not_divisible_by_pp", "error", -1, {},
         [](Scenario& sc) { sc.parallel.stage_layers = {19, 20, 20, 19}; }},
        // Interleaved with PP·VPP = 4·3 = 12 and 32 layers: 32 % 12 = 8 ≠ 0: chunks of 3 and 2
        // layers, possible with an explicit layout (Megatron-Core), so a warning. (Microbatches
        // 256/(1·4) = 64, a multiple of PP = 4, so only the VPP rule fires.)
        {"diag-vpp_not_divisible.parascope.json", "vpp_not_divisible", "warning", -1, {}},
        // Interleaved needs two chunks per GPU at least: VPP = 1 is an error; so is a chunk
        // without a layer (PP·VPP = 4·16 = 64 virtual stages for 32 layers).
        {"diag-vpp_not_divisible.parascope.json", "vpp_not_divisible", "error", -1, {},
         [](Scenario& sc) { sc.parallel.vpp = 1; }},
        {"diag-vpp_not_divisible.parascope.json", "vpp_not_divisible", "error", -1, {},
         [](Scenario& sc) { sc.parallel.vpp = 16; }},
        // Parameters offloaded to the CPU with ZeRO-2: every GPU keeps a full copy, so nothing
        // could move; FSDP's CPUOffload(offload_params) needs sharded parameters.
        {"diag-offload_needs_zero3.parascope.json", "offload_needs_zero3", "error", -1, {}},
        // A custom cluster without `host`: offload has no memory or PCIe bandwidth to use.
        {"diag-offload_needs_host.parascope.json", "offload_needs_host", "error", -1, {}},
        // Llama 3.1 405B (Ψ = 405.85e9) on 8 GPUs, ZeRO-3 with everything offloaded: each GPU's
        // shard needs 2 + 2 + 12 + 4 = 20 B per parameter on the host, 20·Ψ/8 = 1.01 TB, × 8 GPUs
        // = 8.1 TB per node > the DGX H100's 2 TiB.
        {"diag-host_out_of_memory.parascope.json", "host_out_of_memory", "error", -1, {}},
        // HSDP shard groups of 8 do not divide DP·CP = 12.
        {"diag-shard_size_not_divisible.parascope.json", "shard_size_not_divisible", "error", -1, {}},
        // Llama 3.1 8B: 32 heads, 8 KV heads; Ulysses CP 4 with TP 4 splits heads 16 ways: 8 % 16 ≠ 0.
        {"diag-cp_a2a_heads_not_divisible.parascope.json", "cp_a2a_heads_not_divisible", "error", -1, {}},
        // VPP = 2 with the plain 1F1B schedule: VPP only applies to interleaved, it is ignored: a warning.
        {"diag-vpp_not_divisible-ignored.parascope.json", "vpp_not_divisible", "warning", -1, {}},
        // ZB-V puts two chunks on every rank: 40 layers % (2·PP = 16) = 8 ≠ 0.
        {"diag-vpp_not_divisible-zb-v.parascope.json", "vpp_not_divisible", "error", -1, {}},
        // Global batch 1000, micro batch × DP = 1·16 = 16; 1000 % 16 = 8 ≠ 0 (992 or 1008 would do).
        {"diag-batch_not_divisible.parascope.json", "batch_not_divisible", "error", -1, {}},
        // m = 32 / (1·8) = 4 microbatches < PP = 8: the 1F1B pipeline never fills (a warning; the
        // bubble (8−1)/(4+8−1) = 64 % also raises large_bubble).
        {"diag-microbatches_lt_pp.parascope.json", "microbatches_lt_pp", "warning", -1, {}},
        // DualPipeV needs m ≥ 2·PP = 8; m = 24 / (1·4) = 6 (≥ PP = 4, so not the warning): an error.
        {"diag-microbatches_lt_pp-dualpipe-v.parascope.json", "microbatches_lt_pp", "error", -1, {}},
        // DualPipe sends half of the microbatches each way: m = 36 / (1·4) = 9 is odd (and ≥ 2·PP = 8).
        {"diag-microbatches_lt_pp-dualpipe.parascope.json", "microbatches_lt_pp", "error", -1, {}},
        // DualPipe pairs rank r with rank PP−1−r: PP = 3 is odd.
        {"diag-dualpipe_needs_even_pp.parascope.json", "dualpipe_needs_even_pp", "error", -1, {}},
        // Interleaved PP4 VPP2 (32 layers % 8 = 0, fine), m = 40 / (1·4) = 10 and 10 % 4 = 2 ≠ 0.
        {"diag-interleaved_needs_microbatch_multiple.parascope.json", "interleaved_needs_microbatch_multiple", "error",
         -1, {}},
        // PP = 8 with m = 64 / (1·8) = 8 microbatches: 1F1B idles (p−1)/(m+p−1) = 7/15 = 47 % of
        // compute + bubble; with the exposed communication in the step still ≈ 41 % > 25 %.
        {"diag-large_bubble.parascope.json", "large_bubble", "warning", -1, {}},
        // Llama-2 13B, DP = 64 without ZeRO: every GPU holds all of Ψ = 13.0e9 params × 16 B
        // (2 weights + 2 grads + 12 AdamW) = 208 GB = 194 GiB of model states > 80 GiB. One stage: 0.
        {"diag-out_of_memory.parascope.json", "out_of_memory", "error", 0, {}},
        // Llama-2 70B, TP8 PP4 DP2, ZeRO-0, stage_layers [2, 2, 2, 74]: one layer is 855.7e6 params,
        // 855.6e6/8 + 16384 (norms) = 106.97e6 per GPU; stage 3 holds 74 of them + the output layer
        // 32000·8192/8 = 32.8e6: Ψ = 7.95e9 × 16 B = 127 GB = 118 GiB > 80 GiB. Stages 0-2 hold 2 layers
        // (0.21-0.25e9 params with the embedding, 3.4-3.9 GB of states): only stage 3 overflows.
        {"diag-out_of_memory-last-stage.parascope.json", "out_of_memory", "error", 3, {}},
        // Llama-2 70B, TP8 PP8 DP8, micro batch 8: one layer's activations are
        // s·b·(10h/t + (2q + 4kv + 2q + 6f)/t) = 4096·8·(10240 + 26112) = 1.19e9 B; 1F1B keeps 8 − i
        // microbatches in flight on stage i, 10 layers each: stage 0 ≈ 8·10·1.19e9 = 95.6 GB = 89 GiB of
        // activations alone > 80 GiB; stage 1 (7/8 of that, + 5.9 GB states) 88 GiB; stage 2 76.5 GiB fits.
        // Full recompute keeps one layer input per layer and saves enough: "(fits)".
        {"diag-out_of_memory-activations.parascope.json", "out_of_memory", "error", 0, {}},
        // TP = 16 on DGX H100 (8 GPUs per node): each TP group spans 2 nodes. GPT-3's 96 heads
        // % 16 = 0, so TP16 is otherwise legal.
        {"diag-tp_spans_nodes.parascope.json", "tp_spans_nodes", "warning", -1, {}},
        // Llama-2 7B on DP = 512 (64 nodes), one 1024-token sequence per GPU, overlap_grad_reduce off:
        // ZeRO-1 reduce-scatters the bf16 gradients and all-gathers the parameters, 2 B × 6.74e9 =
        // 13.5 GB each, hierarchical: NVLink 0.875·13.5e9/231e9 ≈ 0.051 s + network (13.5e9/8)/24e9
        // ≈ 0.070 s ⇒ 0.126 s per collective, 0.25 s exposed. Compute: 6·6.74e9·1024 FLOP / 271 TFLOP/s
        // ≈ 0.16 s. Exposed ≈ 0.25 / 0.41 ≈ 61 % > 20 % of the step.
        {"diag-exposed_comm_high.parascope.json", "exposed_comm_high", "warning", -1, {}},
        // Mixtral 8x7B has 8 experts; EP = 16: 8 % 16 ≠ 0.
        {"diag-ep_invalid.parascope.json", "ep_invalid", "error", -1, {}},
        // EP = 2 on Llama-2 7B, a dense model: there are no experts to spread.
        {"diag-ep_invalid-dense.parascope.json", "ep_invalid", "error", -1, {}},
        // Mixtral, EP = 8 (divides 8 experts), ETP = TP = 2: EP·ETP = 16 must divide the
        // tp·cp·dp = 2·1·2 = 4 GPUs of a stage; 4 % 16 ≠ 0.
        {"diag-ep_invalid-grid.parascope.json", "ep_invalid", "error", -1, {}},
        // Mixtral, EP = 1 with an explicit ETP = 8: EP·ETP = 8 must divide tp·cp·dp = 2·1·2 = 4.
        // (Before, the rule looked only at EP > 1, and the 8-way expert split made a GPU's share
        // of the expert FLOPs 1/8 instead of 1/TP = 1/2: MFU above 100 %.)
        {"diag-ep_invalid-etp.parascope.json", "ep_invalid", "error", -1, {}},
        // sequence_parallel with TP = 1: nothing to split over.
        {"diag-sp_requires_tp.parascope.json", "sp_requires_tp", "warning", -1, {}},
        // CP = 3: load-balanced ring attention needs seq_len % 2·CP; 4096 % 6 = 4 ≠ 0.
        {"diag-cp_not_divisible.parascope.json", "cp_not_divisible", "error", -1, {}},
        // GPT-3 175B has 2048 learned positions; seq_len 4096 > 2048.
        {"diag-seq_exceeds_positions.parascope.json", "seq_exceeds_positions", "error", -1, {}},
        // ZeRO-2 (gradient sharding) with PP = 4 > 1.
        {"diag-zero_with_pp.parascope.json", "zero_with_pp", "warning", -1, {}},
        // EP communication overlap (combined 1F1B) asked for on plain 1F1B with PP 2: Megatron
        // runs it only on the interleaved schedule.
        {"diag-ep_overlap_unavailable.parascope.json", "ep_overlap_unavailable", "warning", -1, {}},
    };
    return list;
}

// The codes DESIGN.md says must exist.
const char* const kRequiredCodes[] = {
    "gpu_count_mismatch", "heads_not_divisible_by_tp", "kv_heads_not_divisible_by_tp", "pp_exceeds_layers",
    "layers_not_divisible_by_pp", "vpp_not_divisible", "batch_not_divisible", "microbatches_lt_pp",
    "interleaved_needs_microbatch_multiple", "large_bubble", "out_of_memory", "tp_spans_nodes",
    "exposed_comm_high", "ep_invalid", "sp_requires_tp", "cp_not_divisible",
};

bool isCjk(uint c)
{
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0xF900 && c <= 0xFAFF);
}

bool hasCjk(const std::string& s)
{
    const auto ucs4 = QString::fromStdString(s).toUcs4();
    return std::any_of(ucs4.begin(), ucs4.end(), isCjk);
}

std::string describe(const Estimate& est)
{
    std::string out;
    for (const Diagnostic& d : est.diagnostics)
        out += std::string("\n  ") + toString(d.severity) + " " + d.code + " (stage " + std::to_string(d.stage)
               + "): " + d.message.en;
    return out.empty() ? std::string("\n  (no diagnostics)") : out;
}

const Diagnostic* find(const Estimate& est, const std::string& code, int stage)
{
    for (const Diagnostic& d : est.diagnostics)
        if (d.code == code && d.stage == stage)
            return &d;
    return nullptr;
}

bool contains(const std::string& haystack, const std::string& needle)
{
    return haystack.find(needle) != std::string::npos;
}

bool finitePositive(double v)
{
    return std::isfinite(v) && v > 0;
}

// Every (code, severity) pair that the rules (core/estimate/rules_*.cpp) can emit, read from their
// source, so that a new severity of a rule without a scenario file fails here.
std::set<std::pair<std::string, std::string>> emittedBySource()
{
    std::stringstream ss;
    for (const char* file : {PARASCOPE_SOURCE_DIR "/core/estimate/rules_layout.cpp", PARASCOPE_SOURCE_DIR "/core/estimate/rules_schedule.cpp",
                             PARASCOPE_SOURCE_DIR "/core/estimate/rules_features.cpp", PARASCOPE_SOURCE_DIR "/core/estimate/rules_memory.cpp",
                             PARASCOPE_SOURCE_DIR "/core/estimate/rules_pipeline_comm.cpp"}) {
        std::ifstream in(file);
        ss << in.rdbuf();
    }
    const std::string src = ss.str();
    std::set<std::pair<std::string, std::string>> out;
    static const std::regex re(R"(make\(\s*Severity::(\w+)\s*,\s*\"(\w+)\")");
    for (auto it = std::sregex_iterator(src.begin(), src.end(), re); it != std::sregex_iterator(); ++it) {
        std::string sev = (*it)[1].str();
        std::transform(sev.begin(), sev.end(), sev.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        out.insert({(*it)[2].str(), sev});
    }
    return out;
}

} // namespace

class TstDiagnostics : public QObject {
    Q_OBJECT

private slots:
    void everyCodeHasAScenario();
    void triggers_data();
    void triggers();
    void outOfMemoryDetails_data();
    void outOfMemoryDetails();
    void cleanScenarioHasNoErrors();
    void formatBytesUnits();
    void bubbleHasOneLabelledPairOfNumbers_data();
    void bubbleHasOneLabelledPairOfNumbers();
    void suggestionsNameOnlyWhatApplies();
    void englishPlurals();
};

namespace {

// Lesson 4: Llama-2 7B (32 layers) on PP 16, one GPU per stage, micro batch 1.
Scenario lessonFour(long long global_batch, long long micro_batch = 1)
{
    Scenario sc = test::presetScenario("llama2-7b", "dgx-a100-80g", 1, 16, 1);
    sc.parallel.zero = 0;
    sc.training.micro_batch = micro_batch;
    sc.training.global_batch = global_batch;
    return sc;
}

// Every number followed by "%" (or " %") in the text.
std::vector<std::string> percentages(const std::string& text)
{
    static const std::regex re(R"(([0-9][0-9.]*) ?%)");
    std::vector<std::string> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
        out.push_back((*it)[1].str());
    return out;
}

} // namespace

void TstDiagnostics::everyCodeHasAScenario()
{
    const auto emitted = emittedBySource();
    // The regex must see the rules at all (guards against a silent match failure).
    QVERIFY2(emitted.size() >= 18, ("only " + std::to_string(emitted.size()) + " rules found in core/estimate/rules_*.cpp").c_str());

    std::set<std::pair<std::string, std::string>> covered;
    for (const Case& c : cases())
        covered.insert({c.code, c.severity});
    for (const auto& [code, sev] : emitted) {
        QVERIFY2(covered.count({code, sev}),
                 ("diagnostics.cpp emits " + code + " as " + sev + " but no scenario file covers it").c_str());
        const std::string main = std::string(PARASCOPE_TEST_DATA) + "/diag-" + code + ".parascope.json";
        QVERIFY2(std::ifstream(main).good(), ("missing " + main).c_str());
    }
    for (const char* code : kRequiredCodes) {
        const bool in_source = std::any_of(emitted.begin(), emitted.end(), [&](const auto& p) { return p.first == code; });
        QVERIFY2(in_source, (std::string("DESIGN.md requires diagnostic ") + code + ", diagnostics.cpp never emits it").c_str());
    }
}

void TstDiagnostics::triggers_data()
{
    QTest::addColumn<int>("index");
    for (std::size_t i = 0; i < cases().size(); ++i)
        QTest::newRow(cases()[i].file) << int(i);
}

void TstDiagnostics::triggers()
{
    QFETCH(int, index);
    const Case& c = cases()[std::size_t(index)];
    Scenario sc = test::scenarioFromFile(c.file);
    if (QTest::currentTestFailed())
        return;
    if (c.edit)
        c.edit(sc);
    const Estimate est = evaluate(sc);
    const std::string all = describe(est);

    // The code, with the expected severity and stage.
    QVERIFY2(est.has(c.code), (std::string(c.file) + " does not raise " + c.code + ":" + all).c_str());
    const Diagnostic* d = find(est, c.code, c.stage);
    QVERIFY2(d, (std::string(c.code) + " not raised for stage " + std::to_string(c.stage) + ":" + all).c_str());
    QCOMPARE(QString::fromUtf8(toString(d->severity)), QString::fromUtf8(c.severity));

    // Every diagnostic names a knob the app can highlight (one with a slider, or the SP check
    // box) or none: before, some named parallel.stage_layers, parallel.etp or parallel.edp.
    for (const Diagnostic& x : est.diagnostics)
        QVERIFY2(x.knob.empty() || findKnob(x.knob) || x.knob == "parallel.sequence_parallel" || x.knob == "parallel.offload",
                 (x.code + " names " + x.knob).c_str());

    // Both languages, message and suggestion; zh is Chinese, en is not.
    QVERIFY2(!d->message.en.empty() && !d->suggestion.en.empty(), c.code);
    QVERIFY2(!d->message.zh.empty() && !d->suggestion.zh.empty(), c.code);
    QVERIFY2(hasCjk(d->message.zh), ("zh message has no Chinese: " + d->message.zh).c_str());
    QVERIFY2(hasCjk(d->suggestion.zh), ("zh suggestion has no Chinese: " + d->suggestion.zh).c_str());
    QVERIFY2(!hasCjk(d->message.en), ("en message has Chinese: " + d->message.en).c_str());
    QVERIFY2(!hasCjk(d->suggestion.en), ("en suggestion has Chinese: " + d->suggestion.en).c_str());
    QVERIFY(d->message.in("zh_CN") == d->message.zh);
    QVERIFY(d->message.in("en") == d->message.en);

    // The knob to highlight names a scenario path (out_of_memory concerns no single knob).
    if (std::string(c.code) != "out_of_memory")
        QVERIFY2(d->knob.rfind("parallel.", 0) == 0 || d->knob.rfind("training.", 0) == 0,
                 ("knob \"" + d->knob + "\" is not a scenario path").c_str());

    // Exactly the intended errors: the file is a focused example of its rule.
    std::set<std::string> errors, expected(c.other_errors.begin(), c.other_errors.end());
    if (std::string(c.severity) == "error")
        expected.insert(c.code);
    for (const Diagnostic& x : est.diagnostics)
        if (x.severity == Severity::Error)
            errors.insert(x.code);
    QVERIFY2(errors == expected, ("unexpected set of errors:" + all).c_str());

    // An invalid configuration still gets every number.
    QVERIFY(est.params.total > 0);
    QVERIFY(est.params.active > 0 && est.params.active <= est.params.total);
    QCOMPARE(est.gpus, sc.parallel.gpus());
    QVERIFY(est.microbatches >= 1);
    QCOMPARE(est.memory.stages.size(), std::size_t(sc.parallel.pp));
    QVERIFY(finitePositive(est.memory.capacity_bytes));
    double peak = 0;
    int peak_stage = 0;
    for (std::size_t s = 0; s < est.memory.stages.size(); ++s) {
        const StageMemory& st = est.memory.stages[s];
        QCOMPARE(st.stage, int(s));
        QVERIFY2(finitePositive(st.total()), ("stage " + std::to_string(s) + " has no memory").c_str());
        for (double v : {st.weights, st.gradients, st.optimizer, st.activations, st.other})
            QVERIFY(std::isfinite(v) && v >= 0);
        if (st.total() > peak) {
            peak = st.total();
            peak_stage = int(s);
        }
    }
    QCOMPARE(est.memory.peak_bytes, peak);
    QCOMPARE(est.memory.peak_stage, peak_stage);
    QCOMPARE(est.memory.fits, peak <= est.memory.capacity_bytes);
    QCOMPARE(est.has("out_of_memory"), !est.memory.fits);
    QVERIFY(finitePositive(est.flops.model_flops_per_step));
    QVERIFY(finitePositive(est.time.step_s));
    QVERIFY(finitePositive(est.time.compute_s));
    QVERIFY(est.time.bubble_fraction >= 0 && est.time.bubble_fraction < 1);
    QVERIFY(finitePositive(est.throughput.tokens_per_s));
    QVERIFY(est.throughput.mfu > 0 && est.throughput.mfu < 1);
}

void TstDiagnostics::outOfMemoryDetails_data()
{
    QTest::addColumn<QString>("file");
    for (const Case& c : cases())
        if (std::string(c.code) == "out_of_memory")
            QTest::newRow(c.file) << QString::fromUtf8(c.file);
}

void TstDiagnostics::outOfMemoryDetails()
{
    QFETCH(QString, file);
    const Scenario sc = test::scenarioFromFile(file.toStdString());
    if (QTest::currentTestFailed())
        return;
    const Estimate est = evaluate(sc);
    const double cap = est.memory.capacity_bytes;
    QVERIFY(cap > 0);

    // One out_of_memory per stage that overflows, and none for a stage that fits.
    int overflowing = 0;
    for (const StageMemory& st : est.memory.stages) {
        const Diagnostic* d = find(est, "out_of_memory", st.stage);
        const double over = st.total() - cap;
        if (over <= 0) {
            QVERIFY2(!d, ("stage " + std::to_string(st.stage) + " fits but is reported").c_str());
            continue;
        }
        ++overflowing;
        QVERIFY2(d, ("stage " + std::to_string(st.stage) + " overflows but is not reported" + describe(est)).c_str());

        // The message says how much: total, the excess (total − capacity) and the capacity, as formatBytes prints them.
        const std::string& en = d->message.en;
        const std::string& zh = d->message.zh;
        QVERIFY2(contains(en, "Stage " + std::to_string(st.stage) + " "), en.c_str());
        QVERIFY2(contains(en, formatBytes(st.total()) + " per GPU"), en.c_str());
        QVERIFY2(contains(en, formatBytes(over) + " more than"), (en + " ≠ excess " + formatBytes(over)).c_str());
        QVERIFY2(contains(en, formatBytes(cap)), en.c_str());
        QVERIFY2(contains(en, sc.cluster.gpu.name), en.c_str());
        QVERIFY2(contains(zh, formatBytes(over)), zh.c_str());
        QVERIFY2(contains(zh, formatBytes(st.total())), zh.c_str());

        // It names the part that dominates, with its size.
        const std::pair<const char*, double> parts[] = {{"weights", st.weights},
                                                        {"gradients", st.gradients},
                                                        {"optimizer states", st.optimizer},
                                                        {"activations", st.activations},
                                                        {"other", st.other}};
        const auto top = std::max_element(std::begin(parts), std::end(parts),
                                          [](const auto& a, const auto& b) { return a.second < b.second; });
        QVERIFY2(contains(en, std::string(top->first) + " dominate (" + formatBytes(top->second) + ")"), en.c_str());

        // The suggestion is a remedy with its saving, in both languages.
        const std::string& sug = d->suggestion.en;
        QVERIFY2(contains(sug, " saves "), sug.c_str());
        QVERIFY2(contains(d->suggestion.zh, "可省"), d->suggestion.zh.c_str());

        // Each knob-level remedy's saving equals what evaluating the changed scenario gives for this
        // stage, and "(fits)" appears exactly when that saving covers the excess.
        struct Remedy { const char* label; Scenario alt; bool applies; };
        std::vector<Remedy> remedies;
        {
            Scenario alt = sc;
            alt.parallel.zero = 1;
            remedies.push_back({"ZeRO-1 (distributed optimizer)", alt, sc.parallel.zero == 0 && sc.parallel.dp * sc.parallel.cp > 1});
        }
        {
            Scenario alt = sc;
            alt.training.recompute = Recompute::Full;
            remedies.push_back({"full recompute", alt, sc.training.recompute != Recompute::Full});
        }
        int checked = 0;
        for (const Remedy& r : remedies) {
            if (!r.applies)
                continue;
            const Estimate alt = evaluate(r.alt);
            const double saved = st.total() - alt.memory.stages[std::size_t(st.stage)].total();
            if (saved <= 0)
                continue;
            const std::string expect = std::string(r.label) + " saves " + formatBytes(saved) + (saved >= over ? " (fits)" : "");
            QVERIFY2(contains(sug, expect + ";") || contains(sug, expect + "."),
                     ("suggestion \"" + sug + "\" lacks \"" + expect + "\"").c_str());
            ++checked;
        }
        QVERIFY2(checked > 0, "no remedy could be checked for this stage");
    }
    QVERIFY(overflowing > 0);
    const Case* c = nullptr;
    for (const Case& x : cases())
        if (file.toStdString() == x.file)
            c = &x;
    QVERIFY(c);
    QVERIFY(est.memory.stages[std::size_t(c->stage)].total() > cap);
    QCOMPARE(est.memory.fits, false);
}

void TstDiagnostics::cleanScenarioHasNoErrors()
{
    std::vector<InputError> errors;
    const auto sc = readScenarioFile(PARASCOPE_SOURCE_DIR "/resources/scenarios/default.parascope.json", errors);
    QVERIFY2(sc, errors.empty() ? "no scenario" : errors.front().text().c_str());
    const Estimate est = evaluate(*sc);
    QVERIFY2(!est.hasErrors(), ("default scenario has errors:" + describe(est)).c_str());
    for (const Diagnostic& d : est.diagnostics)
        QVERIFY2(d.severity != Severity::Error, d.code.c_str());
    QVERIFY(est.memory.fits);
    QVERIFY(!est.has("out_of_memory"));
    // Every warning still comes in both languages.
    for (const Diagnostic& d : est.diagnostics)
        QVERIFY2(hasCjk(d.message.zh) && !d.message.en.empty(), d.code.c_str());
}

void TstDiagnostics::formatBytesUnits()
{
    // The unit switches at 1 GiB and 1 TiB (binary units, as the capacity line shows them).
    QCOMPARE(QString::fromStdString(formatBytes(512.0 * (1 << 20))), QStringLiteral("512 MiB"));
    QCOMPARE(QString::fromStdString(formatBytes(80 * test::GiB)), QStringLiteral("80.0 GiB"));
    QCOMPARE(QString::fromStdString(formatBytes(1.5 * 1024 * test::GiB)), QStringLiteral("1.50 TiB"));
}

void TstDiagnostics::bubbleHasOneLabelledPairOfNumbers_data()
{
    // The textbook 1F1B bubble (p−1)/(m+p−1) with p = 16 (Narayanan et al. 2021 §2.2):
    //   m = 8:  15/23 = 0.6522 → 65.2 %;  m = 1: 15/16 = 0.9375 → 93.8 %;  m = 64: 15/79 = 0.1899 → 19.0 %.
    QTest::addColumn<long long>("global_batch");
    QTest::addColumn<QString>("substituted");
    QTest::addColumn<QString>("formula");
    QTest::newRow("m = 8 (lesson 4)") << 8LL << QStringLiteral("(16−1)/(8+16−1)") << QStringLiteral("65.2 %");
    QTest::newRow("m = 1") << 1LL << QStringLiteral("(16−1)/(1+16−1)") << QStringLiteral("93.8 %");
    QTest::newRow("m = 64") << 64LL << QStringLiteral("(16−1)/(64+16−1)") << QStringLiteral("19.0 %");
}

void TstDiagnostics::bubbleHasOneLabelledPairOfNumbers()
{
    // One bubble diagnostic, with the simulated share and the formula side by side, each
    // labelled; no other diagnostic gives a bubble number of its own (before: "65 %" in
    // microbatches_lt_pp and "66 %" in large_bubble, the chart 65.7 %). One decimal everywhere.
    QFETCH(long long, global_batch);
    QFETCH(QString, substituted);
    QFETCH(QString, formula);
    const Scenario sc = lessonFour(global_batch);
    const Estimate est = evaluate(sc);
    QVERIFY(est.time.method.rfind("simulated", 0) == 0);
    QCOMPARE(QString::fromStdString(formatPercent(bubbleFraction(ScheduleKind::OneFOneB, 16, 1, global_batch))), formula);
    int bubbles = 0;
    for (const Diagnostic& d : est.diagnostics) {
        if (d.code == "large_bubble") {
            ++bubbles;
            const std::string simulated = "simulated " + formatPercent(est.time.bubble_fraction);
            const std::string textbook = "formula (p−1)/(m+p−1) = " + substituted.toStdString() + " = " + formula.toStdString();
            QVERIFY2(contains(d.message.en, simulated), d.message.en.c_str());
            QVERIFY2(contains(d.message.en, textbook), d.message.en.c_str());
            QVERIFY2(contains(d.message.zh, "仿真得单步耗时的 " + formatPercent(est.time.bubble_fraction)), d.message.zh.c_str());
            QVERIFY2(contains(d.message.zh, "公式 (p−1)/(m+p−1) = " + substituted.toStdString() + " = " + formula.toStdString()),
                     d.message.zh.c_str());
            // Two different numbers for one thing are explained.
            if (formatPercent(est.time.bubble_fraction) != formula.toStdString())
                QVERIFY2(contains(d.message.en, "The formula counts compute only"), d.message.en.c_str());
        } else {
            QVERIFY2(!contains(d.message.en, "bubble") && !contains(d.message.zh, "气泡"), d.message.en.c_str());
        }
        for (const std::string* text : {&d.message.en, &d.message.zh, &d.suggestion.en, &d.suggestion.zh})
            for (const std::string& pct : percentages(*text)) {
                const std::size_t dot = pct.find('.');
                QVERIFY2(dot != std::string::npos && pct.size() - dot - 1 == 1, (pct + " % in: " + *text).c_str());
            }
    }
    QCOMPARE(bubbles, 1);
    // m < PP: the cause is its own warning, without a number.
    QCOMPARE(est.has("microbatches_lt_pp"), global_batch < 16);
}

void TstDiagnostics::suggestionsNameOnlyWhatApplies()
{
    const auto diag = [](const Estimate& e, const char* code) -> const Diagnostic* {
        for (const Diagnostic& d : e.diagnostics)
            if (d.code == code)
                return &d;
        return nullptr;
    };
    // Lesson 4, m = 8 on PP 16, micro batch 1: nothing about the micro batch (it is 1), nothing
    // about the interleaved schedule (m = 8 is not a multiple of PP = 16); global batch 64 gives
    // m = 4·PP.
    {
        const Estimate est = evaluate(lessonFour(8));
        for (const char* code : {"microbatches_lt_pp", "large_bubble"}) {
            const Diagnostic* d = diag(est, code);
            QVERIFY2(d, code);
            QVERIFY2(!contains(d->suggestion.en, "micro batch") && !contains(d->suggestion.zh, "微批大小"), d->suggestion.en.c_str());
            QVERIFY2(!contains(d->suggestion.en, "interleaved") && !contains(d->suggestion.zh, "交错式"), d->suggestion.en.c_str());
            QVERIFY2(contains(d->suggestion.en, "global batch") && contains(d->suggestion.en, "64"), d->suggestion.en.c_str());
        }
    }
    // m = 64 = 4·PP already: no "more microbatches"; 32 layers / (16·2) and 64 % 16 = 0, so VPP = 2 applies.
    {
        const Estimate est = evaluate(lessonFour(64));
        const Diagnostic* d = diag(est, "large_bubble");
        QVERIFY(d);
        QVERIFY2(!contains(d->suggestion.en, "more microbatches") && !contains(d->suggestion.en, "4·PP"), d->suggestion.en.c_str());
        QVERIFY2(contains(d->suggestion.en, "interleaved schedule (VPP = 2)"), d->suggestion.en.c_str());
    }
    // Micro batch 2, global batch 8: m = 4; micro batch 1 would give m = 8.
    {
        const Estimate est = evaluate(lessonFour(8, 2));
        const Diagnostic* d = diag(est, "microbatches_lt_pp");
        QVERIFY(d);
        QVERIFY2(contains(d->suggestion.en, "micro batch 1 gives m = 8"), d->suggestion.en.c_str());
    }
    // Exposed communication with TP 8 inside one node (lesson 3c): no "keep TP inside a node";
    // with TP 16 across two nodes: yes.
    {
        Scenario sc = test::presetScenario("llama2-7b", "dgx-a100-80g", 8, 1, 1);
        sc.parallel.sequence_parallel = true;
        sc.training.global_batch = 64;
        const Estimate est = evaluate(sc);
        const Diagnostic* d = diag(est, "exposed_comm_high");
        QVERIFY(d);
        QVERIFY(!est.has("tp_spans_nodes"));
        QVERIFY2(!contains(d->suggestion.en, "inside a node") && !contains(d->suggestion.zh, "节点内"), d->suggestion.en.c_str());
        QVERIFY2(contains(d->suggestion.en, "tp_comm_overlap"), d->suggestion.en.c_str());
        const Estimate across = evaluate(test::scenarioFromFile("diag-tp_spans_nodes.parascope.json"));
        const Diagnostic* x = diag(across, "exposed_comm_high");
        QVERIFY(x);
        QVERIFY2(contains(x->suggestion.en, "keep TP inside a node"), x->suggestion.en.c_str());
    }
    // overlap_grad_reduce is suggested only while it is off.
    {
        Scenario sc = test::scenarioFromFile("diag-exposed_comm_high.parascope.json");
        const Estimate off = evaluate(sc); // the diagnostic points into it: keep it alive
        const Diagnostic* d = diag(off, "exposed_comm_high");
        QVERIFY(d && contains(d->suggestion.en, "overlap_grad_reduce"));
        sc.parallel.overlap_grad_reduce = true;
        const Estimate on = evaluate(sc);
        if (const Diagnostic* e = diag(on, "exposed_comm_high"))
            QVERIFY2(!contains(e->suggestion.en, "overlap_grad_reduce"), e->suggestion.en.c_str());
    }
}

void TstDiagnostics::englishPlurals()
{
    // "1 microbatch", "2 nodes": never "1 microbatches", "1 nodes" or "node(s)".
    static const std::regex wrong(R"(\b1 (microbatches|nodes|layers|stages|GPUs|heads|experts|KV heads)\b|\(s\))");
    std::vector<Scenario> scenarios{lessonFour(1), lessonFour(8)};
    for (const Case& c : cases()) {
        scenarios.push_back(test::scenarioFromFile(c.file));
        if (c.edit)
            c.edit(scenarios.back());
    }
    for (const Scenario& sc : scenarios)
        for (const Diagnostic& d : evaluate(sc).diagnostics)
            for (const std::string* text : {&d.message.en, &d.suggestion.en})
                QVERIFY2(!std::regex_search(*text, wrong), text->c_str());
    const Estimate one = evaluate(lessonFour(1));
    bool said = false;
    for (const Diagnostic& d : one.diagnostics)
        said = said || contains(d.message.en, "Only 1 microbatch for 16 pipeline stages");
    QVERIFY(said);
}

QTEST_GUILESS_MAIN(TstDiagnostics)
#include "tst_diagnostics.moc"
