#include "timeline_chart.h"
#include "format.h"

#include "gantt_plottable.h"
#include "estimate/display_names.h"
#include "estimate/memory_over_time.h"
#include "language.h"
#include "models/scenario_model.h"
#include "playback_bar.h"
#include "schedule/pipeline_geometry.h"
#include "schedule/pipeline_closed_form.h"
#include "schedule/slot_grid.h"

#include <qcustomplot.h>

#include <QTimer>

#include <algorithm>
#include <QToolTip>
#include <QVBoxLayout>

namespace parascope::ui {

namespace {

const OpType kLegendTypes[]
    = {OpType::F, OpType::B, OpType::I, OpType::W, OpType::FB, OpType::Send, OpType::AllReduce, OpType::Optimizer};

QString typeName(OpType t)
{
    switch (t) {
    case OpType::F: return QCoreApplication::translate("TimelineChart", "Forward");
    case OpType::B: return QCoreApplication::translate("TimelineChart", "Backward");
    case OpType::I: return QCoreApplication::translate("TimelineChart", "Backward (input)");
    case OpType::W: return QCoreApplication::translate("TimelineChart", "Backward (weight)");
    case OpType::FB: return QCoreApplication::translate("TimelineChart", "Forward & backward overlapped");
    case OpType::Send:
    case OpType::Recv: return QCoreApplication::translate("TimelineChart", "Send / receive");
    case OpType::Optimizer: return QCoreApplication::translate("TimelineChart", "Optimizer");
    default: return QCoreApplication::translate("TimelineChart", "Collective (DP)");
    }
}

} // namespace

TimelineChart::TimelineChart(ScenarioModel* model, QWidget* parent)
    : ChartView(model, parent)
{
    gantt_ = new GanttPlottable(plot_->yAxis, plot_->xAxis);
    gantt_->removeFromLegend();
    gantt_->setLabelFont(plot_->xAxis->tickLabelFont());
    for (OpType t : kLegendTypes) {
        QCPGraph* g = plot_->addGraph();
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, colourOf(t), colourOf(t), 10));
        legend_entries_.push_back(g);
    }
    plot_->yAxis->setRangeReversed(true);
    plot_->axisRect()->setRangeDrag(Qt::Horizontal);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // Title above, legend below the axis rect (one row), so the legend never covers ops.
    title_ = new QCPTextElement(plot_, QString());
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, title_);
    plot_->plotLayout()->setRowStretchFactor(0, 0.001);
    placeLegendBelow(plot_, 8);
    cursor_ = new QCPItemStraightLine(plot_);
    cursor_->setPen(QPen(Qt::black, 2));
    cursor_->setVisible(false);
    playback_ = new PlaybackBar;
    layout()->addWidget(playback_);
    connect(playback_, &PlaybackBar::timeChanged, this, [this](double t) {
        cursor_->setVisible(t >= 0);
        plot_->setInteraction(QCP::iRangeDrag, t < 0); // while the cursor shows, a drag scrubs
        cursor_->point1->setCoords(std::max(t, 0.0), 0);
        cursor_->point2->setCoords(std::max(t, 0.0), 1);
        plot_->replot(QCustomPlot::rpQueuedReplot);
        emit cursorMoved(t);
    });
    // While the cursor shows, a click (or a drag) in the timeline puts it there.
    const auto scrub = [this](QMouseEvent* e) {
        if (playback_->active() && (e->buttons() & Qt::LeftButton) && plot_->axisRect()->rect().contains(e->pos()))
            playback_->seek(plot_->xAxis->pixelToCoord(e->position().x()));
    };
    connect(plot_, &QCustomPlot::mousePress, this, scrub);
    connect(plot_, &QCustomPlot::mouseMove, this, [this, scrub](QMouseEvent* e) {
        scrub(e);
        const int i = gantt_->segmentAtPixel(e->pos());
        if (i >= 0)
            QToolTip::showText(e->globalPosition().toPoint(), tooltipFor(i), plot_);
        else
            QToolTip::hideText();
    });
    themeChanged(); // the title bold and the numbers' font from the start, as after an export
    retranslate();
}

void TimelineChart::themeChanged()
{
    QFont f = plot_->font();
    f.setBold(true);
    title_->setFont(f);
    gantt_->setLabelFont(plot_->xAxis->tickLabelFont());
}

void TimelineChart::retranslate()
{
    for (std::size_t i = 0; i < legend_entries_.size(); ++i)
        legend_entries_[i]->setName(typeName(kLegendTypes[i]));
    plot_->xAxis->setLabel(tr("Time in the step (s)"));
    playback_->retranslate();
    refresh();
}

