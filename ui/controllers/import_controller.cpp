#include "controllers/import_controller.h"

#include "dialogs/calibration_dialog.h"
#include "dialogs/probe_launcher.h"
#include "format.h"
#include "hardware/hardware_profile.h"
#include "io/hf_config_import.h"
#include "io/scenario_json.h"
#include "models/scenario_model.h"
#include "scenario_panel.h"

#include <QAction>
#include <QDragEnterEvent>
#include <QMimeData>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>

namespace parascope::ui {

DroppedKind droppedKind(const QString& file)
{
    if (QFile f(file); f.open(QIODevice::ReadOnly)) {
        // A trace's "traceEvents" come within the first few KB, after the device properties.
        const QByteArray head = f.read(256 * 1024);
        const bool event_array = head.trimmed().startsWith('[') && head.contains("\"ph\"") && head.contains("\"ts\"");
        if (head.contains("\"traceEvents\"") || event_array || head.startsWith("\x1f\x8b"))
            return DroppedKind::Trace;
    }
    std::vector<InputError> errors;
    const auto j = readJsonFile(file.toStdString(), errors);
    const bool hf_config
        = j && j->is_object() && !j->contains("schema") && (j->contains("architectures") || j->contains("model_type"));
    return hf_config ? DroppedKind::HfConfig : DroppedKind::Scenario;
}

ImportController::ImportController(const WindowContext& context, ScenarioPanel* panel)
    : WindowPart(context.window)
    , context_(context)
    , panel_(panel)
{ }

void ImportController::addFileActions(QMenu* menu)
{
    import_model_ = menu->addAction(QString(), this, [this] {
        const QString f = QFileDialog::getOpenFileName(context_.window, tr("Import model"), QString(),
                                                       tr("Hugging Face config (config.json *.json)"));
        if (!f.isEmpty())
            importModel(f);
    });
}

void ImportController::addToolsActions(QMenu* menu)
{
    calibrate_ = menu->addAction(QString(), this, [this] { calibrateFromThisMachine(true); });
    import_profile_ = menu->addAction(QString(), this, [this] {
        const QString f = QFileDialog::getOpenFileName(context_.window, tr("Import hardware profile"), QString(),
                                                       tr("Hardware profiles (*.json)"));
        if (!f.isEmpty())
            importProfile(f, true);
    });
}

void ImportController::retranslate()
{
    import_model_->setText(tr("&Import model (Hugging Face config.json)…"));
    import_model_->setToolTip(
        tr("Llama, Mistral, Mixtral, Qwen2/3 dense and MoE, DeepSeek-V2/V3, GPT-2, GPT-OSS and Gemma 1/2/3 "
           "configs; the model opens in the custom-model editor"));
    calibrate_->setText(tr("&Calibrate from this machine…"));
    import_profile_->setText(tr("&Import profile…"));
}

void ImportController::acceptDrops(DropTargets targets)
{
    drops_ = std::move(targets);
    context_.window->setAcceptDrops(true);
    context_.window->installEventFilter(this);
}

bool ImportController::eventFilter(QObject* watched, QEvent* e)
{
    if (e->type() == QEvent::DragEnter) {
        auto* enter = static_cast<QDragEnterEvent*>(e);
        if (enter->mimeData()->hasUrls())
            enter->acceptProposedAction();
        return true;
    }
    if (e->type() == QEvent::Drop) {
        const auto urls = static_cast<QDropEvent*>(e)->mimeData()->urls();
        if (!urls.isEmpty() && urls.front().isLocalFile())
            openDropped(urls.front().toLocalFile());
        return true;
    }
    return WindowPart::eventFilter(watched, e);
}

QString ImportController::openDropped(const QString& file)
{
    switch (droppedKind(file)) {
    case DroppedKind::Trace: drops_.compare(file); return {};
    case DroppedKind::HfConfig: return importModel(file);
    case DroppedKind::Scenario: break;
    }
    return drops_.open(file);
}

QString ImportController::importModel(const QString& file, bool ask)
{
    std::vector<InputError> errors;
    const auto config = readJsonFile(file.toStdString(), errors);
    HfImportOptions options;
    if (config && config->is_object() && config->contains("vision_config")) {
        options.text_only = !ask
            || QMessageBox::question(context_.window, tr("Import model"),
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
        context_.showError(tr("Import model"), tr("Could not import %1:\n%2").arg(file, e));
        return e;
    }
    if (ask && context_.window->isVisible()) {
        if (!panel_->editCustomModel(imported->model))
            return tr("cancelled");
    } else {
        context_.model->edit([&](Scenario& s) {
            s.model = imported->model;
            s.parallel.stage_layers.clear();
        });
    }
    context_.model->flush();
    context_.showMessage(tr("Imported %1 (%2)").arg(str(imported->model.name), str(imported->architecture)), 5000);
    return {};
}

QString ImportController::importProfile(const QString& file, bool ask)
{
    std::vector<InputError> errors;
    const auto profile = readHardwareProfileFile(file.toStdString(), errors);
    if (!profile) {
        const QString text = errorsText(errors);
        context_.showError(tr("Hardware profile"),
                           tr("%1 is not a valid hardware profile:\n\n%2").arg(file, text.trimmed()));
        return text.trimmed();
    }
    if (profile->status == "no_gpu") {
        const QString why = tr("The profile says there is no usable GPU here; nothing to calibrate.");
        context_.showError(tr("Hardware profile"), why);
        return why;
    }
    CalibrationDialog dialog(context_.model->scenario().cluster, *profile, context_.window);
    if (ask && dialog.exec() != QDialog::Accepted)
        return tr("cancelled");
    const ClusterSpec calibrated = dialog.calibrated();
    context_.model->edit([&](Scenario& s) { s.cluster = calibrated; });
    context_.model->flush();
    context_.showMessage(tr("Calibrated from %1").arg(file), 5000);
    return {};
}

QString ImportController::calibrateFromThisMachine(bool ask)
{
    const ProbeRun run = runProbe(context_.window, ask && context_.window->isVisible(),
                                  QByteArray::fromStdString(scenarioToJson(context_.model->scenario()).dump()));
    if (!run.error.isEmpty()) {
        context_.showError(tr("Calibrate"), run.error);
        return run.error;
    }
    return importProfile(run.profile_file, ask);
}

} // namespace parascope::ui
