#include "controllers/import_controller.h"

#include "dialogs/calibration_dialog.h"
#include "dialogs/probe_launcher.h"
#include "format.h"
#include "language.h"
#include "hardware/hardware_profile.h"
#include "io/hf_config_import.h"
#include "io/megatron_args_import.h"
#include "io/scenario_json.h"
#include "models/scenario_model.h"
#include "scenario_panel.h"

#include <QAction>
#include <QDragEnterEvent>
#include <QMimeData>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
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
    if (QFile f(file); f.open(QIODevice::ReadOnly)) {
        const QByteArray head = f.read(64 * 1024);
        const QByteArray start = head.trimmed();
        if (!start.startsWith('{') && !start.startsWith('[')
            && (start.startsWith("#!") || head.contains("pretrain_") || head.contains("--num-layers")))
            return DroppedKind::LaunchScript;
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
    import_launch_ = menu->addAction(QString(), this, [this] {
        const QString f
            = QFileDialog::getOpenFileName(context_.window, tr("Import Megatron-LM launch script"), QString(),
                                           tr("Launch scripts and argument lists (*.sh *.txt);;All files (*)"));
        if (!f.isEmpty())
            importLaunchScript(f);
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
        tr("Llama, Mistral, Mixtral, Qwen2/3 dense and MoE, DeepSeek-V2/V3 and MoE 16B, GPT-2, GPT-OSS, Gemma "
           "1/2/3, Phi-2/3 and Qwen2.5-VL's language model; the model opens in the custom-model editor"));
    import_launch_->setText(tr("Import &Megatron-LM launch script…"));
    import_launch_->setToolTip(tr("A pretrain_gpt.py launch script (torchrun, srun, sbatch) or a file of its flags: "
                                  "read as bash runs it, the scenario its launcher line describes, with every flag "
                                  "used, ignored or not understood listed"));
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
    case DroppedKind::LaunchScript: return importLaunchScript(file);
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
    if (imported->vision_params > 0)
        context_.showMessage(tr("Imported %1 (%2); its vision tower, %3 parameters, is not part of the model")
                                     .arg(str(imported->model.name), str(imported->architecture))
                                     .arg(double(imported->vision_params) / 1e9, 0, 'f', 3)
                                 + QStringLiteral(" B"),
                             8000);
    else
        context_.showMessage(tr("Imported %1 (%2)").arg(str(imported->model.name), str(imported->architecture)), 5000);
    return {};
}

QString ImportController::importLaunchScript(const QString& file, bool ask, std::int64_t gpus, std::int64_t vocab)
{
    std::vector<InputError> errors;
    const auto text = readTextFile(file.toStdString(), errors);
    MegatronImportOptions options;
    options.gpus = gpus;
    options.vocab = vocab;
    // The cluster the user has chosen stays (a script does not say its hardware).
    const std::string cluster = context_.model->scenario().cluster.id;
    if (findPreset("clusters", cluster))
        options.cluster = cluster;
    std::optional<MegatronImport> imported;
    // What the script cannot say is asked for, then the import runs again (twice at most).
    for (int attempt = 0; text && attempt < 3; ++attempt) {
        errors.clear();
        imported = importMegatronArgs(*text, QFileInfo(file).completeBaseName().toStdString(), options, errors);
        if (imported || !ask)
            break;
        const QString e = errorsText(errors);
        bool ok = false;
        if (options.gpus == 0 && e.contains(QStringLiteral("--gpus")))
            options.gpus = QInputDialog::getInt(context_.window, tr("Import Megatron-LM launch script"),
                                                tr("The script does not say how many GPUs run it. GPUs:"), 8, 1,
                                                1 << 20, 1, &ok);
        else if (options.vocab == 0 && e.contains(QStringLiteral("--vocab")))
            options.vocab = QInputDialog::getInt(context_.window, tr("Import Megatron-LM launch script"),
                                                 tr("The vocabulary size comes from the tokenizer, which ParaScope "
                                                    "cannot read. Vocabulary size:"),
                                                 32000, 1, 1 << 30, 1, &ok);
        if (!ok)
            break;
    }
    std::optional<Scenario> sc = imported ? readScenario(imported->scenario, errors) : std::nullopt;
    QString cluster_note;
    if (sc && sc->training.precision == Precision::Fp8 && sc->cluster.gpu.peak_fp8_flops <= 0) {
        // An FP8 script on a GPU without FP8: on the import's default cluster instead, said so.
        cluster_note = tr("FP8 needs a GPU with FP8 tensor cores: the cluster is %1, not %2.")
                           .arg(QString::fromStdString(MegatronImportOptions{}.cluster),
                                QString::fromStdString(sc->cluster.name));
        options.cluster = MegatronImportOptions{}.cluster;
        imported = importMegatronArgs(*text, QFileInfo(file).completeBaseName().toStdString(), options, errors);
        sc = imported ? readScenario(imported->scenario, errors) : std::nullopt;
    }
    if (!sc) {
        const QString e = errorsText(errors);
        context_.showError(tr("Import Megatron-LM launch script"), tr("Could not import %1:\n%2").arg(file, e));
        return e;
    }
    context_.model->setScenario(*sc);
    context_.model->flush();
    const std::string lang = uiLanguage().toStdString();
    summary_ = QString::fromStdString(importSummaryText(imported->summary, lang));
    for (const std::string& n : imported->notes)
        summary_ += tr("assumed: %1").arg(QString::fromStdString(n)) + QLatin1Char('\n');
    if (!cluster_note.isEmpty())
        summary_ += cluster_note + QLatin1Char('\n');
    context_.showMessage(tr("Imported %1: %2 flags used, %3 ignored, %4 not understood")
                             .arg(QFileInfo(file).fileName())
                             .arg(imported->summary["used"].size())
                             .arg(imported->summary["ignored"].size())
                             .arg(imported->summary["not_understood"].size()),
                         8000);
    if (ask && context_.window->isVisible()) {
        QMessageBox box(QMessageBox::Information, tr("Import Megatron-LM launch script"),
                        tr("%1 imported. What was done with each flag:").arg(QFileInfo(file).fileName()),
                        QMessageBox::Ok, context_.window);
        box.setDetailedText(summary_);
        box.exec();
    }
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
