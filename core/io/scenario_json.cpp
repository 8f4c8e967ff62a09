#include "io/scenario_json.h"

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

LinkSpec readLink(ObjectReader& parent, const char* key, LinkSpec fallback, std::vector<InputError>& errors, bool required)
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
    m.name = r.string("name").value_or(id);
    r.string("source");
    r.integer("published_params", 0, INT64_MAX);
    m.layers = int(r.integer("layers", 1, 100000, true).value_or(1));
    const std::optional<std::int64_t> hidden = r.integer("hidden", 1, 1 << 20, true);
    m.hidden = hidden.value_or(1);
    const std::optional<std::int64_t> heads = r.integer("heads", 1, 1 << 16, true);
    const std::optional<std::int64_t> kv_heads = r.integer("kv_heads", 1, 1 << 16);
    m.heads = int(heads.value_or(1));
    m.kv_heads = int(kv_heads.value_or(m.heads));
    // Checks that combine fields run only when every field they use was read.
    if (heads && kv_heads && (m.kv_heads > m.heads || m.heads % m.kv_heads != 0)) {
        r.error("kv_heads", "must divide heads (" + std::to_string(m.heads) + "), got " + std::to_string(m.kv_heads));
    }
    const std::optional<std::int64_t> head_dim = r.integer("head_dim", 1, 1 << 16);
    const nlohmann::json* mla = r.child("mla");
    const bool has_mla = mla && !mla->is_null();
    if (has_mla && head_dim)
        r.error("head_dim", "is not used with mla (its per-head widths are mla.qk_nope_head_dim, "
                            "mla.qk_rope_head_dim and mla.v_head_dim); remove it");
    if (has_mla && heads && kv_heads && m.kv_heads != m.heads)
        r.error("kv_heads", "must equal heads (" + std::to_string(m.heads) + ") with mla: every head has its own key and value");
    if (!head_dim && !has_mla && hidden && heads && m.hidden % m.heads != 0)
        r.error("head_dim", "is required when hidden (" + std::to_string(m.hidden) + ") is not divisible by heads ("
                                + std::to_string(m.heads) + ")");
    m.head_dim = head_dim.value_or(std::max<std::int64_t>(1, m.hidden / m.heads));
    m.ffn_hidden = r.integer("ffn_hidden", 1, 1 << 22, true).value_or(1);
    m.vocab = r.integer("vocab", 1, 1 << 24, true).value_or(1);
    m.mlp = r.choice<MlpKind>("mlp").value_or(MlpKind::SwiGlu);
    m.norm = r.choice<NormKind>("norm").value_or(NormKind::RmsNorm);
    m.bias = r.boolean("bias").value_or(false);
    m.tied_embeddings = r.boolean("tied_embeddings").value_or(false);
    m.position = r.choice<PositionKind>("position").value_or(PositionKind::Rope);
    m.max_positions = r.integer("max_positions", 1, 1LL << 30).value_or(0);
    if (m.position == PositionKind::Learned && m.max_positions == 0)
        r.error("max_positions", "is required with learned positions");
    m.qkv_bias = r.boolean("qkv_bias").value_or(false);
    m.qk_norm = r.boolean("qk_norm").value_or(false);
    if (m.qk_norm && has_mla)
        r.error("qk_norm", "is not defined with mla (MLA normalises its latents, not each head's query and key)");
    m.attention_sinks = r.boolean("attention_sinks").value_or(false);
    m.parallel_block = r.boolean("parallel_block").value_or(false);
    m.mtp_modules = int(r.integer("mtp_modules", 0, 64).value_or(0));
    if (const nlohmann::json* sw = r.child("sliding_window"); sw && !sw->is_null()) {
        ObjectReader w(*sw, r.childPath("sliding_window"), errors);
        SlidingWindow win;
        win.size = w.integer("size", 1, 1LL << 30, true).value_or(1);
        win.global_every = int(w.integer("global_every", 0, 100000).value_or(0));
        w.finish();
        m.sliding_window = win;
    }
    if (has_mla) {
        ObjectReader a(*mla, r.childPath("mla"), errors);
        MlaSpec l;
        l.q_lora_rank = a.integer("q_lora_rank", 0, 1 << 20).value_or(0);
        l.kv_lora_rank = a.integer("kv_lora_rank", 1, 1 << 20, true).value_or(1);
        l.qk_nope_head_dim = a.integer("qk_nope_head_dim", 1, 1 << 16, true).value_or(1);
        l.qk_rope_head_dim = a.integer("qk_rope_head_dim", 0, 1 << 16, true).value_or(0);
        l.v_head_dim = a.integer("v_head_dim", 1, 1 << 16, true).value_or(1);
        a.finish();
        m.mla = l;
    }
    if (const nlohmann::json* moe = r.child("moe"); moe && !moe->is_null()) {
        ObjectReader e(*moe, r.childPath("moe"), errors);
        MoeSpec s;
        const std::optional<std::int64_t> experts = e.integer("experts", 1, 1 << 16, true);
        const std::optional<std::int64_t> top_k = e.integer("top_k", 1, 1 << 16, true);
        s.experts = int(experts.value_or(1));
        s.top_k = int(top_k.value_or(1));
        if (experts && top_k && s.top_k > s.experts)
            e.error("top_k", "must be ≤ experts (" + std::to_string(s.experts) + "), got " + std::to_string(s.top_k));
        s.ffn_hidden = e.integer("ffn_hidden", 1, 1 << 22, true).value_or(1);
        s.shared_experts = int(e.integer("shared_experts", 0, 1 << 10).value_or(0));
        s.shared_ffn_hidden = e.integer("shared_ffn_hidden", 0, 1 << 22).value_or(0);
        s.layer_freq = int(e.integer("layer_freq", 1, 100000).value_or(1));
        s.first_dense_layers = int(e.integer("first_dense_layers", 0, 100000).value_or(0));
        s.expert_bias = e.boolean("expert_bias").value_or(false);
        if (s.first_dense_layers > m.layers)
            e.error("first_dense_layers", "must be ≤ layers (" + std::to_string(m.layers) + ")");
        e.finish();
        m.moe = s;
    }
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
    g.gemm_half_flops = r.number("gemm_half_gflop", 0, 1e9).value_or(g.gemm_half_flops / 1e9) * 1e9;
    g.kernel_overhead_s = r.number("kernel_overhead_us", 0, 1e6).value_or(g.kernel_overhead_s * 1e6) * 1e-6;
    g.sustained_clock = r.number("sustained_clock", 0.1, 1).value_or(g.sustained_clock);
    r.finish();
    if (errors.size() != before)
        return std::nullopt;
    return g;
}

