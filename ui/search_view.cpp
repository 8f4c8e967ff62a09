#include "search_view.h"
#include "format.h"

#include "language.h"

#include "models/scenario_model.h"
#include "models/search_table_model.h"
#include "background.h"

#include <qcustomplot.h>

#include <QApplication>

#include <limits>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace parascope::ui {

SearchView::SearchView(ScenarioModel* model, QWidget* parent)
    : ChartView(model, parent)
    , table_(new SearchTableModel(this))
    , view_(new QTableView)
    , run_(new QPushButton)
    , cancel_button_(new QPushButton)
    , progress_(new QProgressBar)
    , summary_(new QLabel)
    , watcher_(new QFutureWatcher<SearchOutcome>(this))
{
    auto* outer = qobject_cast<QVBoxLayout*>(layout());
    outer->removeWidget(plot_);
    auto* top = new QHBoxLayout;
    top->addWidget(run_);
    top->addWidget(progress_);
    top->addWidget(cancel_button_);
    top->addWidget(summary_, 1);
    progress_->hide();
    cancel_button_->hide();
    connect(cancel_button_, &QPushButton::clicked, this, &SearchView::cancelSearch);
    connect(watcher_, &QFutureWatcherBase::progressRangeChanged, progress_, &QProgressBar::setRange);
    connect(watcher_, &QFutureWatcherBase::progressValueChanged, progress_, &QProgressBar::setValue);
    connect(watcher_, &QFutureWatcherBase::finished, this, &SearchView::searchFinished);
    outer->addLayout(top);
    auto* split = new QSplitter(Qt::Horizontal);
    view_->setModel(table_);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view_->verticalHeader()->setVisible(false);
    split->addWidget(view_);
    split->addWidget(plot_);
    outer->addWidget(split, 1);
    summary_->setWordWrap(true);

    all_ = plot_->addGraph();
    all_->setLineStyle(QCPGraph::lsNone);
    all_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(153, 153, 153, 120), 5));
    front_ = plot_->addGraph();
    front_->setPen(QPen(palette::blue, 2));
    front_->setLineStyle(QCPGraph::lsStepRight);
    front_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, palette::blue, Qt::white, 8));
    best_ = plot_->addGraph();
    best_->setLineStyle(QCPGraph::lsNone);
    best_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, palette::vermillion, 14));
    placeLegendBelow(plot_, 3);
    // Below the Pareto chart: TP × PP heatmap of the best step time; cells where nothing fits
    // are left empty and marked "OOM".
    heat_rect_ = new QCPAxisRect(plot_);
    plot_->plotLayout()->insertRow(1);
    plot_->plotLayout()->addElement(1, 0, heat_rect_);
    heat_ = new QCPColorMap(heat_rect_->axis(QCPAxis::atBottom), heat_rect_->axis(QCPAxis::atLeft));
    heat_scale_ = new QCPColorScale(plot_);
    plot_->plotLayout()->addElement(1, 1, heat_scale_);
    heat_->setColorScale(heat_scale_);
    QCPColorGradient gradient(QCPColorGradient::gpThermal);
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    heat_->setGradient(gradient.inverted()); // fast = bright
    heat_->setInterpolate(false);
    heat_->removeFromLegend();
    auto* margins = new QCPMarginGroup(plot_);
    plot_->axisRect(0)->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    heat_rect_->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    themeChanged();

    connect(run_, &QPushButton::clicked, this, [this] { runSearch(true); });
    connect(view_, &QTableView::doubleClicked, this, [this](const QModelIndex& i) { applyRow(i.row()); });
    retranslate();
}

void SearchView::retranslate()
{
    run_->setText(tr("Search all strategies"));
    cancel_button_->setText(tr("Cancel"));
    all_->setName(tr("strategies that fit (top)"));
    front_->setName(tr("Pareto front"));
    best_->setName(tr("best tokens/s"));
    plot_->xAxis->setLabel(tr("Peak memory per GPU (GiB)"));
    plot_->yAxis->setLabel(tr("Step time (s)"));
    heat_rect_->axis(QCPAxis::atBottom)->setLabel(tr("TP"));
    heat_rect_->axis(QCPAxis::atLeft)->setLabel(tr("PP"));
    heat_scale_->axis()->setLabel(tr("best step (s)"));
    if (result_.enumerated == 0)
        summary_->setText(tr("Finds every valid TP × PP × DP × CP × EP × ZeRO × micro batch × recompute × schedule for "
                             "this model on this many GPUs. Double-click a row to apply it."));
    draw();
}

