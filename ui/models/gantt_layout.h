#pragma once
// The Gantt chart's geometry, apart from the painting: which row and lane a timed op goes to,
// where it lands in pixels for the visible time range, and how segments narrower than a pixel
// merge into one rectangle, so tens of thousands of ops stay cheap to draw. Pure, unit-tested.

#include "schedule/simulator.h"

#include <vector>

namespace parascope::ui {

struct GanttSegment {
    int row = 0; // pipeline rank
    int lane = 0; // 0 compute, 1 communication
    double start = 0, end = 0; // seconds
    OpType type = OpType::F;
    int microbatch = -1;
    int op = -1; // index into the timeline's ops
};

// Linear time → pixel mapping of the visible range.
struct TimeToPixel {
    double t0 = 0, t1 = 1; // visible time range (s)
    double px0 = 0, px1 = 100; // pixel range
    double x(double t) const { return px0 + (t - t0) / (t1 - t0) * (px1 - px0); }
    double t(double x) const { return t0 + (x - px0) / (px1 - px0) * (t1 - t0); }
};

struct GanttRect {
    int row = 0, lane = 0;
    double x0 = 0, x1 = 0; // pixels
    OpType type = OpType::F; // when merged: the type that fills most of the rectangle
    bool mixed = false; // merged ops of different types
    int microbatch = -1; // −1 when merged
    int count = 1; // ops in the rectangle
    int op = -1; // the first op
    // When mixed: the type that fills the next most, and its share of the rectangle's op time (the
    // painter gives it that share of the row's height: 1F1B's forwards at a third of a dense row
    // instead of a row all backward).
    OpType second = OpType::F;
    double second_share = 0;
};

// Segments sorted by (row, lane, start) from the timeline.
std::vector<GanttSegment> ganttSegments(const Timeline& t);

// Rectangles for the visible range; segments narrower than min_px merge with their neighbours
// in the same row and lane.
std::vector<GanttRect> layoutGantt(const std::vector<GanttSegment>& segments, const TimeToPixel& map,
                                   double min_px = 1.0);

// The segment under (row, lane, time), −1 if none (binary search; segments sorted).
int segmentAt(const std::vector<GanttSegment>& segments, int row, int lane, double t);

} // namespace parascope::ui
