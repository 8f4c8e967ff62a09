#pragma once
// ChartView: what every chart of the main window shares — a QCustomPlot filling the widget, the
// ScenarioModel it draws, its theme, and a refresh when the estimate changes.

#include "chart_style.h"

#include <QWidget>

class QCustomPlot;
class QCPItemText;

namespace parascope::ui {

class ScenarioModel;

class ChartView : public QWidget {
    Q_OBJECT
public:
    ChartView(ScenarioModel* model, QWidget* parent);
    QCustomPlot* plot() const { return plot_; }
    void setTheme(const ChartTheme& t);
    const ChartTheme& theme() const { return theme_; }
    // What the chart says instead of data when the layout is impossible; "" when it draws data.
    QString invalidText() const;
    // Lays the chart out for an export of `size` (tick counts, rows and labels that fit that
    // size), or back for the screen when `size` is empty.
    void layoutFor(QSize size);

signals:
    // A double-click anywhere on the chart (the main window maximises it).
    void doubleClicked();

public slots:
    virtual void refresh() = 0;

protected:
    // Called after a theme change, before the refresh (fonts of extra elements).
    virtual void themeChanged() { }
    // The chart lays out for the size it is given: the legend wraps to as many columns as the
    // width holds (measured from its widest entry), and every axis with numeric ticks gets as many
    // ticks as fit their labels, so a narrow chart never forces the window wider or runs its tick
    // labels together (1024-pixel projectors). Then sizeChanged() lets a chart re-lay what depends
    // on its pixels (rows that fit, labels that fit).
    bool eventFilter(QObject* watched, QEvent* e) override;
    void relayout();
    virtual void sizeChanged() { }
    // Tick counts of the numeric axes for the current size (also after a refresh: label widths
    // follow the values).
    void fitTicks();
    // Legend columns for a chart of this size (the window's, or an export's), and where the
    // legend goes: below the plot, or beside it on a short, wide chart that allows it.
    // Both return whether the legend moved (the axis rect then needs a new layout).
    bool fitLegend(QSize chart);
    bool placeLegend(bool beside);
    // An impossible layout (TP = 64 on 32 heads, typed or loaded) has no memory, communication
    // or timeline to draw: the chart hides its data and says what is wrong. Charts call this
    // first in refresh() and stop when it returns true.
    bool showInvalid();
    // Replots now when the chart is on screen; a hidden chart (another tab) replots when it is
    // shown — or laid out for an export — so slider moves do not draw what nobody sees.
    void replotIfShown();
    void showEvent(QShowEvent* e) override;

    ScenarioModel* model_;
    QCustomPlot* plot_;
    ChartTheme theme_;
    bool relayout_pending_ = false;
    bool replot_pending_ = false; // a replot skipped while hidden
    bool legend_beside_allowed_ = false; // a chart with one axis rect and a legend row below it
    QCPItemText* invalid_ = nullptr;
};

} // namespace parascope::ui
