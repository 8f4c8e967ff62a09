#pragma once
// The Search tab's ranking table: one row per strategy, ranked by tokens/s, with the layout first
// and the numbers that rank it (step, tokens/s, MFU, peak memory).

#include "search/search.h"

#include <QAbstractTableModel>

#include <vector>

namespace parascope::ui {

class SearchTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;
    void setRows(std::vector<SearchRow> rows);
    const SearchRow* row(int r) const;
    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    std::vector<SearchRow> rows_;
};

} // namespace parascope::ui
