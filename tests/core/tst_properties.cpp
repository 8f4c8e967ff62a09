// Property tests over 10,000 random scenarios (fixed seed, so a failure reproduces): scenario files
// as users write them — presets and custom models, valid and invalid values — go through the
// reader and evaluate(). What must hold for every one of them:
//
//  1. Nothing crashes, and invalid input is rejected with at least one error that names a path
//     (stage_layers that do not name every stage or place every layer included).
//  2. No NaN or infinity anywhere in the report (every number of parascope.report/1 is walked).
//  3. Every stage total is the sum of its five parts, and each part equals its explaining term
//     ("other" equals the sum of the other.* items): what the user reads adds up.
//  4. Physical bounds: memory parts ≥ 0; peak = the largest stage; fits ⇔ peak ≤ capacity;
//     0 ≤ bubble fraction < 1; compute ≤ step; MFU ≤ HFU ≤ 1 (random ETP and uneven stages
//     included, diagnosed or not), i.e. the step is never shorter than
//     the model FLOPs on all GPUs at peak (step ≥ compute / GPUs); tokens/s · step = the tokens
//     of the step (of its whole microbatches, when the batch does not divide).
//  5. Monotonicity, each compared on the same scenario with one knob changed:
//     - doubling TP never increases the weights per GPU of any stage (every split tensor gets
//       smaller, the replicated norms stay);
//     - ZeRO-k never holds more model states (weights + gradients + optimizer) on any stage than
//       ZeRO-(k−1): each stage only adds sharding. (Total memory may grow from ZeRO-2 to 3, by
//       the gather buffer of two unsharded layers, so the property is on the states.)
//     - no recompute never keeps fewer activations than selective recompute, which only drops
//       the attention scores.
//  6. A scenario written to JSON and read back evaluates to the same numbers.
//
// The invariants in 5 use the closed-form step and numbers-only evaluation (the memory model is
// the same; tst_search proves numbers-only equal to the explained evaluation).

#include "estimate/evaluate.h"
#include "io/report_json.h"
#include "io/scenario_json.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

using namespace parascope;

