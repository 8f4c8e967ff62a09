#include "sweep_view.h"
#include "format.h"
#include "background.h"

#include "models/knobs.h"
#include "language.h"
#include "models/scenario_model.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace parascope::ui {

namespace {

// A point whose only errors are memory (the layout runs, it does not fit — the GPU's, or the
// host's under CPU offload): its memory stands.
bool onlyOutOfMemory(const SweepPoint& p)
{
    return p.gpus > 0 && std::all_of(p.diagnostics.begin(), p.diagnostics.end(), [](const Diagnostic& d) {
               return d.severity != Severity::Error || d.code == "out_of_memory" || d.code == "host_out_of_memory";
           });
}

// Over the GPU's memory (✕); a host out of memory leaves the GPU's peak an ordinary point.
bool gpuOutOfMemory(const SweepPoint& p)
{
    return std::any_of(p.diagnostics.begin(), p.diagnostics.end(),
                       [](const Diagnostic& d) { return d.code == "out_of_memory"; });
}

} // namespace

SweepView::SweepView(ScenarioModel* model, QWidget* parent)
    : ChartView(model, parent)
    , param_(new QComboBox)
    , values_(new QLineEdit)
    , run_(new QPushButton)
    , breaks_(new QLabel)
    , changes_(new QLabel)
    , watcher_(new QFutureWatcher<SweepResult>(this))
    , rerun_(new QTimer(this))
{
    layOutControls();
    addCharts();
    themeChanged();
    connectSweeps();
    retranslate();
}

// The knob box, its values and Sweep above the plot; the axis note and breaking points under it.
void SweepView::layOutControls()
{
    // The knob names are long ("Schedule (0 gpipe, 1 1f1b, …)"): the box elides, the list shows all.
    param_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    param_->setMinimumContentsLength(14);
    // Controls above the plot, the breaking points below it.
    auto* controls = new QHBoxLayout;
    for (const Knob& k : sweepKnobs())
        param_->addItem(QString(), QString::fromLatin1(k.path));
    controls->addWidget(param_);
    controls->addWidget(values_, 1);
    controls->addWidget(run_);
    auto* outer = qobject_cast<QVBoxLayout*>(layout());
    outer->insertLayout(0, controls);
    changes_->setObjectName(QStringLiteral("sweepAxisNote"));
    changes_->setWordWrap(true);
    changes_->setTextFormat(Qt::RichText);
    changes_->hide();
    outer->addWidget(changes_);
    breaks_->setWordWrap(true);
    breaks_->setTextFormat(Qt::RichText);
    outer->addWidget(breaks_);
    // The chart takes the height the texts below it do not need.
    outer->setStretchFactor(plot_, 1);
    for (QLabel* l : {changes_, breaks_})
        l->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
}

// The memory, time and ratio charts, their graphs and the legend.
void SweepView::addCharts()
{
    // Three axis rects stacked, sharing the x range (the legend moves out first: clearing the
    // layout deletes the default axis rect and what its inset layout holds).
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    plot_->plotLayout()->clear();
    const auto addRect = [&](int row) {
        auto* r = new QCPAxisRect(plot_);
        plot_->plotLayout()->addElement(row, 0, r);
        r->axis(QCPAxis::atBottom)->setLayer(QStringLiteral("axes"));
        return r;
    };
    memory_rect_ = addRect(0);
    time_rect_ = addRect(1);
    ratio_rect_ = addRect(2);
    auto* group = new QCPMarginGroup(plot_);
    for (QCPAxisRect* r : {memory_rect_, time_rect_, ratio_rect_})
        r->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    const auto graph = [&](QCPAxisRect* r, QColor c, Qt::PenStyle style = Qt::SolidLine) {
        QCPGraph* g = plot_->addGraph(r->axis(QCPAxis::atBottom), r->axis(QCPAxis::atLeft));
        g->setPen(QPen(c, 2, style));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, c, Qt::white, 7));
        return g;
    };
    peak_ = graph(memory_rect_, palette::blue);
    capacity_ = graph(memory_rect_, palette::vermillion, Qt::DashLine);
    capacity_->setScatterStyle(QCPScatterStyle::ssNone);
    oom_ = graph(memory_rect_, palette::vermillion);
    oom_->setLineStyle(QCPGraph::lsNone);
    oom_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(palette::vermillion, 2), Qt::NoBrush, 9));
    step_ = graph(time_rect_, palette::green);
    bubble_ = graph(ratio_rect_, palette::orange);
    mfu_ = graph(ratio_rect_, palette::purple);
    stability_ = graph(ratio_rect_, palette::sky);
    placeLegendBelow(plot_, 6);
}

