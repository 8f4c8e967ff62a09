#pragma once
// A measured step (a PyTorch profiler trace) beside the simulated step of the scenario being
// edited: the step taken apart the same way on both sides as two stacked bars, and the table
// of every row (io/trace_comparison.h). It stays open and follows the sliders: each new
// Estimate is compared with the same trace again.

#include "estimate/estimate.h"
#include "io/trace_comparison.h"

#include <QDialog>

class QCustomPlot;
class QLabel;
class QTableWidget;

namespace parascope::ui {

class TraceDialog : public QDialog {
    Q_OBJECT
public:
    TraceDialog(QString file, MeasuredTrace trace, QWidget* parent = nullptr);

    // Compares the trace with this scenario's estimate and redraws.
    void showComparison(const Scenario& sc, const Estimate& est);

    const TraceComparison& comparison() const { return comparison_; }
    QTableWidget* table() const { return table_; }
    QCustomPlot* plot() const { return plot_; }

private:
    void fillTable();
    QString file_;
    MeasuredTrace trace_;
    TraceComparison comparison_;
    QLabel* header_;
    QLabel* notes_;
    QCustomPlot* plot_;
    QTableWidget* table_;
};

} // namespace parascope::ui
