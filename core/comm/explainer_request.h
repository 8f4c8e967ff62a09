#pragma once
// What the collective explainer (the app's Collectives tab, the web edition's "collective") plays
// for one row of an estimate's communication, so that it shows the time the engine charged: the
// row's collective, its bytes per call, its group's GPUs and how many of them share a node, by the
// engine's algorithm in its stepped form, on the cluster with those GPUs per node.

#include "comm/collective_steps.h"
#include "comm/comm_volume.h"

#include <cstdint>
#include <optional>

namespace parascope {

// The operations the explainer steps through (its pickers list them in this order).
inline constexpr Collective kExplainedCollectives[]
    = {Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter, Collective::AllToAll,
       Collective::Broadcast};
bool hasSteppedForm(Collective op);

struct ExplainerRequest {
    Collective op = Collective::AllReduce;
    double bytes = 0;
    int ranks = 0; // at most CollectivePlan::kMaxRanks
    std::int64_t group_gpus = 0; // the row's group, when more than `ranks`
    int gpus_per_node = 1;
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    // A row's: the algorithm the engine charged it by and its time a call (0: not from a row).
    CollectiveAlgorithm charged = CollectiveAlgorithm::Ring;
    double charged_call_s = 0;
};

// nullopt for a row without a step-by-step form (a send/recv, a group of one, no bytes).
std::optional<ExplainerRequest> explainerRequest(const CommEntry& entry);

// The engine's side of the explainer's comparison for a request made from a row, where the engine
// charged the row by an algorithm other than the one the plan names as the engine's: DeepEP's
// deduplicated dispatch has no stepped form (the explainer plays the pairwise exchange, which
// sends a copy per expert) and the plan's own engine figure is the exchange's; the row's time a
// call is what the communication chart adds up. Not where the plan shows fewer GPUs than the group.
void compareWithRow(CollectivePlan& plan, const ExplainerRequest& row);

// `cluster` with at most `gpus_per_node` of a group's GPUs in each node (0: the cluster's).
ClusterSpec withGroupPerNode(ClusterSpec cluster, int gpus_per_node);

} // namespace parascope
