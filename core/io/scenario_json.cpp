#include "io/scenario_json.h"

#include "io/model_json.h"
#include "io/scenario_sections.h"

#include "types/knobs.h"

#include "io/embedded_presets.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace parascope {

namespace {

constexpr double kGiB = double(1ull << 30);
constexpr double kMiB = double(1ull << 20);

const std::map<std::string, std::vector<PresetInfo>>& catalogue()
{
    static const std::map<std::string, std::vector<PresetInfo>> presets = [] {
        std::map<std::string, std::vector<PresetInfo>> out;
        for (const EmbeddedPreset& e : embeddedPresets()) {
            PresetInfo p;
            p.kind = e.kind;
            p.id = e.id;
            p.json = nlohmann::json::parse(e.json); // validated by the tests; a broken file fails the build's tests
            p.name = p.json.value("name", p.id);
            p.source = p.json.value("source", "");
            out[p.kind].push_back(std::move(p));
        }
        for (auto& [kind, list] : out)
            std::sort(list.begin(), list.end(), [](const PresetInfo& a, const PresetInfo& b) { return a.id < b.id; });
        return out;
    }();
    return presets;
}

std::string presetIds(const std::string& kind)
{
    std::string ids;
    for (const PresetInfo& p : listPresets(kind))
        ids += (ids.empty() ? "" : ", ") + p.id;
    return ids;
}

// A preset id (string) or an inline object; resolves the id against the catalogue.
const nlohmann::json* resolve(const nlohmann::json& j, const std::string& kind, const std::string& path,
                              std::vector<InputError>& errors, std::string& id)
{
    if (j.is_string()) {
        id = j.get<std::string>();
        if (const PresetInfo* p = findPreset(kind, id))
            return &p->json;
        errors.push_back({path, "unknown preset \"" + id + "\"; known: " + presetIds(kind)});
        return nullptr;
    }
    if (j.is_object()) {
        id = "custom";
        return &j;
    }
    errors.push_back({path, "must be a preset id (string) or an object, got " + describeJson(j)});
    return nullptr;
}

LinkSpec readLink(ObjectReader& parent, const char* key, LinkSpec fallback, std::vector<InputError>& errors,
                  bool required)
{
    const nlohmann::json* j = parent.child(key);
    if (!j) {
        if (required)
            parent.error(key, "is required");
        return fallback;
    }
    ObjectReader r(*j, parent.childPath(key), errors);
    LinkSpec l = fallback;
    if (auto v = r.number("bandwidth_gbps", 0.001, 1e6, true))
        l.bytes_per_s = *v * 1e9;
    if (auto v = r.number("latency_us", 0, 1e6))
        l.latency_s = *v * 1e-6;
    if (auto v = r.number("efficiency", 0.01, 1))
        l.efficiency = *v;
    if (auto v = r.number("half_size_mib", 0, 1 << 20))
        l.half_bytes = *v * double(1 << 20);
    r.finish();
    return l;
}

} // namespace

std::vector<PresetInfo> listPresets(const std::string& kind)
{
    const auto& c = catalogue();
    const auto it = c.find(kind);
    return it == c.end() ? std::vector<PresetInfo>{} : it->second;
}

const PresetInfo* findPreset(const std::string& kind, const std::string& id)
{
    const auto& c = catalogue();
    const auto it = c.find(kind);
    if (it == c.end())
        return nullptr;
    for (const PresetInfo& p : it->second)
        if (p.id == id)
            return &p;
    return nullptr;
}

std::optional<ModelSpec> readModel(const nlohmann::json& in, const std::string& path, std::vector<InputError>& errors)
{
    std::string id;
    const std::size_t before = errors.size();
    const nlohmann::json* j = resolve(in, "models", path, errors, id);
    if (!j)
        return std::nullopt;
    ObjectReader r(*j, path, errors);
    ModelSpec m;
    m.id = id;
    readModelFields(r, m, errors);
    r.finish();
    if (errors.size() != before)
        return std::nullopt;
    return m;
}