namespace {

SearchOptions searchOptions(const Scenario& sc)
{
    SearchOptions o;
    o.top = 50;
    o.gpus = sc.parallel.gpus();
    return o;
}

// The search and, when nothing ranks, the explanation: both can take seconds, both run here.
SearchOutcome searchWithExplanation(const Scenario& sc, SearchOptions o)
{
    SearchOutcome out;
    out.gpus = o.gpus;
    out.result = searchStrategies(sc, o);
    if (out.result.top.empty() && !out.result.cancelled)
        out.why = explainEmptySearch(sc, o, out.result);
    return out;
}

} // namespace

void SearchView::runSearch(bool interactive)
{
    const Scenario sc = model_->scenario();
    if (cancel_)
        cancel_->store(true); // a running search stops at its next evaluation; its result is dropped
    if (!interactive) {
        watcher_->setFuture(QFuture<SearchOutcome>());
        progress_->hide();
        cancel_button_->hide();
        showOutcome(searchWithExplanation(sc, searchOptions(sc)));
        return;
    }
    cancel_ = newCancelToken();
    progress_->setRange(0, 0);
    progress_->show();
    cancel_button_->show();
    summary_->setText(tr("Evaluating strategies…"));
    watcher_->setFuture(runInBackground<SearchOutcome>([sc, token = cancel_](QPromise<SearchOutcome>& promise) {
        SearchOptions o = searchOptions(sc);
        o.threads = 0;
        o.progress = [&promise, token](std::size_t done, std::size_t total) {
            promise.setProgressRange(0, int(std::min<std::size_t>(total, 1u << 30)));
            promise.setProgressValue(int(std::min<std::size_t>(done, 1u << 30)));
            return !token->load();
        };
        promise.addResult(searchWithExplanation(sc, o));
    }));
}

void SearchView::cancelSearch()
{
    if (cancel_)
        cancel_->store(true);
}

bool SearchView::isSearching() const
{
    return watcher_->isRunning();
}

void SearchView::searchFinished()
{
    progress_->hide();
    cancel_button_->hide();
    if (watcher_->future().resultCount() > 0)
        showOutcome(watcher_->result());
}

void SearchView::showOutcome(const SearchOutcome& outcome)
{
    result_ = outcome.result;
    table_->setRows(result_.top);
    summary_->setText(tr("%1 strategies on %2 GPUs: %3 valid, %4 fit%5 (%6 s). Double-click a row to apply it.")
                          .arg(result_.enumerated).arg(outcome.gpus).arg(result_.valid).arg(result_.fitting)
                          .arg(result_.cancelled ? tr(", cancelled") : QString())
                          .arg(result_.seconds, 0, 'f', 2));
    if (outcome.why) {
        // Nothing to rank: say what rules every layout out, and where a layout exists.
        const EmptySearchReason& why = *outcome.why;
        QString text = summary_->text() + QLatin1Char('\n') + inUi(why.text);
        if (!why.nearest.empty()) {
            QStringList counts;
            for (std::int64_t g : why.nearest)
                counts << QString::number(g);
            text += QLatin1Char(' ') + tr("Nearest GPU counts with a valid layout: %1.").arg(counts.join(QStringLiteral(", ")));
        }
        summary_->setText(text);
    }
    draw();
}

QString SearchView::summary() const
{
    return summary_->text();
}

void SearchView::applyRow(int r)
{
    const SearchRow* row = table_->row(r);
    if (!row)
        return;
    const Scenario applied = parascope::applyRow(model_->scenario(), *row);
    model_->edit([&](Scenario& s) { s = applied; });
}

