#include "scenario_panel.h"
#include "focus_wheel.h"
#include "dialogs/custom_model_dialog.h"
#include "format.h"

#include "io/scenario_json.h"
#include "language.h"
#include "estimate/display_names.h"
#include "lessons/lessons.h"
#include "models/scenario_model.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QDoubleSpinBox>
#include <QSpinBox>

#include <cmath>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace parascope::ui {

namespace {

template <NamedEnum E> void selectEnum(QComboBox* c, E value)
{
    c->setCurrentIndex(c->findData(QString::fromLatin1(toString(value))));
}

} // namespace

ScenarioPanel::ScenarioPanel(ScenarioModel* model, QWidget* parent)
    : QWidget(parent)
    , model_(model)
{
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(4, 4, 4, 4); // every pixel of a 1024-pixel projector's panel for the knobs
    auto* presets = new QFormLayout;
    outer->addLayout(presets);
    buildPresetRows(presets);

    auto* knobs_box = new QGroupBox;
    auto* form = new QFormLayout(knobs_box);
    // On a narrow panel (a 1024-pixel projector) a row whose label and field do not fit side by
    // side puts the field under its label: the panel never scrolls sideways, so a knob's name and
    // its value are always seen together.
    presets->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    outer->addWidget(knobs_box);
    // The fault what-ifs (faults.*) in a box of their own, below the layout's choices.
    faults_box_ = new QGroupBox;
    faults_box_->setObjectName(QStringLiteral("panel.faults"));
    auto* faults_form = new QFormLayout(faults_box_);
    faults_form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    // The network fabric's what-ifs (network.*): NICs per node, leaf switches, oversubscription.
    network_box_ = new QGroupBox;
    network_box_->setObjectName(QStringLiteral("panel.network"));
    auto* network_form = new QFormLayout(network_box_);
    network_form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    buildKnobRows(form, faults_form, network_form);
    for (std::size_t i = 0; i < rows_.size(); ++i)
        connectKnobRow(i);

    buildChoiceRows(form);
    outer->addWidget(network_box_);
    outer->addWidget(faults_box_);
    gpus_label_ = new QLabel;
    gpus_label_->setWordWrap(true);
    outer->addWidget(gpus_label_);
    outer->addStretch(1);

    connectPresets();
    connectChoices();
    connect(model_, &ScenarioModel::scenarioChanged, this, &ScenarioPanel::sync);
    retranslate();
    sync();
}

QLabel* ScenarioPanel::staticLabel(const char* text)
{
    auto* l = new QLabel;
    static_labels_.emplace_back(l, text);
    return l;
}

void ScenarioPanel::buildPresetRows(QFormLayout* presets)
{
    lesson_combo_ = new FocusWheelComboBox;
    lesson_combo_->addItem(QString(), QString());
    for (const Lesson& l : lessons())
        lesson_combo_->addItem(QString(), QString::fromStdString(l.id));
    presets->addRow(staticLabel(QT_TR_NOOP("Lesson")), lesson_combo_);

    model_combo_ = new FocusWheelComboBox;
    for (const PresetInfo& p : listPresets("models"))
        model_combo_->addItem(str(p.name), str(p.id));
    custom_button_ = new QPushButton;
    auto* model_row = new QHBoxLayout;
    model_row->addWidget(model_combo_, 1);
    model_row->addWidget(custom_button_);
    presets->addRow(staticLabel(QT_TR_NOOP("Model")), model_row);

    cluster_combo_ = new FocusWheelComboBox;
    for (const PresetInfo& p : listPresets("clusters"))
        cluster_combo_->addItem(str(p.name), str(p.id));
    presets->addRow(staticLabel(QT_TR_NOOP("Cluster")), cluster_combo_);
    // Preset names are long ("DGX A100 80GB, 8×HDR 200 Gb/s"): the combos elide rather than
    // widen the panel past a 1024-pixel screen (the full name is in the list and the tooltip).
    for (QComboBox* c : {lesson_combo_, model_combo_, cluster_combo_}) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(12);
    }
}

