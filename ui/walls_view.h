#pragma once
// The four walls on screen (estimate/walls.h): a compact gauge strip above the Explorer's charts
// that follows the sliders, and the same four as a bar chart for slides (--export walls). Both
// show each wall as a share of the value that hits it (memory: the GPU's capacity; communication:
// 30 % of the step exposed; efficiency: half the step lost; stability: a fifth of the time
// lost), coloured by verdict, with the explanation and its terms on hover.

#include "chart_view.h"
#include "estimate/walls.h"

#include <QString>
#include <QWidget>

#include <array>
#include <vector>

class QCPAbstractItem;

namespace parascope::ui {

class ScenarioModel;

// One wall as the views show it.
struct WallGauge {
    QString name; // 显存墙 / Memory wall
    QString label; // in the strip, with the reading: 显存墙 23.1 % / Memory 23.1 %
    QString reading; // the wall's value: "23.1 %" (peak/capacity, exposed/step, lost/step, 1 − goodput)
    double share = 0; // value / the value that hits the wall
    WallVerdict verdict = WallVerdict::Ok;
    QString tooltip; // explanation and terms (HTML)
};

std::array<WallGauge, 4> wallGauges(const Walls& walls);
QColor verdictColour(WallVerdict v);

class WallsStrip : public QWidget {
    Q_OBJECT
public:
    explicit WallsStrip(ScenarioModel* model, QWidget* parent = nullptr);
    const std::array<WallGauge, 4>& gauges() const { return gauges_; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public slots:
    void refresh();

protected:
    void paintEvent(QPaintEvent* e) override;
    bool event(QEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    QRect gaugeRect(int i) const;
    ScenarioModel* model_;
    std::array<WallGauge, 4> gauges_;
};

class WallsChart : public ChartView {
    Q_OBJECT
public:
    explicit WallsChart(ScenarioModel* model, QWidget* parent = nullptr);

public slots:
    void refresh() override;

private:
    std::vector<QCPAbstractItem*> items_; // the bars' labels, the wall's line and title
};

} // namespace parascope::ui
