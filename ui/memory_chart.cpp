#include "memory_chart.h"
#include "format.h"
#include "language.h"
#include "estimate/display_names.h"

#include "estimate/diagnostics.h"
#include "models/scenario_model.h"

#include <qcustomplot.h>

#include <QToolTip>

#include <algorithm>
#include <QVBoxLayout>

#include <algorithm>

namespace parascope::ui {

namespace {

// The five parts, their Term names and colours.
struct Part {
    const char* name;
    const char* term;
    QColor colour;
};
const Part kParts[5] = {
    {QT_TRANSLATE_NOOP("MemoryChart", "Weights"), "weights", palette::blue},
    {QT_TRANSLATE_NOOP("MemoryChart", "Gradients"), "gradients", palette::sky},
    {QT_TRANSLATE_NOOP("MemoryChart", "Optimizer states"), "optimizer", palette::green},
    {QT_TRANSLATE_NOOP("MemoryChart", "Activations"), "activations", palette::orange},
    {QT_TRANSLATE_NOOP("MemoryChart", "Other"), "other", palette::grey},
};

double partValue(const StageMemory& s, int i)
{
    switch (i) {
    case 0: return s.weights;
    case 1: return s.gradients;
    case 2: return s.optimizer;
    case 3: return s.activations;
    default: return s.other;
    }
}

} // namespace

MemoryChart::MemoryChart(ScenarioModel* model, QWidget* parent)
    : ChartView(model, parent)
{
    QCPBars* below = nullptr;
    for (int i = 0; i < 5; ++i) {
        auto* b = new QCPBars(plot_->xAxis, plot_->yAxis);
        b->setBrush(kParts[i].colour);
        b->setPen(Qt::NoPen);
        b->setWidth(0.7);
        b->setStackingGap(1);
        if (below)
            b->moveAbove(below);
        below = b;
        bars_[i] = b;
    }
    now_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    now_->setWidth(0.82);
    now_->setBrush(Qt::NoBrush);
    now_->setPen(QPen(Qt::black, 2));
    now_->setVisible(false);
    now_->removeFromLegend();
    // Compare: A's total per stage as a grey bar beside B's stack (both readable, each named).
    pinned_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    pinned_->setBrush(QBrush(QColor(90, 90, 90), Qt::BDiagPattern)); // hatched: not "other" memory
    pinned_->setPen(QPen(QColor(60, 60, 60)));
    pinned_->setWidth(0.36);
    capacity_ = new QCPItemStraightLine(plot_);
    capacity_->setPen(QPen(palette::vermillion, 2, Qt::DashLine));
    capacity_label_ = new QCPItemText(plot_);
    capacity_label_->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    capacity_label_->position->setType(QCPItemPosition::ptAxisRectRatio);
    capacity_label_->setColor(palette::vermillion);
    capacity_label_->setLayer(QStringLiteral("axes")); // above the red frames of the bars over it
    highlight_ = new QCPItemRect(plot_);
    highlight_->setLayer(QStringLiteral("grid")); // behind the bars
    highlight_->setPen(Qt::NoPen);
    highlight_->setBrush(QColor(230, 159, 0, 60));
    highlight_->setVisible(false);
    placeLegendBelow(plot_, 6);
    legend_beside_allowed_ = true; // presenter mode's short upper row: the bars keep the height
    // The capacity label is placed at the pixels it will be drawn at: after every layout.
    connect(plot_, &QCustomPlot::afterLayout, this,
            [this] { clearCapacityLabel(int(model_->estimate().memory.stages.size())); });
    // Stages are categories: no "zero line" through stage 0's bar.
    plot_->xAxis->grid()->setZeroLinePen(Qt::NoPen);
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        int index = -1;
        QCPAbstractPlottable* p = plot_->plottableAt(e->pos(), false, &index);
        for (int i = 0; i < 5; ++i)
            if (p == bars_[i] && index >= 0) {
                QToolTip::showText(e->globalPosition().toPoint(), tooltipFor(i, int(bars_[i]->data()->at(index)->key)),
                                   plot_);
                return;
            }
        QToolTip::hideText();
    });
    retranslate();
    refresh();
}

