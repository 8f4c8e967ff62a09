#include "collective_chart.h"

#include "comm/explainer_request.h"

#include "chart_style.h"
#include "estimate/display_names.h"
#include "estimate/faults.h"
#include "format.h"
#include "language.h"
#include "models/scenario_model.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace parascope::ui {

QString collectiveName(Collective op) { return inUi(displayName(op)); }

QString algorithmName(CollectiveAlgorithm a) { return inUi(displayName(a)); }

namespace {

QColor linkColour(Link l)
{
    switch (l) {
    case Link::NvLink: return palette::green;
    case Link::Network: return palette::vermillion;
    default: return palette::purple;
    }
}

// A piece's colour: eight distinguishable hues, repeating.
QColor pieceColour(int piece)
{
    static const QColor hues[] = {palette::blue, palette::orange, palette::green,  palette::vermillion,
                                  palette::sky,  palette::purple, palette::yellow, palette::grey};
    return hues[piece % 8];
}

constexpr double kMaxCell = 1.6; // a piece's cell at most this many lines of small text high

// Where the segment from the centre of `r` towards `to` leaves `r`.
QPointF edgeOf(const QRectF& r, QPointF to)
{
    const QPointF c = r.center(), d = to - c;
    const double sx = std::abs(d.x()) > 1e-9 ? (r.width() / 2) / std::abs(d.x()) : 1e9;
    const double sy = std::abs(d.y()) > 1e-9 ? (r.height() / 2) / std::abs(d.y()) : 1e9;
    return c + d * std::min({sx, sy, 1.0});
}

} // namespace

// Draws the whole chart in one pass: header, nodes with their GPUs and pieces, the step's
// transfers, a key, the figures. Pixel layout from the axis rect and the plot's font, so an
// export at slide size lays itself out again.
class CollectiveDiagram : public QCPLayerable {
public:
    CollectiveDiagram(QCustomPlot* plot, const CollectiveChart* chart)
        : QCPLayerable(plot)
        , chart_(chart)
    { }

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override { painter->setAntialiasing(true); }
    void draw(QCPPainter* painter) override;

private:
    void drawGpus(QCPPainter* p, const QRectF& area, const CollectivePlan& plan, const QFont& small);
    const CollectiveChart* chart_;
};

void CollectiveDiagram::draw(QCPPainter* p)
{
    const QRectF all = mParentPlot->axisRect()->rect();
    QFont font = mParentPlot->font();
    QFont bold = font;
    bold.setBold(true);
    QFont small = font;
    small.setPointSizeF(std::max(6.0, font.pointSizeF() * 0.85));
    const int width = int(all.width()) - 8;
    p->setPen(palette::black);

    // Header: what runs, then where the step is; footer: the figures. Each block wrapped to the
    // width and measured as drawn; wrapped a little short of it, since the plot's buffer draws a
    // line a few pixels wider than the widget's metrics add up ("(both ways" ran off the edge).
    const auto block = [&](const QString& text, const QFont& f, double top) {
        const QString wrapped = wrapText(text, QFontMetrics(f), int(width * 0.96));
        const QRectF box = QFontMetricsF(f).boundingRect(QRectF(all.left() + 4, top, width, 1e6),
                                                         Qt::AlignLeft | Qt::AlignTop, wrapped);
        return std::make_pair(wrapped, QRectF(all.left() + 4, top, width, box.height()));
    };
    double y = all.top() + 2;
    const auto [head, head_box] = block(chart_->headline(), bold, y);
    p->setFont(bold);
    p->drawText(head_box, Qt::AlignLeft | Qt::AlignTop, head);
    const auto [step, step_box] = block(chart_->stepLine(), font, head_box.bottom() + 2);
    p->setFont(font);
    p->drawText(step_box, Qt::AlignLeft | Qt::AlignTop, step);
    y = step_box.bottom() + 4;
    const auto [figures, measured] = block(chart_->figureLines().join(QLatin1Char('\n')), font, 0);
    const QRectF foot_box(all.left() + 4, all.bottom() - measured.height() - 2, width, measured.height());
    p->drawText(foot_box, Qt::AlignLeft | Qt::AlignTop, figures);

    const QRectF area(all.left() + 4, y, all.width() - 8, foot_box.top() - y - 4);
    const std::optional<CollectivePlan>& plan = chart_->plan();
    if (!plan || area.height() < 40)
        return;
    if (plan->ranks > kMaxDrawnRanks) {
        p->drawText(area, Qt::AlignCenter | Qt::TextWordWrap,
                    QCoreApplication::translate("CollectiveChart",
                                                "%1 GPUs are too many to draw one by one: the figures below are exact.")
                        .arg(plan->ranks));
        return;
    }
    drawGpus(p, area, *plan, small);
}

