#include "search_view.h"
#include "format.h"

#include "language.h"

#include "models/scenario_model.h"
#include "models/search_table_model.h"
#include "background.h"

#include <qcustomplot.h>

#include <QApplication>

#include <algorithm>
#include <cmath>
#include <limits>

#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>

namespace parascope::ui {

namespace {

const QColor kEmptyFill{226, 226, 226}; // cells where nothing fits: light grey …
const QColor kEmptyHatch{150, 150, 150}; // … hatched
const QColor kEmptyText{80, 80, 80};

// ColorBrewer YlGnBu, a sequential scale safe for colour-blind readers (and in greyscale): the
// fastest step (the low end of the data range) in deep blue, the slowest in pale yellow — never
// white, so no cell looks like the background.
QCPColorGradient stepGradient()
{
    QCPColorGradient g;
    const QColor stops[] = {{8, 29, 88},    {37, 52, 148},   {34, 94, 168},   {29, 145, 192},
                            {65, 182, 196}, {127, 205, 187}, {199, 233, 180}, {237, 248, 177}};
    for (int i = 0; i < 8; ++i)
        g.setColorStopAt(i / 7.0, stops[i]);
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setLevelCount(256);
    g.setNanHandling(QCPColorGradient::nhNanColor);
    g.setNanColor(kEmptyFill);
    return g;
}

// `text` broken into lines of at most `width` pixels: at spaces, or anywhere in Chinese.
QString wrapped(const QString& text, const QFontMetrics& fm, int width)
{
    QStringList lines;
    for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
        QString line;
        for (const QChar c : paragraph) {
            // Chinese punctuation never starts a line: it stays on the line it closes.
            const bool closing = QStringLiteral("，。；：、）》”").contains(c);
            if (fm.horizontalAdvance(line + c) > width && !line.isEmpty() && !closing) {
                // Latin words break at the last space; Chinese before any character.
                const qsizetype space = c.unicode() >= 0x2E80 ? -1 : line.lastIndexOf(QLatin1Char(' '));
                lines << (space > 0 ? line.left(space) : line);
                line = space > 0 ? line.mid(space + 1) : QString();
            }
            line += c;
        }
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace

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
    layOutTable();
    addParetoGraphs();
    addHeatmap();
    // A cell's value shows where it fits, decided once the layout knows the cell size.
    connect(plot_, &QCustomPlot::afterLayout, this, &SearchView::fitHeatLabels);
    connect(plot_, &QCustomPlot::mouseMove, this, &SearchView::hover);
    themeChanged();

    connect(run_, &QPushButton::clicked, this, [this] { runSearch(true); });
    connect(view_, &QTableView::doubleClicked, this, [this](const QModelIndex& i) { applyRow(i.row()); });
    retranslate();
}

// Run, progress, Cancel and the summary above; the table and the charts side by side below.
void SearchView::layOutTable()
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
    // The charts get a little more room than the table: the heatmap's cells carry their numbers.
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 5);
    split->setSizes({400, 500});
    outer->addWidget(split, 1);
    summary_->setWordWrap(true);
}

// The Pareto chart's graphs: every strategy that fits, the front, the best; and the legend.
void SearchView::addParetoGraphs()
{
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
}

// The heatmap's caption, axis rect, colour map and colour scale under the Pareto chart.
void SearchView::addHeatmap()
{
    // Below the Pareto chart, in one column (the narrow 1024-pixel layout keeps every pixel for
    // the cells): the caption, the TP × PP heatmap of the best step time, its colour scale
    // (fast = strong, on the left), then the legend.
    heat_title_ = new QCPTextElement(plot_);
    heat_title_->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    heat_title_->setTextColor(QColor(60, 60, 60));
    heat_rect_ = new QCPAxisRect(plot_);
    heat_scale_ = new QCPColorScale(plot_);
    heat_scale_->setType(QCPAxis::atBottom);
    heat_scale_->setBarWidth(10);
    int row = 1;
    for (QCPLayoutElement* e : std::initializer_list<QCPLayoutElement*>{heat_title_, heat_rect_, heat_scale_}) {
        plot_->plotLayout()->insertRow(row);
        plot_->plotLayout()->addElement(row, 0, e);
        if (e != heat_rect_)
            plot_->plotLayout()->setRowStretchFactor(row, 0.001); // as tall as their text
        ++row;
    }
    heat_ = new QCPColorMap(heat_rect_->axis(QCPAxis::atBottom), heat_rect_->axis(QCPAxis::atLeft));
    heat_->setColorScale(heat_scale_);
    heat_->setGradient(stepGradient());
    heat_->setInterpolate(false);
    heat_->removeFromLegend();
    auto* margins = new QCPMarginGroup(plot_);
    plot_->axisRect(0)->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    heat_rect_->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    heat_scale_->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
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

bool SearchView::isSearching() const { return watcher_->isRunning(); }

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
    summary_->setText(tr("%1 strategies on %n GPU(s): %2 valid, %3 fit%4 (%5 s). Double-click a row to apply it.",
                         nullptr, int(std::min<std::int64_t>(outcome.gpus, 1 << 30)))
                          .arg(result_.enumerated)
                          .arg(result_.valid)
                          .arg(result_.fitting)
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
            text += QLatin1Char(' ')
                + tr("Nearest GPU counts with a valid layout: %1.").arg(counts.join(QStringLiteral(", ")));
        }
        summary_->setText(text);
    }
    draw();
}