std::optional<GpuSpec> readGpu(const nlohmann::json& in, const std::string& path, std::vector<InputError>& errors)
{
    std::string id;
    const std::size_t before = errors.size();
    const nlohmann::json* j = resolve(in, "gpus", path, errors, id);
    if (!j)
        return std::nullopt;
    ObjectReader r(*j, path, errors);
    GpuSpec g;
    g.id = id;
    g.name = r.string("name").value_or(id);
    g.source = r.string("source").value_or("");
    g.memory_bytes = r.number("memory_gib", 0.001, 1e6, true).value_or(1) * kGiB;
    g.hbm_bytes_per_s = r.number("hbm_gbps", 0.001, 1e6, true).value_or(1) * 1e9;
    if (const nlohmann::json* pk = r.child("peak_tflops")) {
        ObjectReader p(*pk, r.childPath("peak_tflops"), errors);
        g.peak_bf16_flops = p.number("bf16", 0.001, 1e6, true).value_or(1) * 1e12;
        g.peak_fp8_flops = p.number("fp8", 0, 1e6).value_or(0) * 1e12;
        g.peak_fp32_flops = p.number("fp32", 0, 1e6).value_or(0) * 1e12;
        p.finish();
    } else {
        r.error("peak_tflops", "is required");
    }
    g.gemm_efficiency = r.number("gemm_efficiency", 0.01, 1).value_or(g.gemm_efficiency);
    g.hbm_efficiency = r.number("hbm_efficiency", 0.01, 1).value_or(g.hbm_efficiency);
    g.attention_efficiency = r.number("attention_efficiency", 0.01, 1).value_or(g.attention_efficiency);
    g.attention_efficiency_fa2 = r.number("attention_efficiency_fa2", 0, 1).value_or(g.attention_efficiency_fa2);
    g.attention_half_seq = r.number("attention_half_seq", 0, 1e9).value_or(g.attention_half_seq);
    g.attention_half_seq_fa2 = r.number("attention_half_seq_fa2", 0, 1e9).value_or(g.attention_half_seq_fa2);
    g.attention_half_head_dim = r.number("attention_half_head_dim", 0, 1e6).value_or(g.attention_half_head_dim);
    g.gemm_half_flops = r.number("gemm_half_gflop", 0, 1e9).value_or(g.gemm_half_flops / 1e9) * 1e9;
    g.gemm_half_flops_fp8 = r.number("gemm_half_gflop_fp8", 0, 1e9).value_or(g.gemm_half_flops_fp8 / 1e9) * 1e9;
    g.fp8_block_gemm_ratio = r.number("fp8_block_gemm_ratio", 0.1, 1).value_or(g.fp8_block_gemm_ratio);
    g.kernel_overhead_s = r.number("kernel_overhead_us", 0, 1e6).value_or(g.kernel_overhead_s * 1e6) * 1e-6;
    g.moe_layer_host_s = r.number("moe_layer_host_us", 0, 1e7).value_or(g.moe_layer_host_s * 1e6) * 1e-6;
    g.sustained_clock = r.number("sustained_clock", 0.1, 1).value_or(g.sustained_clock);
    g.sm_count = int(r.integer("sm_count", 0, 100000).value_or(g.sm_count));
    r.finish();
    if (errors.size() != before)
        return std::nullopt;
    return g;
}

