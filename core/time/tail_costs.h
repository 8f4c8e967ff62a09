#pragma once
// What each rank runs once the pipeline is done (time/op_costs.cpp puts them in its RankTail):
// the optimizer step, and the compression of gradients that travel compressed.

#include "types/scenario.h"
#include "types/term.h"

#include <vector>

namespace parascope {

// The fused Adam (or SGD) step over the rank's optimizer shard `opt_shard`, memory-bound: read
// the master weights, m, v and the gradient, write master, m, v and the bf16 weights (CPU
// offload replaces it by its own, time/offload_costs.h).
double optimizerStepSeconds(const TrainingConfig& t, double opt_shard, double hbm, std::vector<Term>& terms,
                            Explain explain);

// The gradient compression (training.grad_comm: fp8, 1-bit): a memory-bound pass before each reduction — read the gradient, write it compressed — and its
// mirror after (read the received, write the gradient); 1-bit also reads and writes its fp32
// error-feedback buffer. Once per step, or per microbatch under ZeRO-2/3, whose gradients are
// reduced as they appear. 0 when nothing is compressed or there is no data-parallel reduction.
// `stage_params`: the parameters of the busiest rank's stage; `hbm`: achievable HBM bytes/s.
double gradCompressionSeconds(const Scenario& sc, double stage_params, double microbatches, double hbm,
                              std::vector<Term>& terms, Explain explain);

} // namespace parascope
