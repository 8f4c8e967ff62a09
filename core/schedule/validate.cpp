#include "schedule/validate.h"

#include "schedule/simulator.h"

namespace parascope {

std::vector<std::string> validateSchedule(const PipelineSchedule& s)
{
    std::vector<std::string> problems;
    const int S = s.stages(), m = s.microbatches;
    if (int(s.actions.size()) != s.ranks) {
        problems.push_back("has " + std::to_string(s.actions.size()) + " action lists for " + std::to_string(s.ranks)
                           + " ranks");
        return problems;
    }
    // Per (stage, microbatch): how often F, the input gradient (B or I) and the weight gradient
    // (B or W) appear, and in which order on the rank.
    const std::size_t n = std::size_t(S) * m;
    std::vector<int> f(n, 0), in(n, 0), w(n, 0);
    const auto note = [&](const std::string& what) {
        if (problems.size() < 20)
            problems.push_back(what);
    };
    for (int r = 0; r < s.ranks; ++r) {
        for (const Action& a : s.actions[r]) {
            const auto check = [&](int stage, int mb) -> bool {
                if (stage < 0 || stage >= S || mb < 0 || mb >= m || !s.carries(stage, mb)) {
                    note(toString(a) + " on rank " + std::to_string(r) + " is outside the schedule");
                    return false;
                }
                if (s.rankOfStage(stage) != r) {
                    note(toString(a) + " runs on rank " + std::to_string(r) + " but stage " + std::to_string(stage)
                         + " lives on rank " + std::to_string(s.rankOfStage(stage)));
                    return false;
                }
                return true;
            };
            const auto forward = [&](int stage, int mb) {
                if (check(stage, mb))
                    ++f[std::size_t(stage) * m + mb];
            };
            const auto inputGrad = [&](int stage, int mb, bool with_weight) {
                if (!check(stage, mb))
                    return;
                const std::size_t k = std::size_t(stage) * m + mb;
                if (f[k] == 0)
                    note(toString(a) + " on rank " + std::to_string(r) + " comes before its forward");
                ++in[k];
                if (with_weight)
                    ++w[k];
            };
            switch (a.kind) {
            case OpKind::Forward: forward(a.stage, a.microbatch); break;
            case OpKind::Backward: inputGrad(a.stage, a.microbatch, true); break;
            case OpKind::BackwardInput: inputGrad(a.stage, a.microbatch, false); break;
            case OpKind::BackwardWeight:
                if (check(a.stage, a.microbatch)) {
                    const std::size_t k = std::size_t(a.stage) * m + a.microbatch;
                    if (in[k] == 0)
                        note(toString(a) + " on rank " + std::to_string(r) + " comes before its input gradient");
                    ++w[k];
                }
                break;
            case OpKind::ForwardBackward:
                forward(a.stage, a.microbatch);
                inputGrad(a.b_stage, a.b_microbatch, true);
                break;
            }
        }
    }
    for (int st = 0; st < S; ++st)
        for (int mb = 0; mb < m; ++mb) {
            if (!s.carries(st, mb))
                continue;
            const std::size_t k = std::size_t(st) * m + mb;
            if (f[k] != 1 || in[k] != 1 || w[k] != 1)
                note("stage " + std::to_string(st) + " microbatch " + std::to_string(mb) + ": " + std::to_string(f[k])
                     + " forward, " + std::to_string(in[k]) + " input-gradient and " + std::to_string(w[k])
                     + " weight-gradient ops (want 1 each)");
        }
    if (!problems.empty())
        return problems;

    // Dry run with unit costs (F = 1, B = 2, I = W = 1): the dependencies must be satisfiable.
    SimulationInput dry;
    dry.schedule = &s;
    dry.stages.assign(std::size_t(S), StageCost{1, 1, 1, 0, 0});
    dry.record_ops = false;
    const Timeline t = simulate(dry);
    if (t.deadlock)
        problems.push_back("deadlocks: " + t.problem);
    return problems;
}

} // namespace parascope
