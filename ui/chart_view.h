#pragma once
// ChartView: what every chart of the main window shares — a QCustomPlot filling the widget, the
// ScenarioModel it draws, its theme, and a refresh when the estimate changes.

#include "chart_style.h"

#include <QWidget>

class QCustomPlot;

namespace parascope::ui {

class ScenarioModel;

class ChartView : public QWidget {
    Q_OBJECT
public:
    ChartView(ScenarioModel* model, QWidget* parent);
    QCustomPlot* plot() const { return plot_; }
    void setTheme(const ChartTheme& t);
    const ChartTheme& theme() const { return theme_; }

public slots:
    virtual void refresh() = 0;

protected:
    // Called after a theme change, before the refresh (fonts of extra elements).
    virtual void themeChanged() {}

    ScenarioModel* model_;
    QCustomPlot* plot_;
    ChartTheme theme_;
};

} // namespace parascope::ui
