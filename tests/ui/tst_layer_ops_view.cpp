// The "Layer ops" tab (ui/layer_ops_view.h), offscreen: its rows are the estimate's op list
// (TimeReport::layer_ops, the same list the CLI's text and JSON reports print), op by op, with
// the layer's sum; a MoE model with leading dense layers offers both layers; the labels follow
// the language; the panel's ZeRO-3 sharding row adds FSDP2's copy-out; its DeepEP SMs row edits
// what the overlapped all-to-alls take from the compute; its fused-projections check box splits
// QKV into three GEMMs (tests/core/tst_separate_projections.cpp derives the cost).

#include "io/layer_ops_report.h"
#include "language.h"
#include "layer_ops_view.h"
#include "main_window.h"
#include "models/scenario_model.h"
#include "scenario_panel.h"
#include "views_scenarios.h"

#include <QCheckBox>
#include <QComboBox>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest>

using namespace parascope;
using namespace parascope::ui;

namespace {

QString ms(double s) { return QString::fromStdString(layerOpMs(s)); }

// Every row of the table against the list it shows: label, kernels, the three passes.
void compareRows(const QTableWidget* t, const std::vector<LayerOp>& ops)
{
    QCOMPARE(t->rowCount(), int(ops.size()) + 1);
    for (int r = 0; r < int(ops.size()); ++r) {
        const LayerOp& op = ops[std::size_t(r)];
        QCOMPARE(t->item(r, 0)->text(), inUi(layerOpLabel(op.name)));
        QCOMPARE(t->item(r, 6)->text(), QStringLiteral("%1/%2").arg(op.forward_kernels).arg(op.backward_kernels));
        QCOMPARE(t->item(r, 1)->text(), ms(op.forward_s));
        QCOMPARE(t->item(r, 2)->text(), ms(op.input_grad_s));
        QCOMPARE(t->item(r, 3)->text(), ms(op.weight_grad_s));
        QCOMPARE(t->item(r, 8)->text(), inUi(layerOpPrecision(op)));
    }
    const LayerOpsTotal sum = sumLayerOps(ops);
    QCOMPARE(t->item(int(ops.size()), 1)->text(), ms(sum.forward_s));
    QCOMPARE(t->item(int(ops.size()), 6)->text(),
             QStringLiteral("%1/%2").arg(sum.forward_kernels).arg(sum.backward_kernels));
}

} // namespace

class TstLayerOpsView : public QObject {
    Q_OBJECT

private slots:
    void theTabShowsTheEstimatesOps()
    {
        MainWindow w(nullptr, MainWindow::Session::Headless);
        w.setLanguage(QStringLiteral("en"), MainWindow::Remember::No);
        w.model()->setScenario(test::views::sevenB());
        w.model()->flush();
        w.showTab(MainWindow::Tab::LayerOps);
        const QTableWidget* t = w.layerOpsView()->table();
        compareRows(t, w.model()->estimate().time.layer_ops);
        QCOMPARE(t->item(0, 0)->text(), QStringLiteral("QKV projection"));
        QVERIFY(t->isColumnHidden(4)); // bf16: no FP8 casts
        // A slider moves, the table follows.
        w.model()->edit([](Scenario& s) {
            s.parallel.tp = 4;
            s.parallel.dp = 2;
        });
        w.model()->flush();
        compareRows(t, w.model()->estimate().time.layer_ops);
        w.setLanguage(QStringLiteral("zh"), MainWindow::Remember::No);
        QCOMPARE(t->item(0, 0)->text(), QStringLiteral("QKV 投影"));
        QCOMPARE(t->horizontalHeaderItem(1)->text(), QStringLiteral("前向 ms"));
        w.setLanguage(QStringLiteral("en"), MainWindow::Remember::No);
    }

    // The panel's ZeRO-3 sharding row shows only with ZeRO-3; PyTorch FSDP2's per-parameter shards
    // add their copy-out to the layer's ops and the step, in both languages.
    void theZero3ShardingRowAddsFsdp2sCopyOut()
    {
        MainWindow w(nullptr, MainWindow::Session::Headless);
        w.setLanguage(QStringLiteral("en"), MainWindow::Remember::No);
        Scenario s = test::views::sevenB();
        w.model()->setScenario(s);
        QComboBox* sharding = nullptr;
        for (QComboBox* c : w.panel()->findChildren<QComboBox*>())
            if (c->findData(QStringLiteral("per_parameter")) >= 0)
                sharding = c;
        QVERIFY(sharding);
        QVERIFY(!sharding->isVisibleTo(w.panel()));
        s.parallel.zero = 3;
        w.model()->setScenario(s);
        QVERIFY(sharding->isVisibleTo(w.panel()));
        QCOMPARE(sharding->currentData().toString(), QStringLiteral("flat"));
        w.model()->flush();
        const double flat = w.model()->estimate().time.step_s;
        sharding->activated(sharding->findData(QStringLiteral("per_parameter")));
        w.model()->flush();
        QCOMPARE(w.model()->scenario().parallel.zero3_sharding, Zero3Sharding::PerParameter);
        QVERIFY(w.model()->estimate().time.step_s > flat);
        w.showTab(MainWindow::Tab::LayerOps);
        const QTableWidget* t = w.layerOpsView()->table();
        const std::vector<LayerOp>& ops = w.model()->estimate().time.layer_ops;
        compareRows(t, ops);
        QCOMPARE(ops.back().name, std::string("fsdp_copy_out"));
        const int last = int(ops.size()) - 1;
        QCOMPARE(t->item(last, 0)->text(), QStringLiteral("FSDP2 copy-out (per-parameter shards)"));
        w.setLanguage(QStringLiteral("zh"), MainWindow::Remember::No);
        QCOMPARE(t->item(last, 0)->text(), QStringLiteral("FSDP2 参数拷出（逐参数分片）"));
        w.setLanguage(QStringLiteral("en"), MainWindow::Remember::No);
        s.parallel.zero = 1;
        w.model()->setScenario(s);
        QVERIFY(!sharding->isVisibleTo(w.panel()));
    }

