#pragma once
// Memory per GPU of each pipeline stage: stacked bars (weights, gradients, optimizer states,
// activations, other) against the GPU capacity line; stages that run out of memory are marked.
// Hover shows each term's value, formula with the values put in, and source. With a pinned
// scenario A, its per-stage totals are overlaid.

#include "chart_view.h"

#include "estimate/memory_over_time.h"

#include <QRectF>
#include <QStringList>

#include <vector>

class QFontMetrics;
class QCPAbstractItem;
class QCPBars;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemRect;
class QCPItemText;

namespace parascope::ui {

// The pixels a text item covers once its axes have their ranges (labels that must not overlap).
QRectF textItemRect(const QCPItemText* t);

class MemoryChart : public ChartView {
    Q_OBJECT
public:
    // Above this many stages over the capacity, on bars thinner than a line, one label counts them.
    static constexpr int kMaxMarkedStages = 64;
    explicit MemoryChart(ScenarioModel* model, QWidget* parent = nullptr);
    void retranslate();

protected:
    void sizeChanged() override { refresh(); } // totals and the axis title fit the bars' width

public:
    void highlightStage(int stage);
    // The timeline's playback cursor: each stage's memory at that instant (estimate/
    // memory_over_time.h), drawn as an outline over its bar; t < 0 hides it.
    void setCursorTime(double t_s);
    std::vector<double> cursorBytes() const; // per stage, at the cursor (empty without one)
    int barCount() const; // stages drawn (for tests)
    QStringList barLabels() const; // the texts on the bars (totals, OOM), stage by stage
    QString tooltipFor(int component, int stage) const;

public slots:
    void refresh() override;

private:
    QCPBars* bars_[5] = {};
    QCPBars* pinned_ = nullptr;
    QCPItemStraightLine* capacity_ = nullptr;
    QCPItemText* capacity_label_ = nullptr;
    QCPItemRect* highlight_ = nullptr;
    int highlighted_ = -1;
    // Each bar's total above it (when the bars are wide enough for it), and a red frame and
    // "OOM" on the bars over capacity: remade on every refresh.
    std::vector<QCPAbstractItem*> marks_;
    QCPBars* now_ = nullptr;
    std::vector<std::vector<MemoryPoint>> lanes_; // memory over the step, per stage
    double cursor_t_ = -1;
    void drawCursor();
    void setStageBars(const MemoryReport& m, double shift, bool compare);
    void setStageTicks(int n);
    void setPinnedTotals(const Estimate* a, double& top);
    void placeCapacity(int n, double cap);
    bool markBars(const MemoryReport& m, double shift, bool compare);
    void markOomSummary(int over, int n, const QFontMetrics& fm);
    void markPeak(const MemoryReport& m, const QFontMetrics& fm);
    QCPItemText* cornerLabel(const QColor& color, Qt::Alignment side);
    void fitAxes(int n, double top, bool upright);
    void markPinnedTotals(const Estimate& a);
    void clearCapacityLabel(int n); // memory_chart_capacity.cpp
    bool barUnder(const QRectF& r) const;
};

} // namespace parascope::ui
