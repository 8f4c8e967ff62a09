#pragma once
// The Sweep view: one knob across its values, as line charts sharing the x axis — peak memory
// per GPU against the capacity, step time, and bubble fraction, MFU and the stability wall
// (time lost to failures, 1 − goodput: it rises with the GPU count) — with the breaking
// points marked and named, and what else the knob's rule moves along the axis (the GPU count of a
// PP sweep) on a second tick-label line and in a note. Exportable like every chart.

#include "chart_view.h"
#include "search/sweep.h"

#include <QFutureWatcher>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTimer;
class QCPAxisRect;
class QCPGraph;

namespace parascope::ui {

class SweepView : public ChartView {
    Q_OBJECT
public:
    explicit SweepView(ScenarioModel* model, QWidget* parent = nullptr);
    void retranslate();
    // Sweeps `param` (a scenario path) over `values`; empty values: the knob's sensible values
    // around the current one. On a worker thread, drawn when done; `wait`: here and now (export).
    void runSweep(const QString& param, std::vector<long long> values = {}, bool wait = false);
    bool isSweeping() const;
    const SweepResult& result() const { return result_; }
    QString pointText(int index) const;
    // The note under the chart on what else changes along the axis ("Along this axis the GPU count
    // changes from 32 to 1024 (DP kept at 8)."), in the UI language; empty when nothing else does.
    QString axisNote() const;
    // The second line of a value's tick label: the quantity that changes with it ("512 GPUs"),
    // empty when nothing else changes.
    QString alsoText(const SweepPoint& p) const;

public slots:
    void refresh() override;

protected:
    void themeChanged() override;
    void sizeChanged() override { draw(); } // tick labels thin out to fit the width
    void showEvent(QShowEvent* e) override; // runs a sweep that went stale while hidden

private:
    void draw();
    void layOutControls();
    void addCharts();
    void connectSweeps();
    int tickEvery(int n) const;
    int axisWidth() const; // the lowest chart's width in pixels (an estimate before the first layout)
    void setTickLabels(int every);
    void plotPoints(int every);
    QString markBreaks(int n);
    void noneRuns();

    QComboBox* param_;
    QLineEdit* values_;
    QPushButton* run_;
    QLabel* breaks_;
    QLabel* changes_; // what else changes along the axis
    QCPAxisRect* memory_rect_ = nullptr;
    QCPAxisRect* time_rect_ = nullptr;
    QCPAxisRect* ratio_rect_ = nullptr;
    QCPGraph* peak_ = nullptr;
    QCPGraph* capacity_ = nullptr;
    QCPGraph* oom_ = nullptr; // the peaks of the values that are out of memory and nothing else
    QCPGraph* step_ = nullptr;
    QCPGraph* bubble_ = nullptr;
    QCPGraph* mfu_ = nullptr;
    QCPGraph* stability_ = nullptr; // the stability wall: 1 − goodput (estimate/walls.h)
    SweepResult result_;
    QFutureWatcher<SweepResult>* watcher_;
    QTimer* rerun_; // re-sweeps after the scenario changed, once the sliders rest
    bool stale_ = false; // the scenario changed while the tab was hidden
};

} // namespace parascope::ui