namespace {

// mt19937_64's output is fixed by the standard; the distributions are not, so picks are done here.
class Random {
public:
    explicit Random(std::uint64_t seed)
        : g_(seed)
    { }
    std::size_t below(std::size_t n) { return std::size_t(g_() % n); }
    bool chance(double p) { return double(g_() % 1000000) < p * 1e6; }
    template <class T> T pick(std::initializer_list<T> values) { return values.begin()[below(values.size())]; }

private:
    std::mt19937_64 g_;
};

const char* const kModels[]
    = {"gpt3-175b",     "llama2-7b",         "llama2-13b",       "llama2-70b",        "llama3.1-8b",  "llama3.1-70b",
       "llama3.1-405b", "megatron-gpt-1.7b", "megatron-gpt-18b", "megatron-gpt-145b", "mixtral-8x7b", "deepseek-v3"};
const char* const kClusters[]
    = {"dgx-a100-40g", "dgx-a100-80g", "dgx-h100", "hgx-h200", "hgx-b200", "hgx-h800", "alps-gh200"};

// A custom model: sometimes MoE, mostly consistent, occasionally not (the reader must say why).
nlohmann::json customModel(Random& r)
{
    const int heads = r.pick({1, 2, 8, 16, 32, 64, 96, 128});
    const int head_dim = r.pick({32, 64, 128});
    nlohmann::json m = {{"name", "random"},
                        {"layers", r.pick({1, 2, 3, 12, 24, 32, 61, 80, 126})},
                        {"hidden", heads * head_dim},
                        {"heads", heads},
                        {"kv_heads", r.chance(0.5) ? heads : std::max(1, heads / r.pick({1, 2, 4, 8}))},
                        {"ffn_hidden", heads * head_dim * r.pick({2, 4}) + (r.chance(0.2) ? 8 : 0)},
                        {"vocab", r.pick({32000, 50257, 128256})},
                        {"mlp", r.chance(0.7) ? "swiglu" : "gelu"},
                        {"tied_embeddings", r.chance(0.3)}};
    if (r.chance(0.3))
        m["moe"] = {{"experts", r.pick({4, 8, 16, 64})},
                    {"top_k", r.pick({1, 2, 8})},
                    {"ffn_hidden", r.pick({1024, 2048, 14336})},
                    {"shared_experts", r.pick({0, 0, 1})},
                    {"layer_freq", r.pick({1, 1, 2})}};
    // Variants (tst_model_variants derives each by hand; here they meet every layout).
    for (const char* flag : {"qkv_bias", "qk_norm", "attention_sinks", "parallel_block"})
        if (r.chance(0.15))
            m[flag] = true;
    if (r.chance(0.15))
        m["sliding_window"] = {{"size", r.pick({128, 1024, 4096})}, {"global_every", r.pick({0, 2, 6})}};
    if (r.chance(0.1))
        m["mtp_modules"] = r.pick({1, 2});
    if (r.chance(0.1)) {
        m["mla"] = {{"q_lora_rank", r.pick({0, 512})},
                    {"kv_lora_rank", r.pick({128, 512})},
                    {"qk_nope_head_dim", 64},
                    {"qk_rope_head_dim", r.pick({0, 32})},
                    {"v_head_dim", head_dim}};
        m["kv_heads"] = heads;
        m.erase("qk_norm");
    }
    if (r.chance(0.03))
        m["kv_heads"] = heads + 1; // does not divide heads
    if (r.chance(0.03))
        m["layers"] = r.pick({0, -4}); // out of range
    return m;
}

nlohmann::json randomScenario(Random& r)
{
    nlohmann::json j = {{"schema", "parascope.scenario/1"}, {"name", "property"}};
    const bool custom = r.chance(0.25);
    j["model"] = custom ? customModel(r) : nlohmann::json(kModels[r.below(std::size(kModels))]);
    const bool moe
        = custom ? j["model"].contains("moe") : (j["model"] == "mixtral-8x7b" || j["model"] == "deepseek-v3");
    j["cluster"] = kClusters[r.below(std::size(kClusters))];
    const bool interleaved = r.chance(0.2);
    const int dp = r.pick({1, 2, 4, 8, 64, 1000});
    const int micro_batch = r.pick({1, 1, 2, 4, 8});
    // Mostly a batch that divides into whole microbatches (a few per pipeline); sometimes not.
    const long long global_batch = r.chance(0.85) ? (long long)micro_batch * dp * r.pick({1, 2, 4, 8, 16, 32, 64})
                                                  : r.pick<long long>({1, 7, 1000, 4096});
    j["parallel"] = {
        {"tp", r.pick({1, 1, 2, 4, 8, 8, 16})},
        {"pp", r.pick({1, 1, 2, 3, 4, 8, 16, 32, 64})},
        {"dp", dp},
        {"cp", r.pick({1, 1, 1, 2, 4})},
        {"ep", moe ? r.pick({1, 2, 4, 8}) : 1},
        {"vpp", interleaved ? r.pick({2, 3, 4}) : 1},
        {"sequence_parallel", r.chance(0.5)},
        {"zero", r.pick({0, 1, 1, 2, 3})},
        {"schedule", interleaved ? "interleaved" : r.pick({"1f1b", "1f1b", "gpipe", "zb-h1", "zb-v", "dualpipe-v"})}};
    j["training"] = {{"seq_len", r.pick({128, 2048, 4096, 8192, 32768, 131072})},
                     {"micro_batch", micro_batch},
                     {"global_batch", global_batch},
                     {"precision", r.pick({"bf16", "bf16", "fp16", "fp8", "fp32"})},
                     {"grad_dtype", r.pick({"bf16", "fp32"})},
                     {"optimizer", r.pick({"adamw", "adamw", "sgd"})},
                     {"recompute", r.pick({"none", "selective", "full"})},
                     {"flash_attention", r.chance(0.8)}};
    // Expert tensor parallelism, any value (etp·ep larger than the stage's GPUs included: the
    // engine must diagnose it and still keep MFU ≤ HFU ≤ 1).
    if (moe && r.chance(0.4))
        j["parallel"]["etp"] = r.pick({1, 2, 4, 8, 16, 64});
    // An uneven pipeline: for a custom model, a split that places every layer (one layer moved
    // between two stages); otherwise a random list, which the reader refuses unless it happens
    // to name every stage and place every layer.
    if (r.chance(0.15)) {
        const int pp = j["parallel"]["pp"].get<int>();
        const nlohmann::json& layers = j["model"].is_object() ? j["model"]["layers"] : nlohmann::json();
        std::vector<int> split;
        if (layers.is_number_integer() && layers.get<int>() >= pp) {
            const int total = layers.get<int>();
            for (int i = 0; i < pp; ++i)
                split.push_back(total / pp + (i < total % pp ? 1 : 0));
            const std::size_t from = r.below(split.size()), to = r.below(split.size());
            if (split[from] > 1) {
                --split[from];
                ++split[to];
            }
        } else {
            for (int i = 0, n = int(r.pick({1, 2, 4})) * pp / 2 + 1; i < n; ++i)
                split.push_back(int(r.below(41)));
        }
        j["parallel"]["stage_layers"] = split;
    }
    // About one file in ten carries a value the reader must refuse.
    if (r.chance(0.1)) {
        switch (r.below(6)) {
        case 0: j["parallel"]["tp"] = r.pick({0, -1}); break;
        case 1: j["parallel"]["zero"] = 4; break;
        case 2: j["training"]["micro_batch"] = "two"; break;
        case 3: j["parallel"]["schedule"] = "1f2b"; break;
        case 4: j["training"]["seq_len"] = 1e300; break;
        default: j["parallel"]["unknown_knob"] = 1; break;
        }
    }
    return j;
}

// Every number in the report, with its JSON path for the failure message.
void checkFinite(const nlohmann::json& j, const std::string& path, std::string& bad)
{
    if (!bad.empty())
        return;
    if (j.is_number_float() && !std::isfinite(j.get<double>()))
        bad = path;
    else if (j.is_object())
        for (auto it = j.begin(); it != j.end(); ++it)
            checkFinite(*it, path + "." + it.key(), bad);
    else if (j.is_array())
        for (std::size_t i = 0; i < j.size(); ++i)
            checkFinite(j[i], path + "[" + std::to_string(i) + "]", bad);
}

double termValue(const StageMemory& st, const char* name)
{
    const Term* t = findTerm(st.terms, name);
    return t ? t->value : std::nan("");
}

bool close(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)}); }

