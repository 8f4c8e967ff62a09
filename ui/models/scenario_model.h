#pragma once
// ScenarioModel: owns the Scenario the user edits, re-evaluates it when it changes (coalesced:
// a burst of slider moves evaluates once, in the next event-loop pass) and hands the Estimate to
// the views. Also holds the pinned comparison scenario "A".

#include "estimate/estimate.h"
#include "types/scenario.h"

#include <QObject>

#include <functional>
#include <optional>

namespace parascope::ui {

class ScenarioModel : public QObject {
    Q_OBJECT
public:
    explicit ScenarioModel(QObject* parent = nullptr);

    const Scenario& scenario() const { return scenario_; }
    const Estimate& estimate() const { return estimate_; }

    void setScenario(const Scenario& s);
    // Applies an edit and schedules one re-evaluation.
    void edit(const std::function<void(Scenario&)>& change);
    // Evaluates now if an evaluation is pending (tests, export).
    void flush();

    // Compare: pin the current scenario as A; the edited one is B.
    void pin();
    void unpin();
    bool hasPin() const { return pinned_.has_value(); }
    const Scenario* pinnedScenario() const { return pinned_ ? &pinned_->first : nullptr; }
    const Estimate* pinnedEstimate() const { return pinned_ ? &pinned_->second : nullptr; }

    double lastEvaluationMs() const { return last_ms_; }

signals:
    void scenarioChanged();
    void estimateChanged();
    void pinChanged();

private:
    void evaluateNow();

    Scenario scenario_;
    Estimate estimate_;
    std::optional<std::pair<Scenario, Estimate>> pinned_;
    bool pending_ = false;
    double last_ms_ = 0;
};

} // namespace parascope::ui