// The re-sweep timer, the worker's result, the controls and the hover.
void SweepView::connectSweeps()
{
    rerun_->setSingleShot(true);
    rerun_->setInterval(400);
    connect(rerun_, &QTimer::timeout, this, [this] {
        std::vector<long long> values;
        for (const SweepPoint& p : result_.points)
            values.push_back(p.value);
        if (!values.empty())
            runSweep(QString::fromStdString(result_.param), values);
    });
    connect(watcher_, &QFutureWatcherBase::finished, this, [this] {
        if (watcher_->future().resultCount() > 0) {
            result_ = watcher_->result();
            draw();
        }
    });

    connect(run_, &QPushButton::clicked, this, [this] {
        std::vector<long long> values;
        for (const QString& v : values_->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const long long x = v.trimmed().toLongLong(&ok);
            if (ok)
                values.push_back(x);
        }
        runSweep(param_->currentData().toString(), values);
    });
    connect(param_, qOverload<int>(&QComboBox::activated), this,
            [this] { runSweep(param_->currentData().toString()); });
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        for (QCPAxisRect* r : {memory_rect_, time_rect_, ratio_rect_}) {
            if (!r->rect().contains(e->pos()))
                continue;
            const double x = r->axis(QCPAxis::atBottom)->pixelToCoord(e->pos().x());
            const int i = int(std::lround(x));
            if (i >= 0 && i < int(result_.points.size())) {
                QToolTip::showText(e->globalPosition().toPoint(), pointText(i), plot_);
                return;
            }
        }
        QToolTip::hideText();
    });
}

void SweepView::retranslate()
{
    for (int i = 0; i < param_->count(); ++i)
        if (const Knob* k = findSweepKnob(param_->itemData(i).toString()))
            param_->setItemText(i, QCoreApplication::translate("Knobs", k->label));
    values_->setPlaceholderText(tr("values, e.g. 1,2,4,8,16,32 (empty: sensible values around the current one)"));
    run_->setText(tr("Sweep"));
    peak_->setName(tr("Peak memory per GPU (GiB)"));
    capacity_->setName(tr("GPU capacity (GiB)"));
    oom_->setName(tr("Out of memory: the peak it would need (GiB)"));
    step_->setName(tr("Step time (s)"));
    bubble_->setName(tr("Bubble (idle / step, %)"));
    mfu_->setName(tr("MFU (%)"));
    stability_->setName(tr("Stability wall (1 − goodput, %)"));
    memory_rect_->axis(QCPAxis::atLeft)->setLabel(tr("GiB"));
    time_rect_->axis(QCPAxis::atLeft)->setLabel(tr("s"));
    ratio_rect_->axis(QCPAxis::atLeft)->setLabel(tr("%"));
    draw();
}

void SweepView::runSweep(const QString& param, std::vector<long long> values, bool wait)
{
    const Knob* knob = findSweepKnob(param);
    if (!knob)
        return;
    const Scenario base = model_->scenario();
    if (values.empty()) {
        // The knob's sensible values, at most 6 either side of the current one.
        const std::vector<long long> all = knob->values(base);
        const std::size_t at = nearestIndex(all, knob->get(base));
        const std::size_t from = at > 6 ? at - 6 : 0, to = std::min(all.size(), at + 7);
        values.assign(all.begin() + std::ptrdiff_t(from), all.begin() + std::ptrdiff_t(to));
    }
    param_->setCurrentIndex(param_->findData(param));
    QStringList text;
    for (long long v : values)
        text << QString::number(v);
    values_->setText(text.join(QLatin1Char(',')));
    if (wait) {
        watcher_->setFuture(QFuture<SweepResult>()); // a sweep still running is not drawn
        result_ = sweep(base, param.toStdString(), values);
        draw();
        return;
    }
    // On a worker: a sweep of a large pipeline takes seconds. A newer sweep replaces the
    // watcher's future, so only the last one asked for is drawn.
    watcher_->setFuture(
        runInBackground<SweepResult>([base, path = param.toStdString(), values](QPromise<SweepResult>& promise) {
            promise.addResult(sweep(base, path, values));
        }));
}