std::optional<ClusterSpec> readCluster(const nlohmann::json& in, const std::string& path, std::vector<InputError>& errors)
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

    if (const nlohmann::json* pj = r.child("parallel")) {
        ObjectReader p(*pj, "parallel", errors);
        ParallelConfig& pc = sc.parallel;
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
        pc.overlap_grad_reduce = p.boolean("overlap_grad_reduce").value_or(true);
        pc.reshard_after_forward = p.boolean("reshard_after_forward").value_or(true);
        pc.shard_size = int(p.integer("shard_size", 0, kMaxDegree).value_or(0));
        pc.account_for_embedding_in_pipeline_split = p.boolean("account_for_embedding_in_pipeline_split").value_or(false);
        pc.account_for_loss_in_pipeline_split = p.boolean("account_for_loss_in_pipeline_split").value_or(false);
        if (auto s = p.choice<ScheduleKind>("schedule"))
            pc.schedule = *s;
        if (auto c = p.choice<CpComm>("cp_comm"))
            pc.cp_comm = *c;
        if (const nlohmann::json* sl = p.child("stage_layers")) {
            if (!sl->is_array()) {
                p.error("stage_layers", "must be an array of layer counts, got " + describeJson(*sl));
            } else {
                for (std::size_t i = 0; i < sl->size(); ++i) {
                    const nlohmann::json& v = (*sl)[i];
                    const bool whole = v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() == std::floor(v.get<double>());
                    if (!whole || v.get<double>() < 0 || v.get<double>() > 100000)
                        errors.push_back({"parallel.stage_layers[" + std::to_string(i) + "]",
                                          "must be an integer in 0 … 100000, got " + describeJson(v)});
                    else
                        pc.stage_layers.push_back(int(v.get<double>()));
                }
            }
        }
        // An uneven layout names every pipeline stage and places every layer: anything else has
        // no meaning (a stage list that places 0 of 32 layers would "train" at 4,000 % MFU).
        if (!pc.stage_layers.empty() && have_model) {
            long long sum = 0;
            for (int l : pc.stage_layers)
                sum += l;
            if (int(pc.stage_layers.size()) != pc.pp)
                errors.push_back({"parallel.stage_layers", "lists " + std::to_string(pc.stage_layers.size())
                                                               + " stages, but pp is " + std::to_string(pc.pp)
                                                               + ": give one layer count per pipeline stage"});
            else if (sum != sc.model.layers)
                errors.push_back({"parallel.stage_layers", "places " + std::to_string(sum) + " layers, but the model has "
                                                               + std::to_string(sc.model.layers)
                                                               + ": the counts must add up to the model's layers"});
        }
        if (pc.gpus() > (1LL << 24))
            errors.push_back({"parallel", "tp·pp·dp·cp = " + std::to_string(pc.gpus()) + " GPUs is over the 16,777,216 limit"});
        p.finish();
    }

    if (const nlohmann::json* tj = r.child("training")) {
        ObjectReader t(*tj, "training", errors);
        TrainingConfig& tc = sc.training;
        tc.seq_len = knobInteger(t, "training.seq_len").value_or(tc.seq_len);
        tc.micro_batch = knobInteger(t, "training.micro_batch").value_or(tc.micro_batch);
        tc.global_batch = knobInteger(t, "training.global_batch").value_or(tc.global_batch);
        if (auto v = t.choice<Precision>("precision"))
            tc.precision = *v;
        if (auto v = t.choice<Fp8Recipe>("fp8_recipe"))
            tc.fp8_recipe = *v; // used with precision fp8 only, kept for when it is chosen
        tc.fp8_comm = t.boolean("fp8_comm").value_or(tc.fp8_comm);
        tc.moe_capacity_factor = t.number("moe_capacity_factor", 0, 64).value_or(tc.moe_capacity_factor);
        if (tc.moe_capacity_factor > 0 && tc.moe_capacity_factor < 1)
            t.error("moe_capacity_factor", "must be 0 (dropless) or ≥ 1 (capacity in multiples of the mean tokens per expert), got "
                                               + std::to_string(tc.moe_capacity_factor));
        tc.moe_load_imbalance = t.number("moe_load_imbalance", 1, 64).value_or(tc.moe_load_imbalance);
        if (auto v = t.choice<GradDtype>("grad_dtype"))
            tc.grad_dtype = *v;
        if (auto v = t.choice<Optimizer>("optimizer"))
            tc.optimizer = *v;
        if (auto v = t.choice<Recompute>("recompute"))
            tc.recompute = *v;
        if (const nlohmann::json* mods = t.child("recompute_modules")) {
            if (!mods->is_array()) {
                t.error("recompute_modules", "must be an array of module names, got " + describeJson(*mods));
            } else {
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
                    t.error("recompute_modules", "needs recompute \"selective\" (full recompute rebuilds every layer), got \""
                                                     + std::string(toString(tc.recompute)) + "\"");
            }
        }
        tc.flash_attention = t.boolean("flash_attention").value_or(tc.flash_attention);
        t.finish();
    }

    if (const nlohmann::json* oj = r.child("overheads")) {
        ObjectReader o(*oj, "overheads", errors);
        OverheadConfig& oc = sc.overheads;
        oc.cuda_context_bytes = o.number("cuda_context_gib", 0, 1024).value_or(oc.cuda_context_bytes / kGiB) * kGiB;
        oc.workspace_bytes = o.number("workspace_gib", 0, 1024).value_or(oc.workspace_bytes / kGiB) * kGiB;
        oc.nccl_bytes_per_group = o.number("nccl_buffer_mib", 0, 1 << 20).value_or(oc.nccl_bytes_per_group / kMiB) * kMiB;
        oc.fragmentation = o.number("fragmentation", 0, 1).value_or(oc.fragmentation);
        o.finish();
    }
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

