#pragma once
// Faults and stragglers (FaultConfig, types/scenario.h): what each what-if does to the step.
//   straggler: one GPU's kernels take f = 1 + slowdown/100 times as long. Its TP/CP/EP group
//     waits for it at every collective, so every virtual stage of its pipeline rank computes f×
//     as long (communication inside the op stays: the links are not slower), and so does its
//     optimizer step. The other pipelines wait for it at the gradient reduction, so the job's
//     step is that pipeline's. The step is simulated twice, with and without the slowdown, and
//     the straggler's loss is the difference (the what-if of Lin et al., OSDI 2025).
//   degraded link: one node's network links at a share s of their bandwidth. A ring passes every
//     node, and each group that crosses nodes has one member group through the degraded node,
//     which the whole job waits for: every collective across nodes runs at s × the inter-node
//     bandwidth (the link's datasheet figure and the measured collectives that cross nodes).
// Hangs, loss spikes and the NCCL timeout are events the stability wall counts (estimate/walls.h).

#include "time/op_costs.h"
#include "time/step_time.h"
#include "types/scenario.h"

namespace parascope {

// The cluster with one node's links at `faults.linkFraction()`; the cluster itself when healthy.
ClusterSpec withDegradedLink(const ClusterSpec& cluster, const FaultConfig& faults);

// Whether the straggler what-if applies: a slowdown on a pipeline rank that exists.
bool stragglerApplies(const Scenario& sc);

// Slows the straggler's pipeline rank by its factor: the compute of each of its virtual stages
// and its optimizer step. Adds the term that explains it unless NumbersOnly.
void slowStragglerRank(OpCostModel& costs, const Scenario& sc, Explain explain);

// The step simulated as simulateStep does; with a straggler, once without it (numbers only, for
// TimeReport::healthy_step_s and straggler_s) and then with its rank slowed.
StepSimulation simulateWithStraggler(const Scenario& sc, OpCostModel& costs, long long microbatches,
                                     const EvaluateOptions& options);

// The terms that explain the what-ifs in force: the straggler's share of the step (from the
// two simulations) and the degraded link's bandwidth. Empty on a healthy job.
std::vector<Term> faultTerms(const Scenario& sc, double healthy_step_s, double step_s);

} // namespace parascope