void MemoryChart::retranslate()
{
    for (int i = 0; i < 5; ++i)
        bars_[i]->setName(QCoreApplication::translate("MemoryChart", kParts[i].name));

    now_->setName(tr("At the timeline cursor"));
    plot_->xAxis->setLabel(tr("Pipeline stage"));
    plot_->yAxis->setLabel(tr("Memory per GPU (GiB)"));
    refresh();
}

int MemoryChart::barCount() const { return bars_[0]->data()->size(); }

void MemoryChart::setCursorTime(double t_s)
{
    cursor_t_ = t_s;
    drawCursor();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

std::vector<double> MemoryChart::cursorBytes() const
{
    std::vector<double> out;
    if (cursor_t_ < 0)
        return out;
    for (const auto& lane : lanes_)
        out.push_back(memoryAt(lane, cursor_t_));
    return out;
}

void MemoryChart::drawCursor()
{
    const bool on = cursor_t_ >= 0 && !lanes_.empty();
    now_->removeFromLegend();
    now_->setVisible(on);
    if (!on)
        return;
    QVector<double> keys, values;
    const std::vector<double> bytes = cursorBytes();
    const bool compare = model_->pinnedEstimate() != nullptr; // B's bars sit right of the stage
    now_->setWidth(compare ? 0.42 : 0.82);
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        keys << double(i) + (compare ? 0.19 : 0);
        values << bytes[i] / kGiB;
    }
    now_->setData(keys, values, true);
    now_->addToLegend();
}

QStringList MemoryChart::barLabels() const
{
    QStringList out;
    for (QCPAbstractItem* item : marks_)
        if (auto* text = qobject_cast<QCPItemText*>(item))
            out << text->text();
    return out;
}

void MemoryChart::highlightStage(int stage)
{
    highlighted_ = stage;
    refresh();
}

QString MemoryChart::tooltipFor(int component, int stage) const
{
    const Estimate& e = model_->estimate();
    if (stage < 0 || stage >= int(e.memory.stages.size()) || component < 0 || component > 4)
        return {};
    const StageMemory& s = e.memory.stages[std::size_t(stage)];
    QString text = tr("<b>Stage %1 — %2: %3 GiB</b>")
                       .arg(stage)
                       .arg(QCoreApplication::translate("MemoryChart", kParts[component].name))
                       .arg(partValue(s, component) / kGiB, 0, 'f', 2);
    const std::string prefix = kParts[component].term;
    if (s.terms.empty())
        text += QStringLiteral("<br><br>")
            + tr("With %1 stages, formulas are shown for the first and last %2 and for the peak stage.")
                  .arg(e.memory.stages.size())
                  .arg(kExplainedStages / 2);
    for (const Term& t : s.terms) {
        const bool mine = t.name == prefix || t.name.rfind(prefix + ".", 0) == 0
            || (component == 3 && t.name.rfind("activations", 0) == 0);
        if (!mine)
            continue;
        text += QStringLiteral("<br><br>") + termHtml(t);
    }
    return text;
}

