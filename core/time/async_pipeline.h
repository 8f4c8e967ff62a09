#pragma once
// Pipelines without a flush (parallel.async_pipeline): PipeDream (Narayanan et al., SOSP 2019)
// and PipeDream-2BW (Narayanan et al., ICML 2021) run 1F1B's steady state for ever. A flushed
// 1F1B step (PipeDream-Flush) fills and drains the pipeline around every optimizer step; without
// a flush the next step's forwards fill this step's drain, so every rank does one microbatch's
// forward and backward per period, paced by the busiest rank:
//   step = m · max_r(busy_r per microbatch) + updates · (exposed reduction tail) + optimizer,
// no bubble. PipeDream updates after every microbatch (updates = m: m reductions, m optimizer
// steps, op_costs.cpp) and keeps a weight version per microbatch in flight (weight stashing,
// memory/stage_memory.cpp); 2BW accumulates over m ≥ p microbatches, updates once (updates = 1)
// and keeps two versions. The price is staleness: the weights a microbatch's forward uses are
// older than the latest update (2BW: one update on every stage; PipeDream: p − 1 − s on stage s).

#include "schedule/simulator.h"
#include "time/op_costs.h"
#include "types/parallel_config.h"
#include "types/term.h"

namespace parascope {

struct AsyncStep {
    int critical = 0; // the busiest rank, which paces the steady state
    double period_s = 0; // one microbatch on it
    double step_s = 0;
    double tail_exposed_s = 0; // every update's exposed reduction and gather
};

// `tl` simulated m_sim microbatches of 1F1B with the scenario's tails; m is the step's count.
AsyncStep asyncSteadyState(const ParallelConfig& p, const Timeline& tl, long long m, long long m_sim);

// Weight updates per step: m for PipeDream, 1 otherwise.
double weightUpdatesPerStep(const ParallelConfig& p, long long m);

// Weights a stage's forward is behind the latest update: 2BW 1, PipeDream p − 1 − stage, 0 flushed.
int staleness(const ParallelConfig& p, int stage);

// The term that explains the step of an asynchronous pipeline.
Term asyncTerm(const ParallelConfig& p, const AsyncStep& a, long long m);

} // namespace parascope
