#include "dialogs/calibration_dialog.h"
#include "format.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace parascope::ui {

CalibrationDialog::CalibrationDialog(const ClusterSpec& before, const HardwareProfile& profile, QWidget* parent)
    : QDialog(parent)
    , after_(calibrate(before, profile))
    , table_(new QTableWidget)
{
    setWindowTitle(tr("Calibrate from a hardware profile"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("Measured on <b>%1</b> (profile status: %2). Measured numbers replace the datasheet-derived "
           "defaults of <b>%3</b>; memory is unaffected, times change.")
            .arg(QString::fromStdString(profile.device_name.empty() ? std::string("?") : profile.device_name),
                 QString::fromStdString(profile.status), QString::fromStdString(before.name)));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    struct Row {
        QString what;
        double datasheet, measured;
        QString unit;
    };
    const GpuSpec& g0 = before.gpu;
    const GpuSpec& g1 = after_.gpu;
    const std::vector<Row> rows = {
        {tr("GEMM efficiency (of the dense bf16 peak)"), g0.gemm_efficiency, g1.gemm_efficiency, QStringLiteral("")},
        {tr("HBM efficiency (of the datasheet bandwidth)"), g0.hbm_efficiency, g1.hbm_efficiency, QStringLiteral("")},
        {tr("GPU memory"), g0.memory_bytes / kGiB, g1.memory_bytes / kGiB, QStringLiteral("GiB")},
        {tr("NVLink efficiency (busbw / link)"), before.intra_node.efficiency, after_.intra_node.efficiency,
         QStringLiteral("")},
        {tr("Network efficiency (busbw per GPU / NIC)"), before.inter_node.efficiency, after_.inter_node.efficiency,
         QStringLiteral("")},
        {tr("Measured collective points"), 0, double(after_.measured_collectives.size()), QStringLiteral("")},
    };
    table_->setColumnCount(3);
    table_->setRowCount(int(rows.size()));
    table_->setHorizontalHeaderLabels({tr("Quantity"), tr("Datasheet"), tr("Measured")});
    for (int i = 0; i < int(rows.size()); ++i) {
        const Row& r = rows[std::size_t(i)];
        const bool changed = r.measured != r.datasheet;
        table_->setItem(i, 0, new QTableWidgetItem(r.what));
        table_->setItem(i, 1, new QTableWidgetItem(QString::number(r.datasheet, 'g', 4) + QLatin1Char(' ') + r.unit));
        auto* m = new QTableWidgetItem(changed ? QString::number(r.measured, 'g', 4) + QLatin1Char(' ') + r.unit
                                               : tr("(not measured)"));
        if (changed) {
            QFont f = m->font();
            f.setBold(true);
            m->setFont(f);
        }
        table_->setItem(i, 2, m);
    }
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    layout->addWidget(table_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Apply | QDialogButtonBox::Cancel);
    connect(buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(640, 380);
}

} // namespace parascope::ui