    // DeepSeek-V3 keeps three dense layers before its MoE layers: both lists, one at a time.
    void aMoeModelOffersBothLayers()
    {
        ScenarioModel model;
        model.setScenario(test::views::scenario(
            R"({"schema":"parascope.scenario/1","model":"deepseek-v3","cluster":"dgx-h100",
                "parallel":{"tp":4,"pp":16,"dp":32,"ep":32},
                "training":{"seq_len":4096,"micro_batch":1,"global_batch":1024}})"));
        model.flush();
        LayerOpsView view(&model);
        QVERIFY(!view.findChild<QComboBox*>()->isHidden());
        // 58 of its 61 layers are MoE: the MoE layer first (it opened on a dense one).
        compareRows(view.table(), model.estimate().time.moe_layer_ops);
        view.findChild<QComboBox*>()->setCurrentIndex(0); // the user's pick, as the box signals it
        compareRows(view.table(), model.estimate().time.layer_ops);
        Scenario picked = model.scenario(); // the pick holds while the scenario moves
        picked.training.global_batch = 2048;
        model.setScenario(picked);
        model.flush();
        compareRows(view.table(), model.estimate().time.layer_ops);
        view.showMoeLayer(true);
        compareRows(view.table(), model.estimate().time.moe_layer_ops);
        // A host far slower than the GPU work (0.1 s per MoE layer forward): the wait is the
        // list's last row, host-bound, no precision, the same numbers as the report's list.
        Scenario s = model.scenario();
        s.cluster.gpu.moe_layer_host_s = 0.1;
        model.setScenario(s);
        model.flush();
        const std::vector<LayerOp>& ops = model.estimate().time.moe_layer_ops;
        QCOMPARE(ops.back().rate, OpRate::Host);
        compareRows(view.table(), ops);
        QCOMPARE(view.table()->item(int(ops.size()) - 1, 8)->text(), QStringLiteral("–"));
    }

    // parallel.deepep_sms: a row only where DeepEP's kernels run beside compute (DeepEP under
    // combined 1F1B), bounded by the GPU's SMs less one (the engine's input check), and the step
    // grows with it (tests/core/tst_deepep_overlap.cpp derives by how much).
    void theDeepEpSmsRowEditsTheScenario()
    {
        MainWindow w(nullptr, MainWindow::Session::Headless);
        w.setLanguage(QStringLiteral("en"), MainWindow::Remember::No);
        Scenario s = test::views::scenario(
            R"({"schema":"parascope.scenario/1","model":"mixtral-8x7b","cluster":"dgx-h100",
                "parallel":{"tp":1,"pp":1,"dp":8,"ep":8,"moe_dispatcher":"deepep"},
                "training":{"seq_len":4096,"micro_batch":1,"global_batch":64,"recompute":"selective"}})");
        w.model()->setScenario(s);
        auto* sms = w.panel()->findChild<QSpinBox*>(QStringLiteral("panel.deepepSms"));
        QVERIFY(sms);
        QVERIFY(!sms->isVisibleTo(w.panel())); // no overlap: DeepEP's SMs cost nothing
        s.parallel.ep_comm_overlap = true;
        w.model()->setScenario(s);
        QVERIFY(sms->isVisibleTo(w.panel()));
        QCOMPARE(sms->value(), 20); // Megatron's --moe-deepep-num-sms default
        QCOMPARE(sms->maximum(), 131); // H100: 132 SMs
        w.model()->flush();
        const double at20 = w.model()->estimate().time.step_s;
        sms->setValue(64);
        w.model()->flush();
        QCOMPARE(w.model()->scenario().parallel.deepep_sms, 64);
        QVERIFY(w.model()->estimate().time.step_s > at20);
        s = w.model()->scenario();
        s.parallel.moe_dispatcher = MoeDispatcher::AllToAll;
        w.model()->setScenario(s);
        QVERIFY(!sms->isVisibleTo(w.panel()));
    }

    void theFusedProjectionsBoxSplitsQkv()
    {
        MainWindow w(nullptr, MainWindow::Session::Headless);
        w.setLanguage(QStringLiteral("en"), MainWindow::Remember::No);
        w.model()->setScenario(test::views::sevenB());
        w.model()->flush();
        auto* fused = w.panel()->findChild<QCheckBox*>(QStringLiteral("panel.fusedProjections"));
        QVERIFY(fused && fused->isVisibleTo(w.panel()) && fused->isChecked());
        const double step = w.model()->estimate().time.step_s;
        fused->setChecked(false);
        w.model()->flush();
        QVERIFY(!w.model()->scenario().training.fused_projections);
        QVERIFY(w.model()->estimate().time.step_s > step);
        w.showTab(MainWindow::Tab::LayerOps);
        compareRows(w.layerOpsView()->table(), w.model()->estimate().time.layer_ops);
        QCOMPARE(w.layerOpsView()->table()->item(0, 6)->text(), QStringLiteral("3/7")); // wq, wk, wv
    }
};

QTEST_MAIN(TstLayerOpsView)
#include "tst_layer_ops_view.moc"
