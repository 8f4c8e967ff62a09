// The scenario panel's rows: a slider and number box per knob, and the choice rows below them
// (scenario_panel.h). Split from scenario_panel.cpp, which wires the presets and keeps them in sync.
#include "scenario_panel.h"
#include "focus_wheel.h"
#include "byte_size_spin_box.h"

#include "models/scenario_model.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCursor>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QToolButton>

namespace parascope::ui {

namespace {

// A combo box over an enum's name table: the item data is the value's name (util/enum_names.h).
template <NamedEnum E> QComboBox* enumCombo()
{
    auto* c = new FocusWheelComboBox;
    // Never wider than the panel: long names elide in the box (the list shows them whole).
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(8);
    for (const EnumName<E>& n : enumNames(E{}))
        c->addItem(QString::fromLatin1(n.name), QString::fromLatin1(n.name));
    return c;
}

// A widget with the object name tests and the highlight find it by.
template <typename W> W* named(W* w, const char* name)
{
    w->setObjectName(QString::fromLatin1(name));
    return w;
}

} // namespace

void ScenarioPanel::buildKnobRows(QFormLayout* form, QFormLayout* faults, QFormLayout* network)
{
    for (const Knob& k : knobs()) {
        Row row;
        row.knob = &k;
        row.label = new QLabel;
        row.label->setObjectName(QString::fromLatin1(k.path) + QStringLiteral(".label"));
        row.slider = new FocusWheelSlider(Qt::Horizontal);
        row.slider->setObjectName(QString::fromLatin1(k.path) + QStringLiteral(".slider"));
        row.spin = new FocusWheelSpinBox;
        row.spin->setObjectName(QString::fromLatin1(k.path) + QStringLiteral(".spin"));
        row.spin->setRange(0, 1 << 30);
        row.spin->setKeyboardTracking(false);
        row.spin->setMinimumWidth(72); // seven digits: 1048576 tokens
        row.slider->setContextMenuPolicy(Qt::CustomContextMenu);
        row.label->setContextMenuPolicy(Qt::CustomContextMenu);
        row.slider->setMinimumWidth(48);
        auto* line = new QHBoxLayout;
        line->addWidget(row.slider, 1);
        line->addWidget(row.spin);
        const QLatin1String path(k.path);
        QFormLayout* box = path.startsWith(QLatin1String("faults.")) ? faults
            : path.startsWith(QLatin1String("network."))             ? network
                                                                     : form;
        box->addRow(row.label, line);
        rows_.push_back(row);
    }
}

void ScenarioPanel::connectKnobRow(std::size_t i)
{
    // A drag is one step back in the undo history, however many values it passes.
    connect(rows_[i].slider, &QSlider::sliderPressed, model_, &ScenarioModel::beginGesture);
    connect(rows_[i].slider, &QSlider::sliderReleased, model_, &ScenarioModel::endGesture);
    connect(rows_[i].slider, &QSlider::valueChanged, this, [this, i](int index) {
        Row& r = rows_[i];
        if (!syncing_ && index >= 0 && std::size_t(index) < r.values.size())
            applyKnob(r, r.values[std::size_t(index)]);
    });
    const auto sweepMenu = [this, i](const QPoint&) {
        QMenu menu;
        menu.addAction(tr("Sweep this knob"), this,
                       [this, i] { emit sweepRequested(QString::fromLatin1(rows_[i].knob->path)); });
        menu.exec(QCursor::pos());
    };
    connect(rows_[i].slider, &QWidget::customContextMenuRequested, this, sweepMenu);
    connect(rows_[i].label, &QWidget::customContextMenuRequested, this, sweepMenu);
    connect(rows_[i].spin, qOverload<int>(&QSpinBox::valueChanged), this, [this, i](int v) {
        Row& r = rows_[i];
        if (syncing_ || r.values.empty())
            return;
        const long long valid = r.values[nearestIndex(r.values, v)]; // snap a typed number to a valid value
        applyKnob(r, valid);
        if (valid != v)
            QTimer::singleShot(0, this, &ScenarioPanel::sync); // show the snapped value
    });
}

void ScenarioPanel::buildModulesButton()
{
    modules_button_ = new QToolButton;
    modules_button_->setPopupMode(QToolButton::InstantPopup);
    modules_button_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    modules_button_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed); // the text elides, the menu says all
    modules_button_->setMinimumWidth(80);
    auto* modules_menu = new QMenu(modules_button_);
    for (const auto& n : enumNames(RecomputeModule{})) {
        QAction* a = modules_menu->addAction(QString::fromLatin1(n.name));
        a->setCheckable(true);
        a->setData(unsigned(n.value));
        connect(a, &QAction::toggled, this, [this, bit = unsigned(n.value)](bool on) {
            if (!syncing_)
                model_->edit([&](Scenario& s) {
                    s.training.recompute_modules
                        = on ? (s.training.recompute_modules | bit) : (s.training.recompute_modules & ~bit);
                });
        });
    }
    modules_button_->setMenu(modules_menu);
}