namespace {

nlohmann::json modelToJson(const ModelSpec& m)
{
    nlohmann::json j = {{"name", m.name}, {"layers", m.layers}, {"hidden", m.hidden}, {"heads", m.heads},
                        {"kv_heads", m.kv_heads}, {"head_dim", m.head_dim}, {"ffn_hidden", m.ffn_hidden},
                        {"vocab", m.vocab}, {"mlp", toString(m.mlp)}, {"norm", toString(m.norm)}, {"bias", m.bias},
                        {"tied_embeddings", m.tied_embeddings}, {"position", toString(m.position)}};
    if (m.position == PositionKind::Learned)
        j["max_positions"] = m.max_positions;
    // Variants only when set, so that files of models without them stay as they were.
    for (const auto& [key, on] : {std::pair{"qkv_bias", m.qkv_bias}, std::pair{"qk_norm", m.qk_norm},
                                  std::pair{"attention_sinks", m.attention_sinks},
                                  std::pair{"parallel_block", m.parallel_block}})
        if (on)
            j[key] = true;
    if (m.mtp_modules > 0)
        j["mtp_modules"] = m.mtp_modules;
    if (m.sliding_window)
        j["sliding_window"] = {{"size", m.sliding_window->size}, {"global_every", m.sliding_window->global_every}};
    if (m.mla) {
        j.erase("head_dim");
        j["mla"] = {{"q_lora_rank", m.mla->q_lora_rank}, {"kv_lora_rank", m.mla->kv_lora_rank},
                    {"qk_nope_head_dim", m.mla->qk_nope_head_dim}, {"qk_rope_head_dim", m.mla->qk_rope_head_dim},
                    {"v_head_dim", m.mla->v_head_dim}};
    }
    if (m.moe) {
        const MoeSpec& e = *m.moe;
        j["moe"] = {{"experts", e.experts}, {"top_k", e.top_k}, {"ffn_hidden", e.ffn_hidden},
                    {"shared_experts", e.shared_experts}, {"shared_ffn_hidden", e.shared_ffn_hidden},
                    {"layer_freq", e.layer_freq}, {"first_dense_layers", e.first_dense_layers}};
        if (e.expert_bias)
            j["moe"]["expert_bias"] = true;
    } else {
        j["moe"] = nullptr;
    }
    return j;
}

// Unit conversions back to the file's units, rounded to 12 significant digits so that
// save → load → save is stable (7.5 µs stays 7.5, not 7.499999999999999).
double fileUnits(double v)
{
    if (v == 0 || !std::isfinite(v))
        return v;
    const double scale = std::pow(10.0, 11 - std::floor(std::log10(std::fabs(v))));
    return std::round(v * scale) / scale;
}

nlohmann::json linkToJson(const LinkSpec& l)
{
    return {{"bandwidth_gbps", fileUnits(l.bytes_per_s / 1e9)}, {"latency_us", fileUnits(l.latency_s * 1e6)},
            {"efficiency", l.efficiency}, {"half_size_mib", fileUnits(l.half_bytes / double(1 << 20))}};
}

nlohmann::json gpuToJson(const GpuSpec& g)
{
    return {{"name", g.name},
            {"memory_gib", fileUnits(g.memory_bytes / kGiB)},
            {"hbm_gbps", fileUnits(g.hbm_bytes_per_s / 1e9)},
            {"peak_tflops", {{"bf16", fileUnits(g.peak_bf16_flops / 1e12)}, {"fp8", fileUnits(g.peak_fp8_flops / 1e12)},
                             {"fp32", fileUnits(g.peak_fp32_flops / 1e12)}}},
            {"gemm_efficiency", g.gemm_efficiency},
            {"hbm_efficiency", g.hbm_efficiency},
            {"attention_efficiency", g.attention_efficiency},
            {"gemm_half_gflop", fileUnits(g.gemm_half_flops / 1e9)},
            {"kernel_overhead_us", fileUnits(g.kernel_overhead_s * 1e6)},
            {"sustained_clock", g.sustained_clock}};
}

} // namespace

