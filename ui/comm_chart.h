#pragma once
// Communication per parallel group and collective: time on its link per step next to the part
// compute cannot hide, with the bytes each GPU sends per step and the calls, labelled NVLink or
// network, in the UI language. Rows go longest first; the rows the height cannot show readably are
// summed into "the other k". Hover shows the group, sizes and the formulas.

#include "chart_view.h"

#include "comm/comm_volume.h"

#include <QStringList>

#include <vector>

class QFont;
class QFontMetrics;
class QCPBars;
class QCPItemText;

namespace parascope {
struct Estimate;
}

namespace parascope::ui {

class CommChart : public ChartView {
    Q_OBJECT
public:
    explicit CommChart(ScenarioModel* model, QWidget* parent = nullptr);
    void retranslate();
    int entryCount() const;
    QString tooltipFor(int entry) const;
    // The bandwidth ladder of the entry's link (comm/bandwidth_ladder.h), as tooltip lines.
    QString ladderHtml(const CommEntry& c) const;
    // an entry of the Estimate's communication
    QString tooltipForRow(int row) const; // a row as drawn (one entry, or the others)
    QStringList rowTexts() const; // the rows' text as drawn, top to bottom
    static QString entryName(const CommEntry& c); // "TP ReduceScatter · activations · NVLink"
    // A row's text lines: its name, then time, exposed time, bytes per GPU and calls per step; on
    // a narrow chart four lines instead of two, with `fm` each name line kept within `width`.
    static QStringList rowLines(const QString& name, double time, double exposed, double bytes, double calls,
                                bool narrow, const QFontMetrics* fm = nullptr, int width = 0);

    // The entry a row shows; −1 for "the other k" and outside the rows.
    int entryAtRow(int row) const;

signals:
    // A click on a row of one collective (not a double-click, which maximises the chart).
    void entryActivated(int entry);

public slots:
    void refresh() override;

protected:
    void sizeChanged() override { refresh(); } // the rows that fit follow the height

private:
    std::vector<std::vector<int>> rows_; // entries of the Estimate's communication per row
    std::vector<QCPItemText*> labels_;
    QCPBars* link_ = nullptr;
    QCPBars* exposed_ = nullptr;
    QCPBars* pinned_ = nullptr;
    class QTimer* click_ = nullptr; // a click waits out the double-click interval
    int clicked_row_ = -1;
    struct RowLayout; // the rows' lines of text and how many rows fit (comm_chart.cpp)
    RowLayout rowLayout(const Estimate& e, const QFontMetrics& fm) const;
    int chooseRows(const std::vector<int>& order, int fit);
    double drawRows(const Estimate& e, const RowLayout& layout, const QFont& font, double scale);
    void addNothingLabel(const QString& text, const QFont& font);
    void addRowLabel(std::size_t r, const QString& text, const QFont& font);
};

} // namespace parascope::ui
