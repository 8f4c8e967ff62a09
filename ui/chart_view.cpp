#include "chart_view.h"

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
    layout->addWidget(plot_);
    // The plot's own minimum follows its legend laid out in one row; the legend wraps instead.
    plot_->setMinimumSize(160, 120);
    plot_->setNotAntialiasedElements(QCP::aeAll);
    plot_->setPlottingHint(QCP::phCacheLabels, true);
    plot_->setMouseTracking(true);
    applyTheme(plot_, theme_);
    connect(model_, &ScenarioModel::estimateChanged, this, &ChartView::refresh);
}

void ChartView::setTheme(const ChartTheme& t)
{
    theme_ = t;
    applyTheme(plot_, theme_);
    themeChanged();
    refresh();
}

void ChartView::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    if (!plot_->legend || !plot_->legend->visible() || plot_->legend->itemCount() == 0)
        return;
    // About 140 pixels per entry (a swatch and a short name at the chart's font).
    const int fit = std::max(1, width() / std::max(140, 14 * theme_.font_pt));
    const int columns = std::min(plot_->legend->itemCount(), fit);
    if (columns != plot_->legend->wrap()) {
        plot_->legend->setWrap(columns);
        plot_->legend->setFillOrder(plot_->legend->fillOrder(), true); // re-flow the existing entries
        plot_->replot();
    }
}

} // namespace parascope::ui