namespace {

// "nvls" (NVLink SHARP's measured all-reduce bus bandwidth) and "storage" (the checkpoint file
// system's aggregate write bandwidth), each with its source.
void readClusterExtras(ObjectReader& r, ClusterSpec& c, std::vector<InputError>& errors)
{
    if (const nlohmann::json* n = r.child("nvls"); n && !n->is_null()) {
        ObjectReader nr(*n, r.childPath("nvls"), errors);
        c.nvls.busbw_bytes_per_s = nr.number("busbw_gbps", 1, 1e6, true).value_or(0) * 1e9;
        c.nvls.min_ranks = int(nr.integer("min_ranks", 2, 1 << 16).value_or(c.nvls.min_ranks));
        c.nvls.latency_s = nr.number("latency_us", 0, 1e6).value_or(c.nvls.latency_s * 1e6) * 1e-6;
        c.nvls.source = nr.string("source").value_or("");
        nr.finish();
    }
    if (const nlohmann::json* st = r.child("storage"); st && !st->is_null()) {
        ObjectReader sr(*st, r.childPath("storage"), errors);
        c.storage.write_bytes_per_s = sr.number("write_gbps", 0.001, 1e7, true).value_or(0) * 1e9;
        c.storage.source = sr.string("source").value_or("");
        sr.finish();
    }
}

} // namespace

std::optional<ClusterSpec> readCluster(const nlohmann::json& in, const std::string& path,
                                       std::vector<InputError>& errors)
{
    std::string id;
    const std::size_t before = errors.size();
    const nlohmann::json* j = resolve(in, "clusters", path, errors, id);
    if (!j)
        return std::nullopt;
    ObjectReader r(*j, path, errors);
    ClusterSpec c;
    c.id = id;
    c.name = r.string("name").value_or(id);
    c.source = r.string("source").value_or("");
    if (const nlohmann::json* g = r.child("gpu")) {
        if (auto gpu = readGpu(*g, r.childPath("gpu"), errors))
            c.gpu = *gpu;
    } else {
        r.error("gpu", "is required");
    }
    c.gpus_per_node = int(r.integer("gpus_per_node", 1, 1 << 16, true).value_or(8));
    c.nodes = int(r.integer("nodes", 1, 1 << 24).value_or(0));
    c.intra_is_pcie = r.choice("intra_node_link", {"nvlink", "pcie"}).value_or(0) == 1;
    c.intra_node = readLink(r, "intra_node", c.intra_node, errors, true);
    c.inter_node = readLink(r, "inter_node", c.inter_node, errors, true);
    if (const nlohmann::json* h = r.child("host"); h && !h->is_null()) {
        ObjectReader hr(*h, r.childPath("host"), errors);
        c.host.memory_bytes = hr.number("memory_gib", 1, 1e9, true).value_or(0) * double(1ULL << 30);
        c.host.memory_bytes_per_s = hr.number("memory_gbps", 1, 1e7, true).value_or(0) * 1e9;
        c.host.pcie_bytes_per_s = hr.number("pcie_gbps", 1, 1e6, true).value_or(0) * 1e9;
        c.host.memory_efficiency = hr.number("memory_efficiency", 0.01, 1).value_or(c.host.memory_efficiency);
        c.host.pcie_efficiency = hr.number("pcie_efficiency", 0.01, 1).value_or(c.host.pcie_efficiency);
        hr.string("source");
        hr.finish();
    }
    readClusterExtras(r, c, errors);
    r.finish();
    if (errors.size() != before)
        return std::nullopt;
    return c;
}

