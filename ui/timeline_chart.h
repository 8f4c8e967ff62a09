#pragma once
// The pipeline timeline (Gantt) of the simulated step: one row per pipeline rank with its
// compute and communication lanes, ops coloured by type, microbatch numbers where they fit;
// zoom and drag on the time axis only; hover names the op; a playback cursor (playback_bar.h:
// play, pause, scrub, speed) walks through the step so a class can watch microbatches flow.

#include "chart_view.h"

#include "estimate/estimate.h"
#include "types/scenario.h"

class QCPGraph;
class QCPItemStraightLine;
class QCPTextElement;
class QTimer;

namespace parascope::ui {

class GanttPlottable;
class PlaybackBar;

class TimelineChart : public ChartView {
    Q_OBJECT
public:
    explicit TimelineChart(ScenarioModel* model, QWidget* parent = nullptr);
    GanttPlottable* gantt() const { return gantt_; }
    void retranslate();
    int rowCount() const;
    QString title() const; // the line above the Gantt (schedule, step, both bubble figures)
    QString tooltipFor(int segment) const;
    PlaybackBar* playback() const { return playback_; }
    // The slot grid (schedule/slot_grid.h) instead of the timed Gantt: one cell per forward, the
    // schedule readable at any number of microbatches.
    void setSlotGrid(bool on);
    bool slotGrid() const { return slot_grid_; }
    // The ranks given a row: empty while every rank has one; else at most `max_rows` of the
    // timeline's ranks (of `sampled`, when the engine kept a sample), evenly spaced, the first
    // and the last among them.
    static std::vector<int> ranksToDraw(int ranks, const std::vector<int>& sampled, int max_rows);
    const std::vector<int>& drawnRanks() const { return drawn_ranks_; }

signals:
    // The playback cursor's time in the step; negative when it goes away.
    void cursorMoved(double t_s);

public slots:
    void refresh() override;
    void togglePlayback();
    void highlightStage(int stage);

protected:
    void themeChanged() override;
    void sizeChanged() override { refresh(); } // rank labels thin out to fit the height

private:
    GanttPlottable* gantt_;
    std::vector<QCPGraph*> legend_entries_;
    QCPItemStraightLine* cursor_ = nullptr;
    int a_rows_ = 0; // compare: A's ranks and a blank row, above B's
    std::vector<int> drawn_ranks_; // the scenario's ranks with a row (empty: all)
    bool slot_grid_ = false;
    bool refreshSlotGrid(); // false: no grid for this scenario (the timed Gantt is drawn)
    QString headline(const Scenario& sc, const Estimate& e) const;
    void setGanttSegments(const Estimate& e, const Estimate* a, int rows);
    void showPresentTypes(const Timeline& tl, const Timeline* a_tl);
    void labelRanks(int rows, bool compare);
    QCPTextElement* title_ = nullptr;
    PlaybackBar* playback_ = nullptr;
};

} // namespace parascope::ui