void ScenarioPanel::buildChoiceRows(QFormLayout* form)
{
    schedule_combo_ = enumCombo<ScheduleKind>();
    async_combo_ = named(enumCombo<AsyncPipeline>(), "panel.asyncPipeline");
    recompute_combo_ = enumCombo<Recompute>();
    precision_combo_ = enumCombo<Precision>();
    fp8_combo_ = enumCombo<Fp8Recipe>();
    fp8_act_check_ = named(new QCheckBox, "panel.fp8Activations");
    cp_combo_ = enumCombo<CpComm>();
    dispatcher_combo_ = enumCombo<MoeDispatcher>();
    graphs_combo_ = named(enumCombo<CudaGraphs>(), "panel.cudaGraphs");
    offload_combo_ = enumCombo<Offload>();
    // Selective recompute's modules (Megatron --recompute-modules, torchtitan's op SAC): one
    // check box each in the button's menu; the data of each action is its bit.
    buildModulesButton();
    grad_combo_ = enumCombo<GradDtype>();
    sp_check_ = new QCheckBox;
    grad_comm_combo_ = named(enumCombo<GradComm>(), "panel.gradComm");
    overlap_dp_check_ = named(new QCheckBox, "panel.overlapDp");
    overlap_tp_check_ = named(new QCheckBox, "panel.overlapTp");
    tp_overlap_combo_ = named(enumCombo<TpOverlap>(), "panel.tpOverlap");
    layout_combo_ = named(enumCombo<ActivationLayout>(), "panel.activationLayout");
    sharding_combo_ = named(enumCombo<Zero3Sharding>(), "panel.zero3Sharding");
    overlap_ep_check_ = named(new QCheckBox, "panel.overlapEp");
    overlap_pp_check_ = named(new QCheckBox, "panel.overlapPp");
    deepep_spin_ = named(new FocusWheelSpinBox, "panel.deepepSms");
    deepep_spin_->setKeyboardTracking(false);
    bucket_spin_ = named(new FocusWheel<ParamCountSpinBox>, "panel.gradBucket");
    bucket_spin_->setRange(0, 1e6); // millions of parameters (the scenario file's range); 0: Megatron's default
    // Flash attention and its kernel in one row: the fused kernels by name, or "none (unfused)".
    attention_combo_ = enumCombo<AttentionKernel>();
    attention_combo_->addItem(QStringLiteral("none"), QStringLiteral("none"));
    attention_combo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    attention_combo_->setMinimumContentsLength(8);
    repeat_kv_check_ = named(new QCheckBox, "panel.repeatKv");
    fused_projections_check_ = named(new QCheckBox, "panel.fusedProjections");
    form->addRow(staticLabel(QT_TR_NOOP("Schedule")), schedule_combo_);
    form->addRow(staticLabel(QT_TR_NOOP("Pipeline flush")), async_combo_);
    form->addRow(staticLabel(QT_TR_NOOP("Recompute")), recompute_combo_);
    form->addRow(staticLabel(QT_TR_NOOP("Recomputed")), modules_button_);
    form->addRow(staticLabel(QT_TR_NOOP("Precision")), precision_combo_);
    form->addRow(staticLabel(QT_TR_NOOP("FP8 recipe")), fp8_combo_);
    form->addRow(fp8_act_check_); // across both columns: its own text is its label
    form->addRow(staticLabel(QT_TR_NOOP("CP exchange")), cp_combo_);
    form->addRow(staticLabel(QT_TR_NOOP("MoE dispatch")), dispatcher_combo_);
    form->addRow(staticLabel(QT_TR_NOOP("CUDA graphs")), graphs_combo_);
    form->addRow(staticLabel(QT_TR_NOOP("CPU offload")), offload_combo_);
    form->addRow(staticLabel(QT_TR_NOOP("ZeRO-3 sharding")), sharding_combo_);
    form->addRow(staticLabel(QT_TR_NOOP("Gradient dtype")), grad_combo_);
    form->addRow(sp_check_); // across both columns: its own text is its label
    form->addRow(staticLabel(QT_TR_NOOP("Activation layout")), layout_combo_);
    form->addRow(staticLabel(QT_TR_NOOP("Gradients on the wire")), grad_comm_combo_);
    form->addRow(staticLabel(QT_TR_NOOP("Gradient bucket")), bucket_spin_);
    form->addRow(overlap_dp_check_); // across both columns: its own text is its label
    form->addRow(overlap_tp_check_); // across both columns: its own text is its label
    form->addRow(staticLabel(QT_TR_NOOP("TP overlap by")), tp_overlap_combo_);
    form->addRow(overlap_ep_check_); // across both columns: its own text is its label
    form->addRow(staticLabel(QT_TR_NOOP("DeepEP SMs")), deepep_spin_);
    form->addRow(overlap_pp_check_); // across both columns: its own text is its label
    form->addRow(staticLabel(QT_TR_NOOP("Attention kernel")), attention_combo_);
    form->addRow(repeat_kv_check_); // across both columns: its own text is its label
    form->addRow(fused_projections_check_); // across both columns: its own text is its label
    optional_rows_.emplace(form); // in the form's order
    for (QWidget* w : {static_cast<QWidget*>(modules_button_), static_cast<QWidget*>(fp8_combo_),
                       static_cast<QWidget*>(fp8_act_check_), static_cast<QWidget*>(cp_combo_),
                       static_cast<QWidget*>(dispatcher_combo_), static_cast<QWidget*>(graphs_combo_),
                       static_cast<QWidget*>(sharding_combo_), static_cast<QWidget*>(layout_combo_),
                       static_cast<QWidget*>(tp_overlap_combo_), static_cast<QWidget*>(deepep_spin_),
                       static_cast<QWidget*>(repeat_kv_check_), static_cast<QWidget*>(fused_projections_check_)})
        optional_rows_->add(w);
}

