#pragma once
// The "Layer ops" tab: one transformer layer as the list of ops the engine adds up (QKV GEMM,
// attention core, projections, MLP or experts, router, routing, elementwise), each with its rate
// class, precision, kernel launches and time per pass for one microbatch on one GPU. It reads
// Estimate::time.layer_ops / moe_layer_ops through core/io/layer_ops_report.h, as the CLI's text
// and JSON reports do, so the three show the same numbers.

#include <QWidget>

#include <string>

class QComboBox;
class QLabel;
class QTableWidget;

namespace parascope::ui {

class ScenarioModel;

class LayerOpsView : public QWidget {
    Q_OBJECT
public:
    explicit LayerOpsView(ScenarioModel* model, QWidget* parent = nullptr);
    void retranslate();
    QTableWidget* table() const { return table_; }
    // Dense or MoE layer (a MoE model has both where it keeps dense layers). Until one is picked
    // for a model, the kind most of its layers are (DeepSeek-V3: 58 MoE of 61).
    void showMoeLayer(bool moe);

private:
    void refresh();
    ScenarioModel* model_;
    QLabel* summary_;
    QComboBox* kind_;
    QTableWidget* table_;
    bool picked_ = false; // the user chose the kind for this model
    std::string model_name_;
};

} // namespace parascope::ui
