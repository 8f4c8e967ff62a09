#pragma once
// The Explorer tab: the four walls as a strip above the memory and communication charts, the
// pipeline timeline below them. One of the three charts can fill the page (maximise); the four
// walls as a chart for slides live here too, off screen (File → Export chart → The four walls).

#include "chart_kind.h"
#include "chart_style.h"

#include <QWidget>

#include <optional>

namespace parascope::ui {

class ChartView;
class CommChart;
class MemoryChart;
class ScenarioModel;
class TimelineChart;
class WallsChart;
class WallsStrip;

class ExplorerPage : public QWidget {
    Q_OBJECT
public:
    explicit ExplorerPage(ScenarioModel* model, QWidget* parent = nullptr);
    MemoryChart* memory() const { return memory_; }
    CommChart* comm() const { return comm_; }
    TimelineChart* timeline() const { return timeline_; }
    WallsStrip* wallsStrip() const { return walls_strip_; }
    WallsChart* wallsChart() const { return walls_chart_; }
    // The memory, communication or timeline chart alone (another kind: all three); nullopt: all.
    void maximise(std::optional<ChartKind> which);
    std::optional<ChartKind> maximised() const { return maximised_; }
    void setTheme(const ChartTheme& theme);
    void retranslate();

signals:
    // A chart was double-clicked: the window maximises it (or brings the others back).
    void chartDoubleClicked(ChartKind which);

private:
    MemoryChart* memory_;
    CommChart* comm_;
    TimelineChart* timeline_;
    WallsStrip* walls_strip_;
    WallsChart* walls_chart_;
    QWidget* upper_ = nullptr; // memory and communication side by side
    std::optional<ChartKind> maximised_;
};

} // namespace parascope::ui
