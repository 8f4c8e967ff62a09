#include "schedule/action.h"

namespace parascope {

char opLetter(OpKind k)
{
    switch (k) {
    case OpKind::Forward: return 'F';
    case OpKind::Backward: return 'B';
    case OpKind::BackwardInput: return 'I';
    case OpKind::BackwardWeight: return 'W';
    case OpKind::ForwardBackward: return 'X';
    }
    return '?';
}

std::string toString(const Action& a)
{
    if (a.kind == OpKind::ForwardBackward)
        return "(" + std::to_string(a.stage) + "F" + std::to_string(a.microbatch) + ";" + std::to_string(a.b_stage)
            + "B" + std::to_string(a.b_microbatch) + ")";
    return std::to_string(a.stage) + opLetter(a.kind) + std::to_string(a.microbatch);
}

int PipelineSchedule::chunkOfStage(int stage) const { return stage / ranks; }

bool PipelineSchedule::carries(int stage, int microbatch) const
{
    if (!bidirectional())
        return true;
    return (stage < ranks) == (microbatch < microbatches / 2);
}

std::size_t PipelineSchedule::actionCount() const
{
    std::size_t n = 0;
    for (const auto& list : actions)
        n += list.size();
    return n;
}

} // namespace parascope
