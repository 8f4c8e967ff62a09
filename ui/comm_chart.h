#pragma once
// Communication per parallel group and collective: time on its link per step next to the part
// compute cannot hide, labelled NVLink or network. Hover shows calls, bytes and the formulas.

#include "chart_style.h"

#include <QWidget>

class QCustomPlot;
class QCPBars;

namespace parascope::ui {

class ScenarioModel;

class CommChart : public QWidget {
    Q_OBJECT
public:
    explicit CommChart(ScenarioModel* model, QWidget* parent = nullptr);
    QCustomPlot* plot() const { return plot_; }
    void retranslate();
    void setTheme(const ChartTheme& t);
    int entryCount() const;
    QString tooltipFor(int entry) const;

public slots:
    void refresh();

private:
    ScenarioModel* model_;
    QCustomPlot* plot_;
    QCPBars* link_ = nullptr;
    QCPBars* exposed_ = nullptr;
    QCPBars* pinned_ = nullptr;
    ChartTheme theme_;
};

} // namespace parascope::ui
