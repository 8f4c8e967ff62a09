#pragma once
// The charts that can be exported (File → Export, `parascope --export KIND`), with their names.

#include "util/enum_names.h"

namespace parascope::ui {

// Slots: the timeline drawn as its slot grid (schedule/slot_grid.h). Walls: the four walls
// (walls_view.h). Collective: the Collectives tab's collective at its current step (collective_chart.h).
// MemoryTime: memory over the step (memory_time_chart.h).
enum class ChartKind { Memory, Timeline, Communication, Sweep, Search, Slots, Walls, Collective, MemoryTime };
inline constexpr EnumName<ChartKind> kChartKindNames[] = {
    {ChartKind::Memory, "memory"}, {ChartKind::Timeline, "timeline"},     {ChartKind::Communication, "communication"},
    {ChartKind::Sweep, "sweep"},   {ChartKind::Search, "search"},         {ChartKind::Slots, "slots"},
    {ChartKind::Walls, "walls"},   {ChartKind::Collective, "collective"}, {ChartKind::MemoryTime, "memory-time"}};
constexpr std::span<const EnumName<ChartKind>> enumNames(ChartKind) { return kChartKindNames; }
inline const char* toString(ChartKind k) { return nameOf(k); }

} // namespace parascope::ui
