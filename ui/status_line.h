#pragma once
// The status line's key figures: step, tokens/s, MFU and peak memory (with the pinned scenario
// A's deltas), "OUT OF MEMORY" when it does not fit, and for an impossible layout only what is
// wrong (no step time or throughput to quote).

#include "estimate/estimate.h"
#include "types/scenario.h"

#include <QLabel>
#include <QString>

#include <functional>

namespace parascope::ui {

class ScenarioModel;

QString statusLine(const Scenario& sc, const Estimate& e, const Estimate* pinned);

// The status bar's line: follows the estimate; while `hidden` says so (an exercise waits for the
// student's prediction) it says the numbers are hidden instead. Never widens the window: on a
// narrow screen the line is cut, its tooltip whole.
class StatusLabel : public QLabel {
    Q_OBJECT
public:
    StatusLabel(ScenarioModel* model, std::function<bool()> hidden);
    void refresh();

private:
    ScenarioModel* model_;
    std::function<bool()> hidden_;
};

} // namespace parascope::ui