bool SweepView::isSweeping() const { return watcher_->isRunning(); }

QString SweepView::pointText(int i) const
{
    if (i < 0 || i >= int(result_.points.size()))
        return {};
    const SweepPoint& p = result_.points[std::size_t(i)];
    QString t = tr("<b>%1 = %2</b>%3<br>peak %4 of %5 GiB (stage %6)<br>step %7 s · bubble %8 % · MFU %9 %")
                    .arg(QString::fromStdString(result_.param))
                    .arg(p.value)
                    .arg(p.valid ? QString() : tr(" — invalid"))
                    .arg(gib(p.peak_bytes, 1), gib(p.capacity_bytes, 1))
                    .arg(p.peak_stage)
                    .arg(p.step_s, 0, 'f', 3)
                    .arg(p.bubble_fraction * 100, 0, 'f', 1)
                    .arg(p.mfu * 100, 0, 'f', 1);
    if (p.gpus > 0) // how sure the step time is: the point's class (io/error_bands.h)
        t += QStringLiteral("<br>") + tr("How sure: %1").arg(inUi(bandText(p.band)).toHtmlEscaped());
    if (p.gpus > 0)
        t += QStringLiteral("<br>")
            + tr("%n GPU(s) · DP %1 · global batch %2", nullptr, int(std::min<std::int64_t>(p.gpus, 1 << 30)))
                  .arg(p.dp)
                  .arg(p.global_batch);
    for (const Diagnostic& d : p.diagnostics)
        t += QStringLiteral("<br>• ") + QString::fromStdString(d.message.in(chineseUi() ? "zh" : "en")).toHtmlEscaped();
    return t;
}

QString SweepView::axisNote() const { return inUi(result_.changes_note); }

QString SweepView::alsoText(const SweepPoint& p) const
{
    // The first quantity the sentence names: the GPU count, or DP when the axis is the GPU count.
    if (result_.changes.empty() || p.gpus == 0)
        return {};
    // On a GPU axis the count is the value itself: the second line names DP instead.
    const bool gpu_axis = result_.param.rfind("gpus", 0) == 0;
    const std::string& what
        = gpu_axis && result_.changes.size() > 1 ? result_.changes[1].what : result_.changes.front().what;
    if (what == "gpus" && !gpu_axis)
        return tr("%n GPU(s)", nullptr, int(std::min<std::int64_t>(p.gpus, 1 << 30)));
    if (what == "parallel.dp")
        return tr("DP %1").arg(p.dp);
    return tr("batch %1").arg(p.global_batch);
}

void SweepView::themeChanged()
{
    // applyTheme styles the first axis rect; the other two follow it.
    QFont ticks = plot_->font();
    ticks.setPointSize(std::max(6, theme_.font_pt - 1));
    for (QCPAxisRect* r : {memory_rect_, time_rect_, ratio_rect_})
        for (QCPAxis* a : r->axes()) {
            a->setTickLabelFont(ticks);
            a->setLabelFont(plot_->font());
            a->grid()->setPen(QPen(QColor(220, 220, 220), 1, Qt::DotLine));
        }
}

void SweepView::refresh()
{
    // The scenario changed: a sweep on screen would show the old one. Say so at once and sweep the
    // same values again once the sliders rest (on the worker thread; a newer run replaces it). A
    // hidden Sweep tab only remembers it: slider moves on the other tabs cost no sweeps.
    if (result_.points.empty())
        return;
    breaks_->setText(tr("<i>The scenario changed: updating the sweep…</i>"));
    if (isVisible())
        rerun_->start();
    else
        stale_ = true;
}

