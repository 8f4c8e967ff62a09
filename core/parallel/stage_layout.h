#pragma once
// Which transformer layers live on which pipeline rank, and which rank holds the embedding and
// the output layer. Even split by default; `parallel.stage_layers` gives an uneven one.

#include "types/model_spec.h"
#include "types/parallel_config.h"

#include <vector>

namespace parascope {

struct StageLayers {
    int rank = 0;
    int layers = 0;        // transformer layers on this rank (all its virtual chunks)
    int moe_layers = 0;    // of which MoE
    bool has_embedding = false; // input embedding (+ learned positions)
    bool has_output = false;    // final norm + output layer (and its loss)
};

// For V-shaped schedules (zb-v, dualpipe-v) rank 0 holds the first and the last chunk, so it has
// both the embedding and the output layer.
std::vector<StageLayers> layoutStages(const ModelSpec& m, const ParallelConfig& p);

} // namespace parascope
