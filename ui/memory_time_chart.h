#pragma once
// Memory over the step (tab 显存随时间): each pipeline rank's memory in use as the simulated
// step runs (estimate/memory_over_time.h) — the model states as a floor, activations rising with
// every forward and falling when their backward is done — against the GPU's capacity, with the
// timeline's playback cursor. "Compare with" draws rank 0 under GPipe or 1F1B on the same axes:
// GPipe fills up with every microbatch before the first backward, 1F1B holds at most p, the
// picture that explains why 1F1B exists. "Show: allocated vs reserved" is the memory-management
// view (estimate/allocator_view.h): the peak stage's bytes in use and what the caching allocator
// keeps reserved, with the allocator's choice (caching or expandable_segments, the scenario's
// overheads.allocator) and CPU offload's PCIe copies. Exportable (--export memory-time).

#include "chart_view.h"

#include "estimate/allocator_view.h"
#include "estimate/memory_over_time.h"
#include "types/parallel_config.h"

#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;

namespace parascope::ui {

class MemoryTimeChart : public ChartView {
    Q_OBJECT
public:
    explicit MemoryTimeChart(ScenarioModel* model, QWidget* parent = nullptr);
    void retranslate();
    // The schedule drawn beside the scenario's for rank 0 (nullopt: none).
    void setCompare(std::optional<ScheduleKind> kind);
    std::optional<ScheduleKind> compare() const { return compare_; }
    // The memory-management view: allocated vs reserved of the peak stage.
    void setAllocatorView(bool on);
    bool allocatorViewShown() const { return allocator_mode_; }
    const AllocatorView& allocatorView() const { return allocator_; }
    // What is drawn (tests): per rank the curve's points, the compared rank 0, the headline.
    const std::vector<std::vector<MemoryPoint>>& lanes() const { return lanes_; }
    const std::vector<MemoryPoint>& compareLane() const { return compare_lane_; }
    QString headline() const;
    // The ranks whose curves are drawn: all up to kMaxDrawnRanks, else that many evenly spaced
    // (the first and the last among them); of a sampled timeline, the ranks it keeps.
    static constexpr int kMaxDrawnRanks = 64;
    static std::vector<int> drawnRanks(int ranks, const std::vector<int>& sampled);
    const std::vector<int>& drawn() const { return drawn_; }

public slots:
    void refresh() override;
    void setCursorTime(double t_s); // the timeline's playback cursor; t < 0 hides it

protected:
    void showEvent(QShowEvent* e) override; // draws a comparison that went stale while hidden
    void sizeChanged() override; // the same before an export lays the chart out

private:
    void draw();
    void drawAllocator(const Estimate& e);
    QString allocatorHeadline() const;
    static QString partialNote(const Estimate& e);
    void finishPlot(const Estimate& e, double end, double top, const QString& headline);
    void catchUp();

    QComboBox* compare_box_;
    std::vector<QCPGraph*> rank_graphs_;
    QCPGraph* compare_graph_ = nullptr;
    QCPGraph* capacity_ = nullptr;
    QCPItemStraightLine* cursor_ = nullptr;
    std::optional<ScheduleKind> compare_;
    std::vector<std::vector<MemoryPoint>> lanes_;
    std::vector<int> drawn_; // ranks drawn, ascending
    std::vector<MemoryPoint> compare_lane_;
    double compare_inflight_ = 0; // rank 0's most microbatches in flight under the compared schedule
    // The compared schedule costs a second evaluation: a hidden tab skips it until it is shown or
    // exported, so slider moves on the other tabs do not pay for it.
    bool compare_stale_ = false;
    QLabel* caption_ = nullptr;
    QComboBox* mode_box_ = nullptr; // every stage in use | allocated vs reserved
    QComboBox* allocator_box_ = nullptr; // overheads.allocator
    QLabel* allocator_caption_ = nullptr;
    bool allocator_mode_ = false;
    AllocatorView allocator_;
    QCPGraph* allocated_graph_ = nullptr;
    QCPGraph* reserved_graph_ = nullptr;
};

} // namespace parascope::ui