namespace {

// Where drawNodes put each GPU: its box, its (row of boxes, column), and how far an arc between
// GPUs of one row rises above (or dips below) them.
struct GpuPlaces {
    std::vector<QRectF> gpu;
    std::vector<std::pair<int, int>> place;
    double bow = 0;
};

// Draws the key in the strip key_h high below `area`.
void drawKey(QCPPainter* p, const QRectF& area, const CollectivePlan& plan, const QFontMetricsF& sm, double key_h)
{
    double kx = area.left();
    const double ky = area.bottom() + key_h / 2 + 2;
    const bool pcie
        = plan.steps.size() && std::any_of(plan.steps.begin(), plan.steps.end(), [](const CollectiveStep& s) {
              return std::any_of(s.transfers.begin(), s.transfers.end(),
                                 [](const ChunkTransfer& t) { return t.link == Link::Pcie; });
          });
    for (Link l : {Link::NvLink, Link::Network, Link::Pcie}) {
        if (l == Link::Pcie && !pcie)
            continue;
        p->setPen(QPen(linkColour(l), 3));
        p->drawLine(QPointF(kx, ky), QPointF(kx + 18, ky));
        p->setPen(palette::black);
        const QString name = inUi(displayName(l));
        p->drawText(QPointF(kx + 22, ky + sm.ascent() / 2 - 1), name);
        kx += 22 + sm.horizontalAdvance(name) + 14;
    }
    const bool reducing = plan.op == Collective::AllReduce || plan.op == Collective::ReduceScatter;
    const QString cells = plan.op == Collective::AllToAll
        ? QCoreApplication::translate("CollectiveChart", "a cell: the part received from that GPU")
        : reducing
        ? QCoreApplication::translate("CollectiveChart", "a cell: a piece of the buffer; darker: summed over more GPUs")
        : QCoreApplication::translate("CollectiveChart", "a cell: a piece of the buffer");
    const QString key = cells + QStringLiteral(" · ") + QCoreApplication::translate("CollectiveChart", "↑ sent so far");
    p->drawText(QPointF(kx, ky + sm.ascent() / 2 - 1), sm.elidedText(key, Qt::ElideRight, area.right() - kx));
}

// The nodes with their (empty) GPU places; returns where each GPU goes.
GpuPlaces drawNodes(QCPPainter* p, const QRectF& area, const CollectivePlan& plan, const QFontMetricsF& sm)
{
    // Nodes in a grid that keeps the GPUs as large as possible; a node's GPUs in rows of up to
    // eight, in ring order (a second row runs right to left), so a ring goes round the node and
    // the rails between nodes stacked one above the other run straight down.
    const int n = plan.ranks, k = std::max(1, plan.gpus_per_node), N = std::max(1, plan.nodes);
    // One node alone may fold its row in two (a ring still goes round) when that makes the GPUs
    // larger; several keep one row each so that their rails line up.
    const auto largest = [&](int per_row, int* cols_out) {
        const int node_rows = (k + per_row - 1) / per_row;
        double side = 0;
        for (int cols = 1; cols <= N; ++cols) {
            const int rows = (N + cols - 1) / cols;
            const double s = std::min(area.width() / cols / per_row, area.height() / rows / node_rows / 1.2);
            if (s > side)
                side = s, *cols_out = cols;
        }
        return side;
    };
    int best_cols = 1, folded_cols = 1;
    int gc = std::min(k, 8);
    if (N == 1 && k > 4 && largest(4, &folded_cols) > 1.3 * largest(gc, &best_cols))
        gc = 4;
    largest(gc, &best_cols);
    const int gr = (k + gc - 1) / gc;
    const int cols = best_cols, rows = (N + cols - 1) / cols;
    const double node_w = area.width() / cols, node_h = area.height() / rows;
    GpuPlaces places;
    places.gpu.resize(static_cast<std::size_t>(n));
    places.place.resize(static_cast<std::size_t>(n)); // (row of boxes, column)
    for (int m = 0; m < N; ++m) {
        const QRectF node(area.left() + (m % cols) * node_w + 3, area.top() + (m / cols) * node_h + 3, node_w - 6,
                          node_h - 6);
        p->setPen(QPen(palette::grey, 1));
        p->setBrush(QColor(245, 245, 245));
        p->drawRoundedRect(node, 6, 6);
        p->setPen(palette::black);
        p->drawText(QPointF(node.left() + 5, node.top() + sm.ascent() + 2),
                    QCoreApplication::translate("CollectiveChart", "Node %1").arg(m));
        const QRectF inner(node.left() + 4, node.top() + sm.height() + 2, node.width() - 8,
                           node.height() - sm.height() - 4);
        const double cw = inner.width() / gc, ch = inner.height() / gr;
        const double w = cw * 0.8, h = std::min(ch * 0.64, w * 0.8); // arcs use the margins above and below
        places.bow = (ch - h) / 2 * 0.85;
        for (int i = 0; i < k && m * k + i < n; ++i) {
            const int row = i / gc;
            const int col = row % 2 == 0 ? i % gc : gc - 1 - i % gc;
            const QPointF centre(inner.left() + (col + 0.5) * cw, inner.top() + (row + 0.5) * ch);
            places.gpu[std::size_t(m * k + i)] = QRectF(centre.x() - w / 2, centre.y() - h / 2, w, h);
            places.place[std::size_t(m * k + i)] = {m * gr + row, (m % cols) * gc + col};
        }
    }
    return places;
}

// Each GPU after `done` steps: name, bytes sent so far, the pieces it holds (in the grid that
// makes the cells largest). Returns the side of a cell as drawn.
double drawGpuBoxes(QCPPainter* p, const CollectivePlan& plan, const std::vector<QRectF>& gpu, int done,
                    const QFontMetricsF& sm)
{
    const int n = plan.ranks;
    const bool reducing = plan.op == Collective::AllReduce || plan.op == Collective::ReduceScatter;
    const std::vector<std::vector<int>> held = collectiveHoldings(plan, done);
    std::vector<double> sent(std::size_t(n), 0.0);
    for (int s = 0; s < done; ++s)
        for (const ChunkTransfer& t : plan.steps[std::size_t(s)].transfers)
            sent[std::size_t(t.from)] += t.bytes;

    double cell = 6;
    int per_row = plan.pieces;
    if (n > 0) {
        const QRectF g = gpu[0];
        const double w = g.width() - 6, h = g.height() - 2 * sm.height() - 5;
        double best_cell = 0;
        for (int pr = plan.pieces; pr >= 1; --pr) { // ties: fewer rows
            const int rows_needed = (plan.pieces + pr - 1) / pr;
            const double c = std::min({w / pr, h / rows_needed, kMaxCell * sm.height()});
            if (c > best_cell + 0.5)
                best_cell = c, per_row = pr;
        }
    }
    const int piece_rows = (plan.pieces + per_row - 1) / per_row;
    for (int r = 0; r < n; ++r) {
        const QRectF g = gpu[std::size_t(r)];
        p->setPen(QPen(palette::black, 1));
        p->setBrush(Qt::white);
        p->drawRect(g);
        const double text_h = sm.height();
        p->drawText(QRectF(g.left() + 2, g.top() + 1, g.width() - 4, text_h), Qt::AlignLeft | Qt::AlignTop,
                    sm.elidedText(QStringLiteral("GPU %1").arg(r), Qt::ElideRight, g.width() - 4));
        const bool room = g.height() > 3 * text_h + 10;
        if (room)
            p->drawText(
                QRectF(g.left() + 2, g.bottom() - text_h - 1, g.width() - 4, text_h), Qt::AlignLeft | Qt::AlignBottom,
                sm.elidedText(QStringLiteral("↑")
                                  + (sent[std::size_t(r)] > 0 ? bytesText(sent[std::size_t(r)]) : QStringLiteral("0")),
                              Qt::ElideRight, g.width() - 4));
        const QRectF cells_box(g.left() + 3, g.top() + text_h + 2, g.width() - 6,
                               g.height() - text_h * (room ? 2 : 1) - 5);
        cell = std::clamp(std::min(cells_box.width() / per_row, cells_box.height() / piece_rows), 2.0,
                          kMaxCell * sm.height());
        if (held.empty())
            continue;
        for (int c = 0; c < plan.pieces; ++c) {
            const QRectF cr(cells_box.left() + (c % per_row) * cell, cells_box.top() + (c / per_row) * cell, cell - 1,
                            cell - 1);
            const int count = held[std::size_t(r)][std::size_t(c)];
            p->setPen(QPen(QColor(120, 120, 120), 0.5));
            if (count <= 0) {
                p->setBrush(Qt::NoBrush);
            } else {
                QColor colour = pieceColour(c);
                colour.setAlpha(reducing ? 50 + 205 * count / n : 255);
                p->setBrush(colour);
            }
            p->drawRect(cr);
        }
    }
    return cell;
}

// Draws step `done`'s transfers, their pieces `frac` of the way along.
void drawTransfers(QCPPainter* p, const CollectivePlan& plan, const GpuPlaces& places, int done, double frac,
                   double cell, const QFontMetricsF& sm)
{
    // The step's transfers: an arrow per send, the piece riding along it. Between GPUs of one
    // row that are not neighbours the arrow arcs over the others (forward above, back below).
    if (done >= int(plan.steps.size()))
        return;
    const CollectiveStep& st = plan.steps[std::size_t(done)];
    for (const ChunkTransfer& t : st.transfers) {
        const QRectF a = places.gpu[std::size_t(t.from)], b = places.gpu[std::size_t(t.to)];
        const auto [row_a, col_a] = places.place[std::size_t(t.from)];
        const auto [row_b, col_b] = places.place[std::size_t(t.to)];
        QPainterPath path;
        if (row_a == row_b && std::abs(col_a - col_b) > 1 && true) {
            const bool forward = col_b > col_a;
            const double lift = (forward ? -1 : 1) * places.bow * std::min(1.0, 0.45 + 0.1 * std::abs(col_a - col_b));
            const QPointF s0(a.center().x(), forward ? a.top() : a.bottom()),
                e0(b.center().x(), forward ? b.top() : b.bottom());
            path.moveTo(s0);
            path.quadTo(QPointF((s0.x() + e0.x()) / 2, s0.y() + 2 * lift), e0);
        } else {
            QPointF from = edgeOf(a, b.center()), to = edgeOf(b, a.center());
            const QPointF d = to - from;
            const double len = std::hypot(d.x(), d.y());
            if (len < 1)
                continue;
            const QPointF side(-d.y() / len * 3, d.x() / len * 3); // two-way pairs apart
            path.moveTo(from + side);
            path.lineTo(to + side);
        }
        p->setPen(QPen(linkColour(t.link), 2.5));
        p->setBrush(Qt::NoBrush);
        p->drawPath(path);
        const double angle = qDegreesToRadians(path.angleAtPercent(1));
        const QPointF unit(std::cos(angle), -std::sin(angle)), tip = path.pointAtPercent(1), back = tip - unit * 9;
        const QPointF wing(-unit.y() * 4.5, unit.x() * 4.5);
        p->setPen(Qt::NoPen);
        p->setBrush(linkColour(t.link));
        p->drawPolygon(QPolygonF({tip, back + wing, back - wing}));
        const QPointF at = path.pointAtPercent(frac);
        const double size = std::clamp(cell, 6.0, 1.2 * sm.height());
        p->setPen(QPen(palette::black, 1));
        p->setBrush(pieceColour(std::max(0, plan.op == Collective::AllToAll ? t.from : t.chunk)));
        p->drawRect(QRectF(at.x() - size / 2, at.y() - size / 2, size, size));
    }
}

} // namespace