void ScenarioPanel::connectPresets()
{
    connect(model_combo_, qOverload<int>(&QComboBox::activated), this, [this](int i) {
        std::vector<InputError> errors;
        if (auto m = readModel(nlohmann::json(model_combo_->itemData(i).toString().toStdString()), "model", errors))
            model_->edit([&](Scenario& s) {
                s.model = *m;
                s.parallel.stage_layers.clear();
            });
    });
    connect(cluster_combo_, qOverload<int>(&QComboBox::activated), this, [this](int i) {
        std::vector<InputError> errors;
        if (auto c
            = readCluster(nlohmann::json(cluster_combo_->itemData(i).toString().toStdString()), "cluster", errors))
            model_->edit([&](Scenario& s) {
                const FabricSpec fabric = s.cluster.fabric; // the network what-ifs stay with the scenario
                s.cluster = *c;
                s.cluster.fabric = fabric;
            });
    });
    connect(lesson_combo_, qOverload<int>(&QComboBox::activated), this, [this](int i) {
        const QString id = lesson_combo_->itemData(i).toString();
        if (!id.isEmpty())
            emit lessonChosen(id);
    });
    connect(custom_button_, &QPushButton::clicked, this, [this] { editCustomModel(); });
}

void ScenarioPanel::connectChoices()
{
    // `field` returns the scenario's member the combo edits; the chosen item's data names the value.
    const auto enumEdit = [this](QComboBox* c, auto field) {
        connect(c, qOverload<int>(&QComboBox::activated), this, [this, c, field](int i) {
            using E = std::remove_reference_t<decltype(field(std::declval<Scenario&>()))>;
            const auto value = enumFromName<E>(c->itemData(i).toString().toStdString());
            if (!syncing_ && value)
                model_->edit([&](Scenario& s) { field(s) = *value; });
        });
    };
    enumEdit(schedule_combo_, [](Scenario& s) -> ScheduleKind& { return s.parallel.schedule; });
    enumEdit(async_combo_, [](Scenario& s) -> AsyncPipeline& { return s.parallel.async_pipeline; });
    enumEdit(recompute_combo_, [](Scenario& s) -> Recompute& { return s.training.recompute; });
    enumEdit(precision_combo_, [](Scenario& s) -> Precision& { return s.training.precision; });
    enumEdit(fp8_combo_, [](Scenario& s) -> Fp8Recipe& { return s.training.fp8_recipe; });
    enumEdit(cp_combo_, [](Scenario& s) -> CpComm& { return s.parallel.cp_comm; });
    enumEdit(dispatcher_combo_, [](Scenario& s) -> MoeDispatcher& { return s.parallel.moe_dispatcher; });
    enumEdit(graphs_combo_, [](Scenario& s) -> CudaGraphs& { return s.training.cuda_graphs; });
    enumEdit(tp_overlap_combo_, [](Scenario& s) -> TpOverlap& { return s.parallel.tp_overlap; });
    enumEdit(layout_combo_, [](Scenario& s) -> ActivationLayout& { return s.parallel.activation_layout; });
    enumEdit(sharding_combo_, [](Scenario& s) -> Zero3Sharding& { return s.parallel.zero3_sharding; });
    enumEdit(offload_combo_, [](Scenario& s) -> Offload& { return s.parallel.offload; });
    connect(attention_combo_, qOverload<int>(&QComboBox::activated), this, [this](int i) {
        const auto kernel = enumFromName<AttentionKernel>(attention_combo_->itemData(i).toString().toStdString());
        if (!syncing_)
            model_->edit([&](Scenario& s) {
                s.training.flash_attention = kernel.has_value();
                if (kernel)
                    s.training.attention_kernel = *kernel;
            });
    });
    enumEdit(grad_combo_, [](Scenario& s) -> GradDtype& { return s.training.grad_dtype; });
    enumEdit(grad_comm_combo_, [](Scenario& s) -> GradComm& { return s.training.grad_comm; });
    // A check box that sets one scenario switch.
    const auto boolEdit = [this](QCheckBox* box, bool& (*field)(Scenario&)) {
        connect(box, &QCheckBox::toggled, this, [this, field](bool on) {
            if (!syncing_)
                model_->edit([on, field](Scenario& s) { field(s) = on; });
        });
    };
    boolEdit(overlap_dp_check_, [](Scenario& s) -> bool& { return s.parallel.overlap_grad_reduce; });
    boolEdit(overlap_tp_check_, [](Scenario& s) -> bool& { return s.parallel.tp_comm_overlap; });
    boolEdit(overlap_pp_check_, [](Scenario& s) -> bool& { return s.parallel.pp_comm_overlap; });
    boolEdit(overlap_ep_check_, [](Scenario& s) -> bool& { return s.parallel.ep_comm_overlap; });
    connectDeepEpRow();
    connect(bucket_spin_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (!syncing_)
            model_->edit([v](Scenario& s) { s.parallel.grad_bucket_mparams = v; });
    });
    boolEdit(sp_check_, [](Scenario& s) -> bool& { return s.parallel.sequence_parallel; });
    boolEdit(fp8_act_check_, [](Scenario& s) -> bool& { return s.training.fp8_activations; });
    boolEdit(repeat_kv_check_, [](Scenario& s) -> bool& { return s.training.repeat_kv; });
    boolEdit(fused_projections_check_, [](Scenario& s) -> bool& { return s.training.fused_projections; });
}

