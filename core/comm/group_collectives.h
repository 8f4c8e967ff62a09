#pragma once
// The communication plan one parallel group at a time: each function returns the collectives its
// group issues in one training step, per GPU of the busiest pipeline stage, each with the
// algorithm the engine assumes (CommEntry::algorithm). communicationPlan (comm/comm_volume.h)
// is their concatenation, in this order.

#include "comm/comm_volume.h"

#include <vector>

namespace parascope {

// TP without SP: all-reduces of the activations (Shoeybi et al. 2019 §3).
std::vector<CommEntry> tensorParallelCollectives(const CommInputs& in);
// TP with SP: all-gathers and reduce-scatters (Korthikanti et al. 2022 §4.2.2), FP8 gathers.
std::vector<CommEntry> sequenceParallelCollectives(const CommInputs& in);
// CP: ring sends of K/V, Ulysses all-to-alls, or the K/V all-gather.
std::vector<CommEntry> contextParallelCollectives(const CommInputs& in);
// EP: dispatch and combine all-to-alls (pairwise, or DeepEP's).
std::vector<CommEntry> expertParallelCollectives(const CommInputs& in);
// PP: the activation and gradient sends over every stage boundary; DualPipe's mirrored pair.
std::vector<CommEntry> pipelineParallelCollectives(const CommInputs& in);
// DP over dp·cp and the expert-data-parallel group: gradients and parameters by ZeRO stage,
// FSDP's per-layer gathers, HSDP's replica all-reduce.
std::vector<CommEntry> dataParallelCollectives(const CommInputs& in);

} // namespace parascope
