#include "walls_view.h"

#include "format.h"
#include "language.h"
#include "estimate/display_names.h"
#include "models/scenario_model.h"

#include <QEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <qcustomplot.h>

#include <algorithm>

namespace parascope::ui {

namespace {

// Translation context "Walls" for the free functions below.
struct Walls_ {
    Q_DECLARE_TR_FUNCTIONS(Walls)
};

QString percent(double f) { return QString::fromStdString(formatPercent(f)); }

QString tooltipOf(const Wall& w)
{
    QString html = QStringLiteral("<p>") + inUi(w.explanation).toHtmlEscaped() + QStringLiteral("</p>");
    for (const Term& t : w.terms)
        html += termHtml(t);
    return html;
}

// The gauge's scale: up to this share of the wall, so that a wall that is hit still shows how far.
constexpr double kScale = 1.25;

} // namespace

QColor verdictColour(WallVerdict v)
{
    switch (v) {
    case WallVerdict::Hit: return palette::vermillion;
    case WallVerdict::Near: return palette::orange;
    case WallVerdict::Ok: break;
    }
    return palette::green;
}

std::array<WallGauge, 4> wallGauges(const Walls& w)
{
    std::array<WallGauge, 4> g;
    // Short readings, the share each wall measures; the tooltip says the rest (goodput, MTBF…).
    g[0] = {Walls_::tr("Memory wall"),        QString(),        percent(w.memory.value),
            w.memory.value / kMemoryWall.hit, w.memory.verdict, tooltipOf(w.memory)};
    g[1] = {Walls_::tr("Communication wall"), QString(),
            percent(w.communication.value),   w.communication.value / kCommunicationWall.hit,
            w.communication.verdict,          tooltipOf(w.communication)};
    g[2] = {Walls_::tr("Efficiency wall"), QString(),
            percent(w.efficiency.value),   w.efficiency.value / kEfficiencyWall.hit,
            w.efficiency.verdict,          tooltipOf(w.efficiency)};
    g[3] = {Walls_::tr("Stability wall"),           QString(),           percent(w.stability.value),
            w.stability.value / kStabilityWall.hit, w.stability.verdict, tooltipOf(w.stability)};
    // The strip's short names (a 1024-pixel projector gives each gauge about 110 pixels).
    const QString shorter[4]
        = {Walls_::tr("Memory"), Walls_::tr("Comm."), Walls_::tr("Efficiency"), Walls_::tr("Stability")};
    for (int i = 0; i < 4; ++i)
        g[std::size_t(i)].label = shorter[i] + QLatin1Char(' ') + g[std::size_t(i)].reading;
    return g;
}

WallsStrip::WallsStrip(ScenarioModel* model, QWidget* parent)
    : QWidget(parent)
    , model_(model)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    connect(model_, &ScenarioModel::estimateChanged, this, &WallsStrip::refresh);
    refresh();
}

QSize WallsStrip::sizeHint() const { return {800, fontMetrics().height() + 12}; }
QSize WallsStrip::minimumSizeHint() const { return {200, fontMetrics().height() + 12}; }

void WallsStrip::refresh()
{
    gauges_ = wallGauges(model_->estimate().walls);
    // The efficiency wall reads MFU, the step time inverted: it carries the step time's band.
    gauges_[2].tooltip
        += QStringLiteral("<p>") + bandTooltip(model_->scenario()).toHtmlEscaped() + QStringLiteral("</p>");
    // An invalid layout has no walls to show: its figures would describe a step that cannot run.
    if (const QString why = invalidReason(model_->estimate()); !why.isEmpty())
        for (WallGauge& g : gauges_) {
            g.label = g.label.left(g.label.size() - g.reading.size()) + QStringLiteral("—");
            g.reading = QStringLiteral("—");
            g.share = 0;
            g.verdict = WallVerdict::Ok;
            g.tooltip = QStringLiteral("<p><b>%1</b><br>%2</p>").arg(tr("Invalid configuration"), why.toHtmlEscaped());
        }
    update();
}