nlohmann::json scenarioToJson(const Scenario& sc)
{
    nlohmann::json j;
    j["schema"] = kScenarioSchema;
    j["name"] = sc.name;
    const bool model_preset = findPreset("models", sc.model.id) != nullptr;
    j["model"] = model_preset ? nlohmann::json(sc.model.id) : modelToJson(sc.model);
    if (findPreset("clusters", sc.cluster.id)) {
        j["cluster"] = sc.cluster.id;
    } else {
        nlohmann::json c = {{"name", sc.cluster.name}, {"gpus_per_node", sc.cluster.gpus_per_node},
                            {"intra_node", linkToJson(sc.cluster.intra_node)},
                            {"inter_node", linkToJson(sc.cluster.inter_node)}};
        c["gpu"] = findPreset("gpus", sc.cluster.gpu.id) ? nlohmann::json(sc.cluster.gpu.id) : gpuToJson(sc.cluster.gpu);
        if (sc.cluster.nodes > 0)
            c["nodes"] = sc.cluster.nodes;
        if (sc.cluster.intra_is_pcie)
            c["intra_node_link"] = "pcie";
        j["cluster"] = c;
    }
    const ParallelConfig& p = sc.parallel;
    j["parallel"] = {{"tp", p.tp}, {"pp", p.pp}, {"dp", p.dp}, {"cp", p.cp}, {"ep", p.ep}, {"vpp", p.vpp},
                     {"sequence_parallel", p.sequence_parallel}, {"zero", p.zero}, {"schedule", toString(p.schedule)},
                     {"tp_comm_overlap", p.tp_comm_overlap}, {"overlap_grad_reduce", p.overlap_grad_reduce}};
    if (p.etp > 0)
        j["parallel"]["etp"] = p.etp;
    if (!p.reshard_after_forward)
        j["parallel"]["reshard_after_forward"] = false;
    if (p.cp_comm != CpComm::P2p)
        j["parallel"]["cp_comm"] = toString(p.cp_comm);
    if (p.shard_size > 0)
        j["parallel"]["shard_size"] = p.shard_size;
    if (p.account_for_embedding_in_pipeline_split)
        j["parallel"]["account_for_embedding_in_pipeline_split"] = true;
    if (p.account_for_loss_in_pipeline_split)
        j["parallel"]["account_for_loss_in_pipeline_split"] = true;
    if (!p.stage_layers.empty())
        j["parallel"]["stage_layers"] = p.stage_layers;
    const TrainingConfig& t = sc.training;
    j["training"] = {{"seq_len", t.seq_len}, {"micro_batch", t.micro_batch}, {"global_batch", t.global_batch},
                     {"precision", toString(t.precision)}, {"grad_dtype", toString(t.grad_dtype)},
                     {"optimizer", toString(t.optimizer)}, {"recompute", toString(t.recompute)},
                     {"flash_attention", t.flash_attention}};
    if (t.precision == Precision::Fp8 || t.fp8_recipe != Fp8Recipe::Delayed)
        j["training"]["fp8_recipe"] = toString(t.fp8_recipe);
    if (t.recompute == Recompute::Selective && t.recompute_modules != unsigned(RecomputeModule::CoreAttn)) {
        nlohmann::json mods = nlohmann::json::array();
        for (const EnumName<RecomputeModule>& n : enumNames(RecomputeModule{}))
            if (t.recompute_modules & unsigned(n.value))
                mods.push_back(n.name);
        j["training"]["recompute_modules"] = mods;
    }
    if (t.fp8_comm)
        j["training"]["fp8_comm"] = true;
    if (t.moe_capacity_factor > 0)
        j["training"]["moe_capacity_factor"] = fileUnits(t.moe_capacity_factor);
    if (t.moe_load_imbalance != 1)
        j["training"]["moe_load_imbalance"] = fileUnits(t.moe_load_imbalance);
    const OverheadConfig& o = sc.overheads;
    j["overheads"] = {{"cuda_context_gib", fileUnits(o.cuda_context_bytes / kGiB)}, {"workspace_gib", fileUnits(o.workspace_bytes / kGiB)},
                      {"nccl_buffer_mib", fileUnits(o.nccl_bytes_per_group / kMiB)}, {"fragmentation", o.fragmentation}};
    return j;
}

} // namespace parascope
