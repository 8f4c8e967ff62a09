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
    // The legend wraps to as many columns as the width holds, so a narrow chart never forces the
    // window wider (1024-pixel projectors).
    void resizeEvent(QResizeEvent* e) override;

    ScenarioModel* model_;
    QCustomPlot* plot_;
    ChartTheme theme_;
};

} // namespace parascope::ui