void SweepView::showEvent(QShowEvent* e)
{
    ChartView::showEvent(e);
    if (stale_) {
        stale_ = false;
        rerun_->start();
    }
}

void SweepView::draw()
{
    const int n = int(result_.points.size());
    plotPoints(tickEvery(n));
    // Breaking points: a dashed line before the first value where each appears, named below.
    plot_->clearItems();
    if (n > 0
        && std::none_of(result_.points.begin(), result_.points.end(), [](const SweepPoint& p) { return p.valid; }))
        noneRuns();
    const QString text = markBreaks(n);
    // What else the knob's rule moves along the axis (a PP sweep keeps DP: the GPU count grows).
    changes_->setText(tr("<b>Note:</b> %1").arg(axisNote().toHtmlEscaped()));
    changes_->setVisible(!axisNote().isEmpty());
    breaks_->setText(n == 0 ? tr("Pick a knob and press Sweep.")
                            : (result_.breaks.empty() ? tr("<b>Breaking points:</b> none in this range.")
                                                      : tr("<b>Breaking points:</b><br>") + text));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

// Which values get a tick label: every k-th, k as small as the labels' widths allow.
int SweepView::tickEvery(int n) const
{
    // Every value's label when they fit side by side, else every k-th (8192 and 16384 never run
    // together); invalid values keep their ✗ label.
    const QFontMetrics fm(ratio_rect_->axis(QCPAxis::atBottom)->tickLabelFont());
    int widest = 0;
    for (const SweepPoint& p : result_.points)
        widest = std::max(
            {widest, fm.horizontalAdvance(QStringLiteral("✗ ") + QString::number(p.value)) + fm.averageCharWidth() * 2,
             fm.horizontalAdvance(alsoText(p)) + fm.averageCharWidth() * 2});
    const int width = axisWidth();
    return std::max(1, (n * widest + std::max(1, width) - 1) / std::max(1, width));
}

int SweepView::axisWidth() const { return ratio_rect_->width() > 0 ? ratio_rect_->width() : plot_->width() - 80; }

// The x axes' labels, as many as have room and never two touching: first the valid values (every
// k-th, then the others), then the invalid ones (✗). The invalid ones were always labelled, and on
// the lowest axis, where each label says "128 GPUs" too, PP 1 … 16 all out of memory ran together
// ("8 GPUs16 GPUs32 GPUs") while the one valid value, PP 32, had none. The dashed lines and the
// list below name every breaking point.
void SweepView::setTickLabels(int every)
{
    const int n = int(result_.points.size());
    const QFontMetrics fm(ratio_rect_->axis(QCPAxis::atBottom)->tickLabelFont());
    const double slot = double(axisWidth()) / std::max(1, n), gap = fm.averageCharWidth();
    const auto labelOf = [this](int i) {
        const SweepPoint& p = result_.points[std::size_t(i)];
        return std::pair<QString, QString>{(p.valid ? QString() : QStringLiteral("✗ ")) + QString::number(p.value),
                                           alsoText(p)};
    };
    const auto rank = [&](int i) { return result_.points[std::size_t(i)].valid ? (i % every == 0 ? 0 : 1) : 2; };
    std::vector<int> order(std::size_t(std::max(0, n)));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return rank(a) < rank(b); });
    std::map<int, std::pair<double, double>> placed; // index → its label's left and right pixels
    for (int i : order) {
        const auto [label, also] = labelOf(i);
        const double half = std::max(fm.horizontalAdvance(label), fm.horizontalAdvance(also)) / 2.0;
        const double left = (i + 0.5) * slot - half, right = (i + 0.5) * slot + half;
        const auto after = placed.upper_bound(i);
        const bool clear_after = after == placed.end() || right + gap <= after->second.first;
        const bool clear_before = after == placed.begin() || std::prev(after)->second.second + gap <= left;
        if (clear_after && clear_before)
            placed[i] = {left, right};
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    auto bottom = QSharedPointer<QCPAxisTickerText>::create();
    for (const auto& entry : placed) {
        const auto [label, also] = labelOf(entry.first);
        ticker->addTick(entry.first, label);
        bottom->addTick(entry.first, also.isEmpty() ? label : label + QLatin1Char('\n') + also);
    }
    for (QCPAxisRect* r : {memory_rect_, time_rect_, ratio_rect_})
        r->axis(QCPAxis::atBottom)->setTicker(r == ratio_rect_ ? bottom : ticker);
}