Estimate numbers(const Scenario& sc)
{
    EvaluateOptions o;
    o.record_timeline = false;
    o.simulate = false;
    o.explain = Explain::NumbersOnly;
    return evaluate(sc, o);
}

// Explained, with the closed-form step (the pipeline is not simulated).
EvaluateOptions closedForm()
{
    EvaluateOptions o;
    o.record_timeline = false;
    o.simulate = false;
    return o;
}

} // namespace

class TstProperties : public QObject {
    Q_OBJECT

private slots:
    void randomScenarios()
    {
        Random r(20261130);
        // 10,000 by default; the ASan run (test preset "asan") checks a quarter of them for memory
        // errors, to keep CI under 30 minutes on 2 cores.
        const int scenarios = qEnvironmentVariableIsSet("PARASCOPE_PROPERTY_SCENARIOS")
            ? std::clamp(qEnvironmentVariableIntValue("PARASCOPE_PROPERTY_SCENARIOS"), 1, 10000)
            : 10000;
        int rejected = 0, evaluated = 0, with_errors = 0, fitting = 0, compared = 0;
        EvaluateOptions full;
        full.record_timeline = false;
        for (int n = 0; n < scenarios; ++n) {
            const nlohmann::json file = randomScenario(r);
            const std::string where = "scenario #" + std::to_string(n) + ": " + file.dump();
            std::vector<InputError> errors;
            const std::optional<Scenario> read = readScenario(file, errors);
            if (!read) {
                // 1. Refused with a reason; every error names where (or is about the whole file).
                QVERIFY2(!errors.empty(), where.c_str());
                ++rejected;
                continue;
            }
            const Scenario& sc = *read;
            const Estimate e = evaluate(sc, full);
            ++evaluated;
            with_errors += e.hasErrors() ? 1 : 0;
            fitting += e.memory.fits ? 1 : 0;

            // 2. Finite numbers only.
            std::string bad;
            checkFinite(reportToJson(sc, e), "report", bad);
            QVERIFY2(bad.empty(), (bad + " is not finite in " + where).c_str());

            // 3. Totals add up, and the terms say the same numbers.
            double peak = 0;
            for (const StageMemory& st : e.memory.stages) {
                QVERIFY2(close(st.total(), st.weights + st.gradients + st.optimizer + st.activations + st.other),
                         where.c_str());
                QVERIFY2(close(termValue(st, "total"), st.total()), where.c_str());
                QVERIFY2(close(termValue(st, "weights"), st.weights), where.c_str());
                QVERIFY2(close(termValue(st, "gradients"), st.gradients), where.c_str());
                QVERIFY2(close(termValue(st, "optimizer"), st.optimizer), where.c_str());
                QVERIFY2(close(termValue(st, "activations"), st.activations), where.c_str());
                double other = 0;
                for (const Term& t : st.terms)
                    if (t.name.rfind("other.", 0) == 0)
                        other += t.value;
                QVERIFY2(close(other, st.other), where.c_str());
                // 4. Bounds.
                QVERIFY2(st.weights >= 0 && st.gradients >= 0 && st.optimizer >= 0 && st.activations >= 0
                             && st.other >= 0,
                         where.c_str());
                peak = std::max(peak, st.total());
            }
            QCOMPARE(e.memory.peak_bytes, peak);
            // Three states: out of memory only beyond the ±3 % band (memory_verdict.h).
            QCOMPARE(e.memory.fits, e.memory.peak_bytes <= e.memory.capacity_bytes * (1 + kMemoryBandFraction));
            QCOMPARE(e.memory.verdict == MemoryVerdict::Fits,
                     e.memory.peak_bytes <= e.memory.capacity_bytes * (1 - kMemoryBandFraction));
            const TimeReport& t = e.time;
            QVERIFY2(t.step_s > 0, where.c_str());
            QVERIFY2(t.bubble_fraction >= 0 && t.bubble_fraction < 1, where.c_str());
            QVERIFY2(t.compute_s <= t.step_s * (1 + 1e-9) && t.exposed_comm_s >= 0, where.c_str());
            const ThroughputReport& th = e.throughput;
            // HFU counts what runs (flash: half the causal scores), MFU the convention's full
            // scores: MFU ≤ HFU without flash, and no GPU runs above its peak.
            QVERIFY2(th.mfu > 0 && th.hfu <= 1 && (sc.training.flash_attention || th.mfu <= th.hfu * (1 + 1e-12)),
                     (where + " MFU " + std::to_string(th.mfu) + " HFU " + std::to_string(th.hfu)).c_str());
            // (A batch that does not divide is evaluated for the whole microbatches it holds.)
            const double processed = double(e.microbatches) * double(sc.training.micro_batch) * sc.parallel.dp
                * double(sc.training.seq_len);
            QVERIFY2(close(th.tokens_per_s * t.step_s, processed), where.c_str());

            // 5. Monotonicity (on scenarios the engine accepts).
            if (!e.hasErrors()) {
                ++compared;
                const Estimate base = numbers(sc);
                Scenario wider = sc;
                wider.parallel.tp *= 2;
                const Estimate more_tp = numbers(wider);
                for (std::size_t s = 0; s < base.memory.stages.size(); ++s)
                    QVERIFY2(more_tp.memory.stages[s].weights <= base.memory.stages[s].weights * (1 + 1e-12),
                             where.c_str());
                for (int zero = 1; zero <= 3; ++zero) {
                    Scenario lo = sc, hi = sc;
                    lo.parallel.zero = zero - 1;
                    hi.parallel.zero = zero;
                    const Estimate a = numbers(lo), b = numbers(hi);
                    for (std::size_t s = 0; s < a.memory.stages.size(); ++s) {
                        const StageMemory &x = a.memory.stages[s], &y = b.memory.stages[s];
                        QVERIFY2(y.weights + y.gradients + y.optimizer
                                     <= (x.weights + x.gradients + x.optimizer) * (1 + 1e-12),
                                 (where + " ZeRO-" + std::to_string(zero)).c_str());
                    }
                }
                Scenario none = sc, selective = sc;
                none.training.recompute = Recompute::None;
                selective.training.recompute = Recompute::Selective;
                const Estimate kept = numbers(none), dropped = numbers(selective);
                for (std::size_t s = 0; s < kept.memory.stages.size(); ++s)
                    QVERIFY2(kept.memory.stages[s].activations >= dropped.memory.stages[s].activations * (1 - 1e-12),
                             where.c_str());

                // 6. Write, read back, same numbers.
                std::vector<InputError> again_errors;
                const std::optional<Scenario> again = readScenario(scenarioToJson(sc), again_errors);
                QVERIFY2(again, where.c_str());
                const Estimate back = numbers(*again);
                QCOMPARE(back.time.step_s, base.time.step_s);
                QCOMPARE(back.memory.peak_bytes, base.memory.peak_bytes);
            }
        }
        qInfo("%d scenarios: %d refused by the reader, %d evaluated (%d with error diagnostics, %d fit), %d compared "
              "under TP/ZeRO/recompute changes",
              scenarios, rejected, evaluated, with_errors, fitting, compared);
        // The mix exercises both sides (bounds per 10,000 scenarios, scaled to the number run).
        const double share = scenarios / 10000.0;
        QVERIFY(rejected > 300 * share && evaluated > 7000 * share && fitting > 500 * share && with_errors > 500 * share
                && compared > 1000 * share);
    }

