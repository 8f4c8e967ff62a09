#include "layer_ops_view.h"

#include "estimate/display_names.h"
#include "format.h"
#include "io/layer_ops_report.h"
#include "language.h"
#include "models/scenario_model.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace parascope::ui {

namespace {

// An op's time as the text report writes it (core/io/layer_ops_report.h).
QString ms(double s) { return QString::fromStdString(layerOpMs(s)); }

QTableWidgetItem* cell(const QString& text, bool number)
{
    auto* item = new QTableWidgetItem(text);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

LayerOpsView::LayerOpsView(ScenarioModel* model, QWidget* parent)
    : QWidget(parent)
    , model_(model)
    , summary_(new QLabel)
    , kind_(new QComboBox)
    , table_(new QTableWidget)
{
    summary_->setWordWrap(true);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setWordWrap(false);
    auto* top = new QHBoxLayout;
    top->addWidget(summary_, 1);
    top->addWidget(kind_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(table_, 1);
    // Every change of the box's own is made with its signals blocked: a signal is the user's pick
    // (or showMoeLayer's). Qt emits activated after currentIndexChanged, too late to mark it.
    connect(kind_, &QComboBox::currentIndexChanged, this, [this] {
        picked_ = true;
        refresh();
    });
    connect(model_, &ScenarioModel::estimateChanged, this, &LayerOpsView::refresh);
    retranslate();
}

void LayerOpsView::showMoeLayer(bool moe)
{
    picked_ = true; // also where the index is already there (no signal)
    kind_->setCurrentIndex(moe ? 1 : 0);
}

void LayerOpsView::retranslate()
{
    const int kind = kind_->currentIndex();
    const QSignalBlocker block(kind_);
    kind_->clear();
    kind_->addItems({tr("Dense layer"), tr("MoE layer")});
    kind_->setCurrentIndex(std::max(0, kind));
    // Short headers for a 1024-pixel projector, the times first (what must show without scrolling);
    // what each one means in its tooltip.
    const std::pair<QString, QString> columns[]
        = {{tr("Op"), QString()},
           {tr("Forward ms"), tr("Forward pass, one microbatch")},
           {tr("dX ms"), tr("Backward: the input gradients")},
           {tr("dW ms"), tr("Backward: the weight gradients")},
           {tr("FP8 cast ms"), tr("Quantizing the inputs and the output gradients to FP8")},
           {tr("Recompute ms"), tr("What selective recompute runs again in the backward")},
           {tr("Kernels"), tr("Kernel launches per microbatch: forward/backward")},
           {tr("Rate"), tr("How the time is computed: GEMM efficiency, the attention kernel's rate, or HBM bandwidth")},
           {tr("Precision"), QString()}};
    table_->setColumnCount(9);
    for (int c = 0; c < 9; ++c) {
        auto* header = new QTableWidgetItem(columns[c].first);
        header->setToolTip(columns[c].second);
        table_->setHorizontalHeaderItem(c, header);
    }
    refresh();
}

void LayerOpsView::refresh()
{
    const Estimate& est = model_->estimate();
    // A MoE model without dense layers (Mixtral) has only the MoE layer to show.
    const ModelSpec& m = model_->scenario().model;
    const bool has_moe = !est.time.moe_layer_ops.empty(), has_dense = m.moeLayerCount() < m.layers;
    kind_->setVisible(has_moe && has_dense);
    if (m.name != model_name_) { // another model: its own default until the user picks
        model_name_ = m.name;
        picked_ = false;
    }
    if (!picked_ && has_moe && has_dense) {
        const QSignalBlocker block(kind_);
        kind_->setCurrentIndex(2 * m.moeLayerCount() > m.layers ? 1 : 0);
    }
    const bool moe = has_moe && (kind_->currentIndex() == 1 || !has_dense);
    const std::vector<LayerOp>& ops = moe ? est.time.moe_layer_ops : est.time.layer_ops;
    table_->setRowCount(int(ops.size()) + 1);
    const auto row = [this](int r, const QString& name, const QString& rate, const QString& precision,
                            const LayerOpsTotal& t, const QString& tip) {
        const QString values[] = {name,
                                  ms(t.forward_s),
                                  ms(t.input_grad_s),
                                  ms(t.weight_grad_s),
                                  ms(t.cast_s),
                                  ms(t.recompute_s),
                                  QStringLiteral("%1/%2").arg(t.forward_kernels).arg(t.backward_kernels),
                                  rate,
                                  precision};
        for (int c = 0; c < 9; ++c) {
            QTableWidgetItem* item = cell(values[c], c >= 1 && c <= 6);
            item->setToolTip(tip);
            table_->setItem(r, c, item);
        }
    };
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const LayerOp& op = ops[i];
        QString tip = op.rate == OpRate::Memory
            ? tr("%1: %2 moved per forward pass").arg(QString::fromStdString(op.name), bytesText(op.bytes))
            : op.rate == OpRate::Host
            ? tr("%1: the GPU idles while the host issues the layer: the dispatcher reads the token counts back "
                 "every forward, so the host is never more than a layer ahead")
                  .arg(QString::fromStdString(op.name))
            : tr("%1: %2 GFLOP forward").arg(QString::fromStdString(op.name)).arg(op.flops / 1e9, 0, 'f', 2);
        // The Term that explains the op's time, with its formula and source (the JSON report's terms).
        tip += QStringLiteral("\n") + QString::fromLatin1(op.term);
        row(int(i), inUi(layerOpLabel(op.name)), inUi(displayName(op.rate)), inUi(layerOpPrecision(op)),
            sumLayerOps({op}), tip);
    }
    const LayerOpsTotal sum = sumLayerOps(ops);
    row(int(ops.size()), tr("Layer (sum)"), QString(), QString(), sum, QString());
    QFont bold = font();
    bold.setBold(true);
    for (int c = 0; c < 9; ++c)
        table_->item(int(ops.size()), c)->setFont(bold);
    table_->setColumnHidden(4, sum.cast_s <= 0);
    table_->setColumnHidden(5, sum.recompute_s <= 0);
    summary_->setText(ops.empty()
                          ? tr("No op list: this estimate was computed without explanations.")
                          : tr("%1: %2 ops, %3 kernel launches forward and %4 backward; %5 per microbatch on one GPU. "
                               "The same list as the command-line report's time.layer_ops.")
                                .arg(moe ? tr("One MoE layer") : tr("One dense layer"))
                                .arg(ops.size())
                                .arg(sum.forward_kernels)
                                .arg(sum.backward_kernels)
                                .arg(seconds(sum.total_s())));
}

} // namespace parascope::ui
