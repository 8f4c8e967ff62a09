#include "io/scenario_sections.h"

#include <cmath>

namespace parascope {

namespace {
constexpr double kGiB = double(1ull << 30);
constexpr double kMiB = double(1ull << 20);
} // namespace

double fileUnits(double v)
{
    if (v == 0 || !std::isfinite(v))
        return v;
    const double scale = std::pow(10.0, 11 - std::floor(std::log10(std::fabs(v))));
    return std::round(v * scale) / scale;
}

void readOverheads(const nlohmann::json& j, OverheadConfig& oc, std::vector<InputError>& errors)
{
    ObjectReader o(j, "overheads", errors);
    oc.cuda_context_bytes = o.number("cuda_context_gib", 0, 1024).value_or(oc.cuda_context_bytes / kGiB) * kGiB;
    oc.workspace_bytes = o.number("workspace_gib", 0, 1024).value_or(oc.workspace_bytes / kGiB) * kGiB;
    oc.nccl_bytes_per_group = o.number("nccl_buffer_mib", 0, 1 << 20).value_or(oc.nccl_bytes_per_group / kMiB) * kMiB;
    oc.fragmentation = o.number("fragmentation", 0, 1).value_or(oc.fragmentation);
    if (auto a = o.choice<AllocatorKind>("allocator"))
        oc.allocator = *a;
    o.finish();
}

void readStability(const nlohmann::json& j, StabilityConfig& c, std::vector<InputError>& errors)
{
    ObjectReader st(j, "stability", errors);
    c.failures_per_gpu_day = st.number("failures_per_gpu_day", 0, 1).value_or(c.failures_per_gpu_day);
    c.restart_s = st.number("restart_min", 0, 1e5).value_or(c.restart_s / 60) * 60;
    c.checkpoint_write_bytes_per_s_per_node
        = st.number("checkpoint_write_gbps_per_node", 1e-3, 1e5).value_or(c.checkpoint_write_bytes_per_s_per_node / 1e9)
        * 1e9;
    st.finish();
}

void readFaults(const nlohmann::json& j, FaultConfig& c, std::vector<InputError>& errors)
{
    ObjectReader f(j, "faults", errors);
    c.straggler_slowdown_pct = int(f.integer("straggler_slowdown_pct", 0, 1000).value_or(c.straggler_slowdown_pct));
    c.straggler_stage = int(f.integer("straggler_stage", 0, 100000).value_or(c.straggler_stage));
    c.link_bandwidth_pct = int(f.integer("link_bandwidth_pct", 1, 100).value_or(c.link_bandwidth_pct));
    c.hangs_per_week = int(f.integer("hangs_per_week", 0, 10000).value_or(c.hangs_per_week));
    c.nccl_timeout_min = int(f.integer("nccl_timeout_min", 1, 10080).value_or(c.nccl_timeout_min));
    c.loss_spikes_per_week = int(f.integer("loss_spikes_per_week", 0, 10000).value_or(c.loss_spikes_per_week));
    f.finish();
}

void readFabric(const nlohmann::json& j, FabricSpec& c, std::vector<InputError>& errors)
{
    ObjectReader f(j, "network", errors);
    c.nics_per_node = int(f.integer("nics_per_node", 0, 1024).value_or(c.nics_per_node));
    c.nodes_per_leaf = int(f.integer("nodes_per_leaf", 0, 1 << 20).value_or(c.nodes_per_leaf));
    c.oversubscription = int(f.integer("oversubscription", 1, 64).value_or(c.oversubscription));
    f.finish();
}

nlohmann::json fabricToJson(const FabricSpec& f)
{
    return {{"nics_per_node", f.nics_per_node},
            {"nodes_per_leaf", f.nodes_per_leaf},
            {"oversubscription", f.oversubscription}};
}

nlohmann::json overheadsToJson(const OverheadConfig& o)
{
    nlohmann::json j{{"cuda_context_gib", fileUnits(o.cuda_context_bytes / kGiB)},
                     {"workspace_gib", fileUnits(o.workspace_bytes / kGiB)},
                     {"nccl_buffer_mib", fileUnits(o.nccl_bytes_per_group / kMiB)},
                     {"fragmentation", o.fragmentation}};
    if (o.allocator != AllocatorKind::Caching)
        j["allocator"] = toString(o.allocator);
    return j;
}

nlohmann::json stabilityToJson(const StabilityConfig& s)
{
    return {{"failures_per_gpu_day", s.failures_per_gpu_day},
            {"restart_min", fileUnits(s.restart_s / 60)},
            {"checkpoint_write_gbps_per_node", fileUnits(s.checkpoint_write_bytes_per_s_per_node / 1e9)}};
}

nlohmann::json faultsToJson(const FaultConfig& f)
{
    return {{"straggler_slowdown_pct", f.straggler_slowdown_pct},
            {"straggler_stage", f.straggler_stage},
            {"link_bandwidth_pct", f.link_bandwidth_pct},
            {"hangs_per_week", f.hangs_per_week},
            {"nccl_timeout_min", f.nccl_timeout_min},
            {"loss_spikes_per_week", f.loss_spikes_per_week}};
}

} // namespace parascope
