// What a lesson's claims measure on the engine's estimates (lessons.h: measure, checkLesson).

#include "lessons/design_task.h"
#include "lessons/lessons.h"

#include "schedule/pipeline_closed_form.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace parascope {

namespace {

constexpr double kGiB = double(1ull << 30);
constexpr double kMiB = double(1ull << 20);

// Full recompute's working set: the term the memory model writes (memory/stage_memory.cpp).
double workingSet(const StageMemory& st)
{
    for (const Term& t : st.terms)
        if (t.name == "activations.recompute_working_set")
            return t.value;
    return 0;
}

// TP collective calls per layer per microbatch: the plan counts the calls of the busiest stage
// (comm/comm_volume.h, CommInputs).
double tpCollectivesPerLayer(const Estimate& e)
{
    int layers = 0;
    for (const StageMemory& s : e.memory.stages)
        layers = std::max(layers, s.layers);
    double calls = 0;
    for (const CommEntry& entry : e.communication)
        if (entry.group == Group::Tp)
            calls += entry.calls_per_step;
    return layers > 0 && e.microbatches > 0 ? calls / (double(layers) * double(e.microbatches)) : 0.0;
}

// The collective's time on its link per step, the plan's entries of that name added up; NaN when
// the plan has none.
double collectiveSeconds(const Estimate& e, const std::string& key)
{
    double s = 0;
    bool found = false;
    for (const CommEntry& entry : e.communication)
        if (collectiveKey(entry) == key) {
            s += entry.time_s;
            found = true;
        }
    return found ? s : std::numeric_limits<double>::quiet_NaN();
}

} // namespace

std::string collectiveKey(const CommEntry& entry)
{
    return std::string(toString(entry.group)) + "." + toString(entry.collective) + "." + toString(entry.purpose);
}

std::string claimNumber(double v)
{
    std::ostringstream out;
    out.precision(6);
    out << v;
    return out.str();
}

bool isCollectiveKey(const std::string& key)
{
    const std::size_t a = key.find('.');
    const std::size_t b = a == std::string::npos ? a : key.find('.', a + 1);
    return b != std::string::npos && enumFromName<Group>(key.substr(0, a))
        && enumFromName<Collective>(key.substr(a + 1, b - a - 1)) && enumFromName<Purpose>(key.substr(b + 1));
}

