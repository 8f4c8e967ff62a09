#include "io/report_json.h"
#include "estimate/allocator_view.h"
#include "io/error_bands.h"

#include "io/comm_report.h"
#include "io/textbook_report.h"

#include "schedule/schedule_table.h"
#include "estimate/diagnostics.h"
#include "estimate/display_names.h"
#include "io/layer_ops_report.h"
#include "util/text_columns.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace parascope {

nlohmann::json whole(double v)
{
    if (v >= 0 && v < 9.0e15)
        return nlohmann::json(std::int64_t(v + 0.5));
    return nlohmann::json(v);
}

nlohmann::json termsToJson(const std::vector<Term>& terms)
{
    nlohmann::json a = nlohmann::json::array();
    for (const Term& t : terms)
        a.push_back({{"name", t.name},
                     {"value", t.value},
                     {"unit", t.unit},
                     {"formula", t.formula},
                     {"substituted", t.substituted},
                     {"source", t.source}});
    return a;
}

namespace {

// Memory per pipeline stage, the peak, and host memory under CPU offload.
nlohmann::json memoryToJson(const Scenario& sc, const Estimate& est, bool explain)
{
    nlohmann::json stages = nlohmann::json::array();
    for (const StageMemory& s : est.memory.stages) {
        nlohmann::json st = {{"stage", s.stage},
                             {"layers", s.layers},
                             {"inflight_microbatches", s.inflight_microbatches},
                             {"weights", whole(s.weights)},
                             {"gradients", whole(s.gradients)},
                             {"optimizer", whole(s.optimizer)},
                             {"activations", whole(s.activations)},
                             {"other", whole(s.other)},
                             {"total", whole(s.total())}};
        if (explain && !s.terms.empty()) // with thousands of stages, only some carry terms
            st["terms"] = termsToJson(s.terms);
        stages.push_back(std::move(st));
    }
    nlohmann::json m = {{"capacity_bytes", whole(est.memory.capacity_bytes)},
                        {"peak_bytes", whole(est.memory.peak_bytes)},
                        {"peak_stage", est.memory.peak_stage},
                        {"fits", est.memory.fits},
                        {"verdict", toString(est.memory.verdict)},
                        {"band_bytes", whole(kMemoryBandFraction * est.memory.capacity_bytes)},
                        {"explained_stages", est.memory.explained_stages},
                        {"stages", std::move(stages)}};
    if (sc.parallel.offload != Offload::None) // CPU offload: host memory per node, needed and there
        m["host"] = {{"offload", toString(sc.parallel.offload)},
                     {"cpu_bytes_per_node", whole(est.memory.cpu_bytes_per_node)},
                     {"capacity_bytes", whole(est.memory.host_capacity_bytes)},
                     {"fits", est.memory.fits_host}};
    // The memory-management view's peaks (estimate/allocator_view.h).
    const AllocatorView a = allocatorView(sc, est);
    m["allocator"] = {{"kind", toString(a.allocator)},
                      {"stage", a.rank},
                      {"allocated_peak_bytes", whole(a.allocated_peak)},
                      {"reserved_peak_bytes", whole(a.reserved_peak)},
                      {"reserve_bytes", whole(a.reserve_bytes)},
                      {"other_allocator_reserve_bytes", whole(a.other_reserve_bytes)},
                      {"pcie_d2h_bytes", whole(a.pcie.d2h_bytes)},
                      {"pcie_h2d_bytes", whole(a.pcie.h2d_bytes)},
                      {"pcie_s", a.pcie.seconds()}};
    return m;
}

// The four walls with their verdicts, the efficiency losses and the stability figures.
nlohmann::json wallsToJson(const Estimate& est, const std::string& lang, bool explain)
{
    // The four walls (estimate/walls.h).
    const auto wall = [&](const Wall& w) {
        nlohmann::json o = {{"value", w.value},
                            {"verdict", toString(w.verdict)},
                            {"explanation", w.explanation.in(lang)},
                            {"explanation_en", w.explanation.en},
                            {"explanation_zh", w.explanation.zh}};
        if (explain)
            o["terms"] = termsToJson(w.terms);
        return o;
    };
    const Walls& w = est.walls;
    const StabilityReport& sr = w.stability_report;
    nlohmann::json walls = {{"memory", wall(w.memory)},
                            {"communication", wall(w.communication)},
                            {"efficiency", wall(w.efficiency)},
                            {"stability", wall(w.stability)}};
    // Disjoint fractions of the step; with below_peak they add up to 1 − MFU (walls.h).
    walls["efficiency"]["losses"] = {{"bubble", w.losses.bubble},
                                     {"uneven_stages", w.losses.uneven_stages},
                                     {"exposed_communication", w.losses.exposed_communication},
                                     {"recompute", w.losses.recompute},
                                     {"optimizer", w.losses.optimizer},
                                     {"straggler", w.losses.straggler},
                                     {"below_peak", w.losses.below_peak},
                                     {"host_wait", w.losses.host_wait}, // a part of below_peak
                                     {"lost", w.losses.lost()}};
    for (const auto& [key, value] : {std::pair{"interruptions_per_day", sr.interruptions_per_day},
                                     {"mtbf_s", sr.mtbf_s},
                                     {"checkpoint_bytes", sr.checkpoint_bytes},
                                     {"checkpoint_write_s", sr.checkpoint_write_s},
                                     {"checkpoint_write_gbps", sr.checkpoint_write_bytes_per_s / 1e9},
                                     {"checkpoint_interval_s", sr.checkpoint_interval_s},
                                     {"restart_s", sr.restart_s},
                                     {"hangs_per_day", sr.hangs_per_day},
                                     {"loss_spikes_per_day", sr.loss_spikes_per_day},
                                     {"nccl_timeout_s", sr.nccl_timeout_s},
                                     {"straggler_slowdown", sr.straggler_slowdown},
                                     {"time_goodput", sr.time_goodput},
                                     {"goodput", sr.goodput}})
        walls["stability"][key] = value;
    walls["stability"]["storage_bound"] = sr.storage_bound;
    return walls;
}

// Every diagnostic, in both languages and the one asked for.
nlohmann::json diagnosticsToJson(const Estimate& est, const std::string& lang)
{
    nlohmann::json diags = nlohmann::json::array();
    for (const Diagnostic& d : est.diagnostics) {
        nlohmann::json e = {{"severity", toString(d.severity)}, {"code", d.code},
                            {"message", d.message.in(lang)},    {"suggestion", d.suggestion.in(lang)},
                            {"message_en", d.message.en},       {"message_zh", d.message.zh},
                            {"suggestion_en", d.suggestion.en}, {"suggestion_zh", d.suggestion.zh}};
        e["stage"] = d.stage >= 0 ? nlohmann::json(d.stage) : nlohmann::json(nullptr);
        if (!d.knob.empty())
            e["knob"] = d.knob;
        diags.push_back(std::move(e));
    }
    return diags;
}

// Each group's size, stride, nodes, link and share of the network; the pipeline's boundaries.
nlohmann::json placementToJson(const Placement& placement)
{
    nlohmann::json groups = nlohmann::json::array();
    for (const GroupPlacement& g : placement.groups)
        groups.push_back({{"group", toString(g.group)},
                          {"size", g.size},
                          {"stride", g.stride},
                          {"nodes", g.nodes},
                          {"link", toString(g.link)},
                          {"leaves", g.leaves},
                          {"network_share", g.network_share},
                          {"all_to_all_share", g.all_to_all_share}});
    // Entry i: pipeline rank i → i + 1 (an interleaved pipeline's last entry wraps to rank 0).
    nlohmann::json boundaries = nlohmann::json::array();
    for (const PipelineBoundary& b : placement.pp_boundaries)
        boundaries.push_back(toString(b.link));
    return {{"gpus", placement.gpus},
            {"nodes", placement.nodes},
            {"groups", std::move(groups)},
            {"pp_boundary_links", std::move(boundaries)}};
}

} // namespace

