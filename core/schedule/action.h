#pragma once
// The pipeline-schedule IR: one Action type, one action list per pipeline rank, in the spirit of
// PyTorch's pipelining IR ("0F1" = stage 0, forward, microbatch 1; "1B0", "0I3", "0W3";
// "(0F3;7B2)" = a forward and a backward overlapped on one rank, DualPipe style).
// Generation, validation, simulation, drawing and trace export all read the same lists.

#include "schedule/pipeline_geometry.h"
#include "types/parallel_config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace parascope {

enum class OpKind : std::uint8_t {
    Forward, // F
    Backward, // B: input and weight gradients together
    BackwardInput, // I: input gradient only (zero-bubble split)
    BackwardWeight, // W: weight gradient only
    ForwardBackward, // F&B: a forward and a backward overlapped (DualPipe, DualPipeV)
};
char opLetter(OpKind k); // F, B, I, W, X

struct Action {
    OpKind kind = OpKind::Forward;
    int stage = 0; // virtual stage; for F&B the stage of the forward half
    int microbatch = 0; // for F&B the microbatch of the forward half
    int b_stage = -1; // F&B only: the backward half (always a full B)
    int b_microbatch = -1;
};
std::string toString(const Action& a); // "0F1", "(0F3;7B2)"

// Where a schedule's stages sit and where microbatches enter and leave, read once from its row:
// the one definition behind PipelineSchedule's questions, and the form the simulator keeps (it
// asks for every op).
struct StageLayout {
    int ranks = 1, stages = 1;
    bool bidirectional = false, mirrored = false;
    // Where a microbatch enters and leaves: stages 0 and stages − 1, and for DualPipe also the
    // reverse direction's p and the forward direction's p − 1.
    bool isFirst(int stage) const { return stage == 0 || (bidirectional && stage == ranks); }
    bool isLast(int stage) const { return stage == stages - 1 || (bidirectional && stage == ranks - 1); }
    int rankOf(int stage) const { return rankOfVirtualStage(stage, ranks, mirrored); }
};

struct PipelineSchedule {
    ScheduleKind kind = ScheduleKind::OneFOneB;
    int ranks = 1; // pipeline ranks (PP)
    int chunks = 1; // virtual stages per rank (chunksPerRank())
    int microbatches = 1;
    std::vector<std::vector<Action>> actions; // one list per rank

    int stages() const { return ranks * chunks; }
    bool vShape() const { return isVShape(kind); }
    bool bidirectional() const { return isBidirectional(kind); }
    StageLayout layout() const { return {ranks, stages(), bidirectional(), mirroredPlacement(kind)}; }
    int rankOfStage(int stage) const { return layout().rankOf(stage); }
    int chunkOfStage(int stage) const;
    bool isFirstStage(int stage) const { return layout().isFirst(stage); }
    bool isLastStage(int stage) const { return layout().isLast(stage); }
    // Whether the microbatch passes through the stage: all of them, except in DualPipe, where
    // microbatches [0, m/2) take the forward direction (stages 0…p−1) and [m/2, m) the reverse.
    bool carries(int stage, int microbatch) const;
    std::size_t actionCount() const;
};

} // namespace parascope
