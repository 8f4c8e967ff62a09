// MainWindow: files that come in other than scenarios. A Hugging Face config.json (File → Import
// model) opens in the custom-model editor. A PyTorch profiler trace (Tools → Compare with a
// measured trace) is read on a worker (a large model's step is hundreds of MB of JSON) behind a
// busy indicator; the comparison opens beside the main window and follows every edit of the
// scenario. Either may be dropped on the window.

#include "main_window.h"

#include "background.h"
#include "dialogs/trace_dialog.h"
#include "format.h"
#include "io/hf_config_import.h"
#include "models/scenario_model.h"
#include "scenario_panel.h"

#include <QDragEnterEvent>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QStatusBar>
#include <QFutureWatcher>
#include <QInputDialog>
#include <QProgressDialog>

namespace parascope::ui {

namespace {

struct TraceRead {
    std::optional<MeasuredTrace> trace;
    std::vector<InputError> errors;
};

} // namespace

QString MainWindow::importModel(const QString& file, bool ask)
{
    std::vector<InputError> errors;
    const auto config = readJsonFile(file.toStdString(), errors);
    HfImportOptions options;
    if (config && config->is_object() && config->contains("vision_config")) {
        options.text_only = !ask
            || QMessageBox::question(this, tr("Import model"),
                                     tr("%1 has a vision encoder, which a ParaScope model cannot "
                                        "express. Import its language model alone?")
                                         .arg(QFileInfo(file).fileName()))
                == QMessageBox::Yes;
    }
    std::optional<HfImport> imported;
    if (config)
        imported = importHfConfig(*config, file.toStdString(), options, errors);
    if (!imported) {
        const QString e = errorsText(errors);
        showError(tr("Import model"), tr("Could not import %1:\n%2").arg(file, e));
        return e;
    }
    if (ask && isVisible()) {
        if (!panel_->editCustomModel(imported->model))
            return tr("cancelled");
    } else {
        model_->edit([&](Scenario& s) {
            s.model = imported->model;
            s.parallel.stage_layers.clear();
        });
    }
    model_->flush();
    statusBar()->showMessage(tr("Imported %1 (%2)").arg(str(imported->model.name), str(imported->architecture)), 5000);
    return {};
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e)
{
    if (e->mimeData()->hasUrls())
        e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e)
{
    const auto urls = e->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile())
        openDropped(urls.front().toLocalFile());
}

QString MainWindow::openDropped(const QString& file)
{
    // A profiler trace (its "traceEvents" come within the first few KB, after the device
    // properties; or a bare array of events; or gzip's magic) is compared with the scenario; a Hugging Face config.json is
    // imported as a model; anything else opens as a scenario.
    if (QFile f(file); f.open(QIODevice::ReadOnly)) {
        const QByteArray head = f.read(256 * 1024);
        const bool event_array = head.trimmed().startsWith('[') && head.contains("\"ph\"") && head.contains("\"ts\"");
        if (head.contains("\"traceEvents\"") || event_array || head.startsWith("\x1f\x8b")) {
            compareWithTrace(file);
            return {};
        }
    }
    std::vector<InputError> errors;
    const auto j = readJsonFile(file.toStdString(), errors);
    const bool hf_config
        = j && j->is_object() && !j->contains("schema") && (j->contains("architectures") || j->contains("model_type"));
    return hf_config ? importModel(file) : openScenario(file);
}

void MainWindow::compareWithTrace(const QString& file, int device)
{
    auto* progress = new QProgressDialog(tr("Reading %1…").arg(QFileInfo(file).fileName()), QString(), 0, 0, this);
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(400);
    auto* watcher = new QFutureWatcher<TraceRead>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, progress, file] {
        progress->deleteLater();
        watcher->deleteLater();
        const TraceRead read = watcher->result();
        if (!read.trace) {
            // A trace of several GPUs: ask which one, naming those it has.
            if (!read.errors.empty() && read.errors.front().path == "--device") {
                bool ok = false;
                const int d = QInputDialog::getInt(this, tr("Which GPU?"),
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
            showError(tr("Cannot read the trace"), QFileInfo(file).fileName() + QStringLiteral(":\n") + text);
            return;
        }
        if (trace_dialog_)
            trace_dialog_->close();
        trace_dialog_ = new TraceDialog(file, *read.trace, this);
        trace_dialog_->setAttribute(Qt::WA_DeleteOnClose);
        trace_dialog_->showComparison(model_->scenario(), model_->estimate());
        trace_dialog_->show();
    });
    watcher->setFuture(runInBackground<TraceRead>([path = file.toStdString(), device](QPromise<TraceRead>& promise) {
        TraceRead r;
        KinetoOptions options;
        options.device = device;
        r.trace = readKinetoTraceFile(path, options, r.errors);
        promise.addResult(std::move(r));
    }));
}

TraceDialog* MainWindow::traceDialog() const { return trace_dialog_; }

void MainWindow::updateTraceComparison()
{
    if (trace_dialog_)
        trace_dialog_->showComparison(model_->scenario(), model_->estimate());
}

} // namespace parascope::ui
