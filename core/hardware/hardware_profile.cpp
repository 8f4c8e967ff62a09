#include "hardware/hardware_profile.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace parascope {

namespace {

// A measured value may be null ("unknown values are null, never 0"). A bandwidth, a FLOP rate
// or a memory size of 0 is no measurement (a probe kernel that failed can write it) and would
// divide the engine's times by zero: refused, with its path.
std::optional<double> measured(ObjectReader& r, const char* key, double scale)
{
    const nlohmann::json* v = r.child(key);
    if (!v || v->is_null())
        return std::nullopt;
    if (!v->is_number() || !(v->get<double>() > 0)) {
        r.error(key, "must be a positive number, or null when it was not measured; got " + describeJson(*v));
        return std::nullopt;
    }
    return v->get<double>() * scale;
}

template <typename F> void eachObject(ObjectReader& r, const char* key, std::vector<InputError>& errors, F&& f)
{
    const nlohmann::json* a = r.child(key);
    if (!a || a->is_null())
        return;
    if (!a->is_array()) {
        r.error(key, "must be an array, got " + describeJson(*a));
        return;
    }
    for (std::size_t i = 0; i < a->size(); ++i) {
        ObjectReader item((*a)[i], r.childPath(key) + "[" + std::to_string(i) + "]", errors);
        if (item.valid())
            f(item);
    }
}

// Keys a profile holds for people and other tools: known, so not reported, but not read.
void skipInformational(ObjectReader& r)
{
    r.child("versions");
    r.child("host");
    r.child("created");
    r.child("units");
    r.child("statistic");
    r.child("skipped");
    r.child("warnings");
    r.child("collective_fits"); // the probe's α–β fits, for people: calibrate() fits the points itself
    r.child("reason");
    r.child("imported");
    r.child("probe");
    r.child("runtime");
    r.child("error");
}

// A device's "hbm" block: the measured copy bandwidth in bytes/s; the other figures are not read.
std::optional<double> readHbm(ObjectReader& d, std::vector<InputError>& errors)
{
    std::optional<double> copy;
    if (const nlohmann::json* h = d.child("hbm"); h && !h->is_null()) {
        ObjectReader hbm(*h, d.childPath("hbm"), errors);
        hbm.child("theoretical_gbps");
        copy = measured(hbm, "copy_gbps", 1e9);
        hbm.child("triad_gbps");
        hbm.child("copy_best_gbps");
        hbm.child("triad_best_gbps");
        hbm.child("copy_engine_gbps");
        hbm.child("bytes");
        hbm.finish();
    }
    return copy;
}

// One GEMM measurement of a device (dtype empty or flops_per_s 0 when it is unusable).
MeasuredGemm readGemm(ObjectReader& g)
{
    MeasuredGemm mg;
    static const char* const kDtypes[] = {"bf16", "fp16", "tf32", "fp32", "fp8"};
    if (auto i = g.choice("dtype", {"bf16", "fp16", "tf32", "fp32", "fp8"}))
        mg.dtype = kDtypes[*i];
    mg.m = g.number("m", 1, 1e9).value_or(0);
    mg.n = g.number("n", 1, 1e9).value_or(0);
    mg.k = g.number("k", 1, 1e9).value_or(0);
    mg.flops_per_s = measured(g, "tflops", 1e12).value_or(0);
    g.child("algorithm");
    g.child("samples");
    g.finish();
    return mg;
}

// One entry of "devices": every one is checked, the first alone fills the profile.
void readDevice(ObjectReader& d, HardwareProfile& p, std::vector<InputError>& errors)
{
    const bool first = p.device_name.empty();
    const std::string name = d.string("name").value_or("");
    const auto mem = measured(d, "memory_bytes", 1);
    d.child("index");
    d.child("sms");
    d.child("compute_capability");
    d.child("host_to_device_gbps");
    d.child("device_to_host_gbps");
    d.child("clocks");
    d.child("pcie");
    d.child("nvlink");
    const std::optional<double> copy = readHbm(d, errors);
    eachObject(d, "gemm", errors, [&](ObjectReader& g) {
        const MeasuredGemm mg = readGemm(g);
        if (first && !mg.dtype.empty() && mg.flops_per_s > 0)
            p.gemm.push_back(mg);
    });
    d.finish();
    if (first) { // the engine models one GPU type: the first device speaks for the node
        p.device_name = name.empty() ? "GPU 0" : name;
        p.memory_bytes = mem;
        p.hbm_copy_bytes_per_s = copy;
    }
}

// One entry of "links": the profile keeps the fastest one-way peer-to-peer bandwidth.
void readLink(ObjectReader& l, HardwareProfile& p)
{
    l.child("src");
    l.child("dst");
    l.child("kind");
    l.child("topology");
    const auto one_way = measured(l, "unidirectional_gbps", 1e9);
    l.child("bidirectional_gbps");
    l.finish();
    if (one_way)
        p.p2p_unidirectional_bytes_per_s = std::max(p.p2p_unidirectional_bytes_per_s.value_or(0), *one_way);
}

// One entry of "collectives": kept when its op is known and it has a bandwidth.
void readCollective(ObjectReader& c, HardwareProfile& p)
{
    MeasuredCollective mc;
    const std::optional<Collective> op = c.choice<Collective>("op");
    if (op)
        mc.op = *op;
    mc.ranks = int(c.integer("ranks", 1, 1 << 24, true).value_or(0));
    mc.nodes = int(c.integer("nodes", 1, 1 << 24).value_or(1));
    mc.bytes = c.number("bytes", 0, 1e15, true).value_or(0);
    c.child("algbw_gbps");
    c.child("time_us");
    c.child("algorithm");
    mc.busbw_bytes_per_s = measured(c, "busbw_gbps", 1e9).value_or(0);
    c.finish();
    if (op && mc.busbw_bytes_per_s > 0)
        p.collectives.push_back(mc);
}

} // namespace

