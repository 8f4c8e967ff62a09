#include "main_window.h"

#include "chart_export.h"
#include "dialogs/export_dialog.h"
#include "format.h"
#include "language.h"
#include "memory_chart.h"
#include "memory_time_chart.h"
#include "collectives_view.h"
#include "comm_chart.h"
#include "models/scenario_model.h"
#include "search_view.h"
#include "sweep_view.h"
#include "timeline_chart.h"
#include "walls_view.h"

#include <QScopeGuard>
#include <QStatusBar>

// The main window's exports: a chart for slides, with its context line, the sweep's notes and
// the timeline as the asked view (timed or slot grid).

namespace parascope::ui {

ChartView* MainWindow::chartFor(ChartKind which) const
{
    switch (which) {
    case ChartKind::Memory: return memory_;
    case ChartKind::Timeline: return timeline_;
    case ChartKind::Communication: return comm_;
    case ChartKind::Sweep: return sweep_;
    case ChartKind::Search: return search_;
    case ChartKind::Slots: return timeline_;
    case ChartKind::Walls: return walls_chart_;
    case ChartKind::Collective: return collectives_->chart();
    case ChartKind::MemoryTime: return memory_time_;
    }
    return memory_;
}

QString MainWindow::exportChartTo(ChartKind which, const QString& file, QSize size, double scale, bool context)
{
    ChartView* view = chartFor(which);
    model_->flush();
    // The timeline as the asked view for the export, and as it was after.
    const bool slots_before = timeline_->slotGrid();
    if (which == ChartKind::Timeline || which == ChartKind::Slots)
        timeline_->setSlotGrid(which == ChartKind::Slots);
    const auto restoreSlots = qScopeGuard([this, slots_before] { timeline_->setSlotGrid(slots_before); });
    ExportRequest request;
    request.file = file;
    request.size = size;
    request.scale = scale;
    if (context)
        request.title_line = contextLine(model_->scenario(), model_->estimate().gpus);
    if (which == ChartKind::Sweep) {
        // The breaking points, numbered as the chart numbers them.
        QStringList lines;
        for (const BreakingPoint& b : sweep_->result().breaks)
            lines << QStringLiteral("%1. %2").arg(lines.size() + 1).arg(inUi(b.message));
        if (!sweep_->result().changes_note.en.empty())
            lines << inUi(sweep_->result().changes_note); // what else moves along the axis
        request.footer = lines.join(QLatin1Char('\n'));
    }
    request.chinese = chineseUi();
    return exportChart(
        view->plot(), request, [view](const ChartTheme& t) { view->setTheme(t); }, theme_,
        [view](QSize s) { view->layoutFor(s); });
}

void MainWindow::exportChartDialog(ChartKind which)
{
    const std::optional<ExportChoice> choice = askExport(this, QString::fromLatin1(toString(which)));
    if (!choice)
        return;
    const QString error = exportChartTo(which, choice->file, choice->size, choice->scale, choice->context);
    if (!error.isEmpty())
        showError(tr("Export chart"), tr("Could not export %1: %2").arg(withExtension(choice->file), error));
    else
        statusBar()->showMessage(tr("Exported %1").arg(withExtension(choice->file)), 3000);
}

} // namespace parascope::ui
