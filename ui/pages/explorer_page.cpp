#include "pages/explorer_page.h"

#include "comm_chart.h"
#include "memory_chart.h"
#include "timeline_chart.h"
#include "walls_view.h"

#include <QSplitter>
#include <QVBoxLayout>

namespace parascope::ui {

ExplorerPage::ExplorerPage(ScenarioModel* model, QWidget* parent)
    : QWidget(parent)
    , memory_(new MemoryChart(model))
    , comm_(new CommChart(model))
    , timeline_(new TimelineChart(model))
    , walls_strip_(new WallsStrip(model))
    , walls_chart_(new WallsChart(model, this))
{
    memory_->setMinimumSize(240, 160);
    comm_->setMinimumSize(200, 160);
    timeline_->setMinimumSize(400, 180);
    auto* upper = new QSplitter(Qt::Horizontal);
    upper->addWidget(memory_);
    upper->addWidget(comm_);
    upper->setStretchFactor(0, 1);
    upper->setStretchFactor(1, 1);
    upper->setSizes({1000, 1000}); // memory and communication share the width equally
    upper_ = upper;
    auto* centre = new QSplitter(Qt::Vertical);
    centre->addWidget(upper);
    centre->addWidget(timeline_);
    centre->setStretchFactor(0, 1);
    centre->setStretchFactor(1, 1);
    walls_chart_->hide(); // for --export walls and File → Export chart only
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(walls_strip_);
    layout->addWidget(centre, 1);
    // The timeline's cursor is a moment of the step: the memory chart shows what is held then.
    connect(timeline_, &TimelineChart::cursorMoved, memory_, &MemoryChart::setCursorTime);
    for (auto [view, kind] : {std::pair<ChartView*, ChartKind>{memory_, ChartKind::Memory},
                              {comm_, ChartKind::Communication},
                              {timeline_, ChartKind::Timeline}})
        connect(view, &ChartView::doubleClicked, this, [this, k = kind] { emit chartDoubleClicked(k); });
}

void ExplorerPage::maximise(std::optional<ChartKind> which)
{
    if (which && *which != ChartKind::Memory && *which != ChartKind::Communication && *which != ChartKind::Timeline)
        which.reset(); // the sweep and the search have a tab of their own
    maximised_ = which;
    memory_->setVisible(!which || *which == ChartKind::Memory);
    comm_->setVisible(!which || *which == ChartKind::Communication);
    timeline_->setVisible(!which || *which == ChartKind::Timeline);
    upper_->setVisible(!which || *which != ChartKind::Timeline); // goes when neither of its charts shows
}

void ExplorerPage::setTheme(const ChartTheme& theme)
{
    memory_->setTheme(theme);
    timeline_->setTheme(theme);
    comm_->setTheme(theme);
    walls_chart_->setTheme(theme);
}

void ExplorerPage::retranslate()
{
    walls_strip_->refresh();
    walls_chart_->refresh();
    memory_->retranslate();
    timeline_->retranslate();
    comm_->retranslate();
}

} // namespace parascope::ui
