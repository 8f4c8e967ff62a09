#include "chart_view.h"

#include "format.h"
#include "language.h"
#include "models/scenario_model.h"

#include <qcustomplot.h>

#include <algorithm>

#include <QVBoxLayout>

namespace parascope::ui {

ChartView::ChartView(ScenarioModel* model, QWidget* parent)
    : QWidget(parent)
    , model_(model)
    , plot_(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_, 1);
    // The plot's own minimum follows its legend laid out in one row; the legend wraps instead.
    plot_->setMinimumSize(160, 120);
    plot_->setNotAntialiasedElements(QCP::aeAll);
    plot_->setPlottingHint(QCP::phCacheLabels, true);
    plot_->setMouseTracking(true);
    applyTheme(plot_, theme_);
    connect(model_, &ScenarioModel::estimateChanged, this, &ChartView::refresh);
    plot_->installEventFilter(this);
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] { emit doubleClicked(); });
}

QString ChartView::invalidText() const { return invalid_ && invalid_->visible() ? invalid_->text() : QString(); }

void ChartView::layoutFor(QSize size)
{
    if (size.isEmpty()) {
        relayout();
        return;
    }
    const QRect screen = plot_->viewport();
    plot_->setViewport(QRect(QPoint(0, 0), size));
    fitLegend(size); // the export's size, not the window's
    plot_->replot(QCustomPlot::rpImmediateRefresh); // the layout at the export size
    fitTicks();
    sizeChanged();
    plot_->replot(QCustomPlot::rpImmediateRefresh);
    plot_->setViewport(screen);
}

bool ChartView::showInvalid()
{
    const QString error = invalidReason(model_->estimate());
    if (!invalid_) {
        invalid_ = new QCPItemText(plot_);
        invalid_->setLayer(QStringLiteral("overlay"));
        invalid_->position->setType(QCPItemPosition::ptAxisRectRatio);
        invalid_->position->setCoords(0.5, 0.5);
        invalid_->setPositionAlignment(Qt::AlignCenter);
        invalid_->setColor(palette::vermillion);
        invalid_->setBrush(QColor(255, 255, 255, 235));
        invalid_->setPen(QPen(palette::vermillion));
        invalid_->setPadding(QMargins(8, 6, 8, 6));
    }
    const bool bad = !error.isEmpty();
    plot_->layer(QStringLiteral("main"))->setVisible(!bad);
    invalid_->setVisible(bad);
    if (bad) {
        invalid_->setFont(plot_->font());
        // Wrapped to the chart's width, word by word (or character by character in Chinese).
        invalid_->setText(tr("Invalid configuration") + QLatin1Char('\n')
                          + wrapText(error, QFontMetrics(plot_->font()), std::max(120, plot_->width() - 40)));
        plot_->replot(QCustomPlot::rpQueuedReplot);
    }
    return bad;
}

void ChartView::replotIfShown()
{
    replot_pending_ = !isVisible();
    if (!replot_pending_)
        plot_->replot();
}

void ChartView::showEvent(QShowEvent* e)
{
    QWidget::showEvent(e);
    if (replot_pending_) {
        replot_pending_ = false;
        plot_->replot(QCustomPlot::rpQueuedReplot);
    }
}

void ChartView::setTheme(const ChartTheme& t)
{
    theme_ = t;
    applyTheme(plot_, theme_);
    themeChanged();
    refresh();
}

bool ChartView::eventFilter(QObject* watched, QEvent* e)
{
    // After the plot has laid itself out for its new size (QCustomPlot::resizeEvent, which runs
    // after this filter), once per burst of resizes.
    if (watched == plot_ && e->type() == QEvent::Resize && !relayout_pending_) {
        relayout_pending_ = true;
        QMetaObject::invokeMethod(this, &ChartView::relayout, Qt::QueuedConnection);
    }
    return QWidget::eventFilter(watched, e);
}

