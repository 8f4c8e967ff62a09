#include "compare_table.h"

#include "format.h"
#include "models/scenario_model.h"

#include "io/error_bands.h"
#include "language.h"

#include <QHeaderView>

namespace parascope::ui {

namespace {

// "1.47 s ±6.9 %": a number with its scenario's band (io/error_bands.h; step time, tokens/s and
// MFU alike). The cell shows the band on a line of its own, narrow enough for the right panel.
QString withBand(const Scenario& sc, const QString& value)
{
    return value + QStringLiteral(" ") + inUi(bandText(bandFor(builtInBands(), sc), true));
}

} // namespace

CompareTable::CompareTable(ScenarioModel* model, QWidget* parent)
    : QTableWidget(parent)
    , model_(model)
{
    setColumnCount(4);
    setMinimumWidth(180); // the right dock's width never follows the table's text
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    verticalHeader()->hide();
    // The narrow right panel: the three numbers as wide as they need (never clipped), the
    // quantity's name takes the rest and wraps; each layout's name a part a line.
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    // A 1024-pixel projector leaves the panel less than the numbers need: scroll, never clip.
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    horizontalHeader()->setMinimumSectionSize(fontMetrics().horizontalAdvance(QStringLiteral("Tokens/s")));
    setWordWrap(true);
    setTextElideMode(Qt::ElideNone);
    connect(model_, &ScenarioModel::estimateChanged, this, &CompareTable::refresh);
    connect(model_, &ScenarioModel::pinChanged, this, &CompareTable::refresh);
    refresh();
}

void CompareTable::retranslate() { refresh(); }

void CompareTable::refresh()
{
    const Estimate* a = model_->pinnedEstimate();
    setVisible(a != nullptr);
    if (!a) {
        setRowCount(0);
        return;
    }
    const Estimate& b = model_->estimate();
    setHorizontalHeaderLabels({QString(), QStringLiteral("A"), QStringLiteral("B"), tr("B vs A")});
    struct Row {
        QString name, a, b, delta;
    };
    const auto pct = [](double f) -> QString { return QString::number(f * 100, 'f', 1) + QStringLiteral(" %"); };
    const auto points = [](double now, double before) -> QString {
        const double d = (now - before) * 100;
        return (d >= 0 ? QStringLiteral("+") : QString()) + QString::number(d, 'f', 1) + tr(" pts");
    };
    const Scenario &pinned = *model_->pinnedScenario(), &now = model_->scenario();
    const std::vector<Row> rows = {
        {tr("Scenario"), compareName(*model_->pinnedScenario(), model_->scenario()),
         compareName(model_->scenario(), *model_->pinnedScenario()), QString()},
        {tr("Step time"), withBand(pinned, seconds(a->time.step_s)), withBand(now, seconds(b.time.step_s)),
         signedPercent(b.time.step_s, a->time.step_s)},
        {tr("Tokens/s"), withBand(pinned, QString::number(a->throughput.tokens_per_s, 'f', 0)),
         withBand(now, QString::number(b.throughput.tokens_per_s, 'f', 0)),
         signedPercent(b.throughput.tokens_per_s, a->throughput.tokens_per_s)},
        {tr("MFU"), withBand(pinned, pct(a->throughput.mfu)), withBand(now, pct(b.throughput.mfu)),
         points(b.throughput.mfu, a->throughput.mfu)},
        {tr("Peak memory (GiB)"), gib(a->memory.peak_bytes, 1), gib(b.memory.peak_bytes, 1),
         signedPercent(b.memory.peak_bytes, a->memory.peak_bytes)},
        {tr("Bubble (simulated)"), pct(a->time.bubble_fraction), pct(b.time.bubble_fraction),
         points(b.time.bubble_fraction, a->time.bubble_fraction)},
        {tr("Exposed communication"), seconds(a->time.exposed_comm_s), seconds(b.time.exposed_comm_s),
         signedPercent(b.time.exposed_comm_s, a->time.exposed_comm_s)},
        {tr("GPUs"), QString::number(a->gpus), QString::number(b.gpus), signedPercent(double(b.gpus), double(a->gpus))},
    };
    setRowCount(int(rows.size()));
    for (int r = 0; r < int(rows.size()); ++r) {
        const Row& row = rows[std::size_t(r)];
        int c = 0;
        for (const QString& cell : {row.name, row.a, row.b, row.delta}) {
            // In the cell a layout's parts stack ("TP 2", "PP 4", …); text() and csv() keep one line.
            // So do a number and its band; text() and csv() keep one line.
            auto* item = new QTableWidgetItem(r == 0 && c > 0
                                                  ? QString(cell).replace(QStringLiteral(" · "), QStringLiteral("\n"))
                                                  : QString(cell).replace(QStringLiteral(" ±"), QStringLiteral("\n±")));
            item->setData(Qt::UserRole, cell);
            item->setTextAlignment(c == 0 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(cell);
            setItem(r, c++, item);
        }
    }
    resizeRowsToContents();
}

// The header, then each row, in one-line cells (a layout's name as the model has it).
std::vector<QStringList> CompareTable::cells() const
{
    std::vector<QStringList> rows;
    for (int r = -1; r < rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < columnCount(); ++c)
            cells << (r < 0 ? (horizontalHeaderItem(c) ? horizontalHeaderItem(c)->text() : QString())
                            : (item(r, c) ? item(r, c)->data(Qt::UserRole).toString() : QString()));
        rows.push_back(cells);
    }
    return rows;
}

QString CompareTable::text() const
{
    QStringList lines;
    for (const QStringList& row : cells())
        lines << row.join(QLatin1Char('\t'));
    return lines.join(QLatin1Char('\n'));
}

QString CompareTable::csv() const
{
    QString out;
    for (QStringList row : cells()) {
        for (QString& cell : row)
            cell = QLatin1Char('"') + cell.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
        out += row.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    }
    return out;
}

} // namespace parascope::ui