QString TimelineChart::title() const { return title_->text(); }

int TimelineChart::rowCount() const { return gantt_->rows(); }

QString TimelineChart::tooltipFor(int segment) const
{
    const auto& segs = gantt_->segments();
    if (segment < 0 || segment >= int(segs.size()))
        return {};
    const GanttSegment& s = segs[std::size_t(segment)];
    // Compare: A's rows come first.
    const bool of_a = s.row < a_rows_ && model_->pinnedEstimate();
    const Estimate& e = of_a ? *model_->pinnedEstimate() : model_->estimate();
    const TimedOp& op = e.timeline.timeline.ops[std::size_t(s.op)];
    QString text = tr("<b>%1</b><br>rank %2").arg(typeName(op.type)).arg(op.rank);
    if (a_rows_ > 0)
        text = (of_a ? QStringLiteral("A · ") : QStringLiteral("B · ")) + text;
    if (op.stage >= 0)
        text += tr(", stage %1 (chunk %2)").arg(op.stage).arg(op.chunk);
    if (op.microbatch >= 0)
        text += tr(", microbatch %1").arg(op.microbatch);
    if (op.bucket >= 0)
        text += tr(", gradient bucket %1 of %2 (%3 end within the backward)")
                    .arg(op.bucket + 1)
                    .arg(e.time.grad_buckets)
                    .arg(e.time.grad_buckets_hidden);
    text += tr("<br>start %1, duration %2").arg(seconds(op.start_s), seconds(op.end_s - op.start_s));
    if (op.comm_s > 0 && !op.comm_lane)
        text += tr("<br>of which exposed communication %1").arg(seconds(op.comm_s));
    return text;
}

std::vector<int> TimelineChart::ranksToDraw(int ranks, const std::vector<int>& sampled, int max_rows)
{
    const int have = sampled.empty() ? ranks : int(sampled.size());
    if (have <= max_rows)
        return sampled; // empty: every rank, one row each
    std::vector<int> out;
    for (int i = 0; i < max_rows; ++i) {
        const int k = int(std::lround(double(i) * (have - 1) / (max_rows - 1)));
        out.push_back(sampled.empty() ? k : sampled[std::size_t(k)]);
    }
    return out;
}

QString TimelineChart::headline(const Scenario& sc, const Estimate& e) const
{
    if (!e.timeline.simulated)
        return tr("No simulated timeline: %1").arg(QString::fromStdString(e.time.note));
    // The simulated bubble next to the textbook's closed form, each labelled (they differ when
    // stages are uneven or communication is exposed); one decimal, as everywhere.
    const ParallelConfig& p = sc.parallel;
    const Term formula = bubbleTerm(p.schedule, p.pp, p.vpp, e.microbatches);
    const QString closed = QString::fromStdString(formula.formula);
    const QString head = tr("%1 · step %2").arg(inUi(displayName(p.schedule)), secondsWithBand(sc, e.time.step_s));
    QString bubble = p.asyncPipeline()
        ? tr("no flush (%1): no bubble; drawn: a flushed step's ops")
              .arg(p.async_pipeline == AsyncPipeline::TwoBw ? QStringLiteral("PipeDream-2BW")
                                                            : QStringLiteral("PipeDream"))
        : tr("bubble: simulated %1 %, formula %2 = %3 %")
              .arg(e.time.bubble_fraction * 100, 0, 'f', 1)
              .arg(closed)
              .arg(formula.value * 100, 0, 'f', 1);
    // What the timeline leaves out (microbatches, ranks): on the bubble's line, or a third line
    // when that is too wide for the chart.
    QString shown;
    if (timelineIsPartial(e))
        shown += tr(" · showing %1 of %2 microbatches")
                     .arg(e.timeline.microbatches_shown)
                     .arg(e.timeline.microbatches_total);
    if (&e == &model_->estimate() && !drawn_ranks_.empty())
        shown += tr(" · %1 of %2 ranks").arg(drawn_ranks_.size()).arg(e.timeline.timeline.ranks);
    if (p.pp <= 1)
        return head; // no pipeline, no bubble
    // One line when it fits the chart's width, two (or three) when not (presenter mode, 1024 pixels).
    const QFontMetrics fm(title_->font());
    const auto fits = [&](const QString& line) { return fm.horizontalAdvance(line) < plot_->width() - 16; };
    const QString one_line = head + QStringLiteral(" · ") + bubble + shown;
    if (fits(one_line))
        return one_line;
    if (shown.isEmpty() || fits(bubble + shown))
        return head + QLatin1Char('\n') + bubble + shown;
    return head + QLatin1Char('\n') + bubble + QLatin1Char('\n') + shown.mid(3);
}

