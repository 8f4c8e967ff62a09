#pragma once
// One QCustomPlot plottable that draws every segment of the pipeline timeline in a single
// draw(): rows are pipeline ranks (key axis), time runs along the value axis; the compute lane
// fills most of a row, the communication lane a thin strip below it. Sub-pixel segments merge
// (gantt_layout), microbatch numbers appear when they fit.

#include "models/gantt_layout.h"

#include <qcustomplot.h>

#include <QFont>

namespace parascope::ui {

class GanttPlottable : public QCPAbstractPlottable {
    Q_OBJECT
public:
    GanttPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis);

    void setSegments(std::vector<GanttSegment> segments, int rows, double makespan);
    const std::vector<GanttSegment>& segments() const { return segments_; }
    int rows() const { return rows_; }
    std::size_t lastDrawnRects() const { return last_rects_; }
    void setLabelsVisible(bool on) { labels_ = on; }
    void setCellBorders(bool on) { cell_borders_ = on; } // a line between ops (the slot grid)
    // The microbatch numbers' font: the chart's tick labels', so a slide's numbers grow with it
    // (numbers that do not fit their bar at that size are left out).
    void setLabelFont(const QFont& f) { label_font_ = f; }
    const QFont& labelFont() const { return label_font_; }

    // Segment under a pixel position, −1 if none.
    int segmentAtPixel(const QPointF& pos) const;

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    QFont label_font_;
    std::vector<GanttSegment> segments_;
    int rows_ = 0;
    double makespan_ = 0;
    bool labels_ = true;
    bool cell_borders_ = false;
    mutable std::size_t last_rects_ = 0;
};

} // namespace parascope::ui
