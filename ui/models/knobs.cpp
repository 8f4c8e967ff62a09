#include "models/knobs.h"

#include "estimate/diagnostic_rules.h"
#include "estimate/diagnostics.h"
#include "types/knobs.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdlib>

namespace parascope::ui {

namespace {

// The errors a layout has on one knob's path (TP that does not divide the heads, PP above the
// layer count, …).
std::vector<std::string> errorsOn(const Scenario& s, const std::string& path)
{
    std::vector<std::string> codes;
    for (const Diagnostic& d : configurationDiagnostics(s))
        if (d.severity == Severity::Error && d.knob == path)
            codes.push_back(d.code);
    return codes;
}

// The values a slider offers: those of the knob table that make no new error on the knob's own
// path — TP = 64 on a 32-head model is never reached by dragging. Errors that another knob
// fixes (too few microbatches for the pipeline: the global batch) stay reachable: "what breaks
// if PP = 16" is a question the class asks. The current value is always kept, valid or not
// (a typed or loaded layout), so the slider shows where the scenario is.
// Whether any configuration rule can put an error on `path` (the rules name the knobs their
// diagnostics highlight, estimate/diagnostic_rules.h): for the others every value is valid, and
// the slider need not evaluate each one (the fault what-ifs, the batch sizes).
bool ruled(const std::string& path)
{
    for (const DiagnosticRule& r : diagnosticRules())
        if (r.phase == RulePhase::OnScenario)
            for (const char* k : r.knobs)
                if (path == k)
                    return true;
    return false;
}

std::vector<long long> validValues(const parascope::Knob& k, const Scenario& s)
{
    if (!ruled(k.path))
        return k.offered(s);
    const std::vector<std::string> now = errorsOn(s, k.path);
    const long long current = k.get(s);
    std::vector<long long> out;
    for (long long v : k.offered(s)) {
        if (v == current) {
            out.push_back(v);
            continue;
        }
        Scenario t = s;
        k.set(t, v);
        bool new_error = false;
        for (const std::string& code : errorsOn(t, k.path))
            new_error = new_error || std::find(now.begin(), now.end(), code) == now.end();
        if (!new_error)
            out.push_back(v);
    }
    return out;
}

} // namespace

const std::vector<Knob>& knobs()
{
    // The sliders of the scenario panel, in this order; what each moves, the rule for what else
    // moves with it, and the values it offers come from the core's knob table (types/knobs.h),
    // the same a sweep and `parascope-cli --set` use. Only the labels are the UI's, so that
    // lupdate sees them (QT_TRANSLATE_NOOP) and the panel translates them.
    static const std::pair<const char*, const char*> kSliders[] = {
        {"training.seq_len", QT_TRANSLATE_NOOP("Knobs", "Sequence length")},
        {"training.micro_batch", QT_TRANSLATE_NOOP("Knobs", "Micro batch")},
        {"training.global_batch", QT_TRANSLATE_NOOP("Knobs", "Global batch")},
        {"parallel.tp", QT_TRANSLATE_NOOP("Knobs", "Tensor parallel (TP)")},
        {"parallel.pp", QT_TRANSLATE_NOOP("Knobs", "Pipeline parallel (PP)")},
        {"parallel.vpp", QT_TRANSLATE_NOOP("Knobs", "Virtual stages (VPP)")},
        {"parallel.dp", QT_TRANSLATE_NOOP("Knobs", "Data parallel (DP)")},
        {"parallel.cp", QT_TRANSLATE_NOOP("Knobs", "Context parallel (CP)")},
        {"parallel.ep", QT_TRANSLATE_NOOP("Knobs", "Expert parallel (EP)")},
        {"parallel.zero", QT_TRANSLATE_NOOP("Knobs", "ZeRO stage")},
        {"training.powersgd_rank", QT_TRANSLATE_NOOP("Knobs", "PowerSGD rank")},
        {"training.topk_permille", QT_TRANSLATE_NOOP("Knobs", "Top-k kept (‰)")},
        {"parallel.zero3_prefetch", QT_TRANSLATE_NOOP("Knobs", "ZeRO-3 prefetch depth (layers)")},
        // The network fabric's what-ifs (types/gpu_spec.h FabricSpec), in the panel's box of their own.
        {"network.nics_per_node", QT_TRANSLATE_NOOP("Knobs", "NICs per node (0: one per GPU)")},
        {"network.nodes_per_leaf", QT_TRANSLATE_NOOP("Knobs", "Nodes per leaf switch (0: non-blocking)")},
        {"network.oversubscription", QT_TRANSLATE_NOOP("Knobs", "Leaf uplink oversubscription (o:1)")},
        // The fault what-ifs (types/scenario.h FaultConfig), in the panel's box of their own.
        {"faults.straggler_slowdown_pct", QT_TRANSLATE_NOOP("Knobs", "Straggler slowdown (%)")},
        {"faults.straggler_stage", QT_TRANSLATE_NOOP("Knobs", "Straggler's stage")},
        {"faults.link_bandwidth_pct", QT_TRANSLATE_NOOP("Knobs", "Degraded link (%)")},
        {"faults.hangs_per_week", QT_TRANSLATE_NOOP("Knobs", "Hangs per week")},
        {"faults.nccl_timeout_min", QT_TRANSLATE_NOOP("Knobs", "NCCL timeout (min)")},
        {"faults.loss_spikes_per_week", QT_TRANSLATE_NOOP("Knobs", "Loss spikes per week")},
    };
    static const std::vector<Knob> list = [] {
        std::vector<Knob> v;
        for (const auto& [path, label] : kSliders) {
            const parascope::Knob* k = parascope::findKnob(path);
            v.push_back({path, label, [k](const Scenario& s) { return validValues(*k, s); }, k->get, k->set});
        }
        return v;
    }();
    return list;
}

const std::vector<Knob>& sweepKnobs()
{
    static const std::vector<Knob> list = [] {
        std::vector<Knob> v = knobs();
        static const std::pair<const char*, const char*> kGpuAxes[] = {
            {"gpus", QT_TRANSLATE_NOOP("Knobs", "GPUs (more data-parallel replicas, same microbatches each)")},
            {"gpus_same_batch", QT_TRANSLATE_NOOP("Knobs", "GPUs (more data-parallel replicas, same global batch)")},
        };
        for (const auto& [path, label] : kGpuAxes) {
            const parascope::Knob* k = parascope::findKnob(path);
            v.push_back({path, label, k->offered, k->get, k->set});
        }
        return v;
    }();
    return list;
}

const Knob* findSweepKnob(const QString& path)
{
    for (const Knob& k : sweepKnobs())
        if (path == QLatin1String(k.path))
            return &k;
    return nullptr;
}

const Knob* findKnob(const QString& path)
{
    for (const Knob& k : knobs())
        if (path == QLatin1String(k.path))
            return &k;
    return nullptr;
}

std::size_t nearestIndex(const std::vector<long long>& values, long long v)
{
    std::size_t best = 0;
    for (std::size_t i = 1; i < values.size(); ++i)
        if (std::llabs(values[i] - v) < std::llabs(values[best] - v))
            best = i;
    return best;
}

} // namespace parascope::ui