void TimelineChart::setSlotGrid(bool on)
{
    slot_grid_ = on;
    gantt_->setCellBorders(on);
    if (on)
        playback_->stop(); // the cursor walks real time, not slots
    refresh();
}

bool TimelineChart::refreshSlotGrid()
{
    const Scenario& sc = model_->scenario();
    const Estimate& e = model_->estimate();
    // Up to 512 microbatches: the grid stays a grid (the timed view extrapolates the rest); and
    // at most the ops a timeline keeps (PP 10,000 × 512 microbatches was ten million ops).
    const PipelineGeometry g = pipelineGeometry(sc.model, sc.parallel);
    const double ops_per_microbatch = double(g.virtualStages()) * (g.split_backward ? 3 : 2);
    long long m = std::min<long long>({e.microbatches, 512, (long long)(double(kMaxRecordedOps) / ops_per_microbatch)});
    if (g.kind == ScheduleKind::Interleaved)
        m -= m % std::max(1, g.ranks);
    if (m < 1)
        return false; // not even one round fits: the timed Gantt (sampled) instead
    const std::optional<Timeline> grid = parascope::slotGrid(g, m);
    if (!grid)
        return false;
    a_rows_ = 0;
    gantt_->setSegments(ganttSegments(*grid), grid->ranks, grid->pipeline_end_s);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int line = QFontMetrics(plot_->yAxis->tickLabelFont()).height() * 11 / 10;
    const int height = plot_->axisRect()->height() > 0 ? plot_->axisRect()->height() : plot_->height() / 2;
    const int step = std::max(1, (grid->ranks * line + std::max(1, height) - 1) / std::max(1, height));
    for (int r = 0; r < grid->ranks; r += step)
        ticker->addTick(r, tr("rank %1").arg(r));
    plot_->yAxis->setTicker(ticker);
    plot_->yAxis->setRange(-0.6, std::max(grid->ranks, 1) - 0.4);
    plot_->xAxis->setRange(0, std::max(1.0, grid->pipeline_end_s));
    plot_->xAxis->setLabel(tr("Slot (a forward = 1, a backward = 2)"));
    title_->setText(
        tr("Slot grid · %1 · %n microbatch(es)", nullptr, int(m)).arg(inUi(displayName(sc.parallel.schedule))));
    plot_->replot(QCustomPlot::rpQueuedReplot);
    return true;
}

