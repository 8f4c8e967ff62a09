#include "dialogs/trace_dialog.h"

#include "chart_style.h"
#include "format.h"
#include "language.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace parascope::ui {

namespace {

// One colour per part of the step, the same on both bars.
QColor partColour(const std::string& key)
{
    if (key == "gemm")
        return palette::blue;
    if (key == "attention")
        return palette::sky;
    if (key == "other_compute")
        return palette::green;
    if (key == "optimizer")
        return palette::purple;
    if (key == "exposed_communication")
        return palette::vermillion;
    if (key == "copies")
        return palette::orange;
    return palette::grey; // idle
}

QString milliseconds(double s) { return QString::number(s * 1e3, 'f', 2); }

} // namespace

TraceDialog::TraceDialog(QString file, MeasuredTrace trace, QWidget* parent)
    : QDialog(parent)
    , file_(std::move(file))
    , trace_(std::move(trace))
    , header_(new QLabel)
    , notes_(new QLabel)
    , plot_(new QCustomPlot)
    , table_(new QTableWidget)
{
    auto* layout = new QVBoxLayout(this);
    header_->setWordWrap(true);
    notes_->setWordWrap(true);
    layout->addWidget(header_);
    plot_->setMinimumSize(320, 150); // not its legend's one-row width
    layout->addWidget(plot_, 3);
    table_->setColumnCount(4);
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    layout->addWidget(table_, 2);
    layout->addWidget(notes_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(800, 640);
}

// One row per part of the step and per collective: simulated, measured, their ratio.
void TraceDialog::fillTable()
{
    table_->setRowCount(int(comparison_.rows.size()));
    for (int i = 0; i < int(comparison_.rows.size()); ++i) {
        const TraceRow& r = comparison_.rows[std::size_t(i)];
        const QString ratio
            = r.measured_s > 0 ? QString::number(r.simulated_s / r.measured_s, 'f', 2) : QStringLiteral("—");
        const QStringList cells = {inUi(r.label), milliseconds(r.simulated_s), milliseconds(r.measured_s), ratio};
        for (int c = 0; c < 4; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (r.key == "step") {
                QFont f = item->font();
                f.setBold(true);
                item->setFont(f);
            }
            table_->setItem(i, c, item);
        }
    }
    table_->resizeColumnsToContents();
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
}

void TraceDialog::showComparison(const Scenario& sc, const Estimate& est)
{
    comparison_ = compareWithTrace(sc, est, trace_);
    // Every text is set here, so a change of language shows at the next comparison.
    setWindowTitle(tr("Measured trace beside the simulation — %1").arg(QFileInfo(file_).fileName()));
    table_->setHorizontalHeaderLabels({tr("Part of the step"), tr("Simulated (ms)"), tr("Measured (ms)"), tr("Ratio")});
    QString where = trace_.gpu_name.empty() ? tr("GPU %1").arg(trace_.device) : QString::fromStdString(trace_.gpu_name);
    if (trace_.rank >= 0)
        where += tr(", rank %1 of %2").arg(trace_.rank).arg(trace_.world_size);
    const QString scenario = QString::fromStdString(sc.name.empty() ? sc.model.name : sc.name).toHtmlEscaped();
    if (comparison_.sameJob())
        header_->setText(
            tr("<b>%1</b>: %2, %n step(s) measured, median %3 ms. Simulated: <b>%4</b>, %5 ms; error %6 %.", nullptr,
               int(trace_.steps.size()))
                .arg(QFileInfo(file_).fileName().toHtmlEscaped(), where.toHtmlEscaped(), milliseconds(trace_.step_s),
                     scenario, milliseconds(est.time.step_s))
                .arg(comparison_.step_error * 100, 0, 'f', 1));
    else
        header_->setText(tr("<b>%1</b>: %2, %n step(s) measured, median %3 ms. Simulated: <b>%4</b>, %5 ms. "
                            "<b>A different job</b>: no error is given (see below).",
                            nullptr, int(trace_.steps.size()))
                             .arg(QFileInfo(file_).fileName().toHtmlEscaped(), where.toHtmlEscaped(),
                                  milliseconds(trace_.step_s), scenario, milliseconds(est.time.step_s)));
    QStringList notes;
    for (const Localized& d : comparison_.different_job)
        notes << QStringLiteral("✗ ") + inUi(d).toHtmlEscaped();
    for (const Localized& n : comparison_.notes)
        notes << QStringLiteral("· ") + inUi(n).toHtmlEscaped();
    for (const Localized& w : trace_.warnings)
        notes << QStringLiteral("⚠ ") + inUi(w).toHtmlEscaped();
    notes_->setText(notes.join(QStringLiteral("<br>")));
    notes_->setVisible(!notes.isEmpty());

    fillTable();

    // Two stacked bars: simulated (key 2, on top) and measured (key 1).
    plot_->clearPlottables();
    plot_->legend->clear();
    applyTheme(plot_, ChartTheme{});
    QCPBars* below = nullptr;
    for (const TraceRow& r : comparison_.rows) {
        if (!r.part_of_step)
            continue;
        auto* bars = new QCPBars(plot_->yAxis, plot_->xAxis);
        bars->setName(inUi(r.label));
        bars->setPen(Qt::NoPen);
        bars->setBrush(partColour(r.key));
        bars->setWidth(0.6);
        bars->setData({1, 2}, {r.measured_s * 1e3, r.simulated_s * 1e3});
        if (below)
            bars->moveAbove(below);
        below = bars;
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTick(1, tr("Measured step"));
    ticker->addTick(2, tr("Simulated step"));
    plot_->yAxis->setTicker(ticker);
    plot_->yAxis->setRange(0.4, 2.6);
    plot_->xAxis->setLabel(tr("time per step (ms)"));
    plot_->xAxis->setRange(0, std::max(est.time.step_s, trace_.step_s) * 1e3 * 1.05);
    plot_->legend->setVisible(true);
    placeLegendBelow(plot_, 2);
    plot_->replot();
}

} // namespace parascope::ui