void ScenarioPanel::showLesson(const QString& id)
{
    const QSignalBlocker block(lesson_combo_);
    lesson_combo_->setCurrentIndex(std::max(0, lesson_combo_->findData(id)));
}

void ScenarioPanel::addUserLesson(const QString& id, const Localized& title)
{
    user_lessons_[id] = title;
    const QSignalBlocker block(lesson_combo_);
    if (lesson_combo_->findData(id) < 0)
        lesson_combo_->addItem(inUi(title), id);
    else
        lesson_combo_->setItemText(lesson_combo_->findData(id), inUi(title));
}

void ScenarioPanel::retranslate()
{
    for (auto& [l, text] : static_labels_)
        l->setText(tr(text));
    for (Row& r : rows_)
        r.label->setText(QCoreApplication::translate("Knobs", r.knob->label));
    network_box_->setTitle(tr("Network topology (what-if)"));
    network_box_->setToolTip(tr("The fabric between the nodes: NICs shared by a node's GPUs instead of one per GPU, "
                                "leaf switches whose uplinks are oversubscribed; each group's link in the "
                                "communication chart's bandwidth ladder"));
    faults_box_->setTitle(tr("Faults and stragglers (what-if)"));
    faults_box_->setToolTip(tr("One slow GPU, one degraded link, hangs that end in the NCCL timeout and loss spikes "
                               "rolled back to a checkpoint: what each does to the step, the walls and goodput"));
    custom_button_->setText(tr("Custom…"));
    custom_button_->setToolTip(tr("Edit the model as JSON (the same fields as a preset)"));
    lesson_combo_->setItemText(0, tr("(none)"));
    for (int i = 1; i < lesson_combo_->count(); ++i)
        if (const Lesson* l = findLesson(lesson_combo_->itemData(i).toString().toStdString()))
            lesson_combo_->setItemText(i, inUi(l->title));
        else if (auto u = user_lessons_.find(lesson_combo_->itemData(i).toString()); u != user_lessons_.end())
            lesson_combo_->setItemText(i, inUi(u->second));
    // Enum values read as the course says them (1F1B, 交错式 1F1B, 选择性重计算, BF16), the
    // same names as the reports (estimate/diagnostics.h displayName); the data stays the code.
    const auto name = [](QComboBox* combo, auto kind) {
        for (const auto& n : enumNames(kind))
            combo->setItemText(combo->findData(QString::fromLatin1(n.name)), inUi(displayName(n.value)));
    };
    name(schedule_combo_, ScheduleKind{});
    name(async_combo_, AsyncPipeline{});
    async_combo_->setToolTip(tr("1F1B flushes the pipeline at every optimizer step (a bubble); PipeDream keeps a "
                                "weight version per microbatch in flight and PipeDream-2BW two, run without a "
                                "flush and compute with stale weights; needs 1F1B and PP > 1"));
    name(recompute_combo_, Recompute{});
    name(precision_combo_, Precision{});
    name(fp8_combo_, Fp8Recipe{});
    name(cp_combo_, CpComm{});
    name(dispatcher_combo_, MoeDispatcher{});
    name(graphs_combo_, CudaGraphs{});
    name(tp_overlap_combo_, TpOverlap{});
    tp_overlap_combo_->setToolTip(
        tr("Which TP overlap runs: Transformer Engine's userbuffers (Megatron's --tp-comm-overlap) or PyTorch's "
           "async TP (torchtitan), which splits each GEMM beside a TP collective into TP chunks, each paying a "
           "GEMM's fixed cost, and leaves the backward's reduce-scatters after q/k/v and gate/up exposed"));
    name(layout_combo_, ActivationLayout{});
    name(sharding_combo_, Zero3Sharding{});
    name(offload_combo_, Offload{});
    offload_combo_->setToolTip(
        tr("Keep model states in the node's CPU memory (ZeRO-Offload, FSDP CPU offload): GPU memory drops, "
           "host memory per node and the PCIe copies and CPU optimizer step enter the step; parameters "
           "need ZeRO-3"));
    for (QAction* a : modules_button_->menu()->actions())
        a->setText(inUi(displayName(RecomputeModule(a->data().toUInt()))));
    name(attention_combo_, AttentionKernel{});
    attention_combo_->setItemText(attention_combo_->findData(QStringLiteral("none")), tr("none (unfused)"));
    attention_combo_->setToolTip(
        tr("The fused (flash) attention kernel the training software calls: cuDNN (Transformer Engine, as "
           "fast as FlashAttention-3 on Hopper) or FlashAttention-2 (PyTorch SDPA's default); none keeps "
           "the s × s scores in memory"));
    cp_combo_->setToolTip(tr("How context parallelism exchanges keys and values; used when CP > 1"));
    dispatcher_combo_->setToolTip(
        tr("How MoE tokens reach their experts: a copy per expert (Megatron's All-to-All) or one per "
           "GPU and per node (DeepEP); used when EP > 1"));
    fp8_combo_->setToolTip(tr("How FP8 GEMMs scale their inputs; used when the precision is FP8"));
    graphs_combo_->setToolTip(tr("Which parts of a layer replay as CUDA graphs (Megatron's --cuda-graph-impl and "
                                 "--cuda-graph-modules): whole MoE layers need a capacity factor and take the host "
                                 "out; attention and router alone leave the dispatcher and experts eager"));
    for (const EnumName<GradDtype>& n : enumNames(GradDtype{}))
        grad_combo_->setItemText(grad_combo_->findData(QString::fromLatin1(n.name)),
                                 QString::fromLatin1(n.name).toUpper());
    for (int i = 1; i < lesson_combo_->count(); ++i) // titles are short; the tooltip has them whole
        lesson_combo_->setItemData(i, lesson_combo_->itemText(i), Qt::ToolTipRole);
    name(grad_comm_combo_, GradComm{});
    retranslateGradientRows();
    for (Row& r : rows_)
        r.slider->setToolTip(tr("Right-click: sweep this knob"));
    sync();
    fitScrollArea();
}