std::optional<HardwareProfile> readHardwareProfile(const nlohmann::json& j, std::vector<InputError>& errors)
{
    const std::size_t before = errors.size();
    ObjectReader r(j, "", errors);
    if (!r.valid())
        return std::nullopt;
    HardwareProfile p;
    if (auto schema = r.string("schema", true); schema && *schema != kHardwareProfileSchema)
        r.error("schema", std::string("must be \"") + kHardwareProfileSchema + "\", got \"" + *schema + "\"");
    if (auto s = r.choice("status", {"ok", "partial", "no_gpu"}))
        p.status = *s == 0 ? "ok" : *s == 1 ? "partial" : "no_gpu";
    skipInformational(r);
    eachObject(r, "devices", errors, [&](ObjectReader& d) { readDevice(d, p, errors); });
    eachObject(r, "links", errors, [&](ObjectReader& l) { readLink(l, p); });
    eachObject(r, "collectives", errors, [&](ObjectReader& c) { readCollective(c, p); });
    r.finish();
    if (errors.size() != before)
        return std::nullopt;
    return p;
}

std::optional<HardwareProfile> readHardwareProfileFile(const std::string& file, std::vector<InputError>& errors)
{
    const auto j = readJsonFile(file, errors);
    if (!j)
        return std::nullopt;
    std::vector<InputError> local;
    auto p = readHardwareProfile(*j, local);
    for (InputError& e : local)
        errors.push_back({e.path, e.message});
    return p;
}

