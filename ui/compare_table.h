#pragma once
// Compare A and B: the pinned scenario A and the edited B side by side — step time, tokens/s,
// MFU, peak memory, bubble, exposed communication, GPUs — with the change from A to B, each
// scenario by its model and layout. Shown while a scenario is pinned (Scenario → Pin as A);
// Scenario → Export comparison table writes it as CSV.

#include <QStringList>
#include <QTableWidget>

#include <vector>

namespace parascope::ui {

class ScenarioModel;

class CompareTable : public QTableWidget {
    Q_OBJECT
public:
    explicit CompareTable(ScenarioModel* model, QWidget* parent = nullptr);
    void retranslate();
    QString text() const; // the table as tab-separated lines (tests, the clipboard)
    QString csv() const; // the table as CSV (RFC 4180: quoted cells, CRLF), for a slide or a sheet

private:
    void refresh();
    std::vector<QStringList> cells() const; // header and rows, one line per cell
    ScenarioModel* model_;
};

} // namespace parascope::ui