// The check boxes, the activation layout, the ZeRO-3 sharding and the gradient rows' texts and
// tooltips (retranslate's second half).
void ScenarioPanel::retranslateGradientRows()
{
    fp8_act_check_->setText(tr("FP8 activation storage"));
    fp8_act_check_->setToolTip(
        tr("Keep the linear layers' inputs for the backward as the FP8 copies their GEMMs made, 1 byte instead "
           "of 2, as DeepSeek-V3 does (the attention output stays 16-bit): less activation memory at no step "
           "time in the model"));
    retranslateModelCodeRows();
    sp_check_->setText(tr("Sequence parallelism (SP)"));
    layout_combo_->setToolTip(
        tr("How the run lays out its activations: sequence first [s, b, h] (Megatron-LM), where SP's "
           "AllGather and ReduceScatter work in place, or batch first [b, s, h] (PyTorch DTensor, "
           "torchtitan), where each copies its whole buffer once more to reassemble the sequence"));
    sharding_combo_->setToolTip(
        tr("How ZeRO-3 / FSDP holds a layer's shards: one flat buffer the AllGather writes in place (PyTorch "
           "FSDP1, DeepSpeed ZeRO-3, Megatron-FSDP), or each parameter sharded on its own (PyTorch FSDP2, "
           "torchtitan), where every AllGather is followed by a copy of the gathered layer into its parameters"));
    grad_comm_combo_->setToolTip(
        tr("What the data-parallel gradient reduction sends: the gradients as they are, BF16, FP8 or one bit "
           "per element with error feedback (1-bit Adam): fewer bytes on the link for a compression pass "
           "and, for 1-bit, an fp32 error buffer"));
    bucket_spin_->setSpecialValueText(tr("Megatron's default"));
    bucket_spin_->setToolTip(
        tr("Gradient bucket, millions of parameters (type 40, 40 M, 1.5 G or a plain count such as 536870912; "
           "Megatron's default is max(40 M, 1 M·DP)): smaller buckets mean more calls (latency), larger ones a "
           "longer last bucket, which cannot overlap the backward"));
    overlap_dp_check_->setText(tr("Overlap DP gradient reduction"));
    overlap_dp_check_->setToolTip(
        tr("The data-parallel gradient reduction runs during the backward, bucket by bucket (the last "
           "bucket cannot hide)"));
    overlap_tp_check_->setToolTip(
        tr("Megatron --tp-comm-overlap / PyTorch async TP: each TP collective hides behind the GEMM it "
           "feeds or follows (async TP: except the backward's reduce-scatters, which follow a sum of matmuls)"));
    overlap_tp_check_->setText(tr("Overlap TP communication"));
    retranslateOverlapRows();
}

