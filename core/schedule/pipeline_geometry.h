#pragma once
// The pipeline's geometry, computed once per evaluation and handed to memory, op costs, the
// schedules, the simulator and the Gantt chart: how many ranks and chunks, which rank holds which
// virtual stage, how many (MoE) layers each stage and each rank has, and which rank holds the
// embedding and the output layer. Every "is this a V shape" and "chunks per rank" lives here.

#include "schedule/schedule_table.h"
#include "types/model_spec.h"
#include "types/parallel_config.h"

#include <vector>

namespace parascope {

// The schedule's shape, from its row of the schedule table (schedule/schedule_table.h).
// V shapes (zb-v, dualpipe-v): rank r holds virtual stages r and 2p−1−r, so rank 0 holds the
// first and the last chunk. Bidirectional DualPipe (DeepSeek-V3 report §3.2.1; deepseek-ai/DualPipe
// dualpipe.py): two copies of the model, one fed from each end of the pipeline. Virtual stages
// 0…p−1 are the forward direction (stage s on rank s), p…2p−1 the reverse direction (its stage j,
// virtual stage p + j, on rank p−1−j); the first half of the microbatches go one way, the second
// half the other. Each rank holds two of the p stages of the model (parameters 2×), so ranks 0
// and p−1 both hold an embedding and an output layer.
inline bool isVShape(ScheduleKind k) { return scheduleRow(k).placement == StagePlacement::VShape; }
inline bool isBidirectional(ScheduleKind k) { return scheduleRow(k).placement == StagePlacement::Bidirectional; }
// Rank r holds virtual stages r and 2p−1−r: the V shapes and DualPipe's two directions.
inline bool mirroredPlacement(ScheduleKind k) { return scheduleRow(k).mirrored(); }
// Schedules that split the backward into input gradient (B/I) and weight gradient (W)
// (Qi et al. 2023, zero bubble).
inline bool splitsBackward(ScheduleKind k) { return scheduleRow(k).split_backward; }
// Virtual stages per rank: vpp for interleaved 1F1B, 2 for V shapes and DualPipe, else 1.
int chunksPerRank(const ParallelConfig& p);
// How often each microbatch passes through a rank (its pipeline sends per rank and direction):
// vpp for interleaved 1F1B, 2 for V shapes, 1 otherwise — DualPipe too, whose microbatches each
// take one of the two directions.
int passesPerRank(const ParallelConfig& p);

// Loop placement: stage s on rank s mod p; mirrored placement: rank r holds r and 2p−1−r.
int rankOfVirtualStage(int stage, int ranks, bool mirrored);

struct StageLayers {
    int rank = 0;
    int layers = 0; // transformer layers on this rank (all its virtual chunks)
    int moe_layers = 0; // of which MoE
    bool has_embedding = false; // input embedding (+ learned positions)
    bool has_output = false; // final norm + output layer (and its loss)
};

struct VirtualStage {
    int rank = 0, chunk = 0;
    int layers = 0, moe_layers = 0; // the rank's layers shared out over its chunks as evenly as possible
};

struct PipelineGeometry {
    ScheduleKind kind = ScheduleKind::OneFOneB;
    int ranks = 1; // PP
    int chunks = 1; // chunksPerRank()
    bool v_shape = false; // isVShape()
    bool bidirectional = false; // isBidirectional(): DualPipe's two model copies
    bool split_backward = false; // splitsBackward()
    std::vector<StageLayers> rank_layers; // per rank
    std::vector<VirtualStage> stages; // per virtual stage, in pipeline order (ranks · chunks)

    int virtualStages() const { return ranks * chunks; }
    int rankOfStage(int stage) const { return rankOfVirtualStage(stage, ranks, mirroredPlacement(kind)); }
    // Of the rank's chunks, the share one microbatch passes through: 1, or ½ for DualPipe (a
    // microbatch takes one of the rank's two stages, passesPerRank()).
    double microbatchShare() const { return bidirectional ? 0.5 : 1.0; }
};

// What is shared out over the pipeline stages: the transformer layers, plus one for the
// embedding and one for the output layer + loss when Megatron accounts for them.
inline long long pipelineSlots(const ModelSpec& m, const ParallelConfig& p)
{
    return (long long)m.layers + (p.account_for_embedding_in_pipeline_split ? 1 : 0)
        + (p.account_for_loss_in_pipeline_split ? 1 : 0);
}

// Even split of the layers by default (a remainder goes one layer each to the first ranks,
// diagnosed separately); `parallel.stage_layers` gives an uneven one.
PipelineGeometry pipelineGeometry(const ModelSpec& m, const ParallelConfig& p);

} // namespace parascope
