#include "memory_time_chart.h"

#include "estimate/display_names.h"
#include "estimate/evaluate.h"
#include "format.h"
#include "language.h"
#include "models/scenario_model.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace parascope::ui {

namespace {

// A step function's points as the graph draws them (lsStepLeft), held to the end of the step.
void setSteps(QCPGraph* g, const std::vector<MemoryPoint>& lane, double end_s)
{
    QVector<double> t, v;
    for (const MemoryPoint& p : lane) {
        t << p.t_s;
        v << p.bytes / kGiB;
    }
    if (!lane.empty()) {
        t << std::max(end_s, lane.back().t_s);
        v << lane.back().bytes / kGiB;
    }
    g->setData(t, v, true);
}

double peakOf(const std::vector<MemoryPoint>& lane)
{
    double most = 0;
    for (const MemoryPoint& p : lane)
        most = std::max(most, p.bytes);
    return most;
}

QString microbatches(double n) { return QString::number(n, 'g', 3); }

// MiB below a GiB, else GiB (the allocator's reserve is MiB under expandable segments).
QString bytesUi(double b)
{
    // A no-break space keeps the number and its unit on one line of the wrapped headline.
    return b < kGiB ? QStringLiteral("%1\u00a0MiB").arg(std::lround(b / (1 << 20)))
                    : gib(b) + QStringLiteral("\u00a0GiB");
}

} // namespace

MemoryTimeChart::MemoryTimeChart(ScenarioModel* model, QWidget* parent)
    : ChartView(model, parent)
    , compare_box_(new QComboBox)
    , caption_(new QLabel)
{
    auto* row = new QHBoxLayout;
    row->addWidget(caption_);
    row->addWidget(compare_box_);
    row->addStretch(1);
    qobject_cast<QVBoxLayout*>(layout())->insertLayout(0, row);
    caption_->setBuddy(compare_box_);
    mode_box_ = new QComboBox;
    mode_box_->setObjectName(QStringLiteral("memoryTime.mode"));
    mode_box_->addItems({QString(), QString()});
    allocator_caption_ = new QLabel;
    allocator_box_ = new QComboBox;
    allocator_box_->setObjectName(QStringLiteral("memoryTime.allocator"));
    for (AllocatorKind k : {AllocatorKind::Caching, AllocatorKind::Expandable})
        allocator_box_->addItem(QString(), int(k));
    allocator_caption_->setBuddy(allocator_box_);
    allocator_caption_->setVisible(false);
    allocator_box_->setVisible(false);
    row->insertWidget(0, mode_box_);
    row->insertWidget(row->count() - 1, allocator_caption_);
    row->insertWidget(row->count() - 1, allocator_box_);
    connect(mode_box_, &QComboBox::currentIndexChanged, this, [this](int i) { setAllocatorView(i == 1); });
    connect(allocator_box_, &QComboBox::activated, this, [this] {
        const auto kind = AllocatorKind(allocator_box_->currentData().toInt());
        model_->edit([kind](Scenario& s) { s.overheads.allocator = kind; });
    });
    compare_box_->setObjectName(QStringLiteral("memoryTime.compare"));
    compare_box_->addItem(QString(), -1);
    for (ScheduleKind k : {ScheduleKind::GPipe, ScheduleKind::OneFOneB})
        compare_box_->addItem(QString(), int(k));
    connect(compare_box_, &QComboBox::currentIndexChanged, this, [this] {
        const int v = compare_box_->currentData().toInt();
        setCompare(v < 0 ? std::nullopt : std::optional<ScheduleKind>(ScheduleKind(v)));
    });
    auto* title = new QCPTextElement(plot_, QString());
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, title);
    capacity_ = plot_->addGraph();
    capacity_->setPen(QPen(palette::vermillion, 2, Qt::DashLine));
    compare_graph_ = plot_->addGraph();
    compare_graph_->setLineStyle(QCPGraph::lsStepLeft);
    compare_graph_->setPen(QPen(QColor(80, 80, 80), 2, Qt::DashLine));
    allocated_graph_ = plot_->addGraph();
    allocated_graph_->setLineStyle(QCPGraph::lsStepLeft);
    allocated_graph_->setPen(QPen(palette::blue, 2));
    reserved_graph_ = plot_->addGraph();
    reserved_graph_->setLineStyle(QCPGraph::lsStepLeft);
    reserved_graph_->setPen(QPen(palette::orange, 2, Qt::DashDotLine));
    cursor_ = new QCPItemStraightLine(plot_);
    cursor_->setPen(QPen(palette::black, 1));
    cursor_->setVisible(false);
    placeLegendBelow(plot_, 4);
    retranslate();
}

void MemoryTimeChart::retranslate()
{
    caption_->setText(tr("Compare rank 0 with"));
    mode_box_->setItemText(0, tr("Every stage in use"));
    mode_box_->setItemText(1, tr("Allocated vs reserved"));
    allocator_caption_->setText(tr("Allocator"));
    allocator_box_->setItemText(0, tr("caching (default)"));
    allocator_box_->setItemText(1, tr("expandable segments"));
    compare_box_->setItemText(0, tr("nothing"));
    for (int i = 1; i < compare_box_->count(); ++i)
        compare_box_->setItemText(i, inUi(displayName(ScheduleKind(compare_box_->itemData(i).toInt()))));
    plot_->xAxis->setLabel(tr("Time in the step (s)"));
    plot_->yAxis->setLabel(tr("Memory per GPU (GiB)"));
    capacity_->setName(tr("GPU capacity"));
    refresh();
}