void ScenarioPanel::fitScrollArea()
{
    // The scroll area around the panel (viewport, then area) is as wide as the panel's narrowest
    // layout in this language plus its vertical scroll bar: it never scrolls sideways.
    auto* area = qobject_cast<QScrollArea*>(parentWidget() ? parentWidget()->parentWidget() : nullptr);
    if (!area)
        return;
    layout()->activate();
    area->setMinimumWidth(minimumSizeHint().width() + area->verticalScrollBar()->sizeHint().width()
                          + 2 * area->frameWidth());
}

void ScenarioPanel::sync()
{
    syncing_ = true;
    const Scenario& s = model_->scenario();
    for (Row& r : rows_) {
        r.values = r.knob->values(s);
        const long long v = r.knob->get(s);
        r.slider->setRange(0, int(r.values.size()) - 1);
        r.slider->setValue(int(nearestIndex(r.values, v)));
        r.spin->setValue(int(std::min<long long>(v, 1 << 30)));
    }
    const int mi = model_combo_->findData(str(s.model.id));
    model_combo_->setCurrentIndex(mi);
    if (mi < 0)
        model_combo_->setPlaceholderText(str(s.model.name));
    const int ci = cluster_combo_->findData(str(s.cluster.id));
    cluster_combo_->setCurrentIndex(ci);
    if (ci < 0)
        cluster_combo_->setPlaceholderText(str(s.cluster.name));
    selectEnum(schedule_combo_, s.parallel.schedule);
    selectEnum(async_combo_, s.parallel.async_pipeline);
    selectEnum(recompute_combo_, s.training.recompute);
    selectEnum(precision_combo_, s.training.precision);
    selectEnum(fp8_combo_, s.training.fp8_recipe);
    selectEnum(cp_combo_, s.parallel.cp_comm);
    selectEnum(dispatcher_combo_, s.parallel.moe_dispatcher);
    selectEnum(graphs_combo_, s.training.cuda_graphs);
    selectEnum(tp_overlap_combo_, s.parallel.tp_overlap);
    selectEnum(layout_combo_, s.parallel.activation_layout);
    selectEnum(sharding_combo_, s.parallel.zero3_sharding);
    selectEnum(offload_combo_, s.parallel.offload);
    QStringList chosen;
    for (QAction* a : modules_button_->menu()->actions()) {
        const bool on = (s.training.recompute_modules & a->data().toUInt()) != 0;
        a->setChecked(on);
        if (on)
            chosen << a->text();
    }
    // At most two names on the button (the panel stays narrow); the tooltip lists them all.
    modules_button_->setText(chosen.isEmpty() ? tr("nothing")
                                 : chosen.size() <= 2
                                 ? chosen.join(QStringLiteral(", "))
                                 : tr("%1 and %2 more").arg(chosen.front()).arg(chosen.size() - 1));
    modules_button_->setToolTip(tr("What selective recompute rebuilds in the backward instead of keeping (Megatron's "
                                   "--recompute-modules, torchtitan's op-level SAC): %1")
                                    .arg(chosen.isEmpty() ? tr("nothing") : chosen.join(QStringLiteral(", "))));
    showOptionalRows(s);
    selectEnum(grad_combo_, s.training.grad_dtype);
    selectEnum(grad_comm_combo_, s.training.grad_comm);
    overlap_dp_check_->setChecked(s.parallel.overlap_grad_reduce);
    overlap_tp_check_->setChecked(s.parallel.tp_comm_overlap);
    overlap_ep_check_->setChecked(s.parallel.ep_comm_overlap);
    deepep_spin_->setRange(1, std::max(1, s.cluster.gpu.sm_count - 1)); // the engine's bound (scenario_json.cpp)
    deepep_spin_->setValue(s.parallel.deepep_sms);
    overlap_pp_check_->setChecked(s.parallel.pp_comm_overlap);
    bucket_spin_->setValue(s.parallel.grad_bucket_mparams);
    sp_check_->setChecked(s.parallel.sequence_parallel);
    fp8_act_check_->setChecked(s.training.fp8_activations);
    repeat_kv_check_->setChecked(s.training.repeat_kv);
    fused_projections_check_->setChecked(s.training.fused_projections);
    if (s.training.flash_attention)
        selectEnum(attention_combo_, s.training.attention_kernel);
    else
        attention_combo_->setCurrentIndex(attention_combo_->findData(QStringLiteral("none")));
    const long long gpus = s.parallel.gpus();
    const long long per_node = std::max(1, s.cluster.gpus_per_node);
    gpus_label_->setText(tr("GPUs = TP·PP·DP·CP = %1·%2·%3·%4 = <b>%5</b> (%6 nodes of %7)")
                             .arg(s.parallel.tp)
                             .arg(s.parallel.pp)
                             .arg(s.parallel.dp)
                             .arg(s.parallel.cp)
                             .arg(gpus)
                             .arg((gpus + per_node - 1) / per_node)
                             .arg(per_node));
    syncing_ = false;
}