std::optional<CollectiveFit> fitAlphaBeta(Collective op, int ranks, int nodes,
                                          const std::vector<std::pair<double, double>>& size_seconds)
{
    // Weighted least squares of t = α + b·S with w = 1/t²: minimises the relative errors.
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    int points = 0;
    for (const auto& [S, t] : size_seconds) {
        if (!(S > 0) || !(t > 0) || !std::isfinite(S) || !std::isfinite(t))
            continue;
        const double w = 1 / (t * t);
        sw += w;
        sx += w * S;
        sy += w * t;
        sxx += w * S * S;
        sxy += w * S * t;
        ++points;
    }
    const double factor = busFactor(op, ranks);
    if (points < 2 || factor <= 0)
        return std::nullopt;
    const double det = sw * sxx - sx * sx;
    double b = det > 0 ? (sw * sxy - sx * sy) / det : 0;
    double alpha = det > 0 ? (sy - b * sx) / sw : 0;
    if (alpha < 0) { // latency cannot be negative: the best line through the origin
        alpha = 0;
        b = sxy / sxx;
    }
    if (!(b > 0) || !std::isfinite(b))
        return std::nullopt;
    CollectiveFit f;
    f.op = op;
    f.ranks = ranks;
    f.nodes = nodes;
    f.alpha_s = alpha;
    f.busbw_bytes_per_s = factor / b;
    f.points = points;
    for (const auto& [S, t] : size_seconds)
        if (S > 0 && t > 0)
            f.max_relative_error = std::max(f.max_relative_error, std::abs(alpha + b * S - t) / t);
    return f;
}

