#pragma once
// The schedule table: one row per pipeline schedule with everything the engine, the search and
// the screens know about it. How its stages sit on the ranks (loop, V shape, two directions), whether
// it splits the backward, how many chunks a rank holds, its generator and what that generator
// requires, its closed-form peak in-flight count and bubble (with their formulas and sources), its
// en/zh label and whether the search tries it. A new schedule is one row here, one generator
// (schedule/generators.cpp) and their tests (tests/core/tst_schedules.cpp).

#include "types/diagnostic.h"
#include "types/parallel_config.h"
#include "types/term.h"

#include <array>
#include <span>
#include <string>

namespace parascope {

struct PipelineSchedule;
struct ScheduleRequest;

// Where the virtual stages sit. Loop: stage s on rank s mod p (1F1B, interleaved). VShape: rank r
// holds stages r and 2p−1−r, so rank 0 holds the first and the last chunk (Qi et al. 2024
// "Pipeline parallelism with controllable memory"; DeepSeek-V3 report §3.2.1). Bidirectional:
// DualPipe's two copies of the model, one fed from each end (stages 0…p−1 forward, p + j of the
// reverse direction on rank p−1−j); each rank holds two of the model's p stages.
enum class StagePlacement { Loop, VShape, Bidirectional };

// Whether the strategy search tries the schedule: never, always, or only with a pipeline (pp > 1).
enum class SearchUse { Never, Always, WithPipeline };

// The closed forms' inputs: pipeline ranks, chunks per rank (vpp), microbatches.
struct PipelineShape {
    int pp = 1, vpp = 1;
    long long m = 1;
};

struct ScheduleRow {
    ScheduleKind kind;
    Localized label; // what the screens and the reports call it
    StagePlacement placement;
    bool split_backward; // backward split into input (B/I) and weight (W) gradients
    bool chunks_from_vpp; // a rank holds vpp chunks (else 2 for V shape / bidirectional, else 1)
    bool overlaps_f_and_b; // runs a forward and a backward overlapped (F&B), each hiding the other's all-to-alls
    SearchUse search;
    PipelineSchedule (*generate)(const ScheduleRequest&);
    std::string (*requirement)(const ScheduleRequest&); // why it cannot be generated; "" when it can
    double (*inflight)(const PipelineShape&, int rank); // peak in-flight microbatches of a rank
    Term (*inflight_term)(const PipelineShape&, int rank); // its formula, substitution and source
    double (*bubble)(const PipelineShape&); // idle time in unit costs F = 1, B = 2, Bi = W = 1, F&B = 3
    Term (*bubble_term)(const PipelineShape&); // the bubble fraction as a lecture writes it

    bool mirrored() const { return placement != StagePlacement::Loop; }
};

// Every schedule, in ScheduleKind order.
std::span<const ScheduleRow> scheduleTable();
// Rows in ScheduleKind order (tst_schedules scheduleTableCoversEveryKindInOrder); the table is
// read inline, as the simulator asks for a schedule's traits once per op.
inline constexpr std::size_t kScheduleKinds = 7;
extern const std::array<ScheduleRow, kScheduleKinds> kSchedules;
inline const ScheduleRow& scheduleRow(ScheduleKind kind)
{
    const auto i = std::size_t(kind);
    return i < kSchedules.size() ? kSchedules[i] : kSchedules[std::size_t(ScheduleKind::OneFOneB)];
}

} // namespace parascope