void MemoryChart::refresh()
{
    if (showInvalid())
        return;
    const Estimate& e = model_->estimate();
    const MemoryReport& m = e.memory;
    lanes_ = memoryOverStep(e);
    drawCursor();
    const int n = int(m.stages.size());
    // Compare: B's stack right of the stage, A's total left of it.
    const Estimate* a = model_->pinnedEstimate();
    const double shift = a ? 0.19 : 0;
    setStageBars(m, shift, a != nullptr);
    setStageTicks(n);
    double top = m.capacity_bytes / kGiB;
    for (const StageMemory& s : m.stages)
        top = std::max(top, s.total() / kGiB);
    setPinnedTotals(a, top);
    const double cap = m.capacity_bytes / kGiB;
    placeCapacity(n, cap);
    highlight_->setVisible(highlighted_ >= 0 && highlighted_ < n);
    highlight_->topLeft->setCoords(highlighted_ - 0.48, top * 1.6);
    highlight_->bottomRight->setCoords(highlighted_ + 0.48, 0);
    const bool upright = markBars(m, shift, a != nullptr);
    if (a && upright)
        markPinnedTotals(*a);
    fitAxes(n, top, upright);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

// Each part's stack at its stage's key (shifted right of the stage in compare).
void MemoryChart::setStageBars(const MemoryReport& m, double shift, bool compare)
{
    const int n = int(m.stages.size());
    QVector<double> keys(n);
    for (int i = 0; i < n; ++i)
        keys[i] = i + shift;
    for (int part = 0; part < 5; ++part) {
        bars_[part]->setWidth(compare ? 0.36 : 0.7);
        QVector<double> values(n);
        for (int i = 0; i < n; ++i)
            values[i] = partValue(m.stages[std::size_t(i)], part) / kGiB;
        bars_[part]->setData(keys, values, true);
    }
}

// The stage numbers under the bars, thinned so that neighbours do not touch: at most as many as
// the axis holds of the widest label and a gap (PP 32 in a 250-pixel chart: every fifth), never
// more than 32 (16 once they have four digits), on a 1-2-5 step: 0, 5, 10, … or 0, 500, 1000, …
void MemoryChart::setStageTicks(int n)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const QFontMetrics fm(plot_->xAxis->tickLabelFont());
    const int label_px
        = fm.horizontalAdvance(QString::number(std::max(0, n - 1))) + fm.horizontalAdvance(QStringLiteral("  "));
    const int axis_px = plot_->axisRect()->width();
    const int fitting = axis_px > 0 ? std::max(2, axis_px / std::max(1, label_px)) : 32;
    const int max_labels = std::min(fitting, n > 999 ? 16 : 32);
    const auto labels = [n](int step) { return (n - 1) / step + 1; }; // 0, step, 2·step, … below n
    int step = 1;
    for (int decade = 1; labels(step) > max_labels; decade *= 10)
        for (int f : {1, 2, 5})
            if (labels(step) > max_labels)
                step = f * decade;
    for (int i = 0; i < n; i += step)
        ticker->addTick(i, QString::number(i)); // OOM is marked on the bar itself
    plot_->xAxis->setTicker(ticker);
}

// The pinned scenario A's totals left of each stage (hidden without one); raises `top` to fit them.
void MemoryChart::setPinnedTotals(const Estimate* a, double& top)
{
    QVector<double> pk, pv;
    if (a) {
        for (const StageMemory& s : a->memory.stages) {
            pk << s.stage - 0.19;
            pv << s.total() / kGiB;
            top = std::max(top, s.total() / kGiB);
        }
        const Scenario& sa = *model_->pinnedScenario();
        pinned_->setName(
            tr("A: %1 · %2 (total)").arg(compareName(sa, model_->scenario()), inUi(displayName(sa.parallel.schedule))));
    }
    pinned_->setData(pk, pv, true);
    pinned_->setVisible(!pk.isEmpty());
    pinned_->removeFromLegend();
    if (!pk.isEmpty())
        pinned_->addToLegend();
}

// A peak inside the band the memory model cannot resolve (memory_verdict.h): amber, darkened
// from the Okabe–Ito orange to read on white.
const QColor kBorderlineColor(0xB0, 0x60, 0x00);

// The dashed capacity line across all stages and its label at the left end.
void MemoryChart::placeCapacity(int n, double cap)
{
    capacity_->point1->setCoords(-1, cap);
    capacity_->point2->setCoords(n + 1, cap);
    capacity_label_->setText(tr("capacity %1 GiB").arg(cap, 0, 'f', 1));
    capacity_label_->position->setType(QCPItemPosition::ptPlotCoords);
    capacity_label_->position->setCoords(-0.55, cap);
    capacity_label_->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    capacity_label_->setBrush(QColor(255, 255, 255, 210)); // readable over a bar
    QFont f = plot_->font();
    capacity_label_->setFont(f);
}