namespace {

// (ranks, nodes) → the (S, t) points of the all-reduces measured on that many GPUs and nodes.
using AllReducePoints = std::map<std::pair<int, int>, std::vector<std::pair<double, double>>>;

// One efficiency row of the calibration, with the value it replaces.
void note(ClusterSpec& c, const std::string& src, const char* name, double before, double after,
          const std::string& formula, const std::string& subst)
{
    c.calibration.push_back({name, after, "fraction", formula, subst + "  (was " + num(before) + ")", src});
}

// The smallest and the largest usable GEMM of `dtype` by FLOPs (nullptr when there is none).
std::pair<const MeasuredGemm*, const MeasuredGemm*> gemmExtremes(const HardwareProfile& p, const std::string& dtype)
{
    const MeasuredGemm* small = nullptr;
    const MeasuredGemm* large = nullptr;
    for (const MeasuredGemm& m : p.gemm) {
        if (m.dtype != dtype || m.flops_per_s <= 0)
            continue;
        const double f = 2 * m.m * m.n * m.k;
        if (!small || f < 2 * small->m * small->n * small->k)
            small = &m;
        if (!large || f > 2 * large->m * large->n * large->k)
            large = &m;
    }
    return {small, large};
}

// GEMM: efficiency vs the dense bf16 peak per measured shape (bf16, else fp16). Two or more
// sizes fit the engine's curve eff(g) = eff_max·g/(g + g_half) through the smallest and the
// largest; one size sets eff_max alone.
void calibrateGemm(ClusterSpec& c, const HardwareProfile& p, const std::string& src)
{
    GpuSpec& g = c.gpu;
    const std::string dtype
        = std::any_of(p.gemm.begin(), p.gemm.end(), [](const MeasuredGemm& m) { return m.dtype == "bf16"; }) ? "bf16"
                                                                                                             : "fp16";
    const auto [small, large] = gemmExtremes(p, dtype);
    if (!large || !(g.peak_bf16_flops > 0))
        return;
    const double g2 = 2 * large->m * large->n * large->k, e2 = large->flops_per_s / g.peak_bf16_flops;
    double eff = std::min(1.0, e2), half = 0;
    if (small != large) {
        const double g1 = 2 * small->m * small->n * small->k, e1 = small->flops_per_s / g.peak_bf16_flops;
        const double denom = e1 / g1 - e2 / g2;
        if (e2 > e1 && denom > 0) {
            half = (e2 - e1) / denom;
            eff = std::min(1.0, e1 * (g1 + half) / g1);
        }
    }
    note(c, src, "calibration.gemm_efficiency", g.gemm_efficiency, eff,
         half > 0 ? "eff_max of eff(g) = eff_max·g/(g + g_half) through the measured sizes"
                  : "measured GEMM / dense bf16 peak",
         num(large->flops_per_s / 1e12) + " / " + num(g.peak_bf16_flops / 1e12) + " TFLOP/s at " + num(large->m) + "x"
             + num(large->n) + "x" + num(large->k));
    g.gemm_efficiency = eff;
    if (half > 0) {
        c.calibration.push_back({"calibration.gemm_half_gflop", half / 1e9, "GFLOP", "g_half of the fitted curve",
                                 num(half / 1e9) + "  (was " + num(g.gemm_half_flops / 1e9) + ")", src});
        g.gemm_half_flops = half;
    }
}

// HBM: the measured copy bandwidth against the datasheet's; memory: the device's total.
void calibrateMemory(ClusterSpec& c, const HardwareProfile& p, const std::string& src)
{
    GpuSpec& g = c.gpu;
    if (p.hbm_copy_bytes_per_s && g.hbm_bytes_per_s > 0) {
        const double eff = std::min(1.0, *p.hbm_copy_bytes_per_s / g.hbm_bytes_per_s);
        note(c, src, "calibration.hbm_efficiency", g.hbm_efficiency, eff,
             "measured copy bandwidth (read + write) / datasheet HBM",
             num(*p.hbm_copy_bytes_per_s / 1e9) + " / " + num(g.hbm_bytes_per_s / 1e9) + " GB/s");
        g.hbm_efficiency = eff;
    }
    if (p.memory_bytes && *p.memory_bytes > 0) {
        c.calibration.push_back({"calibration.memory_bytes", *p.memory_bytes, "bytes", "device total memory",
                                 num(*p.memory_bytes) + "  (was " + num(g.memory_bytes) + ")", src});
        g.memory_bytes = *p.memory_bytes;
    }
}

// Links: the largest single-node all-reduce busbw (ring factor already in busbw), else the
// peer-to-peer one-way bandwidth; across nodes, the busbw per GPU of the node (÷ ranks per node).
void calibrateLinks(ClusterSpec& c, const HardwareProfile& p, const std::string& src)
{
    double intra = 0, inter = 0;
    double intra_bytes = 0, inter_bytes = 0;
    for (const MeasuredCollective& m : p.collectives) {
        if (m.op != Collective::AllReduce || m.ranks < 2)
            continue;
        if (m.nodes <= 1 && m.bytes >= intra_bytes) {
            intra_bytes = m.bytes;
            intra = m.busbw_bytes_per_s;
        } else if (m.nodes > 1 && m.bytes >= inter_bytes) {
            inter_bytes = m.bytes;
            inter = m.busbw_bytes_per_s / std::max(1, m.ranks / m.nodes);
        }
    }
    if (intra == 0 && p.p2p_unidirectional_bytes_per_s)
        intra = *p.p2p_unidirectional_bytes_per_s;
    if (intra > 0 && c.intra_node.bytes_per_s > 0) {
        const double eff = std::min(1.0, intra / c.intra_node.bytes_per_s);
        note(c, src, "calibration.intra_node_efficiency", c.intra_node.efficiency, eff,
             "measured busbw (all-reduce, one node) / link bandwidth",
             num(intra / 1e9) + " / " + num(c.intra_node.bytes_per_s / 1e9) + " GB/s");
        c.intra_node.efficiency = eff;
    }
    if (inter > 0 && c.inter_node.bytes_per_s > 0) {
        const double eff = std::min(1.0, inter / c.inter_node.bytes_per_s);
        note(c, src, "calibration.inter_node_efficiency", c.inter_node.efficiency, eff,
             "measured busbw per GPU (all-reduce across nodes ÷ ranks per node) / NIC bandwidth",
             num(inter / 1e9) + " / " + num(c.inter_node.bytes_per_s / 1e9) + " GB/s");
        c.inter_node.efficiency = eff;
    }
}

// The α–β fit with a positive α of the most GPUs, on one node or across several, from groups
// measured down to 64 KiB with at least three sizes.
std::optional<CollectiveFit> latencyFit(const AllReducePoints& all_reduce, bool one_node)
{
    std::optional<CollectiveFit> best;
    for (const auto& [key, pts] : all_reduce) {
        const double smallest = std::min_element(pts.begin(), pts.end())->first;
        if ((key.second == 1) != one_node || smallest > 64 * 1024.0 || pts.size() < 3)
            continue;
        const auto f = fitAlphaBeta(Collective::AllReduce, key.first, key.second, pts);
        if (f && f->alpha_s > 0 && (!best || f->ranks > best->ranks))
            best = f;
    }
    return best;
}

// Latency per ring step from the α–β fit of the all-reduces measured down to small messages
// (64 KiB or less, where α is most of the time): one node sets NVLink's, several nodes the
// network's (what the NVLink steps leave of α, per network step; docs/reference §3.3).
void calibrateLatency(ClusterSpec& c, const HardwareProfile& p, const std::string& src)
{
    AllReducePoints all_reduce;
    for (const MeasuredCollective& m : p.collectives)
        if (m.op == Collective::AllReduce && m.ranks >= 2 && m.busbw_bytes_per_s > 0)
            all_reduce[{m.ranks, m.nodes}].push_back(
                {m.bytes, busFactor(m.op, m.ranks) * m.bytes / m.busbw_bytes_per_s});
    if (const auto f = latencyFit(all_reduce, true)) {
        const double steps = ringSteps(Collective::AllReduce, f->ranks);
        c.calibration.push_back({"calibration.intra_node_latency", f->alpha_s / steps, "s",
                                 "α of the all-reduce fit t = α + factor·S/busbw (one node) / 2(n − 1) ring steps",
                                 num(f->alpha_s) + " / " + num(steps) + "  (was " + num(c.intra_node.latency_s) + ")",
                                 src});
        c.intra_node.latency_s = f->alpha_s / steps;
    }
    if (const auto f = latencyFit(all_reduce, false)) {
        const int per_node = std::max(1, f->ranks / std::max(1, f->nodes));
        const double net = f->alpha_s - ringSteps(Collective::AllReduce, per_node) * c.intra_node.latency_s;
        const double steps = ringSteps(Collective::AllReduce, f->nodes);
        if (net > 0 && steps > 0) {
            c.calibration.push_back(
                {"calibration.inter_node_latency", net / steps, "s",
                 "(α of the all-reduce fit across nodes − 2(k − 1)·α_NVLink) / 2(N − 1) network steps",
                 "(" + num(f->alpha_s) + " − " + num(ringSteps(Collective::AllReduce, per_node)) + "·"
                     + num(c.intra_node.latency_s) + ") / " + num(steps) + "  (was " + num(c.inter_node.latency_s)
                     + ")",
                 src});
            c.inter_node.latency_s = net / steps;
        }
    }
}

} // namespace

ClusterSpec calibrate(ClusterSpec c, const HardwareProfile& p)
{
    const std::string src = "hardware profile: " + p.device_name;
    calibrateGemm(c, p, src);
    calibrateMemory(c, p, src);
    calibrateLinks(c, p, src);
    calibrateLatency(c, p, src);
    // Every measured collective: collectiveTime() uses it for groups of the same op, size and
    // placement instead of the α–β model.
    for (const MeasuredCollective& m : p.collectives)
        c.measured_collectives.push_back(m);
    if (!p.collectives.empty())
        c.calibration.push_back({"calibration.collectives", double(p.collectives.size()), "count",
                                 "measured (op, ranks, nodes, size) → busbw points",
                                 num(double(p.collectives.size())) + " points", src});
    return c;
}

} // namespace parascope