QString SearchView::summary() const { return summary_->text(); }

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
    // applyTheme styles the first axis rect; the heatmap, its scale and caption follow it.
    QFont ticks = plot_->font();
    ticks.setPointSize(std::max(6, theme_.font_pt - 1));
    for (QCPAxis* a : heat_rect_->axes() + QList<QCPAxis*>{heat_scale_->axis()}) {
        a->setTickLabelFont(ticks);
        a->setLabelFont(plot_->font());
    }
    heat_title_->setFont(ticks);
    drawHeatmap(); // the cells' texts take the theme's font
    sizeChanged();
}

void SearchView::sizeChanged()
{
    // ChartView wraps the legend to the view's width; here the plot shares it with the table.
    QCPLegend* legend = plot_->legend;
    int widest = 0;
    for (int i = 0; i < legend->elementCount(); ++i)
        if (QCPLayoutElement* item = legend->elementAt(i))
            widest = std::max(widest, item->minimumOuterSizeHint().width());
    const int columns
        = std::clamp((plot_->width() - 16) / std::max(40, widest + 8), 1, std::max(1, legend->itemCount()));
    if (legend->itemCount() > 0 && columns != legend->wrap()) {
        legend->setWrap(columns);
        legend->setFillOrder(legend->fillOrder(), true);
    }
    // The colour scale runs along the width: as many ticks as their labels fit ("22.5").
    const QFontMetrics fm(heat_scale_->axis()->tickLabelFont());
    const int per_tick = fm.horizontalAdvance(QStringLiteral("000.0")) + fm.averageCharWidth() * 3;
    heat_scale_->axis()->ticker()->setTickCount(std::clamp((plot_->width() - 100) / std::max(1, per_tick), 2, 8));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString SearchView::heatCaption() const
{
    return tr(
        "Best step (s) per TP × PP, darker = faster. Hatched: nothing fits (OOM: out of memory; —: no valid layout).");
}

void SearchView::refresh()
{
    // The search re-runs on request (it evaluates thousands of scenarios).
}

void SearchView::draw()
{
    // How sure the steps drawn are: the bands of the layouts' classes, on the step axes (exports too).
    std::vector<double> rows, cells;
    for (const SearchRow& r : result_.top)
        rows.push_back(r.band.mape);
    for (const SearchCell& c : result_.cells)
        if (c.fits)
            cells.push_back(c.best_band.mape);
    plot_->yAxis->setLabel(tr("Step time (s)") + bandRange(rows));
    heat_scale_->axis()->setLabel(tr("best step (s)") + bandRange(cells));
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
    drawHeatmap();
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

void SearchView::drawHeatmap()
{
    for (QCPAbstractItem* item : heat_items_)
        plot_->removeItem(item);
    heat_items_.clear();
    heat_texts_.clear();
    const HeatGrid grid = heatGrid(result_);
    heat_cells_ = grid.cells;
    const int nx = std::max<int>(1, int(grid.tps.size())), ny = std::max<int>(1, int(grid.pps.size()));
    heat_->setVisible(!heat_cells_.empty());
    heat_->data()->setSize(nx, ny);
    heat_->data()->setRange(QCPRange(0, nx - 1), QCPRange(0, ny - 1));
    // The fastest cell at the strong end; one fitting cell alone is the strongest too.
    const double lo = grid.fastest_s, hi = grid.slowest_s;
    const QCPRange range = hi > 0 ? QCPRange(lo, hi > lo ? hi : lo * 1.1) : QCPRange(0, 1);
    heat_->setDataRange(range);
    QCPColorGradient gradient = heat_->gradient();
    QCPAxis* kx = heat_rect_->axis(QCPAxis::atBottom);
    QCPAxis* ky = heat_rect_->axis(QCPAxis::atLeft);
    QFont font = plot_->font();
    font.setPointSize(std::max(6, theme_.font_pt - 1));
    const auto rect = [&](const HeatCell& h, const QPen& pen, const QBrush& brush) {
        auto* r = new QCPItemRect(plot_);
        r->setClipAxisRect(heat_rect_);
        r->topLeft->setAxes(kx, ky);
        r->bottomRight->setAxes(kx, ky);
        r->topLeft->setCoords(h.x - 0.5, h.y + 0.5);
        r->bottomRight->setCoords(h.x + 0.5, h.y - 0.5);
        r->setPen(pen);
        r->setBrush(brush);
        heat_items_.push_back(r);
    };
    for (HeatCell& h : heat_cells_) {
        heat_->data()->setCell(h.x, h.y, h.empty ? std::numeric_limits<double>::quiet_NaN() : h.step_s);
        h.fill = h.empty ? kEmptyFill : QColor::fromRgb(gradient.color(h.step_s, range));
        if (h.empty)
            rect(h, Qt::NoPen, QBrush(kEmptyHatch, Qt::BDiagPattern));
        if (h.best)
            rect(h, QPen(palette::vermillion, theme_.linePx() + 1), Qt::NoBrush);
        auto* t = new QCPItemText(plot_);
        t->setClipAxisRect(heat_rect_);
        t->position->setAxes(kx, ky);
        t->position->setCoords(h.x, h.y);
        t->setText(h.text);
        QFont f = font;
        f.setBold(h.best);
        t->setFont(f);
        // Black on light cells, white on dark ones (by the fill's luminance).
        t->setColor(h.empty ? kEmptyText : qGray(h.fill.rgb()) < 128 ? QColor(Qt::white) : QColor(Qt::black));
        heat_items_.push_back(t);
        heat_texts_.push_back(t);
    }
    auto tx = QSharedPointer<QCPAxisTickerText>::create();
    auto ty = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < int(grid.tps.size()); ++i)
        tx->addTick(i, QString::number(grid.tps[std::size_t(i)]));
    for (int i = 0; i < int(grid.pps.size()); ++i)
        ty->addTick(i, QString::number(grid.pps[std::size_t(i)]));
    kx->setTicker(tx);
    ky->setTicker(ty);
    kx->setRange(-0.5, nx - 0.5);
    ky->setRange(-0.5, ny - 0.5);
    fitHeatLabels();
}

void SearchView::fitHeatLabels()
{
    // The caption wraps to the width being drawn (the screen, or an export's size); a new wrap
    // lays the plot out again before it is drawn.
    const QString caption
        = wrapped(heatCaption(), QFontMetrics(heat_title_->font()), std::max(80, plot_->viewport().width() - 16));
    if (caption != heat_title_->text()) {
        heat_title_->setText(caption);
        for (auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
            plot_->plotLayout()->update(phase);
    }
    // A cell's text shows when it fits inside the cell with a little room; else its tooltip says it.
    QCPAxis* kx = heat_rect_->axis(QCPAxis::atBottom);
    QCPAxis* ky = heat_rect_->axis(QCPAxis::atLeft);
    const double w = std::abs(kx->coordToPixel(1) - kx->coordToPixel(0));
    const double h = std::abs(ky->coordToPixel(1) - ky->coordToPixel(0));
    for (std::size_t i = 0; i < heat_texts_.size(); ++i) {
        const QFontMetrics fm(heat_texts_[i]->font());
        const bool fits = fm.horizontalAdvance(heat_cells_[i].text) + 4 <= w && fm.height() <= h;
        heat_texts_[i]->setVisible(fits);
        heat_cells_[i].text_shown = fits;
    }
}

void SearchView::hover(QMouseEvent* e)
{
    if (heat_cells_.empty() || !heat_rect_->rect().contains(e->pos())) {
        QToolTip::hideText();
        return;
    }
    const int x = int(std::lround(heat_rect_->axis(QCPAxis::atBottom)->pixelToCoord(e->pos().x())));
    const int y = int(std::lround(heat_rect_->axis(QCPAxis::atLeft)->pixelToCoord(e->pos().y())));
    const int ny = heat_->data()->valueSize(); // the cells go TP-major, as drawHeatmap lists them
    const std::size_t i = std::size_t(x) * std::size_t(ny) + std::size_t(y);
    if (x < 0 || y < 0 || y >= ny || i >= heat_cells_.size()) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(e->globalPosition().toPoint(), heat_cells_[i].tooltip, plot_);
}

} // namespace parascope::ui