namespace {

// A knob's field, in the range of its entry in the knob table (types/knobs.h): a file may hold
// what a slider, a sweep or --set may set, and no more.
std::optional<std::int64_t> knobInteger(ObjectReader& r, const char* path)
{
    const Knob* k = findKnob(path);
    const std::string_view field = std::string_view(path).substr(std::string_view(path).find('.') + 1);
    return r.integer(std::string(field).c_str(), k->min, k->max);
}

// The scalar fields of "parallel": degrees, switches and named choices.
void readParallelScalars(ObjectReader& p, ParallelConfig& pc)
{
    constexpr std::int64_t kMaxDegree = 1 << 24;
    pc.tp = int(knobInteger(p, "parallel.tp").value_or(1));
    pc.pp = int(knobInteger(p, "parallel.pp").value_or(1));
    pc.dp = int(knobInteger(p, "parallel.dp").value_or(1));
    pc.cp = int(knobInteger(p, "parallel.cp").value_or(1));
    pc.ep = int(knobInteger(p, "parallel.ep").value_or(1));
    pc.etp = int(p.integer("etp", 1, kMaxDegree).value_or(0));
    pc.vpp = int(knobInteger(p, "parallel.vpp").value_or(1));
    pc.sequence_parallel = p.boolean("sequence_parallel").value_or(false);
    pc.zero = int(knobInteger(p, "parallel.zero").value_or(0));
    pc.tp_comm_overlap = p.boolean("tp_comm_overlap").value_or(false);
    pc.ep_comm_overlap = p.boolean("ep_comm_overlap").value_or(false);
    pc.deepep_sms = int(p.integer("deepep_sms", 1, 100000).value_or(pc.deepep_sms));
    pc.pp_comm_overlap = p.boolean("pp_comm_overlap").value_or(true);
    pc.overlap_grad_reduce = p.boolean("overlap_grad_reduce").value_or(true);
    if (auto b = p.number("grad_bucket_mparams", 0, 1e6))
        pc.grad_bucket_mparams = *b;
    pc.reshard_after_forward = p.boolean("reshard_after_forward").value_or(true);
    if (auto d = p.integer("zero3_prefetch", 0, 64))
        pc.zero3_prefetch = int(*d);
    pc.shard_size = int(p.integer("shard_size", 0, kMaxDegree).value_or(0));
    pc.zero3_max_live_params = p.number("zero3_max_live_params", 0, 1e15).value_or(pc.zero3_max_live_params);
    pc.account_for_embedding_in_pipeline_split = p.boolean("account_for_embedding_in_pipeline_split").value_or(false);
    pc.account_for_loss_in_pipeline_split = p.boolean("account_for_loss_in_pipeline_split").value_or(false);
    if (auto s = p.choice<ScheduleKind>("schedule"))
        pc.schedule = *s;
    if (auto a = p.choice<AsyncPipeline>("async_pipeline"))
        pc.async_pipeline = *a;
    if (auto c = p.choice<CpComm>("cp_comm"))
        pc.cp_comm = *c;
    if (auto o = p.choice<TpOverlap>("tp_overlap"))
        pc.tp_overlap = *o;
    if (auto l = p.choice<ActivationLayout>("activation_layout"))
        pc.activation_layout = *l;
    if (auto z = p.choice<Zero3Sharding>("zero3_sharding"))
        pc.zero3_sharding = *z;
    if (auto d = p.choice<MoeDispatcher>("moe_dispatcher"))
        pc.moe_dispatcher = *d;
    if (auto o = p.choice<Offload>("offload"))
        pc.offload = *o;
}

// "parallel.stage_layers": an array of whole layer counts, one per pipeline stage.
void readStageLayers(ObjectReader& p, ParallelConfig& pc, std::vector<InputError>& errors)
{
    const nlohmann::json* sl = p.child("stage_layers");
    if (!sl)
        return;
    if (!sl->is_array()) {
        p.error("stage_layers", "must be an array of layer counts, got " + describeJson(*sl));
        return;
    }
    for (std::size_t i = 0; i < sl->size(); ++i) {
        const nlohmann::json& v = (*sl)[i];
        const bool whole
            = v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() == std::floor(v.get<double>());
        if (!whole || v.get<double>() < 0 || v.get<double>() > 100000)
            errors.push_back({"parallel.stage_layers[" + std::to_string(i) + "]",
                              "must be an integer in 0 … 100000, got " + describeJson(v)});
        else
            pc.stage_layers.push_back(int(v.get<double>()));
    }
}

// An uneven layout names every pipeline stage and places every layer: anything else has
// no meaning (a stage list that places 0 of 32 layers would "train" at 4,000 % MFU).
void checkStageLayers(const ParallelConfig& pc, int model_layers, std::vector<InputError>& errors)
{
    long long sum = 0;
    for (int l : pc.stage_layers)
        sum += l;
    if (int(pc.stage_layers.size()) != pc.pp)
        errors.push_back({"parallel.stage_layers",
                          "lists " + std::to_string(pc.stage_layers.size()) + " stages, but pp is "
                              + std::to_string(pc.pp) + ": give one layer count per pipeline stage"});
    else if (sum != model_layers)
        errors.push_back({"parallel.stage_layers",
                          "places " + std::to_string(sum) + " layers, but the model has " + std::to_string(model_layers)
                              + ": the counts must add up to the model's layers"});
}

// The "parallel" section; the stage layout is checked against the model only when it was read.
void readParallel(const nlohmann::json& pj, ParallelConfig& pc, const ModelSpec* model, std::vector<InputError>& errors)
{
    ObjectReader p(pj, "parallel", errors);
    readParallelScalars(p, pc);
    readStageLayers(p, pc, errors);
    if (!pc.stage_layers.empty() && model)
        checkStageLayers(pc, model->layers, errors);
    if (pc.gpus() > (1LL << 24))
        errors.push_back(
            {"parallel", "tp·pp·dp·cp = " + std::to_string(pc.gpus()) + " GPUs is over the 16,777,216 limit"});
    p.finish();
}

// "training.recompute_modules": module names OR-ed into a mask, for selective recompute only.
void readRecomputeModules(ObjectReader& t, TrainingConfig& tc, std::vector<InputError>& errors)
{
    const nlohmann::json* mods = t.child("recompute_modules");
    if (!mods)
        return;
    if (!mods->is_array()) {
        t.error("recompute_modules", "must be an array of module names, got " + describeJson(*mods));
        return;
    }
    tc.recompute_modules = 0;
    for (std::size_t i = 0; i < mods->size(); ++i) {
        const nlohmann::json& v = (*mods)[i];
        const auto mod = v.is_string() ? enumFromName<RecomputeModule>(v.get<std::string>()) : std::nullopt;
        if (!mod)
            errors.push_back({"training.recompute_modules[" + std::to_string(i) + "]",
                              "must be one of " + enumNameList<RecomputeModule>() + ", got " + describeJson(v)});
        else
            tc.recompute_modules |= unsigned(*mod);
    }
    if (tc.recompute != Recompute::Selective)
        t.error("recompute_modules",
                "needs recompute \"selective\" (full recompute rebuilds every layer), got \""
                    + std::string(toString(tc.recompute)) + "\"");
}

// The "training" section.
void readTraining(const nlohmann::json& tj, TrainingConfig& tc, std::vector<InputError>& errors)
{
    ObjectReader t(tj, "training", errors);
    tc.seq_len = knobInteger(t, "training.seq_len").value_or(tc.seq_len);
    tc.micro_batch = knobInteger(t, "training.micro_batch").value_or(tc.micro_batch);
    tc.global_batch = knobInteger(t, "training.global_batch").value_or(tc.global_batch);
    if (auto v = t.choice<Precision>("precision"))
        tc.precision = *v;
    if (auto v = t.choice<Fp8Recipe>("fp8_recipe"))
        tc.fp8_recipe = *v; // used with precision fp8 only, kept for when it is chosen
    tc.fp8_comm = t.boolean("fp8_comm").value_or(tc.fp8_comm);
    tc.fp8_activations = t.boolean("fp8_activations").value_or(tc.fp8_activations);
    if (auto v = t.choice<AttentionKernel>("attention_kernel"))
        tc.attention_kernel = *v;
    if (auto v = t.choice<CrossEntropy>("cross_entropy"))
        tc.cross_entropy = *v;
    if (auto v = t.choice<CudaGraphs>("cuda_graphs"))
        tc.cuda_graphs = *v;
    tc.moe_capacity_factor = t.number("moe_capacity_factor", 0, 64).value_or(tc.moe_capacity_factor);
    if (tc.moe_capacity_factor > 0 && tc.moe_capacity_factor < 1)
        t.error("moe_capacity_factor",
                "must be 0 (dropless) or ≥ 1 (capacity in multiples of the mean tokens per expert), got "
                    + std::to_string(tc.moe_capacity_factor));
    tc.moe_load_imbalance = t.number("moe_load_imbalance", 1, 64).value_or(tc.moe_load_imbalance);
    if (auto v = t.choice<GradDtype>("grad_dtype"))
        tc.grad_dtype = *v;
    if (auto v = t.choice<GradComm>("grad_comm"))
        tc.grad_comm = *v;
    tc.powersgd_rank = int(t.integer("powersgd_rank", 1, 1024).value_or(tc.powersgd_rank));
    tc.topk_permille = int(t.integer("topk_permille", 1, 1000).value_or(tc.topk_permille));
    if (auto v = t.choice<Optimizer>("optimizer"))
        tc.optimizer = *v;
    if (auto v = t.choice<Recompute>("recompute"))
        tc.recompute = *v;
    readRecomputeModules(t, tc, errors);
    tc.flash_attention = t.boolean("flash_attention").value_or(tc.flash_attention);
    tc.repeat_kv = t.boolean("repeat_kv").value_or(tc.repeat_kv);
    tc.fused_projections = t.boolean("fused_projections").value_or(tc.fused_projections);
    t.finish();
}

} // namespace