void TimelineChart::refresh()
{
    if (showInvalid())
        return;
    if (slot_grid_ && refreshSlotGrid())
        return;
    plot_->xAxis->setLabel(tr("Time in the step (s)"));
    const Estimate& e = model_->estimate();
    const Timeline& tl = e.timeline.timeline;
    // A row per rank while rows are at least two pixels high; beyond (PP 10,000 in 200 pixels
    // drew nothing visible), and for a sampled timeline (ranks_shown), evenly spaced ranks, each
    // row labelled with its rank and the title saying how many.
    const int plot_px = plot_->axisRect()->height() > 0 ? plot_->axisRect()->height() : plot_->height() / 2;
    drawn_ranks_ = e.timeline.simulated ? ranksToDraw(tl.ranks, e.timeline.ranks_shown, std::max(8, plot_px / 2))
                                        : std::vector<int>{};
    const int rows = !e.timeline.simulated ? 0 : drawn_ranks_.empty() ? tl.ranks : int(drawn_ranks_.size());
    // Compare: A's Gantt above B's on one time axis, a blank row between, each row named.
    const Estimate* a = model_->pinnedEstimate();
    const bool compare = a && a->timeline.simulated && e.timeline.simulated;
    a_rows_ = compare ? a->timeline.timeline.ranks + 1 : 0;
    setGanttSegments(e, compare ? a : nullptr, rows);
    playback_->setStepLength(shownTimelineSeconds(e)); // the drawn part: a long step draws its first microbatches
    showPresentTypes(tl, compare ? &a->timeline.timeline : nullptr);
    labelRanks(rows, compare);
    plot_->xAxis->setRange(0,
                           std::max(1e-9, std::max(shownTimelineSeconds(e), compare ? shownTimelineSeconds(*a) : 0.0)));
    if (compare) {
        // Each side by its layout (its model too when they differ), wrapped to the chart's width.
        const Scenario &sa = *model_->pinnedScenario(), &sb = model_->scenario();
        const QFontMetrics fm(title_->font());
        const int width = std::max(200, plot_->width() * 9 / 10 - 20); // bold text runs wider than measured
        title_->setText(wrapText(tr("A: %1").arg(compareName(sa, sb)) + QStringLiteral(" · ")
                                     + headline(sa, *a).replace(QLatin1Char('\n'), QStringLiteral(" · ")),
                                 fm, width)
                        + QLatin1Char('\n')
                        + wrapText(tr("B: %1").arg(compareName(sb, sa)) + QStringLiteral(" · ")
                                       + headline(sb, e).replace(QLatin1Char('\n'), QStringLiteral(" · ")),
                                   fm, width));
    } else
        title_->setText(headline(model_->scenario(), e));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

// B's segments on the rows of the drawn ranks, below A's rows when `a` (compare) is given.
void TimelineChart::setGanttSegments(const Estimate& e, const Estimate* a, int rows)
{
    const std::vector<int>& sampled = drawn_ranks_;
    const auto rowOf = [&sampled](int rank) {
        if (sampled.empty())
            return rank;
        const auto it = std::lower_bound(sampled.begin(), sampled.end(), rank);
        return it != sampled.end() && *it == rank ? int(it - sampled.begin()) : -1;
    };
    std::vector<GanttSegment> segments;
    if (a)
        segments = ganttSegments(a->timeline.timeline);
    for (GanttSegment s : ganttSegments(e.timeline.timeline)) {
        const int row = rowOf(s.row);
        if (row < 0)
            continue; // a rank not drawn
        s.row = a_rows_ + row;
        segments.push_back(s);
    }
    gantt_->setSegments(std::move(segments), a_rows_ + rows, std::max(e.time.step_s, a ? a->time.step_s : 0.0));
}

// The legend entries of the op types in `tl` (and A's `a_tl` when comparing), the others hidden.
void TimelineChart::showPresentTypes(const Timeline& tl, const Timeline* a_tl)
{
    // Legend: only the op types this step has (entries share a colour: send/recv, collectives).
    bool type_present[int(OpType::Optimizer) + 1] = {};
    for (const TimedOp& op : tl.ops)
        type_present[int(op.type)] = true;
    if (a_tl)
        for (const TimedOp& op : a_tl->ops)
            type_present[int(op.type)] = true;
    for (std::size_t i = 0; i < legend_entries_.size(); ++i) {
        bool present = false;
        for (int t = 0; t <= int(OpType::Optimizer); ++t)
            present = present || (type_present[t] && colourOf(OpType(t)) == colourOf(kLegendTypes[i]));
        legend_entries_[i]->removeFromLegend();
        if (present)
            legend_entries_[i]->addToLegend();
    }
}

// The rank labels on the y axis (A's and B's when comparing) and its range over all rows.
void TimelineChart::labelRanks(int rows, bool compare)
{
    const std::vector<int>& sampled = drawn_ranks_;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    // A rank label per row while the rows are a line and a bit high, else every k-th.
    const int all_rows = a_rows_ + rows;
    const int line = QFontMetrics(plot_->yAxis->tickLabelFont()).height() * 11 / 10;
    const int height = plot_->axisRect()->height() > 0 ? plot_->axisRect()->height() : plot_->height() / 2;
    const int step = std::max(1, (all_rows * line + std::max(1, height) - 1) / std::max(1, height));
    if (compare)
        for (int r = 0; r < a_rows_ - 1; r += step)
            ticker->addTick(r, tr("A · rank %1").arg(r));
    // The straggler's rank says so (faults.straggler_slowdown_pct): the others' gaps are its doing.
    const FaultConfig& faults = model_->scenario().faults;
    const int slow = faults.straggler() && model_->estimate().time.straggler_s > 0 ? faults.straggler_stage : -1;
    for (int r = 0; r < rows; r += step) {
        const int rank = sampled.empty() ? r : sampled[std::size_t(r)];
        QString label = compare ? tr("B · rank %1").arg(rank) : tr("rank %1").arg(rank);
        if (rank == slow)
            label = tr("%1 · slow ×%2").arg(label).arg(faults.stragglerFactor(), 0, 'g', 3);
        ticker->addTick(a_rows_ + r, label);
    }
    plot_->yAxis->setTicker(ticker);
    plot_->yAxis->setRange(-0.6, std::max(all_rows, 1) - 0.4);
}

void TimelineChart::togglePlayback() { playback_->toggle(); }

void TimelineChart::highlightStage(int stage)
{
    if (stage < 0 || stage >= rowCount())
        return;
    plot_->yAxis->setRange(stage - 1.6, stage + 1.6);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace parascope::ui
