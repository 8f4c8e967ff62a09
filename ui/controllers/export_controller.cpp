#include "controllers/export_controller.h"

#include "chart_export.h"
#include "chart_view.h"
#include "controllers/course_controller.h"
#include "dialogs/export_dialog.h"
#include "format.h"
#include "io/report_json.h"
#include "io/timeline_json.h"
#include "language.h"
#include "models/scenario_model.h"
#include "save_file.h"
#include "sweep_view.h"
#include "timeline_chart.h"

#include <qcustomplot.h>

#include <QAction>
#include <QClipboard>
#include <QFileDialog>
#include <QGuiApplication>
#include <QMenu>
#include <QScopeGuard>

namespace parascope::ui {

ExportController::ExportController(const WindowContext& context, ExportSources sources)
    : WindowPart(context.window)
    , context_(context)
    , sources_(std::move(sources))
{ }

void ExportController::addFileActions(QMenu* menu)
{
    menu_ = menu->addMenu(QString());
    for (const auto& [kind, name] : kChartKindNames)
        charts_.emplace_back(kind, menu_->addAction(QString(), this, [this, k = kind] { exportChartDialog(k); }));
    copy_ = menu->addAction(QString(), QKeySequence::Copy, this, [this] {
        QGuiApplication::clipboard()->setPixmap(sources_.chart(ChartKind::Memory)->plot()->toPixmap(0, 0, 2.0));
        context_.showMessage(tr("Memory chart copied to the clipboard"), 3000);
    });
    ScenarioModel* model = context_.model;
    report_ = menu->addAction(QString(), this, [this, model] {
        exportFile(tr("Export report"), tr("JSON (*.json)"), QStringLiteral(".json"), [model](const QString& f) {
            const std::string lang = chineseUi() ? "zh" : "en";
            return writeFileAtomically(
                f, QByteArray::fromStdString(reportToJson(model->scenario(), model->estimate(), lang).dump(2)));
        });
    });
    exercises_ = menu->addAction(QString(), this, [this] {
        exportFile(tr("Export exercise results"), tr("CSV (*.csv)"), QStringLiteral(".csv"),
                   [this](const QString& f) { return sources_.course->exportExerciseResults(f); });
    });
    trace_ = menu->addAction(QString(), this, [this, model] {
        exportFile(tr("Export Chrome trace"), tr("Trace (*.json)"), QStringLiteral(".json"), [model](const QString& f) {
            return writeFileAtomically(
                f,
                QByteArray::fromStdString(
                    timelineToChromeTrace(model->scenario(), model->estimate(), {.comm_lanes = true}).dump()));
        });
    });
}

void ExportController::retranslate()
{
    menu_->setTitle(tr("&Export chart"));
    // In ChartKind's order.
    const QString charts[] = {tr("Memory chart…"),          tr("Timeline chart…"),
                              tr("Communication chart…"),   tr("Sweep chart…"),
                              tr("Search (Pareto) chart…"), tr("Slot grid of the schedule…"),
                              tr("The four walls…"),        tr("The collective at this step…"),
                              tr("Memory over the step…")};
    for (const auto& [kind, action] : charts_)
        action->setText(charts[int(kind)]);
    copy_->setText(tr("&Copy memory chart"));
    report_->setText(tr("Export report (JSON)…"));
    exercises_->setText(tr("Export exercise results (CSV)…"));
    trace_->setText(tr("Export Chrome trace…"));
}

// Ask for a file (the extension added when it is missing), write it, say what failed.
void ExportController::exportFile(const QString& title, const QString& filter, const QString& ext,
                                  const std::function<QString(const QString&)>& write)
{
    QString f = QFileDialog::getSaveFileName(context_.window, title, QString(), filter);
    if (f.isEmpty())
        return;
    if (!f.endsWith(ext))
        f += ext;
    if (const QString e = write(f); !e.isEmpty())
        context_.showError(title, tr("Could not write %1: %2").arg(f, e));
}

QString ExportController::exportChartTo(ChartKind which, const QString& file, QSize size, double scale, bool context)
{
    ChartView* view = sources_.chart(which);
    ScenarioModel* model = context_.model;
    model->flush();
    // The timeline as the asked view for the export, and as it was after.
    TimelineChart* timeline = sources_.timeline;
    const bool slots_before = timeline->slotGrid();
    if (which == ChartKind::Timeline || which == ChartKind::Slots)
        timeline->setSlotGrid(which == ChartKind::Slots);
    const auto restoreSlots = qScopeGuard([timeline, slots_before] { timeline->setSlotGrid(slots_before); });
    ExportRequest request;
    request.file = file;
    request.size = size;
    request.scale = scale;
    if (context)
        request.title_line = contextLine(model->scenario(), model->estimate().gpus);
    if (which == ChartKind::Sweep) {
        // The breaking points, numbered as the chart numbers them.
        QStringList lines;
        for (const BreakingPoint& b : sources_.sweep->result().breaks)
            lines << QStringLiteral("%1. %2").arg(lines.size() + 1).arg(inUi(b.message));
        if (!sources_.sweep->result().changes_note.en.empty())
            lines << inUi(sources_.sweep->result().changes_note); // what else moves along the axis
        request.footer = lines.join(QLatin1Char('\n'));
    }
    request.chinese = chineseUi();
    return exportChart(
        view->plot(), request, [view](const ChartTheme& t) { view->setTheme(t); }, sources_.theme(),
        [view](QSize s) { view->layoutFor(s); });
}

void ExportController::exportChartDialog(ChartKind which)
{
    const std::optional<ExportChoice> choice = askExport(context_.window, QString::fromLatin1(toString(which)));
    if (!choice)
        return;
    const QString error = exportChartTo(which, choice->file, choice->size, choice->scale, choice->context);
    if (!error.isEmpty())
        context_.showError(tr("Export chart"), tr("Could not export %1: %2").arg(withExtension(choice->file), error));
    else
        context_.showMessage(tr("Exported %1").arg(withExtension(choice->file)), 3000);
}

} // namespace parascope::ui