void ScenarioPanel::applyKnob(Row& row, long long value)
{
    if (row.knob->get(model_->scenario()) == value)
        return;
    model_->edit([&](Scenario& s) { row.knob->set(s, value); });
}

void ScenarioPanel::highlightKnob(const QString& path)
{
    // The knobs that are not sliders: the SP check box, the CPU offload, precision, gradient
    // compression and CUDA graph choices.
    QWidget* other = path == QLatin1String("parallel.sequence_parallel") ? static_cast<QWidget*>(sp_check_)
        : path == QLatin1String("parallel.offload")                      ? static_cast<QWidget*>(offload_combo_)
        : path == QLatin1String("training.precision")                    ? static_cast<QWidget*>(precision_combo_)
        : path == QLatin1String("training.grad_comm")                    ? static_cast<QWidget*>(grad_comm_combo_)
        : path == QLatin1String("training.cuda_graphs")                  ? static_cast<QWidget*>(graphs_combo_)
        : path == QLatin1String("parallel.async_pipeline")               ? static_cast<QWidget*>(async_combo_)
        : path == QLatin1String("parallel.overlap_grad_reduce")          ? static_cast<QWidget*>(overlap_dp_check_)
        : path == QLatin1String("parallel.grad_bucket_mparams")          ? static_cast<QWidget*>(bucket_spin_)
                                                                         : nullptr;
    if (other) {
        other->setStyleSheet(QStringLiteral("background: #E69F00; color: black; border-radius: 3px;"));
        other->setFocus();
        QTimer::singleShot(1500, other, [other] { other->setStyleSheet(QString()); });
        return;
    }
    for (Row& r : rows_) {
        if (path != QLatin1String(r.knob->path))
            continue;
        r.label->setStyleSheet(QStringLiteral("background: #E69F00; color: black; border-radius: 3px;"));
        r.slider->setFocus();
        QLabel* l = r.label;
        QTimer::singleShot(1500, l, [l] { l->setStyleSheet(QString()); });
    }
}

bool ScenarioPanel::editCustomModel(const std::optional<ModelSpec>& start)
{
    Scenario shown = model_->scenario();
    if (start)
        shown.model = *start;
    CustomModelDialog dialog(shown, this);
    if (dialog.exec() != QDialog::Accepted || !dialog.model())
        return false;
    model_->edit([&](Scenario& s) {
        s.model = *dialog.model();
        s.model.id = "custom";
        s.parallel.stage_layers.clear();
    });
    return true;
}

} // namespace parascope::ui