QRect WallsStrip::gaugeRect(int i) const
{
    const int w = width() / 4;
    return {i * w, 0, (i == 3 ? width() - 3 * w : w), height()};
}

void WallsStrip::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm = fontMetrics();
    for (int i = 0; i < 4; ++i) {
        const WallGauge& g = gauges_[std::size_t(i)];
        const QRect r = gaugeRect(i).adjusted(3, 3, -3, -3);
        // The bar fills the gauge; the name and reading sit on it (elided on a very narrow window),
        // the wall a black line at 1/kScale of its width.
        const QRect bar = r.adjusted(0, 1, 0, -1);
        p.setPen(QPen(palette::grey, 1));
        p.setBrush(QColor(240, 240, 240));
        p.drawRoundedRect(bar, 3, 3);
        const double fill = std::clamp(g.share / kScale, 0.0, 1.0);
        p.setPen(Qt::NoPen);
        p.setBrush(verdictColour(g.verdict).lighter(125));
        p.drawRoundedRect(QRectF(bar.left(), bar.top(), bar.width() * fill, bar.height()), 3, 3);
        const double wall_x = bar.left() + bar.width() / kScale;
        p.setPen(QPen(palette::black, 2));
        p.drawLine(QPointF(wall_x, bar.top()), QPointF(wall_x, bar.bottom()));
        p.setPen(palette::black);
        p.drawText(bar.adjusted(5, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft,
                   fm.elidedText(g.label, Qt::ElideRight, bar.width() - 8));
    }
}

bool WallsStrip::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        const auto* h = static_cast<QHelpEvent*>(e);
        for (int i = 0; i < 4; ++i)
            if (gaugeRect(i).contains(h->pos())) {
                QToolTip::showText(h->globalPos(), gauges_[std::size_t(i)].tooltip, this, gaugeRect(i));
                return true;
            }
        QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

void WallsStrip::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        refresh();
    QWidget::changeEvent(e);
}

WallsChart::WallsChart(ScenarioModel* model, QWidget* parent)
    : ChartView(model, parent)
{
    refresh();
}

void WallsChart::refresh()
{
    plot_->clearPlottables();
    for (QCPAbstractItem* item : items_) // not clearItems(): the view's own "invalid" label stays
        plot_->removeItem(item);
    items_.clear();
    if (showInvalid()) {
        plot_->replot();
        return;
    }
    const std::array<WallGauge, 4> g = wallGauges(model_->estimate().walls);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int i = 0; i < 4; ++i) {
        const WallGauge& w = g[std::size_t(i)];
        const double key = 4 - i; // memory on top
        auto* bar = new QCPBars(plot_->yAxis, plot_->xAxis);
        bar->setWidth(0.6);
        bar->setPen(Qt::NoPen);
        bar->setBrush(verdictColour(w.verdict));
        bar->setData({key}, {std::min(w.share, kScale) * 100});
        ticker->addTick(key, w.name);
        auto* label = new QCPItemText(plot_);
        label->position->setCoords(std::min(w.share, kScale) * 100 + 1, key);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->setText(w.reading);
        label->setFont(plot_->font());
        items_.push_back(label);
    }
    plot_->yAxis->setTicker(ticker);
    plot_->yAxis->setRange(0.4, 4.6);
    plot_->xAxis->setRange(0, kScale * 100 + 22);
    plot_->xAxis->setLabel(tr("share of the wall (%)"));
    auto* wall = new QCPItemStraightLine(plot_);
    wall->point1->setCoords(100, 0);
    wall->point2->setCoords(100, 1);
    wall->setPen(QPen(palette::black, theme_.linePx()));
    items_.push_back(wall);
    auto* title = new QCPItemText(plot_);
    title->position->setType(QCPItemPosition::ptAxisRectRatio);
    title->position->setCoords(100.0 / (kScale * 100 + 22), 0.0);
    title->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    title->setText(tr("the wall"));
    title->setClipToAxisRect(false);
    items_.push_back(title);
    title->setFont(plot_->font());
    plot_->replot();
}

} // namespace parascope::ui
