#include "models/search_table_model.h"

#include "format.h"
#include "language.h"

#include <QCoreApplication>

#include <algorithm>

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

int SearchTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(rows_.size()); }

int SearchTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant SearchTableModel::data(const QModelIndex& index, int role) const
{
    const SearchRow* r = index.isValid() ? row(index.row()) : nullptr;
    const int col = index.column();
    if (r && role == Qt::ToolTipRole && (col == StepCol || col == TokensCol || col == MfuCol)) {
        // How sure, for this row's layout (its class can differ from the searched one: CP > 1).
        return bandTooltip(r->band);
    }
    if (!r || role != Qt::DisplayRole || col >= ColumnCount)
        return {};
    const ParallelConfig& p = r->parallel;
    switch (index.column()) {
    case Rank: return index.row() + 1;
    case Layout:
        return QStringLiteral("TP%1 PP%2%3 DP%4 CP%5 EP%6%7 ZeRO-%8 mb%9")
            .arg(p.tp)
            .arg(p.pp)
            .arg(p.schedule == ScheduleKind::Interleaved ? QStringLiteral(" VPP%1").arg(p.vpp) : QString())
            .arg(p.dp)
            .arg(p.cp)
            .arg(p.ep)
            .arg(p.sequence_parallel ? QStringLiteral(" SP") : QString())
            .arg(p.zero)
            .arg(r->training.micro_batch);
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
    if (o == Qt::Horizontal && role == Qt::ToolTipRole && (section == Rank || section == TokensCol))
        return tr("Ranked by tokens/s; a tie goes to the lower peak memory, then the simpler layout");
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

namespace {

// A step in seconds with three significant figures ("9.85", "12.1", "105").
QString stepText(double s) { return QString::number(s, 'f', s >= 100 ? 0 : s >= 10 ? 1 : 2); }

QString trHeat(const char* text) { return QCoreApplication::translate("SearchHeatmap", text); }

} // namespace

HeatGrid heatGrid(const SearchResult& result)
{
    HeatGrid g;
    for (const SearchCell& c : result.cells) {
        if (std::find(g.tps.begin(), g.tps.end(), c.tp) == g.tps.end())
            g.tps.push_back(c.tp);
        if (std::find(g.pps.begin(), g.pps.end(), c.pp) == g.pps.end())
            g.pps.push_back(c.pp);
        if (c.fits) {
            g.fastest_s = g.fastest_s > 0 ? std::min(g.fastest_s, c.best_step_s) : c.best_step_s;
            g.slowest_s = std::max(g.slowest_s, c.best_step_s);
        }
    }
    std::sort(g.tps.begin(), g.tps.end());
    std::sort(g.pps.begin(), g.pps.end());
    bool best_marked = false;
    for (int x = 0; x < int(g.tps.size()); ++x)
        for (int y = 0; y < int(g.pps.size()); ++y) {
            HeatCell h;
            h.tp = g.tps[std::size_t(x)];
            h.pp = g.pps[std::size_t(y)];
            h.x = x;
            h.y = y;
            const auto it = std::find_if(result.cells.begin(), result.cells.end(),
                                         [&](const SearchCell& c) { return c.tp == h.tp && c.pp == h.pp; });
            const SearchCell* c = it == result.cells.end() ? nullptr : &*it;
            const QString where = trHeat(QT_TRANSLATE_NOOP("SearchHeatmap", "TP %1 · PP %2")).arg(h.tp).arg(h.pp);
            if (c && c->fits) {
                h.empty = false;
                h.step_s = c->best_step_s;
                h.best = !best_marked && c->best_step_s == g.fastest_s;
                best_marked = best_marked || h.best;
                h.text = stepText(c->best_step_s);
                h.tooltip = trHeat(QT_TRANSLATE_NOOP("SearchHeatmap", "%1: best step %2 s %3 (%4 tokens/s)"))
                                .arg(where, h.text, inUi(bandText(c->best_band, true)))
                                .arg(c->best_tokens_per_s, 0, 'f', 0);
            } else {
                h.text = c && c->valid ? QStringLiteral("OOM") : QStringLiteral("—");
                h.tooltip
                    = (c && c->valid
                           ? trHeat(QT_TRANSLATE_NOOP("SearchHeatmap", "%1: every valid layout runs out of memory"))
                           : trHeat(QT_TRANSLATE_NOOP("SearchHeatmap", "%1: no valid layout on this many GPUs")))
                          .arg(where);
            }
            g.cells.push_back(h);
        }
    return g;
}

} // namespace parascope::ui