// Remakes marks_; returns whether the totals stand upright (fitAxes leaves room for them).
bool MemoryChart::markBars(const MemoryReport& m, double shift, bool compare)
{
    const int n = int(m.stages.size());
    // Totals on the bars; bars over capacity framed in red and marked on the bar itself.
    for (QCPAbstractItem* item : marks_)
        plot_->removeItem(item);
    marks_.clear();
    const QFontMetrics fm(plot_->xAxis->tickLabelFont());
    const int bar_px = plot_->axisRect()->width() > 0
        ? int(plot_->axisRect()->width() * (compare ? 0.36 : 0.7) / std::max(1, n))
        : 0;
    // Upright when the bar is wide enough for "00.0", turned along the bar when it is a line high.
    const bool upright = bar_px >= fm.horizontalAdvance(QStringLiteral("00.0"));
    const bool totals = upright || bar_px >= fm.height();
    // Bars thinner than a line of text: per-bar marks would be unreadable, and thousands of
    // items (PP 10,000: two per stage) took seconds to make; one label says how many are over.
    int over = 0;
    for (const StageMemory& st : m.stages)
        over += memoryVerdict(st.total(), m.capacity_bytes) == MemoryVerdict::OutOfMemory ? 1 : 0;
    // Turned "OOM" marks a line high on neighbouring bars touch where the stages are closer
    // than a line (PP 16 at 1024×768): then too, one label counts them (the frames show which).
    const int pitch_px = plot_->axisRect()->width() / std::max(1, n);
    const bool summarised = !totals && (over > kMaxMarkedStages || (over > 1 && pitch_px <= fm.height()));
    if (summarised)
        markOomSummary(over, n, fm);
    for (int i = 0; i < (over > kMaxMarkedStages ? 0 : n); ++i) {
        const double total = m.stages[std::size_t(i)].total() / kGiB;
        // Out of memory framed in red; inside the band the model cannot resolve, said in amber.
        const MemoryVerdict verdict = memoryVerdict(total * kGiB, m.capacity_bytes);
        const bool oom = verdict == MemoryVerdict::OutOfMemory, borderline = verdict == MemoryVerdict::Borderline;
        if (oom) {
            auto* frame = new QCPItemRect(plot_);
            frame->setPen(QPen(palette::vermillion, theme_.linePx()));
            frame->setBrush(Qt::NoBrush);
            frame->topLeft->setCoords(i + shift - (compare ? 0.18 : 0.35), total);
            frame->bottomRight->setCoords(i + shift + (compare ? 0.18 : 0.35), 0);
            marks_.push_back(frame);
        }
        if (summarised || (!totals && !oom))
            continue;
        auto* label = new QCPItemText(plot_);
        label->setFont(plot_->xAxis->tickLabelFont());
        label->setColor(oom ? palette::vermillion : borderline ? kBorderlineColor : QColor(Qt::black));
        label->setPositionAlignment(upright ? Qt::AlignHCenter | Qt::AlignBottom : Qt::AlignLeft | Qt::AlignVCenter);
        if (!upright)
            label->setRotation(-90);
        label->position->setCoords(i + shift, total);
        label->setPadding(QMargins(0, 0, 0, 2));
        // Turned along a bar a line wide, the total and the verdict share one line (fitAxes
        // leaves room for "000.0 OOM"): two lines were wider than the bar and ran into the next.
        const QString figure = QString::number(total, 'f', 1);
        label->setText(!totals ? tr("OOM")
                           : !upright && (oom || borderline)
                           ? figure + QLatin1Char(' ') + (oom ? tr("OOM") : tr("borderline"))
                           : oom        ? tr("%1\nOOM").arg(figure)
                           : borderline ? tr("%1\nborderline").arg(figure)
                                        : figure);
        marks_.push_back(label);
    }
    if (!totals && over == 0 && !compare) // bars too thin for their totals: the peak, once
        markPeak(m, fm);
    return upright;
}

