#pragma once
// The scenario panel: preset pickers, a custom-model editor, and every knob as a slider paired
// with a number box that offers only sensible values, plus the GPU count they imply.

#include "optional_rows.h"
#include "models/knobs.h"
#include "types/diagnostic.h"
#include "types/model_spec.h"

#include <QWidget>

#include <map>

#include <optional>

#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QToolButton;

namespace parascope::ui {

class ScenarioModel;

class ScenarioPanel : public QWidget {
    Q_OBJECT
public:
    explicit ScenarioPanel(ScenarioModel* model, QWidget* parent = nullptr);

    void retranslate();
    // Briefly highlights the knob with this scenario path (from a diagnostic).
    void highlightKnob(const QString& path);
    QSlider* slider(const QString& path) const;
    QSpinBox* spinBox(const QString& path) const;
    QComboBox* modelCombo() const { return model_combo_; }
    QComboBox* lessonCombo() const { return lesson_combo_; }
    // The lesson combo shows this lesson ("" for none), without emitting lessonChosen.
    void showLesson(const QString& id);
    // A teacher's lesson file (Tools → Open a lesson file…) joins the combo after the presets.
    void addUserLesson(const QString& id, const Localized& title);
    // The custom-model editor, on the scenario's model or on `start` (an imported model); OK
    // makes it the scenario's model. Returns whether it did.
    bool editCustomModel(const std::optional<ModelSpec>& start = std::nullopt);

signals:
    void lessonChosen(const QString& id);
    void sweepRequested(const QString& path);

private:
    struct Row {
        const Knob* knob = nullptr;
        QLabel* label = nullptr;
        QSlider* slider = nullptr;
        QSpinBox* spin = nullptr;
        std::vector<long long> values;
    };
    void sync();
    void applyKnob(Row& row, long long value);
    // Construction, in the order the constructor calls them (scenario_panel_rows.cpp builds the rows).
    QLabel* staticLabel(const char* text); // a label whose text retranslate() sets
    void showOptionalRows(const Scenario& s);
    void retranslateGradientRows();
    void retranslateOverlapRows(); // the overlap check boxes and DeepEP's SMs (scenario_panel_rows.cpp)
    void retranslateModelCodeRows(); // how the model code is written: repeat_kv, fused projections
    void buildPresetRows(QFormLayout* presets); // lesson, model (and Custom…), cluster
    // A slider and a number box per knob; the fault what-ifs (faults.*) go to `faults`.
    void buildKnobRows(QFormLayout* form, QFormLayout* faults, QFormLayout* network);
    void connectKnobRow(std::size_t i); // slider, number box and the sweep menu of row i
    void buildModulesButton(); // selective recompute's modules as a menu of check boxes
    void buildChoiceRows(QFormLayout* form); // the enum choices and the communication what-ifs
    void connectPresets(); // the preset combos and the Custom… button edit the scenario
    void connectChoices(); // the choice rows edit the scenario
    void connectDeepEpRow(); // parallel.deepep_sms (scenario_panel_rows.cpp)
    void fitScrollArea(); // the scroll area around the panel as wide as the panel needs

    ScenarioModel* model_;
    std::vector<Row> rows_;
    QComboBox* model_combo_ = nullptr;
    QComboBox* cluster_combo_ = nullptr;
    QComboBox* lesson_combo_ = nullptr;
    std::map<QString, Localized> user_lessons_; // id → title, for retranslate()
    QGroupBox* faults_box_ = nullptr; // the fault what-ifs' knobs
    QGroupBox* network_box_ = nullptr; // network.* knobs
    QComboBox* schedule_combo_ = nullptr;
    QComboBox* async_combo_ = nullptr; // parallel.async_pipeline: flush, PipeDream, 2BW
    QComboBox* recompute_combo_ = nullptr;
    QComboBox* precision_combo_ = nullptr;
    QComboBox* fp8_combo_ = nullptr;
    QComboBox* cp_combo_ = nullptr;
    QComboBox* dispatcher_combo_ = nullptr;
    QComboBox* graphs_combo_ = nullptr; // training.cuda_graphs, shown with MoE
    QComboBox* tp_overlap_combo_ = nullptr; // parallel.tp_overlap, with TP overlap on
    QComboBox* layout_combo_ = nullptr; // parallel.activation_layout, with TP > 1 and SP
    QComboBox* sharding_combo_ = nullptr; // parallel.zero3_sharding, with ZeRO-3
    QComboBox* offload_combo_ = nullptr;
    std::optional<OptionalRows> optional_rows_; // the rows above, shown only where they apply
    QToolButton* modules_button_ = nullptr; // selective recompute's modules, a menu of check boxes
    QComboBox* grad_combo_ = nullptr;
    QCheckBox* sp_check_ = nullptr;
    QCheckBox* fp8_act_check_ = nullptr; // training.fp8_activations, shown with FP8
    QCheckBox* repeat_kv_check_ = nullptr; // training.repeat_kv, shown with GQA
    QCheckBox* fused_projections_check_ = nullptr; // training.fused_projections, shown without MLA
    // The communication module's what-ifs: gradients on the wire, overlap per group, buckets.
    QComboBox* grad_comm_combo_ = nullptr;
    QCheckBox* overlap_dp_check_ = nullptr;
    QCheckBox* overlap_tp_check_ = nullptr;
    QCheckBox* overlap_ep_check_ = nullptr;
    QCheckBox* overlap_pp_check_ = nullptr;
    QSpinBox* deepep_spin_ = nullptr; // parallel.deepep_sms, shown with DeepEP under combined 1F1B
    QDoubleSpinBox* bucket_spin_ = nullptr; // millions of parameters, typed with a unit
    QComboBox* attention_combo_ = nullptr; // flash attention's kernel, or none
    QPushButton* custom_button_ = nullptr;
    QLabel* gpus_label_ = nullptr;
    std::vector<std::pair<QLabel*, const char*>> static_labels_;
    bool syncing_ = false;
};

} // namespace parascope::ui