double measure(const NumericClaim& c, const Lesson& lesson, std::size_t step, const std::vector<Estimate>& estimates)
{
    constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
    if (step >= estimates.size() || step >= lesson.steps.size())
        return kNone;
    const Estimate& e = estimates[step];
    const ParallelConfig& p = lesson.steps[step].scenario.parallel;
    const std::vector<StageMemory>& stages = e.memory.stages;
    const int stage = c.stage < 0 ? e.memory.peak_stage : c.stage;
    const StageMemory* st = stage < int(stages.size()) ? &stages[std::size_t(stage)] : nullptr;
    const Estimate* other
        = c.step >= 0 && std::size_t(c.step) < estimates.size() ? &estimates[std::size_t(c.step)] : nullptr;
    switch (c.quantity) {
    case Quantity::PeakGib: return e.memory.peak_bytes / kGiB;
    case Quantity::OverCapacityMib: return (e.memory.peak_bytes - e.memory.capacity_bytes) / kMiB;
    case Quantity::CapacityGib: return e.memory.capacity_bytes / kGiB;
    case Quantity::StepS: return e.time.step_s;
    case Quantity::BubbleSimulated: return e.time.bubble_fraction;
    case Quantity::BubbleFormula: return p.pp > 1 ? bubbleFraction(p.schedule, p.pp, p.vpp, e.microbatches) : 0.0;
    case Quantity::ExposedComm: return e.time.step_s > 0 ? e.time.exposed_comm_s / e.time.step_s : 0.0;
    case Quantity::TpCollectivesPerLayer: return tpCollectivesPerLayer(e);
    case Quantity::MemoryGib:
        if (!st)
            return kNone;
        switch (c.part) {
        case MemoryPart::Weights: return st->weights / kGiB;
        case MemoryPart::Gradients: return st->gradients / kGiB;
        case MemoryPart::Optimizer: return st->optimizer / kGiB;
        case MemoryPart::States: return (st->weights + st->gradients + st->optimizer) / kGiB;
        case MemoryPart::Activations: return st->activations / kGiB;
        case MemoryPart::Saved: return (st->activations - workingSet(*st)) / kGiB;
        case MemoryPart::WorkingSet: return workingSet(*st) / kGiB;
        case MemoryPart::Other: return st->other / kGiB;
        case MemoryPart::Total: return st->total() / kGiB;
        }
        return kNone;
    case Quantity::Inflight: return st ? st->inflight_microbatches : kNone;
    case Quantity::ComputeVsStage0: {
        const Timeline& t = e.timeline.timeline;
        const std::size_t r = std::size_t(stage);
        if (!e.timeline.simulated || r >= t.busy_s.size() || t.comm_in_ops_s.size() != t.busy_s.size())
            return kNone;
        const double first = t.busy_s[0] - t.comm_in_ops_s[0];
        return first > 0 ? (t.busy_s[r] - t.comm_in_ops_s[r]) / first - 1 : kNone;
    }
    case Quantity::WallMemory: return e.walls.memory.value;
    case Quantity::WallCommunication: return e.walls.communication.value;
    case Quantity::WallEfficiency: return e.walls.efficiency.value;
    case Quantity::WallStability: return e.walls.stability.value;
    case Quantity::Goodput: return e.walls.stability_report.goodput;
    case Quantity::CheckpointWriteS: return e.walls.stability_report.checkpoint_write_s;
    case Quantity::Mfu: return e.throughput.mfu;
    case Quantity::UnevenStages: return e.walls.losses.uneven_stages;
    case Quantity::CollectiveS: return collectiveSeconds(e, c.collective);
    case Quantity::TrainDays: {
        const DesignTask* task = lessonDesign(lesson);
        return task ? trainingDays(task->tokens, e.throughput.tokens_per_s, e.walls.stability_report.time_goodput)
                    : kNone;
    }
    case Quantity::DpGibSent: {
        double bytes = 0;
        for (const CommEntry& entry : e.communication)
            if (entry.group == Group::Dp || entry.group == Group::Edp)
                bytes += entry.bytes_per_gpu_per_step;
        return bytes / kGiB;
    }
    case Quantity::StepSVs: return other && other->time.step_s > 0 ? e.time.step_s / other->time.step_s - 1 : kNone;
    case Quantity::TokensPerSVs:
        return other && other->throughput.tokens_per_s > 0
            ? e.throughput.tokens_per_s / other->throughput.tokens_per_s - 1
            : kNone;
    }
    return kNone;
}

std::vector<std::string> checkLesson(const Lesson& lesson, const std::vector<Estimate>& estimates)
{
    std::vector<std::string> out;
    const std::string where = "lessons/" + lesson.id + ": ";
    if (estimates.size() != lesson.steps.size()) {
        out.push_back(where + std::to_string(estimates.size()) + " estimates for " + std::to_string(lesson.steps.size())
                      + " steps");
        return out;
    }
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        const LessonExpect& x = lesson.steps[i].expect;
        const Estimate& e = estimates[i];
        const std::string at = where + "steps[" + std::to_string(i) + "].expect.";
        std::string codes;
        for (const Diagnostic& d : e.diagnostics)
            codes += (codes.empty() ? "" : ", ") + d.code;
        codes = "[" + codes + "]";
        const auto check = [&](const std::optional<bool>& claim, bool actual, const char* key) {
            if (claim && *claim != actual)
                out.push_back(at + key + ": claims " + (*claim ? "true" : "false") + ", the engine says "
                              + (actual ? "true" : "false") + "; diagnostics " + codes);
        };
        const bool config_error = e.layoutError() != nullptr;
        const bool warnings = std::any_of(e.diagnostics.begin(), e.diagnostics.end(),
                                          [](const Diagnostic& d) { return d.severity == Severity::Warning; });
        check(x.valid, !config_error, "valid");
        check(x.fits, e.memory.fits && !e.has("out_of_memory"), "fits");
        check(x.no_warnings, !warnings, "no_warnings");
        for (const std::string& code : x.diagnostics_present)
            if (!e.has(code))
                out.push_back(at + "diagnostics_present: " + code + " is not among the diagnostics " + codes);
        for (const std::string& code : x.diagnostics_absent)
            if (e.has(code))
                out.push_back(at + "diagnostics_absent: " + code + " is among the diagnostics " + codes);
        for (const NumericClaim& c : x.numbers) {
            const double v = measure(c, lesson, i, estimates);
            if (!(v >= c.min && v <= c.max))
                out.push_back(at + c.name() + ": the engine gives " + claimNumber(v) + ", the lesson claims "
                              + claimNumber(c.min) + " … " + claimNumber(c.max));
        }
    }
    return out;
}

} // namespace parascope
