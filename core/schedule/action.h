#pragma once
// The pipeline-schedule IR: one Action type, one action list per pipeline rank, in the spirit of
// PyTorch's pipelining IR ("0F1" = stage 0, forward, microbatch 1; "1B0", "0I3", "0W3";
// "(0F3;7B2)" = a forward and a backward overlapped on one rank, DualPipe style).
// Generation, validation, simulation, drawing and trace export all read the same lists.

#include "parallel/pipeline_geometry.h"
#include "types/parallel_config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace parascope {

enum class OpKind : std::uint8_t {
    Forward,         // F
    Backward,        // B: input and weight gradients together
    BackwardInput,   // I: input gradient only (zero-bubble split)
    BackwardWeight,  // W: weight gradient only
    ForwardBackward, // F&B: a forward and a backward overlapped (DualPipeV)
};
char opLetter(OpKind k); // F, B, I, W, X

struct Action {
    OpKind kind = OpKind::Forward;
    int stage = 0;      // virtual stage; for F&B the stage of the forward half
    int microbatch = 0; // for F&B the microbatch of the forward half
    int b_stage = -1;   // F&B only: the backward half (always a full B)
    int b_microbatch = -1;
};
std::string toString(const Action& a); // "0F1", "(0F3;7B2)"

struct PipelineSchedule {
    ScheduleKind kind = ScheduleKind::OneFOneB;
    int ranks = 1;          // pipeline ranks (PP)
    int chunks = 1;         // virtual stages per rank (chunksPerRank())
    int microbatches = 1;
    std::vector<std::vector<Action>> actions; // one list per rank

    int stages() const { return ranks * chunks; }
    bool vShape() const { return isVShape(kind); }
    int rankOfStage(int stage) const { return rankOfVirtualStage(stage, ranks, vShape()); }
    int chunkOfStage(int stage) const;
    std::size_t actionCount() const;
};

} // namespace parascope