void ChartView::relayout()
{
    relayout_pending_ = false;
    fitTicks();
    // A legend moved beside the plot (or back) changes the axis rect's width: lay out first, so
    // that what sizeChanged() fits to the bars' pixels sees the new width.
    if (fitLegend(size()))
        plot_->replot(QCustomPlot::rpImmediateRefresh);
    sizeChanged();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

// As many legend columns as entries of the widest kind fit in the chart's width; a short, wide
// chart (presenter mode's upper row) that allows it takes the legend beside the plot, one entry a
// line, so the bars keep the height.
bool ChartView::fitLegend(QSize chart)
{
    if (!plot_->legend || !plot_->legend->visible() || plot_->legend->itemCount() == 0)
        return false;
    int widest = 0, line = 0;
    for (int i = 0; i < plot_->legend->elementCount(); ++i)
        if (QCPLayoutElement* item = plot_->legend->elementAt(i)) {
            widest = std::max(widest, item->minimumOuterSizeHint().width());
            line = std::max(line, item->minimumOuterSizeHint().height());
        }
    const int fit = std::max(1, (chart.width() - 16) / std::max(40, widest + 8));
    int columns = std::min(plot_->legend->itemCount(), fit);
    const int rows = (plot_->legend->itemCount() + columns - 1) / columns;
    // Below, the legend's rows would take more than a fifth of a chart that is over 1.6 times as
    // wide as high, and beside it one column leaves the plot at least half the width.
    const bool beside = legend_beside_allowed_ && 5 * chart.width() > 8 * chart.height()
        && rows * line > chart.height() / 5 && widest + 24 < chart.width() / 2;
    const bool moved = placeLegend(beside);
    if (beside)
        columns = 1;
    if (columns != plot_->legend->wrap()) {
        plot_->legend->setWrap(columns);
        plot_->legend->setFillOrder(plot_->legend->fillOrder(), true); // re-flow the existing entries
    }
    return moved;
}

bool ChartView::placeLegend(bool beside)
{
    QCPLayoutGrid* grid = plot_->plotLayout();
    int row = -1, column = -1, rect_row = 0, rect_column = 0;
    for (int r = 0; r < grid->rowCount(); ++r)
        for (int c = 0; c < grid->columnCount(); ++c) {
            if (grid->element(r, c) == plot_->legend) {
                row = r;
                column = c;
            }
            if (grid->element(r, c) == plot_->axisRect()) {
                rect_row = r;
                rect_column = c;
            }
        }
    const bool now_beside = row == rect_row && column > rect_column;
    if (row < 0 || now_beside == beside)
        return false;
    grid->take(plot_->legend);
    grid->simplify();
    if (beside) {
        grid->addElement(rect_row, rect_column + 1, plot_->legend);
        grid->setColumnStretchFactor(rect_column + 1, 0.001);
        plot_->legend->setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
    } else {
        const int bottom = grid->rowCount();
        grid->addElement(bottom, 0, plot_->legend);
        grid->setRowStretchFactor(bottom, 0.001);
    }
    return true;
}

void ChartView::fitTicks()
{
    const QFontMetrics fm(plot_->xAxis->tickLabelFont());
    for (QCPAxisRect* rect : plot_->axisRects())
        for (QCPAxis* axis : rect->axes()) {
            if (axis->ticker().dynamicCast<QCPAxisTickerText>())
                continue; // category labels place themselves
            const bool horizontal = axis->orientation() == Qt::Horizontal;
            const int length = horizontal ? (rect->width() > 0 ? rect->width() : width() - 80)
                                          : (rect->height() > 0 ? rect->height() : height() - 80);
            // A horizontal label is about six digits wide; a vertical one a line and a half high.
            const int per_tick = horizontal ? fm.horizontalAdvance(QStringLiteral("0000.0")) + fm.averageCharWidth() * 2
                                            : fm.height() * 2;
            axis->ticker()->setTickCount(std::clamp(length / std::max(1, per_tick), 2, 8));
        }
}
} // namespace parascope::ui