nlohmann::json reportToJson(const Scenario& sc, const Estimate& est, const std::string& lang, bool explain)
{
    nlohmann::json j;
    j["schema"] = kReportSchema;
    j["scenario"] = sc.name;
    const std::int64_t mtp = est.params.mtp_modules * est.params.mtp_module; // counted in params
    j["model"] = {{"params", est.params.total}, {"active_params", est.params.active}, {"mtp_params", mtp}};
    if (explain)
        j["model"]["terms"] = termsToJson(est.params.terms);
    j["gpus"] = est.gpus;
    if (!sc.cluster.calibration.empty())
        j["calibration"] = termsToJson(sc.cluster.calibration);
    j["microbatches"] = est.microbatches;

    j["memory"] = memoryToJson(sc, est, explain);

    j["flops"] = {{"model_flops_per_step", est.flops.model_flops_per_step},
                  {"hardware_flops_per_step", est.flops.hardware_flops_per_step},
                  {"convention", est.flops.convention}};
    if (explain)
        j["flops"]["terms"] = termsToJson(est.flops.terms);

    j["communication"] = communicationToJson(est, explain);
    j["textbook"] = textbookToJson(textbookRows(sc, est), lang);

    j["placement"] = placementToJson(est.placement);

    const TimeReport& t = est.time;
    j["uncertainty"] = uncertaintyJson(sc, lang);
    j["time"] = {{"step_s", t.step_s},
                 {"compute_s", t.compute_s},
                 {"mean_compute_s", t.mean_compute_s},
                 {"uneven_s", t.uneven_s},
                 {"bubble_s", t.bubble_s},
                 {"idle_s", t.idle_s},
                 {"healthy_step_s", t.healthy_step_s},
                 {"straggler_s", t.straggler_s},
                 {"grad_buckets", t.grad_buckets},
                 {"grad_buckets_hidden", t.grad_buckets_hidden},
                 {"last_bucket_s", t.last_bucket_s},
                 {"bubble_fraction", t.bubble_fraction},
                 {"exposed_comm_s", t.exposed_comm_s},
                 {"optimizer_s", t.optimizer_s},
                 {"method", t.method},
                 {"critical_rank", t.critical_rank}};
    if (!t.note.empty())
        j["time"]["note"] = t.note;
    if (explain) {
        j["time"]["terms"] = termsToJson(t.terms);
        j["time"]["layer_ops"] = layerOpsToJson(t.layer_ops, lang);
        if (!t.moe_layer_ops.empty())
            j["time"]["moe_layer_ops"] = layerOpsToJson(t.moe_layer_ops, lang);
    }
    const ThroughputReport& th = est.throughput;
    j["throughput"] = {{"tokens_per_s", th.tokens_per_s},
                       {"model_tflops_per_gpu", th.model_tflops_per_gpu},
                       {"hardware_tflops_per_gpu", th.hardware_tflops_per_gpu},
                       {"mfu", th.mfu},
                       {"hfu", th.hfu}};
    if (explain)
        j["throughput"]["terms"] = termsToJson(th.terms);

    j["walls"] = wallsToJson(est, lang, explain);

    j["diagnostics"] = diagnosticsToJson(est, lang);
    return j;
}

} // namespace parascope
