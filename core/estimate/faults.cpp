#include "estimate/faults.h"

#include <algorithm>
#include <cmath>

namespace parascope {

ClusterSpec withDegradedLink(const ClusterSpec& cluster, const FaultConfig& faults)
{
    ClusterSpec c = cluster;
    const double share = faults.linkFraction();
    if (share >= 1)
        return c;
    c.inter_node.bytes_per_s *= share;
    for (MeasuredCollective& m : c.measured_collectives)
        if (m.nodes > 1)
            m.busbw_bytes_per_s *= share;
    return c;
}

bool stragglerApplies(const Scenario& sc)
{
    return sc.faults.straggler() && sc.faults.straggler_stage < std::max(1, sc.parallel.pp);
}

namespace {

// A pass of f× the compute with the same communication inside it.
double slower(double total, double comm, double f) { return comm + f * (total - comm); }

} // namespace

void slowStragglerRank(OpCostModel& costs, const Scenario& sc, Explain explain)
{
    if (!stragglerApplies(sc))
        return;
    const double f = sc.faults.stragglerFactor();
    const int rank = sc.faults.straggler_stage;
    double before = 0, after = 0;
    for (int s = 0; s < int(costs.stages.size()); ++s) {
        if (costs.geometry.rankOfStage(s) != rank)
            continue;
        StageOpCost& st = costs.stages[std::size_t(s)];
        StageCost& c = st.cost;
        before += c.forward_s + c.backward_s();
        c.forward_s = slower(c.forward_s, c.forward_comm_s, f);
        c.backward_input_s = slower(c.backward_input_s, c.backward_comm_s, f);
        c.backward_weight_s *= f;
        after += c.forward_s + c.backward_s();
        const double gpu = st.compute_s - st.host_wait_s; // the host issuing it is not slower
        st.compute_s = st.host_wait_s + f * gpu;
        st.gemm_s *= f;
        st.attention_s *= f;
        st.recompute_s *= f;
    }
    if (std::size_t(rank) < costs.tails.size())
        costs.tails[std::size_t(rank)].optimizer_s *= f;
    if (explain == Explain::NumbersOnly)
        return;
    costs.terms.push_back({"time.straggler_microbatch", after, "s",
                           "Σ over the rank's stages: comm + f · (pass − comm), f = 1 + slowdown/100",
                           "f = " + num(f) + " on pipeline rank " + num(double(rank)) + ": " + num(before) + " s → "
                               + num(after) + " s per microbatch (forward + backward)",
                           "one slow GPU holds its TP/CP/EP group at every collective, its pipeline at every send "
                           "and every other pipeline at the gradient reduction (faults.straggler_slowdown_pct, "
                           "faults.straggler_stage; Lin et al., OSDI 2025: stragglers by what-if analysis)"});
}

StepSimulation simulateWithStraggler(const Scenario& sc, OpCostModel& costs, long long microbatches,
                                     const EvaluateOptions& options)
{
    if (!stragglerApplies(sc))
        return simulateStep(sc, costs, microbatches, options);
    EvaluateOptions quiet = options;
    quiet.record_timeline = false;
    const double healthy = simulateStep(sc, costs, microbatches, quiet).time.step_s;
    slowStragglerRank(costs, sc, options.explain);
    StepSimulation step = simulateStep(sc, costs, microbatches, options);
    step.time.healthy_step_s = healthy;
    step.time.straggler_s = std::max(0.0, step.time.step_s - healthy);
    return step;
}

std::vector<Term> faultTerms(const Scenario& sc, double healthy_step_s, double step_s)
{
    std::vector<Term> terms;
    if (healthy_step_s > 0)
        terms.push_back({"time.straggler", step_s - healthy_step_s, "s", "step with the straggler − step without",
                         num(step_s) + " − " + num(healthy_step_s) + " (+"
                             + num(std::round((step_s / healthy_step_s - 1) * 1000) / 10) + " %)",
                         "the schedule simulated twice, with and without the slow GPU's rank slowed (what-if "
                         "analysis, Lin et al., OSDI 2025)"});
    if (sc.faults.link_bandwidth_pct < 100) {
        const LinkSpec& healthy = sc.cluster.inter_node;
        terms.push_back({"comm.degraded_link", healthy.bytes_per_s * sc.faults.linkFraction(), "bytes/s",
                         "inter-node bandwidth per GPU · link share",
                         num(healthy.bytes_per_s) + " · " + num(sc.faults.linkFraction()),
                         "a ring passes every node and each group across nodes has one member group through the "
                         "degraded node, which the job waits for: every collective across nodes at its pace "
                         "(faults.link_bandwidth_pct)"});
    }
    return terms;
}

} // namespace parascope
