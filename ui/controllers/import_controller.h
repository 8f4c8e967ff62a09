#pragma once
// Files that come in other than scenarios: a Hugging Face config.json (File → Import model) opens
// in the custom-model editor; a hardware profile (Tools → Import profile) or a probe run on this
// machine (Tools → Calibrate) calibrates the cluster through the calibration dialog. A file
// dropped on the window is told apart here (droppedKind).

#include "controllers/window_context.h"
#include "controllers/window_part.h"

#include <QObject>

#include <cstdint>
#include <functional>

class QAction;
class QMenu;

namespace parascope::ui {

class ScenarioPanel;

// What a dropped file is: a profiler trace (its "traceEvents" within the first KB, a bare array
// of events, or gzip's magic), a Hugging Face config.json, else a scenario.
// A Megatron-LM launch script: "#!" first, or a pretrain_*.py launcher or "--num-layers" in a text
// file that is not JSON.
enum class DroppedKind { Trace, HfConfig, LaunchScript, Scenario };
DroppedKind droppedKind(const QString& file);

class ImportController : public WindowPart {
    Q_OBJECT
public:
    ImportController(const WindowContext& context, ScenarioPanel* panel);
    void addFileActions(QMenu* menu); // Import model
    void addToolsActions(QMenu* menu); // Calibrate, Import profile
    void retranslate() override;

    // With ask = false nothing asks (tests, scripts): the model is applied as read (a multimodal
    // config's language model alone), the profile without the calibration dialog.
    QString importModel(const QString& file, bool ask = true);
    // File → Import Megatron-LM launch script…: the scenario its launcher line describes, on the
    // cluster already chosen (a script does not name its hardware); the
    // GPU count and the vocabulary are asked for when the script does not say them (with ask =
    // false: `gpus` and `vocab`, or an error), and the summary of every flag is shown.
    QString importLaunchScript(const QString& file, bool ask = true, std::int64_t gpus = 0, std::int64_t vocab = 0);
    QString importProfile(const QString& file, bool ask = true);
    QString calibrateFromThisMachine(bool ask = true);

    // Files dropped on the window: a trace goes to `compare`, a Hugging Face config is imported,
    // anything else goes to `open` as a scenario.
    struct DropTargets {
        std::function<QString(const QString&)> open;
        std::function<void(const QString&)> compare;
    };
    void acceptDrops(DropTargets targets);
    QString openDropped(const QString& file);

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    DropTargets drops_;
    WindowContext context_;
    ScenarioPanel* panel_;
    QAction* import_model_ = nullptr;
    QAction* import_launch_ = nullptr;

public:
    const QString& lastImportSummary() const { return summary_; } // the launch script's, for tests

private:
    QString summary_;
    QAction* calibrate_ = nullptr;
    QAction* import_profile_ = nullptr;
};

} // namespace parascope::ui