void CollectiveDiagram::drawGpus(QCPPainter* p, const QRectF& area_in, const CollectivePlan& plan, const QFont& small)
{
    const QFontMetricsF sm(small);
    // A key along the bottom of the area: the links' colours, and what a cell is.
    const double key_h = sm.height() + 4;
    const QRectF area(area_in.left(), area_in.top(), area_in.width(), area_in.height() - key_h);
    p->setFont(small);
    drawKey(p, area, plan, sm, key_h);
    const GpuPlaces places = drawNodes(p, area, plan, sm);

    const double pos = chart_->position();
    const int done = std::clamp(int(std::floor(pos)), 0, int(plan.steps.size()));
    const double frac = pos - done;
    const double cell = drawGpuBoxes(p, plan, places.gpu, done, sm);
    drawTransfers(p, plan, places, done, frac, cell, sm);
}

CollectiveChart::CollectiveChart(ScenarioModel* model, QWidget* parent)
    : ChartView(model, parent)
{
    plot_->xAxis->setVisible(false);
    plot_->yAxis->setVisible(false);
    plot_->legend->setVisible(false);
    plot_->axisRect()->setAutoMargins(QCP::msNone);
    plot_->axisRect()->setMargins(QMargins(4, 4, 4, 4));
    diagram_ = new CollectiveDiagram(plot_, this);
    refresh();
}