void SearchView::themeChanged()
{
    // applyTheme styles the first axis rect; the heatmap and its scale follow it.
    QFont ticks = plot_->font();
    ticks.setPointSize(std::max(6, theme_.font_pt - 1));
    for (QCPAxis* a : heat_rect_->axes() + QList<QCPAxis*>{heat_scale_->axis()}) {
        a->setTickLabelFont(ticks);
        a->setLabelFont(plot_->font());
    }
}

void SearchView::refresh()
{
    // The search re-runs on request (it evaluates thousands of scenarios).
}

void SearchView::draw()
{
    QVector<double> ax, ay, fx, fy, bx, by;
    for (const SearchRow& r : result_.top) {
        ax << r.peak_bytes / kGiB;
        ay << r.step_s;
    }
    for (const SearchRow& r : result_.pareto) {
        fx << r.peak_bytes / kGiB;
        fy << r.step_s;
    }
    if (!result_.top.empty()) {
        bx << result_.top.front().peak_bytes / kGiB;
        by << result_.top.front().step_s;
    }
    // Heatmap: categorical TP and PP values.
    std::vector<int> tps, pps;
    for (const SearchCell& c : result_.cells) {
        if (std::find(tps.begin(), tps.end(), c.tp) == tps.end())
            tps.push_back(c.tp);
        if (std::find(pps.begin(), pps.end(), c.pp) == pps.end())
            pps.push_back(c.pp);
    }
    std::sort(tps.begin(), tps.end());
    std::sort(pps.begin(), pps.end());
    const int nx = std::max<int>(1, int(tps.size())), ny = std::max<int>(1, int(pps.size()));
    heat_->data()->setSize(nx, ny);
    heat_->data()->setRange(QCPRange(0, nx - 1), QCPRange(0, ny - 1));
    for (int x = 0; x < nx; ++x)
        for (int y = 0; y < ny; ++y)
            heat_->data()->setCell(x, y, std::numeric_limits<double>::quiet_NaN());
    for (QCPAbstractItem* item : heat_items_)
        plot_->removeItem(item);
    heat_items_.clear();
    for (const SearchCell& c : result_.cells) {
        const int x = int(std::find(tps.begin(), tps.end(), c.tp) - tps.begin());
        const int y = int(std::find(pps.begin(), pps.end(), c.pp) - pps.begin());
        if (c.fits) {
            heat_->data()->setCell(x, y, c.best_step_s);
        } else {
            auto* t = new QCPItemText(plot_);
            t->setClipAxisRect(heat_rect_);
            t->position->setAxes(heat_rect_->axis(QCPAxis::atBottom), heat_rect_->axis(QCPAxis::atLeft));
            t->position->setCoords(x, y);
            t->setText(QStringLiteral("OOM"));
            t->setColor(palette::vermillion);
            heat_items_.push_back(t);
        }
    }
    auto tx = QSharedPointer<QCPAxisTickerText>::create();
    auto ty = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < int(tps.size()); ++i)
        tx->addTick(i, QString::number(tps[std::size_t(i)]));
    for (int i = 0; i < int(pps.size()); ++i)
        ty->addTick(i, QString::number(pps[std::size_t(i)]));
    heat_rect_->axis(QCPAxis::atBottom)->setTicker(tx);
    heat_rect_->axis(QCPAxis::atLeft)->setTicker(ty);
    heat_rect_->axis(QCPAxis::atBottom)->setRange(-0.5, nx - 0.5);
    heat_rect_->axis(QCPAxis::atLeft)->setRange(-0.5, ny - 0.5);
    heat_->rescaleDataRange(true);

    all_->setData(ax, ay);
    front_->setData(fx, fy, true);
    best_->setData(bx, by);
    all_->rescaleAxes();
    front_->rescaleAxes(true);
    plot_->xAxis->setRangeLower(0);
    plot_->yAxis->setRangeLower(0);
    plot_->xAxis->scaleRange(1.1, plot_->xAxis->range().center());
    plot_->yAxis->scaleRange(1.1, plot_->yAxis->range().center());
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace parascope::ui
