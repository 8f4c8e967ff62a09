#include "chart_view.h"

#include "models/scenario_model.h"

#include <qcustomplot.h>

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

} // namespace parascope::ui