void CollectiveChart::setChoice(const CollectiveChoice& c)
{
    choice_ = c;
    position_ = 0;
    refresh();
}

void CollectiveChart::setOriginName(const QString& name)
{
    choice_.origin = name;
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void CollectiveChart::setPosition(double steps_done)
{
    position_ = std::clamp(steps_done, 0.0, double(stepCount()));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

ClusterSpec CollectiveChart::clusterForChoice() const
{
    // With one node's links degraded (faults.link_bandwidth_pct) the explainer plans on the links
    // the engine costs, so the two show one number.
    return withGroupPerNode(withDegradedLink(model_->scenario().cluster, model_->scenario().faults),
                            choice_.gpus_per_node);
}

void CollectiveChart::refresh()
{
    const ClusterSpec cluster = clusterForChoice();
    std::vector<InputError> errors;
    plan_ = planCollective(choice_.op, choice_.bytes, choice_.ranks, cluster, choice_.algorithm, errors);
    error_ = errors.empty() ? QString() : errorsText(errors);
    if (plan_) { // opened from a row: compared with what the engine charged it (DeepEP's dispatch)
        ExplainerRequest row;
        row.group_gpus = choice_.group_gpus > 0 ? choice_.group_gpus : choice_.ranks;
        row.charged = choice_.charged;
        row.charged_call_s = choice_.charged_call_s;
        compareWithRow(*plan_, row);
    }
    alternatives_.clear();
    if (plan_)
        for (CollectiveAlgorithm a : kExplainerAlgorithms) {
            std::vector<InputError> ignored;
            if (const auto other = planCollective(choice_.op, choice_.bytes, choice_.ranks, cluster, a, ignored))
                alternatives_.emplace_back(a, other->time_s);
        }
    position_ = std::clamp(position_, 0.0, double(stepCount()));
    setToolTip(plan_ ? ladderLines(*plan_, cluster).join(QLatin1Char('\n')) : QString());
    replotIfShown();
}

} // namespace parascope::ui
