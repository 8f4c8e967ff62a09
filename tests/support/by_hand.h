#pragma once
// Helpers of the by-hand derivation tests (tst_step_by_hand, tst_kernels_by_hand): a relative
// comparison that prints both numbers, and the op costs of the first pipeline stage as the
// simulator gets them.

#include "schedule/pipeline_geometry.h"
#include "scenario_fixture.h"
#include "time/op_costs.h"

#include <QString>

#include <cmath>

namespace parascope::test {

// |engine − hand| ≤ rel·|hand|.
inline bool near(double engine, double hand, double rel = 1e-9)
{
    return std::fabs(engine - hand) <= rel * std::fabs(hand);
}

inline QString versus(const char* what, double engine, double hand)
{
    return QStringLiteral("%1: engine %2, by hand %3")
        .arg(QLatin1String(what))
        .arg(engine, 0, 'g', 15)
        .arg(hand, 0, 'g', 15);
}

// Llama-2 7B (L 32, h = q = kv = 4096, a 32 heads of 128, f 11008 SwiGLU) on the DGX H100 preset
// with TP = tp, PP = DP = 1, seq 4096, micro batch 1 (T = 4096 tokens), global batch 8 (m = 8).
inline Scenario llama7bOnH100(int tp, Recompute recompute)
{
    Scenario sc = presetScenario("llama2-7b", "dgx-h100", tp, 1, 1);
    sc.training.seq_len = 4096;
    sc.training.micro_batch = 1;
    sc.training.global_batch = 8;
    sc.training.recompute = recompute;
    return sc;
}

// The plan's entry of (group, collective); null when there is none.
inline const CommEntry* findComm(const Estimate& e, Group group, Collective collective)
{
    for (const CommEntry& c : e.communication)
        if (c.group == group && c.collective == collective)
            return &c;
    return nullptr;
}

inline StageCost firstStageCost(const Scenario& sc)
{
    const Estimate e = evaluate(sc);
    return opCosts(sc, e.params, pipelineGeometry(sc.model, sc.parallel), e.communication).stages.front().cost;
}

} // namespace parascope::test
