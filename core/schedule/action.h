#pragma once
// The pipeline-schedule IR: one Action type, one action list per pipeline rank, in the spirit of
// PyTorch's pipelining IR ("0F1" = stage 0, forward, microbatch 1; "1B0", "0I3", "0W3";
// "(0F3;7B2)" = a forward and a backward overlapped on one rank, DualPipe style).
// Generation, validation, simulation, drawing and trace export all read the same lists.

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

// Loop placement: stage s on rank s mod p; V placement: rank r holds r and 2p−1−r.
// The one place the stage→rank map lives; schedules and the cost model both use it.
int rankOfVirtualStage(int stage, int ranks, bool v_shape);

struct PipelineSchedule {
    ScheduleKind kind = ScheduleKind::OneFOneB;
    int ranks = 1;          // pipeline ranks (PP)
    int chunks = 1;         // virtual stages per rank: vpp for interleaved, 2 for V shapes
    int microbatches = 1;
    std::vector<std::vector<Action>> actions; // one list per rank

    int stages() const { return ranks * chunks; }
    bool vShape() const { return kind == ScheduleKind::ZbV || kind == ScheduleKind::DualPipeV; }
    int rankOfStage(int stage) const { return rankOfVirtualStage(stage, ranks, vShape()); }
    int chunkOfStage(int stage) const;
    std::size_t actionCount() const;
};

} // namespace parascope
