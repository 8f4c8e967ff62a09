#include "models/gantt_layout.h"

#include <algorithm>
#include <array>
#include <tuple>

namespace parascope::ui {

std::vector<GanttSegment> ganttSegments(const Timeline& t)
{
    // The simulator orders ops by (rank, start); a counting pass splits them by (rank, lane)
    // keeping that order: O(n), no sort on the slider path.
    const int ranks = std::max(0, t.ranks);
    std::vector<std::size_t> offset(std::size_t(ranks) * 2 + 1, 0);
    bool ordered = true;
    for (std::size_t i = 0; i < t.ops.size(); ++i) {
        const TimedOp& op = t.ops[i];
        if (op.rank < 0 || op.rank >= ranks) {
            ordered = false;
            break;
        }
        if (i > 0) {
            const TimedOp& prev = t.ops[i - 1];
            ordered = ordered && (prev.rank < op.rank || (prev.rank == op.rank && prev.start_s <= op.start_s));
        }
        ++offset[std::size_t(op.rank) * 2 + (op.comm_lane ? 1 : 0) + 1];
    }
    std::vector<GanttSegment> out(t.ops.size());
    if (ordered) {
        for (std::size_t k = 1; k < offset.size(); ++k)
            offset[k] += offset[k - 1];
        for (std::size_t i = 0; i < t.ops.size(); ++i) {
            const TimedOp& op = t.ops[i];
            const std::size_t slot = std::size_t(op.rank) * 2 + (op.comm_lane ? 1 : 0);
            out[offset[slot]++] = {op.rank, op.comm_lane ? 1 : 0, op.start_s, op.end_s, op.type, op.microbatch, int(i)};
        }
        return out;
    }
    for (std::size_t i = 0; i < t.ops.size(); ++i) {
        const TimedOp& op = t.ops[i];
        out[i] = {op.rank, op.comm_lane ? 1 : 0, op.start_s, op.end_s, op.type, op.microbatch, int(i)};
    }
    std::stable_sort(out.begin(), out.end(), [](const GanttSegment& a, const GanttSegment& b) {
        if (a.row != b.row)
            return a.row < b.row;
        if (a.lane != b.lane)
            return a.lane < b.lane;
        return a.start < b.start;
    });
    return out;
}

std::vector<GanttRect> layoutGantt(const std::vector<GanttSegment>& segments, const TimeToPixel& map, double min_px)
{
    std::vector<GanttRect> out;
    bool open = false;
    GanttRect cur;
    // Time per op type inside the open rectangle: a merged one takes its dominant type's colour.
    std::array<double, std::size_t(OpType::Optimizer) + 1> time_by_type{};
    const auto flush = [&] {
        if (open) {
            cur.type = OpType(std::max_element(time_by_type.begin(), time_by_type.end()) - time_by_type.begin());
            if (cur.mixed) {
                double total = 0, second = -1;
                for (std::size_t t = 0; t < time_by_type.size(); ++t) {
                    total += time_by_type[t];
                    if (OpType(t) != cur.type && time_by_type[t] > second) {
                        second = time_by_type[t];
                        cur.second = OpType(t);
                    }
                }
                cur.second_share = total > 0 ? second / total : 0;
            }
            out.push_back(cur);
        }
        open = false;
        time_by_type.fill(0);
    };
    for (const GanttSegment& s : segments) {
        if (s.end < map.t0 || s.start > map.t1)
            continue; // not visible
        const double x0 = map.x(std::max(s.start, map.t0));
        const double x1 = map.x(std::min(s.end, map.t1));
        const bool narrow = x1 - x0 < min_px;
        const bool same_lane = open && cur.row == s.row && cur.lane == s.lane;
        // Merge a touching segment into the open rectangle while that is still narrower than a
        // pixel (or a narrow one of the same type into a wider one): dense stretches become
        // about one rectangle per pixel, each in the colour of the op type that fills most of it
        // (one long merged run would hide the pattern).
        const bool cur_narrow = cur.x1 - cur.x0 < min_px;
        if (same_lane && x0 <= cur.x1 + min_px && (cur_narrow || (narrow && s.type == cur.type))) {
            cur.x1 = std::max(cur.x1, x1);
            cur.mixed = cur.mixed || cur.type != s.type;
            cur.microbatch = -1;
            ++cur.count;
            time_by_type[std::size_t(s.type)] += s.end - s.start;
            continue;
        }
        flush();
        cur = GanttRect{s.row, s.lane, x0, x1, s.type, false, s.microbatch, 1, s.op};
        time_by_type[std::size_t(s.type)] += s.end - s.start;
        open = true;
    }
    flush();
    return out;
}

int segmentAt(const std::vector<GanttSegment>& segments, int row, int lane, double t)
{
    // First segment of (row, lane) that ends after t.
    auto it = std::lower_bound(segments.begin(), segments.end(), std::make_tuple(row, lane, t),
                               [](const GanttSegment& s, const std::tuple<int, int, double>& key) {
                                   const auto [r, l, time] = key;
                                   if (s.row != r)
                                       return s.row < r;
                                   if (s.lane != l)
                                       return s.lane < l;
                                   return s.end < time;
                               });
    if (it != segments.end() && it->row == row && it->lane == lane && it->start <= t && t <= it->end)
        return int(it - segments.begin());
    return -1;
}

} // namespace parascope::ui
