#pragma once
// Communication per parallel group and collective: time on its link per step next to the part
// compute cannot hide, labelled NVLink or network. Hover shows calls, bytes and the formulas.

#include "chart_view.h"

class QCPBars;

namespace parascope::ui {


class CommChart : public ChartView {
    Q_OBJECT
public:
    explicit CommChart(ScenarioModel* model, QWidget* parent = nullptr);
    void retranslate();
    int entryCount() const;
    QString tooltipFor(int entry) const;

public slots:
    void refresh() override;

private:
    QCPBars* link_ = nullptr;
    QCPBars* exposed_ = nullptr;
    QCPBars* pinned_ = nullptr;
};

} // namespace parascope::ui