std::optional<Scenario> readScenario(const nlohmann::json& j, std::vector<InputError>& errors)
{
    const std::size_t before = errors.size();
    ObjectReader r(j, "", errors);
    if (!r.valid())
        return std::nullopt;
    Scenario sc;
    if (auto schema = r.string("schema", true); schema && *schema != kScenarioSchema)
        r.error("schema", std::string("must be \"") + kScenarioSchema + "\", got \"" + *schema + "\"");
    sc.name = r.string("name").value_or("");
    bool have_model = false;
    if (const nlohmann::json* m = r.child("model")) {
        if (auto model = readModel(*m, "model", errors)) {
            sc.model = *model;
            have_model = true;
        }
    } else {
        r.error("model", "is required");
    }
    if (const nlohmann::json* c = r.child("cluster")) {
        if (auto cluster = readCluster(*c, "cluster", errors))
            sc.cluster = *cluster;
    } else {
        r.error("cluster", "is required");
    }

    if (const nlohmann::json* pj = r.child("parallel"))
        readParallel(*pj, sc.parallel, have_model ? &sc.model : nullptr, errors);
    if (const nlohmann::json* tj = r.child("training"))
        readTraining(*tj, sc.training, errors);

    if (const nlohmann::json* oj = r.child("overheads"))
        readOverheads(*oj, sc.overheads, errors);
    if (const nlohmann::json* sj = r.child("stability"))
        readStability(*sj, sc.stability, errors);
    if (const nlohmann::json* fj = r.child("faults"))
        readFaults(*fj, sc.faults, errors);
    if (const nlohmann::json* nj = r.child("network"))
        readFabric(*nj, sc.cluster.fabric, errors);
    if (const int sms = sc.cluster.gpu.sm_count; sms > 0 && sc.parallel.deepep_sms >= sms)
        errors.push_back({"parallel.deepep_sms",
                          "must be below the GPU's " + std::to_string(sms) + " SMs (cluster.gpu.sm_count), got "
                              + std::to_string(sc.parallel.deepep_sms)});
    r.finish();
    if (errors.size() != before)
        return std::nullopt;
    return sc;
}

std::optional<Scenario> readScenarioFile(const std::string& file, std::vector<InputError>& errors)
{
    const auto j = readJsonFile(file, errors);
    if (!j)
        return std::nullopt;
    return readScenario(*j, errors);
}

} // namespace parascope
