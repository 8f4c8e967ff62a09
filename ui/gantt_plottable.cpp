#include "gantt_plottable.h"

#include "chart_style.h"

namespace parascope::ui {

namespace {
// Vertical extent of the lanes inside a row (row r spans r − 0.5 … r + 0.5 in key coordinates).
constexpr double kComputeTop = -0.42, kComputeBottom = 0.22;
constexpr double kCommTop = 0.26, kCommBottom = 0.42;
} // namespace

GanttPlottable::GanttPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis)
{
    setPen(Qt::NoPen);
    setBrush(palette::blue);
}

void GanttPlottable::setSegments(std::vector<GanttSegment> segments, int rows, double makespan)
{
    segments_ = std::move(segments);
    rows_ = rows;
    makespan_ = makespan;
}

QCPRange GanttPlottable::getKeyRange(bool& foundRange, QCP::SignDomain) const
{
    foundRange = rows_ > 0;
    return QCPRange(-0.5, rows_ - 0.5);
}

QCPRange GanttPlottable::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const
{
    foundRange = makespan_ > 0;
    return QCPRange(0, makespan_);
}

int GanttPlottable::segmentAtPixel(const QPointF& pos) const
{
    if (!keyAxis() || !valueAxis())
        return -1;
    const double key = keyAxis()->pixelToCoord(pos.y());
    const int row = int(std::lround(key));
    const double within = key - row;
    int lane = -1;
    if (within >= kComputeTop && within <= kComputeBottom)
        lane = 0;
    else if (within >= kCommTop && within <= kCommBottom)
        lane = 1;
    if (lane < 0 || row < 0 || row >= rows_)
        return -1;
    // A pixel's worth of tolerance in time.
    const double t = valueAxis()->pixelToCoord(pos.x());
    const double tol = std::abs(valueAxis()->pixelToCoord(pos.x() + 1) - t);
    int i = segmentAt(segments_, row, lane, t);
    if (i < 0)
        i = segmentAt(segments_, row, lane, t + tol);
    if (i < 0)
        i = segmentAt(segments_, row, lane, t - tol);
    return i;
}

double GanttPlottable::selectTest(const QPointF& pos, bool onlySelectable, QVariant* details) const
{
    if (onlySelectable && !selectable())
        return -1;
    const int i = segmentAtPixel(pos);
    if (i < 0)
        return -1;
    if (details)
        details->setValue(QCPDataSelection(QCPDataRange(i, i + 1)));
    return mParentPlot->selectionTolerance() * 0.99;
}

void GanttPlottable::draw(QCPPainter* painter)
{
    last_rects_ = 0;
    if (!keyAxis() || !valueAxis() || segments_.empty())
        return;
    QCPAxis* k = keyAxis();
    QCPAxis* v = valueAxis();
    TimeToPixel map;
    map.t0 = v->range().lower;
    map.t1 = v->range().upper;
    map.px0 = v->coordToPixel(map.t0);
    map.px1 = v->coordToPixel(map.t1);
    const std::vector<GanttRect> rects = layoutGantt(segments_, map, 1.0);
    last_rects_ = rects.size();
    painter->setPen(Qt::NoPen);
    painter->setFont(label_font_);
    const QFontMetrics fm(label_font_);
    QColor current;
    for (const GanttRect& r : rects) {
        const double top = k->coordToPixel(r.row + (r.lane == 0 ? kComputeTop : kCommTop));
        const double bottom = k->coordToPixel(r.row + (r.lane == 0 ? kComputeBottom : kCommBottom));
        const QColor c = colourOf(r.type);
        if (c != current) {
            painter->setBrush(c);
            current = c;
        }
        const QRectF rect(QPointF(std::min(r.x0, r.x1), std::min(top, bottom)),
                          QPointF(std::max(r.x0, r.x1) + (std::abs(r.x1 - r.x0) < 1 ? 1 : 0), std::max(top, bottom)));
        painter->drawRect(rect);
        if (r.mixed && r.second_share > 0) { // the next type's share of the time, as a band on top
            QRectF band = rect;
            band.setHeight(rect.height() * r.second_share);
            painter->setBrush(colourOf(r.second));
            painter->drawRect(band);
            painter->setBrush(current);
        }
    }
    // Cell borders (the slot grid): a white line where one op ends and the next begins, when the
    // ops are at least 4 pixels wide — on the communication lane too, where a reduction's
    // gradient buckets follow one another.
    if (cell_borders_) {
        painter->setPen(QPen(Qt::white, 1));
        for (const GanttRect& r : rects) {
            if (r.count != 1 || std::abs(r.x1 - r.x0) < 4)
                continue;
            const double top = k->coordToPixel(r.row + (r.lane == 0 ? kComputeTop : kCommTop));
            const double bottom = k->coordToPixel(r.row + (r.lane == 0 ? kComputeBottom : kCommBottom));
            painter->drawLine(QPointF(std::min(r.x0, r.x1), top), QPointF(std::min(r.x0, r.x1), bottom));
        }
        painter->setPen(Qt::NoPen);
    }
    if (!labels_)
        return;
    // Microbatch numbers where they fit, in white on the compute lane.
    painter->setPen(Qt::white);
    for (const GanttRect& r : rects) {
        if (r.lane != 0 || r.microbatch < 0)
            continue;
        const QString label = QString::number(r.microbatch);
        const double w = std::abs(r.x1 - r.x0);
        if (w < fm.horizontalAdvance(label) + 4)
            continue;
        const double top = k->coordToPixel(r.row + kComputeTop);
        const double bottom = k->coordToPixel(r.row + kComputeBottom);
        const QRectF rect(QPointF(std::min(r.x0, r.x1), std::min(top, bottom)),
                          QPointF(std::max(r.x0, r.x1), std::max(top, bottom)));
        painter->drawText(rect, Qt::AlignCenter, label);
    }
}

void GanttPlottable::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const
{
    painter->setPen(Qt::NoPen);
    painter->setBrush(brush());
    painter->drawRect(rect.adjusted(2, 2, -2, -2));
}

} // namespace parascope::ui
