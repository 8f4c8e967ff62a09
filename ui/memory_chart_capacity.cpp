// The memory chart's capacity label: placed after every layout, at the pixels it will be drawn
// at, where it hides neither a bar's label nor a bar.
#include "memory_chart.h"
#include "format.h"

#include "models/scenario_model.h"

#include <qcustomplot.h>

#include <QTransform>

#include <algorithm>
#include <cmath>

namespace parascope::ui {

namespace {

struct Spot {
    double x;
    Qt::Alignment align;
};

// Along the dashed line: its left end, its right end, then up to six places between (the free
// stretch of a chart whose first stages are over the capacity is often in the middle); above the
// line first, then below it.
std::vector<Spot> capacitySpots(int n)
{
    std::vector<double> lefts;
    const int between = std::min(6, std::max(0, n - 2));
    for (int k = 1; k <= between; ++k)
        lefts.push_back(std::round(double(k) * (n - 1) / (between + 1)) - 0.55);
    std::vector<Spot> spots;
    for (const Qt::Alignment side : {Qt::AlignBottom, Qt::AlignTop}) {
        spots.push_back({-0.55, Qt::AlignLeft | side});
        spots.push_back({n - 0.45, Qt::AlignRight | side});
        for (const double x : lefts)
            spots.push_back({x, Qt::AlignLeft | side});
    }
    return spots;
}

} // namespace

// The pixels a text item covers (after the axes have their ranges).
QRectF textItemRect(const QCPItemText* t)
{
    const QFontMetricsF fm(t->font());
    QSizeF size(0, 0);
    for (const QString& line : t->text().split(QLatin1Char('\n')))
        size = QSizeF(std::max(size.width(), fm.horizontalAdvance(line)), size.height() + fm.height());
    const QMargins pad = t->padding();
    size += QSizeF(pad.left() + pad.right(), pad.top() + pad.bottom());
    // The box as aligned to its position, then turned about the position as QCPItemText does.
    const Qt::Alignment al = t->positionAlignment();
    const double x = al & Qt::AlignLeft ? 0 : al & Qt::AlignRight ? -size.width() : -size.width() / 2;
    const double y = al & Qt::AlignTop ? 0 : al & Qt::AlignBottom ? -size.height() : -size.height() / 2;
    QTransform turn;
    turn.rotate(t->rotation());
    return turn.mapRect(QRectF(QPointF(x, y), size)).translated(t->position->pixelPosition());
}

// Whether a stage's bar (or, comparing, the pinned scenario's total beside it) reaches into `r`.
bool MemoryChart::barUnder(const QRectF& r) const
{
    const Estimate* a = model_->pinnedEstimate();
    const auto reaches = [&](const MemoryReport& m, double shift, double width) {
        const int n = int(m.stages.size());
        const double lo = plot_->xAxis->pixelToCoord(r.left()), hi = plot_->xAxis->pixelToCoord(r.right());
        const int first = std::max(0, int(std::ceil(lo - shift - width / 2)));
        const int last = std::min(n - 1, int(std::floor(hi - shift + width / 2)));
        for (int i = first; i <= last; ++i)
            if (plot_->yAxis->coordToPixel(m.stages[std::size_t(i)].total() / kGiB) < r.bottom())
                return true;
        return false;
    };
    if (a)
        return reaches(model_->estimate().memory, 0.19, 0.36) || reaches(a->memory, -0.19, 0.36);
    return reaches(model_->estimate().memory, 0, 0.7);
}

// The capacity label on the dashed line where it covers no bar and no bar's label, the whole
// text first, then its number alone; where every such place is taken, where it covers only bars
// (on its white backing, above the red frames); else the dashed line speaks alone (the status
// bar's "peak … / 80.0 GiB" says the capacity) rather than over a bar's total. Lesson 1: an
// 80.2 GiB OOM bar under an 80.0 GiB line.
void MemoryChart::clearCapacityLabel(int n)
{
    if (plot_->axisRect()->width() <= 0)
        return;
    // An invalid configuration hides the chart's layer (ChartView::showInvalid): the label, on the
    // axes' layer above the frames, goes with it.
    if (const QCPLayer* main = plot_->layer(QStringLiteral("main")); main && !main->visible()) {
        capacity_label_->setVisible(false);
        return;
    }
    const double cap = capacity_label_->position->coords().y();
    std::vector<QRectF> labels;
    for (QCPAbstractItem* item : marks_)
        if (auto* t = qobject_cast<QCPItemText*>(item))
            labels.push_back(textItemRect(t));
    const QRectF area(plot_->axisRect()->rect());
    const std::vector<Spot> spots = capacitySpots(n);
    capacity_label_->setVisible(true);
    for (const bool clear_of_bars : {true, false})
        for (const QString& text : {tr("capacity %1 GiB").arg(cap, 0, 'f', 1), tr("%1 GiB").arg(cap, 0, 'f', 1)})
            for (const Spot& spot : spots) {
                capacity_label_->setText(text);
                capacity_label_->position->setCoords(spot.x, cap);
                capacity_label_->setPositionAlignment(spot.align);
                const QRectF mine = textItemRect(capacity_label_);
                if (area.contains(mine) // never cut by the plot's edge
                    && std::none_of(labels.begin(), labels.end(), [&](const QRectF& r) { return r.intersects(mine); })
                    && !(clear_of_bars && barUnder(mine)))
                    return;
            }
    capacity_label_->setVisible(false);
}

} // namespace parascope::ui
