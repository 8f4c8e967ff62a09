#pragma once
// The pipeline timeline (Gantt) of the simulated step: one row per pipeline rank with its
// compute and communication lanes, ops coloured by type, microbatch numbers where they fit;
// zoom and drag on the time axis only; hover names the op; a play-back cursor walks through the
// step so a class can watch microbatches flow.

#include "chart_style.h"

#include <QWidget>

class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;
class QCPTextElement;
class QTimer;

namespace parascope::ui {

class GanttPlottable;
class ScenarioModel;

class TimelineChart : public QWidget {
    Q_OBJECT
public:
    explicit TimelineChart(ScenarioModel* model, QWidget* parent = nullptr);
    QCustomPlot* plot() const { return plot_; }
    GanttPlottable* gantt() const { return gantt_; }
    void retranslate();
    void setTheme(const ChartTheme& t);
    int rowCount() const;
    QString tooltipFor(int segment) const;

public slots:
    void refresh();
    void togglePlayback();
    void highlightStage(int stage);

private:
    ScenarioModel* model_;
    QCustomPlot* plot_;
    GanttPlottable* gantt_;
    std::vector<QCPGraph*> legend_entries_;
    QCPItemStraightLine* cursor_ = nullptr;
    QCPItemStraightLine* pinned_step_ = nullptr;
    QCPTextElement* title_ = nullptr;
    QTimer* playback_ = nullptr;
    double cursor_t_ = 0;
    ChartTheme theme_;
};

} // namespace parascope::ui
