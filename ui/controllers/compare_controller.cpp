#include "controllers/compare_controller.h"

#include "background.h"
#include "compare_table.h"
#include "dialogs/trace_dialog.h"
#include "models/scenario_model.h"
#include "save_file.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QInputDialog>
#include <QMenu>
#include <QProgressDialog>

namespace parascope::ui {

struct TraceRead {
    std::optional<MeasuredTrace> trace;
    std::vector<InputError> errors;
};

CompareController::CompareController(const WindowContext& context)
    : WindowPart(context.window)
    , context_(context)
    , table_(new CompareTable(context.model))
{
    connect(context_.model, &ScenarioModel::estimateChanged, this, &CompareController::updateTraceComparison);
}

void CompareController::addScenarioActions(QMenu* menu)
{
    ScenarioModel* model = context_.model;
    pin_ = menu->addAction(QString(), model, &ScenarioModel::pin);
    pin_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    unpin_ = menu->addAction(QString(), model, &ScenarioModel::unpin);
    unpin_->setEnabled(false);
    export_table_ = menu->addAction(QString(), this, [this] {
        QString f = QFileDialog::getSaveFileName(context_.window, export_table_->text().remove(QLatin1Char('&')),
                                                 QStringLiteral("compare.csv"), tr("CSV table (*.csv)"));
        if (f.isEmpty())
            return;
        if (!f.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive))
            f += QStringLiteral(".csv");
        if (const QString e = exportTable(f); !e.isEmpty())
            context_.showError(tr("Export comparison table"), tr("Could not write %1: %2").arg(f, e));
        else
            context_.showMessage(tr("Exported %1").arg(f), 3000);
    });
    export_table_->setEnabled(false);
    connect(model, &ScenarioModel::pinChanged, this, [this, model] {
        unpin_->setEnabled(model->hasPin());
        export_table_->setEnabled(model->hasPin());
    });
}

QString CompareController::exportTable(const QString& file) const
{
    if (!context_.model->hasPin())
        return tr("nothing is pinned as A (Scenario → Pin as A)");
    return writeFileAtomically(file, QByteArray("\xEF\xBB\xBF") + table_->csv().toUtf8());
}

void CompareController::addToolsActions(QMenu* menu)
{
    compare_trace_ = menu->addAction(QString(), this, [this] {
        const QString f = QFileDialog::getOpenFileName(context_.window, tr("Compare with a measured trace"), QString(),
                                                       tr("PyTorch profiler traces (*.json)"));
        if (!f.isEmpty())
            compareWithTrace(f);
    });
}

void CompareController::retranslate()
{
    pin_->setText(tr("&Pin as A (compare)"));
    unpin_->setText(tr("&Clear pin"));
    export_table_->setText(tr("Export &comparison table (CSV)…"));
    compare_trace_->setText(tr("Compare with a &measured trace (PyTorch profiler)…"));
    compare_trace_->setToolTip(
        tr("A Chrome trace from torch.profiler beside the simulated step of this scenario: step time, "
           "GEMMs, attention, communication, idle"));
    table_->retranslate();
    updateTraceComparison();
}

void CompareController::compareWithTrace(const QString& file, int device)
{
    auto* progress
        = new QProgressDialog(tr("Reading %1…").arg(QFileInfo(file).fileName()), QString(), 0, 0, context_.window);
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(400);
    auto* watcher = new QFutureWatcher<TraceRead>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, progress, file] {
        progress->deleteLater();
        watcher->deleteLater();
        showTrace(file, watcher->result());
    });
    watcher->setFuture(runInBackground<TraceRead>([path = file.toStdString(), device](QPromise<TraceRead>& promise) {
        TraceRead r;
        KinetoOptions options;
        options.device = device;
        r.trace = readKinetoTraceFile(path, options, r.errors);
        promise.addResult(std::move(r));
    }));
}

void CompareController::showTrace(const QString& file, const TraceRead& read)
{
    if (!read.trace) {
        // A trace of several GPUs: ask which one, naming those it has.
        if (!read.errors.empty() && read.errors.front().path == "--device") {
            bool ok = false;
            const int d = QInputDialog::getInt(context_.window, tr("Which GPU?"),
                                               QString::fromStdString(read.errors.front().message)
                                                       .remove(QStringLiteral(": choose one with --device N"))
                                                   + QStringLiteral("\n") + tr("GPU to compare:"),
                                               0, 0, 1024, 1, &ok);
            if (ok)
                compareWithTrace(file, d);
            return;
        }
        QString text;
        for (const InputError& e : read.errors)
            text += QString::fromStdString(e.text()) + QStringLiteral("\n");
        context_.showError(tr("Cannot read the trace"), QFileInfo(file).fileName() + QStringLiteral(":\n") + text);
        return;
    }
    if (trace_dialog_)
        trace_dialog_->close();
    trace_dialog_ = new TraceDialog(file, *read.trace, context_.window);
    trace_dialog_->setAttribute(Qt::WA_DeleteOnClose);
    trace_dialog_->showComparison(context_.model->scenario(), context_.model->estimate());
    trace_dialog_->show();
}

TraceDialog* CompareController::traceDialog() const { return trace_dialog_; }

void CompareController::updateTraceComparison()
{
    if (trace_dialog_)
        trace_dialog_->showComparison(context_.model->scenario(), context_.model->estimate());
}

} // namespace parascope::ui