    // Every memory and time term is ≥ 0 for every accepted scenario, over every combination of
    // the selective-recompute modules (2^8 sets), SP, CP, CPU offload and the three recompute
    // modes, on four layer shapes: a SwiGLU Llama, a GELU parallel block, an MoE layer with a
    // shared expert, and MLA with MoE. Two modules can drop the same tensor (mlp and
    // every_other_mm the MLP's activations): `recompute: [mlp]` with every_other_mm gave a
    // negative activation memory when the drops were summed instead of united.
    void everyRecomputeCombinationIsNonNegative()
    {
        const nlohmann::json dense = {{"name", "dense"}, {"layers", 4},        {"hidden", 512},  {"heads", 8},
                                      {"kv_heads", 2},   {"ffn_hidden", 1376}, {"vocab", 32000}, {"mlp", "swiglu"}};
        nlohmann::json gelu = dense;
        gelu["name"] = "gelu parallel block";
        gelu["mlp"] = "gelu";
        gelu["parallel_block"] = true;
        nlohmann::json moe = dense;
        moe["name"] = "moe";
        moe["moe"] = {{"experts", 8}, {"top_k", 2}, {"ffn_hidden", 512}, {"shared_experts", 1}};
        nlohmann::json mla = moe;
        mla["name"] = "mla";
        mla["kv_heads"] = 8;
        mla["mla"] = {{"q_lora_rank", 256},
                      {"kv_lora_rank", 128},
                      {"qk_nope_head_dim", 64},
                      {"qk_rope_head_dim", 32},
                      {"v_head_dim", 64}};
        int evaluated = 0;
        for (const nlohmann::json& model : {dense, gelu, moe, mla}) {
            const nlohmann::json file
                = {{"schema", "parascope.scenario/1"},
                   {"model", model},
                   {"cluster", "dgx-h100"},
                   {"parallel", {{"tp", 2}, {"pp", 2}, {"dp", 2}, {"ep", model.contains("moe") ? 2 : 1}}},
                   {"training", {{"seq_len", 2048}, {"micro_batch", 1}, {"global_batch", 8}}}};
            std::vector<InputError> errors;
            const std::optional<Scenario> base = readScenario(file, errors);
            QVERIFY2(base, model.dump().c_str());
            for (const Recompute mode : {Recompute::None, Recompute::Selective, Recompute::Full})
                for (unsigned modules = 0; modules < (mode == Recompute::Selective ? 256u : 1u); ++modules)
                    for (const bool sp : {false, true})
                        for (const int cp : {1, 2})
                            for (const Offload offload : {Offload::None, Offload::Optimizer, Offload::Params}) {
                                if (mode == Recompute::Selective && modules % 7 != 0 && offload != Offload::None)
                                    continue; // offload meets every module set through the others' sevenths
                                Scenario sc = *base;
                                sc.training.recompute = mode;
                                sc.training.recompute_modules = modules;
                                sc.parallel.sequence_parallel = sp;
                                sc.parallel.cp = cp;
                                sc.parallel.dp = 2 / cp;
                                sc.parallel.offload = offload;
                                const Estimate e = evaluate(sc, closedForm());
                                ++evaluated;
                                const std::string where = model["name"].get<std::string>() + ", " + toString(mode)
                                    + " modules " + std::to_string(modules) + (sp ? ", SP" : "") + ", CP "
                                    + std::to_string(cp) + ", offload " + toString(offload);
                                for (const StageMemory& st : e.memory.stages) {
                                    QVERIFY2(st.weights >= 0 && st.gradients >= 0 && st.optimizer >= 0
                                                 && st.activations >= 0 && st.other >= 0 && st.cpu >= 0,
                                             where.c_str());
                                    for (const Term& t : st.terms)
                                        QVERIFY2(t.value >= 0,
                                                 (where + ": " + t.name + " = " + std::to_string(t.value)).c_str());
                                }
                                const TimeReport& time = e.time;
                                QVERIFY2(time.step_s > 0 && time.compute_s >= 0 && time.bubble_s >= 0
                                             && time.exposed_comm_s >= 0 && time.optimizer_s >= 0,
                                         where.c_str());
                                for (const Term& t : time.terms)
                                    QVERIFY2(!(t.unit == "s" || t.unit == "bytes") || t.value >= 0,
                                             (where + ": " + t.name + " = " + std::to_string(t.value)).c_str());
                                for (const CommEntry& c : e.communication)
                                    QVERIFY2(c.time_s >= 0 && c.exposed_s >= 0 && c.bytes_per_gpu_per_step >= 0,
                                             where.c_str());
                            }
        }
        qInfo("%d combinations evaluated", evaluated);
        QVERIFY(evaluated > 2000);
    }
};

QTEST_GUILESS_MAIN(TstProperties)
#include "tst_properties.moc"