void MemoryTimeChart::setCompare(std::optional<ScheduleKind> kind)
{
    compare_ = kind;
    const int index = compare_box_->findData(kind ? int(*kind) : -1);
    if (index >= 0 && index != compare_box_->currentIndex())
        compare_box_->setCurrentIndex(index); // calls back here once, with the same kind
    compare_stale_ = false;
    draw();
}

void MemoryTimeChart::setCursorTime(double t_s)
{
    cursor_->setVisible(t_s >= 0);
    cursor_->point1->setCoords(t_s, 0);
    cursor_->point2->setCoords(t_s, 1);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void MemoryTimeChart::setAllocatorView(bool on)
{
    allocator_mode_ = on;
    if (mode_box_->currentIndex() != (on ? 1 : 0))
        mode_box_->setCurrentIndex(on ? 1 : 0); // calls back here once
    // One row of controls: the compared schedule for the stage curves, the allocator for the
    // allocator's view (both at once made the window wider than 1024 px).
    caption_->setVisible(!on);
    compare_box_->setVisible(!on);
    allocator_caption_->setVisible(on);
    allocator_box_->setVisible(on);
    draw();
}

QString MemoryTimeChart::allocatorHeadline() const
{
    const AllocatorView& a = allocator_;
    const bool caching = a.allocator == AllocatorKind::Caching;
    QString text
        = tr("Stage %1: peak allocated %2 GiB, reserved %3 GiB, %4 of it fragmentation (%5 allocator); "
             "%6 would keep %7. Reserved never falls: freed blocks stay cached")
              .arg(a.rank)
              .arg(gib(a.allocated_peak, 1), gib(a.reserved_peak, 1), bytesUi(a.reserve_bytes),
                   caching ? tr("caching") : tr("expandable segments"),
                   caching ? tr("expandable segments") : tr("the caching allocator"), bytesUi(a.other_reserve_bytes));
    if (a.pcie.bytes_per_s > 0)
        text += tr("; CPU offload over PCIe per step: %1 to the host, %2 back, %3 s")
                    .arg(bytesUi(a.pcie.d2h_bytes), bytesUi(a.pcie.h2d_bytes))
                    .arg(a.pcie.seconds(), 0, 'g', 3);
    return text + partialNote(model_->estimate());
}

void MemoryTimeChart::drawAllocator(const Estimate& e)
{
    allocator_ = parascope::allocatorView(model_->scenario(), e);
    for (QCPGraph* g : rank_graphs_) {
        g->setVisible(false);
        g->removeFromLegend();
    }
    compare_graph_->setVisible(false);
    compare_graph_->removeFromLegend();
    const double end = shownTimelineSeconds(e);
    setSteps(allocated_graph_, allocator_.allocated, end);
    setSteps(reserved_graph_, allocator_.reserved, end);
    allocated_graph_->setName(tr("allocated (memory_allocated)"));
    reserved_graph_->setName(tr("reserved (memory_reserved, what nvidia-smi shows)"));
    for (QCPGraph* g : {allocated_graph_, reserved_graph_}) {
        g->setVisible(true);
        g->addToLegend();
    }
    finishPlot(e, end, std::max(e.memory.capacity_bytes, allocator_.reserved_peak), allocatorHeadline());
}

void MemoryTimeChart::finishPlot(const Estimate& e, double end, double top, const QString& headline)
{
    capacity_->setData({0, end}, {e.memory.capacity_bytes / kGiB, e.memory.capacity_bytes / kGiB});
    plot_->xAxis->setRange(0, std::max(end, 1e-9));
    plot_->yAxis->setRange(0, top / kGiB * 1.1);
    if (auto* title = qobject_cast<QCPTextElement*>(plot_->plotLayout()->element(0, 0))) {
        title->setFont(plot_->font());
        title->setText(wrapText(headline, QFontMetrics(plot_->font()), std::max(200, plot_->width() - 20)));
    }
    replotIfShown();
}

std::vector<int> MemoryTimeChart::drawnRanks(int ranks, const std::vector<int>& sampled)
{
    std::vector<int> out;
    if (!sampled.empty()) {
        for (int r : sampled)
            if (r < ranks)
                out.push_back(r);
        return out;
    }
    const int n = std::min(ranks, kMaxDrawnRanks);
    for (int i = 0; i < n; ++i)
        out.push_back(n == 1 ? 0 : int(std::lround(double(i) * (ranks - 1) / (n - 1))));
    return out;
}

QString MemoryTimeChart::headline() const
{
    if (allocator_mode_)
        return allocatorHeadline();
    const Estimate& e = model_->estimate();
    if (lanes_.empty() || e.timeline.timeline.peak_inflight.empty())
        return {};
    const QString mine = inUi(displayName(model_->scenario().parallel.schedule));
    QString text
        = tr("%1: rank 0 holds the activations of at most %2 microbatches, peak %3 GiB")
              .arg(mine, microbatches(e.timeline.timeline.peak_inflight.front()), gib(peakOf(lanes_.front()), 1));
    if (!compare_lane_.empty())
        text += tr("; %1: %2, peak %3 GiB")
                    .arg(inUi(displayName(*compare_)), microbatches(compare_inflight_), gib(peakOf(compare_lane_), 1));
    if (drawn_.size() < lanes_.size())
        text += tr(" (curves of %1 of %2 ranks, evenly spaced)").arg(drawn_.size()).arg(lanes_.size());
    return text + partialNote(e);
}

// A long step is drawn as the timeline draws it: its first microbatches as a step of their own.
QString MemoryTimeChart::partialNote(const Estimate& e)
{
    if (!timelineIsPartial(e) || !e.timeline.simulated)
        return {};
    return tr("; drawn: the first %1 of %2 microbatches as a step of their own, as on the timeline "
              "(the whole step: %3 s)")
        .arg(e.timeline.microbatches_shown)
        .arg(e.timeline.microbatches_total)
        .arg(e.time.step_s, 0, 'f', 2);
}

void MemoryTimeChart::refresh()
{
    compare_stale_ = compare_.has_value() && !isVisible();
    draw();
}

void MemoryTimeChart::showEvent(QShowEvent* e)
{
    ChartView::showEvent(e);
    catchUp();
}

void MemoryTimeChart::sizeChanged() { catchUp(); }

void MemoryTimeChart::catchUp()
{
    if (!compare_stale_)
        return;
    compare_stale_ = false;
    draw();
}

void MemoryTimeChart::draw()
{
    if (showInvalid())
        return;
    const Estimate& e = model_->estimate();
    {
        const QSignalBlocker block(allocator_box_);
        allocator_box_->setCurrentIndex(allocator_box_->findData(int(model_->scenario().overheads.allocator)));
    }
    if (allocator_mode_)
        return drawAllocator(e);
    for (QCPGraph* g : {allocated_graph_, reserved_graph_}) {
        g->setVisible(false);
        g->removeFromLegend();
    }
    lanes_ = memoryOverStep(e);
    double end = shownTimelineSeconds(e);
    // The compared schedule: the same scenario under it (without virtual stages), rank 0 (kept
    // as it was while stale: the tab is hidden).
    if (!compare_stale_) {
        compare_lane_.clear();
        compare_inflight_ = 0;
    }
    if (!compare_stale_ && compare_ && *compare_ != model_->scenario().parallel.schedule) {
        Scenario other = model_->scenario();
        other.parallel.schedule = *compare_;
        other.parallel.vpp = 1;
        const Estimate oe = evaluate(other);
        const auto lanes = memoryOverStep(oe);
        if (!lanes.empty() && !oe.timeline.timeline.peak_inflight.empty()) {
            compare_lane_ = lanes.front();
            compare_inflight_ = oe.timeline.timeline.peak_inflight.front();
            end = std::max(end, shownTimelineSeconds(oe));
        }
    }
    // Rank 0 (the most in flight) and the last rank stand out; the ones between are quiet. At
    // most kMaxDrawnRanks curves (PP 10,000 drew 10,000 graphs and hung the app), evenly spaced;
    // of a sampled timeline, its ranks.
    drawn_ = drawnRanks(int(lanes_.size()), e.timeline.ranks_shown);
    while (rank_graphs_.size() < drawn_.size()) {
        QCPGraph* g = plot_->addGraph();
        g->setLineStyle(QCPGraph::lsStepLeft);
        rank_graphs_.push_back(g);
    }
    double top = e.memory.capacity_bytes;
    for (std::size_t i = 0; i < rank_graphs_.size(); ++i) {
        QCPGraph* g = rank_graphs_[i];
        const bool shown = i < drawn_.size();
        g->setVisible(shown);
        g->removeFromLegend();
        if (!shown)
            continue;
        const int r = drawn_[i];
        const bool first = i == 0, last = i + 1 == drawn_.size();
        g->setPen(QPen(first      ? palette::blue
                           : last ? palette::orange
                                  : QColor(150, 170, 200),
                       first || last ? theme_.linePx() : 1));
        setSteps(g, lanes_[std::size_t(r)], end);
        top = std::max(top, peakOf(lanes_[std::size_t(r)]));
        if (first || last) {
            g->setName(tr("rank %1").arg(r));
            g->addToLegend();
        }
    }
    compare_graph_->setVisible(!compare_lane_.empty());
    compare_graph_->removeFromLegend();
    if (!compare_lane_.empty()) {
        setSteps(compare_graph_, compare_lane_, end);
        compare_graph_->setName(tr("rank 0 under %1").arg(inUi(displayName(*compare_))));
        compare_graph_->addToLegend();
        top = std::max(top, peakOf(compare_lane_));
    }
    finishPlot(e, end, top, headline());
}

} // namespace parascope::ui