// The rows that apply only to some scenarios, shown where they do (sync's part).
void ScenarioPanel::showOptionalRows(const Scenario& s)
{
    // The recipe, CP, dispatch, recompute-module and K/V repeat rows show only where they apply
    // (FP8, CP > 1, EP > 1, selective recompute, fewer KV heads than query heads): rows less on a
    // 720p projector otherwise.
    optional_rows_->setShown(fp8_combo_, s.training.precision == Precision::Fp8);
    optional_rows_->setShown(fp8_act_check_, s.training.precision == Precision::Fp8);
    optional_rows_->setShown(cp_combo_, s.parallel.cp > 1);
    optional_rows_->setShown(dispatcher_combo_, s.model.moe.has_value() && s.parallel.ep > 1);
    optional_rows_->setShown(graphs_combo_, s.model.moe.has_value()); // only MoE layers have a host time
    optional_rows_->setShown(tp_overlap_combo_, s.parallel.tp_comm_overlap && s.parallel.tp > 1);
    optional_rows_->setShown(layout_combo_, s.parallel.tp > 1 && s.parallel.sequence_parallel);
    optional_rows_->setShown(sharding_combo_, s.parallel.zero >= 3);
    optional_rows_->setShown(modules_button_, s.training.recompute == Recompute::Selective);
    optional_rows_->setShown(repeat_kv_check_, s.model.groupedKv());
    optional_rows_->setShown(fused_projections_check_, !s.model.mla); // MLA's projections are apart anyway
    // DeepEP's SMs cost time only where its kernels run beside compute (layer_cost.cpp deepEpSmShare).
    optional_rows_->setShown(deepep_spin_,
                             s.model.moe.has_value() && s.parallel.moe_dispatcher == MoeDispatcher::DeepEp
                                 && s.parallel.epOverlapApplies(s.training.recompute == Recompute::Full));
}

void ScenarioPanel::connectDeepEpRow()
{
    connect(deepep_spin_, qOverload<int>(&QSpinBox::valueChanged), this, [this](int k) {
        if (!syncing_)
            model_->edit([k](Scenario& s) { s.parallel.deepep_sms = k; });
    });
}

void ScenarioPanel::retranslateOverlapRows()
{
    overlap_ep_check_->setText(tr("Overlap EP All-to-All (combined 1F1B)"));
    overlap_pp_check_->setText(tr("Overlap pipeline sends"));
    overlap_pp_check_->setToolTip(
        tr("Off: each activation or gradient send holds its GPU until it has arrived (synchronous "
           "send/recv), as in the textbook's pipeline timeline"));
    overlap_ep_check_->setToolTip(
        tr("Megatron --overlap-moe-expert-parallel-comm: one microbatch's forward runs beside the previous "
           "one's backward, each one's dispatch and combine hidden behind the other's compute; needs EP > 1, "
           "no full recompute, and with a pipeline the interleaved schedule"));
    deepep_spin_->setToolTip(
        tr("Megatron --moe-deepep-num-sms (default 20): the SMs DeepEP's dispatch and combine kernels hold; the "
           "compute beside them runs on the rest, k/(N − k) of the hidden All-to-All time longer"));
}

QSlider* ScenarioPanel::slider(const QString& path) const
{
    for (const Row& r : rows_)
        if (path == QLatin1String(r.knob->path))
            return r.slider;
    return nullptr;
}

QSpinBox* ScenarioPanel::spinBox(const QString& path) const
{
    for (const Row& r : rows_)
        if (path == QLatin1String(r.knob->path))
            return r.spin;
    return nullptr;
}

void ScenarioPanel::retranslateModelCodeRows()
{
    repeat_kv_check_->setText(tr("K/V repeated to every query head"));
    repeat_kv_check_->setToolTip(
        tr("The model code copies the GQA keys and values out to every query head before the "
           "attention kernel (repeat_kv, as torchtitan's Llama did): a copy in the forward and "
           "the backward, and CP moves them at the query heads' width"));
    fused_projections_check_->setText(tr("Fused projections (QKV; gate and up)"));
    fused_projections_check_->setToolTip(
        tr("Megatron-LM fuses Q, K and V into one GEMM (linear_qkv) and SwiGLU's gate and up into another "
           "(linear_fc1). Off: one GEMM per weight, as torchtitan's Llama writes it (wq, wk, wv; w1, w3): "
           "each further GEMM pays a GEMM's fixed cost in every pass (and in every chunk under async TP), and "
           "the input gradient adds up the partial products"));
}

} // namespace parascope::ui