// The sweep's points on the three charts, the tick labels on the shared x axis and the y ranges.
void SweepView::plotPoints(int every)
{
    const int n = int(result_.points.size());
    QVector<double> x(n), peak(n), over(n), cap(n), step(n), bubble(n), mfu(n), lost(n);
    // The upper charts label the values; the lowest also says what changes with them ("512 GPUs").
    setTickLabels(every);
    for (int i = 0; i < n; ++i) {
        const SweepPoint& p = result_.points[std::size_t(i)];
        x[i] = i; // categorical: one slot per value
        // An invalid value (PP = 64 on 32 layers) has no memory, step or MFU to draw: a gap
        // (NaN), marked ✗ on the axis and explained below.
        const double nan = std::numeric_limits<double>::quiet_NaN();
        // Out of memory and nothing else: the peak it would need is drawn, marked ✕ (a sweep whose
        // every value is over the capacity, DeepSeek-V3 over PP 1 … 61, showed an empty chart).
        const bool sized = p.valid || onlyOutOfMemory(p);
        peak[i] = sized ? p.peak_bytes / kGiB : nan;
        over[i] = sized && gpuOutOfMemory(p) ? p.peak_bytes / kGiB : nan;
        cap[i] = p.capacity_bytes / kGiB;
        step[i] = p.valid ? p.step_s : nan;
        bubble[i] = p.valid ? p.bubble_fraction * 100 : nan;
        mfu[i] = p.valid ? p.mfu * 100 : nan;
        lost[i] = p.valid ? (1 - p.goodput) * 100 : nan;
    }
    peak_->setData(x, peak, true);
    capacity_->setData(x, cap, true);
    oom_->setData(x, over, true);
    oom_->removeFromLegend();
    if (std::any_of(over.begin(), over.end(), [](double v) { return !std::isnan(v); }))
        oom_->addToLegend();
    step_->setData(x, step, true);
    bubble_->setData(x, bubble, true);
    mfu_->setData(x, mfu, true);
    stability_->setData(x, lost, true);
    for (QCPAxisRect* r : {memory_rect_, time_rect_, ratio_rect_}) {
        r->axis(QCPAxis::atBottom)->grid()->setZeroLinePen(Qt::NoPen); // categories: no line through the first
        r->axis(QCPAxis::atBottom)->setRange(-0.5, std::max(1, n) - 0.5);
    }
    // How sure the step and the MFU are, in their legends (and so in an export): the points'
    // bands, one, or the range over the classes the sweep passes through (each point's in its tooltip).
    std::vector<double> mapes;
    for (const SweepPoint& p : result_.points)
        if (p.gpus > 0)
            mapes.push_back(p.band.mape);
    const QString band = bandRange(mapes);
    step_->setName(tr("Step time (s)") + band);
    mfu_->setName(tr("MFU (%)") + band);
    const Knob* knob = findSweepKnob(QString::fromStdString(result_.param));
    ratio_rect_->axis(QCPAxis::atBottom)
        ->setLabel(knob ? QCoreApplication::translate("Knobs", knob->label) : QString::fromStdString(result_.param));
    bool found = false;
    // Headroom for the breaking points' numbers at the top (markBreaks), clear of the points.
    const double headroom = result_.breaks.empty() ? 1.1 : 1.25;
    memory_rect_->axis(QCPAxis::atLeft)
        ->setRange(0,
                   std::max(1.0, std::max(peak_->getValueRange(found).upper, cap.isEmpty() ? 1 : cap[0])) * headroom);
    const double slowest = step_->getValueRange(found).upper;
    time_rect_->axis(QCPAxis::atLeft)->setRange(0, found ? std::max(1e-6, slowest) * 1.1 : 1.0);
    ratio_rect_->axis(QCPAxis::atLeft)->setRange(0, 100);
}

} // namespace parascope::ui