// A label in the plot's top left or right corner, over a white backing, kept in marks_.
QCPItemText* MemoryChart::cornerLabel(const QColor& color, Qt::Alignment side)
{
    auto* label = new QCPItemText(plot_);
    label->setFont(plot_->xAxis->tickLabelFont());
    label->setColor(color);
    label->setBrush(QColor(255, 255, 255, 210));
    label->setPositionAlignment(side | Qt::AlignTop);
    label->position->setType(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(side & Qt::AlignRight ? 0.98 : 0.02, 0.02);
    marks_.push_back(label);
    return label;
}

// The peak stage's total, top right, when the bars are too thin to carry their totals.
void MemoryChart::markPeak(const MemoryReport& m, const QFontMetrics& fm)
{
    const auto peak
        = std::max_element(m.stages.begin(), m.stages.end(),
                           [](const StageMemory& a, const StageMemory& b) { return a.total() < b.total(); });
    if (peak == m.stages.end())
        return;
    QCPItemText* label = cornerLabel(Qt::black, Qt::AlignRight);
    const int width = std::max(80, int(plot_->axisRect()->width() * 0.96));
    // One line where it fits, else the figure above its stage.
    const QString figure = tr("peak %1 GiB").arg(peak->total() / kGiB, 0, 'f', 1);
    const QString where = tr("(stage %1)").arg(peak->stage);
    const QString line = figure + QLatin1Char(' ') + where;
    label->setText(fm.horizontalAdvance(line) <= width ? line : figure + QLatin1Char('\n') + where);
}

// A's total above each of its bars, in grey beside B's black ones (compare mode).
void MemoryChart::markPinnedTotals(const Estimate& a)
{
    for (const StageMemory& st : a.memory.stages) {
        auto* label = new QCPItemText(plot_);
        label->setFont(plot_->xAxis->tickLabelFont());
        label->setColor(palette::grey.darker(140));
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->position->setCoords(st.stage - 0.19, st.total() / kGiB);
        label->setPadding(QMargins(0, 0, 0, 2));
        label->setText(QString::number(st.total() / kGiB, 'f', 1));
        marks_.push_back(label);
    }
}

// The one label counting the stages over capacity, top left, when bars are too thin to mark.
void MemoryChart::markOomSummary(int over, int n, const QFontMetrics& fm)
{
    QCPItemText* label = cornerLabel(palette::vermillion, Qt::AlignLeft);
    const int width = std::max(120, int(plot_->axisRect()->width() * 0.96));
    label->setText(wrapText(tr("OOM: %1 of %2 stages over the capacity").arg(over).arg(n), fm, width));
}

// The y axis title and both ranges, with headroom for the totals' labels.
void MemoryChart::fitAxes(int n, double top, bool upright)
{
    const QFontMetrics fm(plot_->xAxis->tickLabelFont());
    // The axis title along the axis when it fits, a short one when the chart is low.
    const QString title = tr("Memory per GPU (GiB)");
    plot_->yAxis->setLabel(
        plot_->axisRect()->height() <= 0 || fm.horizontalAdvance(title) + 8 < plot_->axisRect()->height() ? title
                                                                                                          : tr("GiB"));
    plot_->xAxis->setRange(-0.6, n - 0.4);
    // Room above the tallest bar or the capacity line for its label: two lines of text.
    const int rect_h = std::max(1, plot_->axisRect()->height());
    const double label_px = upright ? 3.4 * fm.height()
                                    : std::max(fm.horizontalAdvance(QStringLiteral("000.0 ") + tr("OOM")),
                                               fm.horizontalAdvance(QStringLiteral("000.0 ") + tr("borderline")));
    // The range's top is top·(1 + h): the pixels above `top` are rect_h·h/(1 + h), which must
    // hold the label: h = label / (rect_h − label).
    const double headroom = std::clamp(label_px / std::max(1.0, rect_h - label_px), 0.12, 1.5);
    plot_->yAxis->setRange(0, top * (1 + headroom));
}

} // namespace parascope::ui
