#include "estimate/evaluate.h"

#include "comm/comm_volume.h"
#include "estimate/diagnostics.h"
#include "estimate/step_time.h"
#include "memory/model_states.h"
#include "memory/stage_memory.h"
#include "model/flops.h"
#include "schedule/pipeline_closed_form.h"

#include <algorithm>

namespace parascope {

const char* toString(Severity s)
{
    switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
    }
    return "?";
}

bool Estimate::hasErrors() const
{
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

bool Estimate::has(const std::string& code) const
{
    return std::any_of(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& d) { return d.code == code; });
}

Estimate evaluate(const Scenario& sc)
{
    Estimate est;
    est.params = countParameters(sc.model);
    est.gpus = sc.parallel.gpus();
    est.diagnostics = configurationDiagnostics(sc);

    // A batch that does not divide still gets numbers, for the nearest whole microbatch count.
    const long long per_step = std::max<long long>(1, (long long)sc.training.micro_batch * sc.parallel.dp);
    est.microbatches = std::max(1LL, (long long)(sc.training.global_batch / per_step));

    const std::vector<StageLayers> layout = layoutStages(sc.model, sc.parallel);
    est.placement = placeRanks(sc.parallel, sc.cluster);
    const std::vector<double> inflight =
        inflightMicrobatches(sc.parallel.schedule, sc.parallel.pp, sc.parallel.vpp, est.microbatches);
    est.memory = computeMemory(sc, est.params, layout, inflight, est.placement);
    est.flops = trainingFlops(sc.model, sc.training);

    // Communication of one GPU of the busiest stage (most layers; the last on a tie, which also
    // holds the output layer).
    const StageLayers* busiest = &layout.front();
    for (const StageLayers& s : layout)
        if (s.layers >= busiest->layers)
            busiest = &s;
    const StageParams params = stageParams(est.params, *busiest, sc.parallel);
    CommInputs ci{sc.model, sc.parallel, sc.training, sc.cluster, est.placement, est.microbatches,
                  busiest->layers, busiest->moe_layers, params.dense, params.experts};
    est.communication = communicationPlan(ci);

    estimateStepTime(sc, layout, est);

    std::vector<Diagnostic> outcome = outcomeDiagnostics(sc, est);
    est.diagnostics.insert(est.diagnostics.end(), outcome.begin(), outcome.end());
    return est;
}

} // namespace parascope
