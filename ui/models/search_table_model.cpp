#include "models/search_table_model.h"

#include "format.h"

namespace parascope::ui {

namespace {
// The ranking first (it is what the table is sorted by and must be visible at 1024 pixels), then the
// layout that achieves it.
enum Column { Rank, TokensCol, StepCol, MfuCol, PeakCol, Layout, Recompute_, Schedule, ColumnCount };
} // namespace

void SearchTableModel::setRows(std::vector<SearchRow> rows)
{
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
}

const SearchRow* SearchTableModel::row(int r) const
{
    return r >= 0 && r < int(rows_.size()) ? &rows_[std::size_t(r)] : nullptr;
}

int SearchTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int SearchTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SearchTableModel::data(const QModelIndex& index, int role) const
{
    const SearchRow* r = index.isValid() ? row(index.row()) : nullptr;
    if (!r || role != Qt::DisplayRole || index.column() >= ColumnCount)
        return {};
    const ParallelConfig& p = r->parallel;
    switch (index.column()) {
    case Rank: return index.row() + 1;
    case Layout:
        return QStringLiteral("TP%1 PP%2%3 DP%4 CP%5 EP%6%7 ZeRO-%8 mb%9")
            .arg(p.tp).arg(p.pp)
            .arg(p.schedule == ScheduleKind::Interleaved ? QStringLiteral(" VPP%1").arg(p.vpp) : QString())
            .arg(p.dp).arg(p.cp).arg(p.ep)
            .arg(p.sequence_parallel ? QStringLiteral(" SP") : QString())
            .arg(p.zero).arg(r->training.micro_batch);
    case Recompute_: return QString::fromLatin1(toString(r->training.recompute));
    case Schedule: return QString::fromLatin1(toString(p.schedule));
    case StepCol: return QString::number(r->step_s, 'f', 3);
    case TokensCol: return QString::number(r->tokens_per_s, 'f', 0);
    case MfuCol: return QString::number(r->mfu * 100, 'f', 1);
    case PeakCol: return QString::number(r->peak_bytes / kGiB, 'f', 1);
    default: return {};
    }
}

QVariant SearchTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Rank: return tr("#");
    case Layout: return tr("Layout");
    case Recompute_: return tr("Recompute");
    case Schedule: return tr("Schedule");
    case StepCol: return tr("Step (s)");
    case TokensCol: return tr("Tokens/s");
    case MfuCol: return tr("MFU (%)");
    case PeakCol: return tr("Peak (GiB)");
    default: return {};
    }
}

} // namespace parascope::ui
