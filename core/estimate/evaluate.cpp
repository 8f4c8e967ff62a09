#include "estimate/evaluate.h"

#include "schedule/schedule_table.h"
#include "comm/comm_volume.h"
#include "estimate/diagnostics.h"
#include "estimate/faults.h"
#include "time/op_costs.h"
#include "time/step_time.h"
#include "memory/model_states.h"
#include "memory/stage_memory.h"
#include "model/flops.h"
#include "schedule/pipeline_closed_form.h"

#include <algorithm>

namespace parascope {

bool Estimate::hasErrors() const
{
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

const Diagnostic* Estimate::layoutError() const
{
    for (const Diagnostic& d : diagnostics)
        if (d.severity == Severity::Error && d.code != "out_of_memory")
            return &d;
    return nullptr;
}

bool Estimate::has(const std::string& code) const
{
    return std::any_of(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& d) { return d.code == code; });
}

namespace {

// Shares each group's exposed time (from the simulation's critical rank) out over that group's
// entries in proportion to their link time.
void distributeExposure(std::vector<CommEntry>& comm, const std::vector<std::pair<Group, double>>& by_group,
                        Explain explain)
{
    for (const auto& entry : by_group) {
        // (Not a structured binding: lambdas may capture those only from clang 16 on.)
        const Group group = entry.first;
        const double exposed = entry.second;
        const auto member
            = [&](const CommEntry& c) { return c.group == group || (group == Group::Dp && c.group == Group::Edp); };
        double total = 0;
        for (const CommEntry& c : comm)
            if (member(c))
                total += c.time_s;
        if (total <= 0)
            continue;
        for (CommEntry& c : comm)
            if (member(c))
                c.exposed_s = std::min(c.time_s, exposed * c.time_s / total);
    }
    if (explain == Explain::NumbersOnly)
        return;
    for (CommEntry& c : comm)
        c.terms.push_back({"comm.exposed", c.exposed_s, "s", "the group's exposed time on the critical rank × t/Σt",
                           num(c.exposed_s), std::string("simulated; hidden behind: ") + toString(c.overlap)});
}

} // namespace

Estimate evaluate(const Scenario& input, const EvaluateOptions& options)
{
    Estimate est;
    const Explain explain = options.explain;
    est.params = countParameters(input.model, explain);
    est.gpus = input.parallel.gpus();
    est.diagnostics = configurationDiagnostics(input);

    // A batch that does not divide (diagnosed above) still gets numbers, for the nearest whole
    // microbatch count: FLOPs, tokens and MFU are those of the batch actually processed, so that
    // they stay consistent with the step time.
    const long long per_step = std::max<long long>(1, (long long)input.training.micro_batch * input.parallel.dp);
    est.microbatches = std::max(1LL, (long long)(input.training.global_batch / per_step));
    const bool divides = est.microbatches * per_step == input.training.global_batch;
    // An interleaved layout with more virtual stages than layer slots (the layers, and the
    // embedding and loss where Megatron counts them; diagnosed: vpp_not_divisible) is evaluated
    // with the most chunks that still hold a slot each, so that the work stays bounded by the
    // model (PP 100,000 × VPP 1,024 would be 10^8 empty virtual stages).
    const long long virtual_stages = (long long)std::max(1, input.parallel.pp) * std::max(1, input.parallel.vpp);
    const long long slots = pipelineSlots(input.model, input.parallel);
    const bool too_many_chunks = scheduleRow(input.parallel.schedule).chunks_from_vpp && virtual_stages > slots;
    // Interleaved with one chunk per GPU is 1F1B, as Megatron runs it: its in-flight count too
    // (the interleaved warm-up's 2·(p − r − 1) would double stage 0's activations).
    const bool plain_1f1b = input.parallel.schedule == ScheduleKind::Interleaved && input.parallel.vpp <= 1;
    // One node's links degraded (faults.link_bandwidth_pct): every collective across nodes at its pace.
    const bool degraded = input.faults.link_bandwidth_pct < 100;
    Scenario adjusted;
    if (!divides || too_many_chunks || plain_1f1b || degraded) {
        adjusted = input;
        adjusted.cluster = withDegradedLink(input.cluster, input.faults);
        adjusted.training.global_batch = est.microbatches * per_step;
        if (too_many_chunks)
            adjusted.parallel.vpp = int(std::max(1LL, slots / std::max(1, input.parallel.pp)));
        if (plain_1f1b)
            adjusted.parallel.schedule = ScheduleKind::OneFOneB;
    }
    const Scenario& sc = divides && !too_many_chunks && !plain_1f1b && !degraded ? input : adjusted;

    const PipelineGeometry geometry = pipelineGeometry(sc.model, sc.parallel);
    const std::vector<StageLayers>& layout = geometry.rank_layers;
    est.placement = placeRanks(sc.parallel, sc.cluster);
    est.flops = trainingFlops(sc.model, sc.training, explain);

    // Communication of one GPU of the busiest stage (most layers, counting MTP modules on the
    // output stage as layers; the last on a tie, which also holds the output layer).
    const int mtp = sc.model.mtp_modules;
    const bool mtp_moe = est.params.moe_layers > 0;
    const auto load = [&](const StageLayers& s) { return s.layers + (s.has_output ? mtp : 0); };
    const StageLayers* busiest = &layout.front();
    for (const StageLayers& s : layout)
        if (load(s) >= load(*busiest))
            busiest = &s;
    const StageParams params = stageParams(est.params, *busiest, sc.parallel);
    CommInputs ci{sc.model,       sc.parallel,
                  sc.training,    sc.cluster,
                  est.placement,  est.microbatches,
                  load(*busiest), busiest->moe_layers + (busiest->has_output && mtp_moe ? mtp : 0),
                  params.dense,   params.experts,
                  explain};
    est.communication = communicationPlan(ci);

    // Time: op costs → simulated schedule → step; its peak in-flight microbatches feed memory.
    // A straggler's rank slowed, and the step without it beside (estimate/faults.h).
    OpCostModel costs = opCosts(sc, est.params, geometry, est.communication, explain);
    StepSimulation step = simulateWithStraggler(sc, costs, est.microbatches, options);
    est.time = std::move(step.time);
    if (explain == Explain::Full)
        for (Term& t : faultTerms(input, est.time.healthy_step_s, est.time.step_s))
            est.time.terms.push_back(std::move(t));
    est.timeline = std::move(step.timeline);
    distributeExposure(est.communication, step.exposed_by_group, explain);
    est.memory = computeMemory(sc, est.params, geometry, step.inflight, est.placement, explain);
    est.throughput = computeThroughput(sc, est.time, est.flops, explain);

    std::vector<Diagnostic> outcome = outcomeDiagnostics(sc, est, explain);
    est.diagnostics.insert(est.diagnostics.end(), outcome.begin(), outcome.end());
    est.walls = computeWalls(sc, est, explain);
    return est;
}

} // namespace parascope
