#pragma once
// The Search tab's models, widget-free: the ranking table (one row per strategy, ranked by
// tokens/s — ties to the lower memory, core/search/search.h — with the layout first and the
// numbers that rank it) and the cells of the TP × PP heatmap.

#include "search/search.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QString>

#include <vector>

namespace parascope::ui {

class SearchTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;
    void setRows(std::vector<SearchRow> rows); // each with its band (core/search/search.h)
    const SearchRow* row(int r) const;
    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    std::vector<SearchRow> rows_;
};

// One cell of the TP × PP heatmap: what it says. The view adds its colour and whether its text
// fits (else the tooltip says it).
struct HeatCell {
    int tp = 1, pp = 1;
    int x = 0, y = 0; // column (index of TP) and row (index of PP)
    bool empty = true; // nothing with this TP and PP fits: hatched grey
    bool best = false; // the fastest cell: the strongest colour, outlined
    double step_s = 0; // its best step (when not empty)
    QString text; // "9.85" (s); "OOM" (valid layouts, none fits) or "—" (no valid layout)
    QString tooltip;
    QColor fill; // the view's: the colour scale's colour, or the grey of empty cells
    bool text_shown = false; // the view's: the text fits the cell
};

struct HeatGrid {
    std::vector<int> tps, pps; // the axes' values, ascending
    std::vector<HeatCell> cells; // one per (TP, PP), TP-major; a pair never enumerated is empty ("—")
    double fastest_s = 0, slowest_s = 0; // over the cells that fit; 0 when none does
};

HeatGrid heatGrid(const SearchResult& result);

} // namespace parascope::ui
