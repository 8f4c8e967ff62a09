#pragma once
// ScenarioModel: owns the Scenario the user edits, re-evaluates it when it changes (coalesced:
// a burst of slider moves evaluates once, in the next event-loop pass) and hands the Estimate to
// the views. Also holds the pinned comparison scenario "A" and the undo history: every change
// of the scenario is one step back (a burst of edits evaluated together is one step, and so is
// a slider drag held as a gesture).

#include "estimate/estimate.h"
#include "types/scenario.h"

#include <QObject>

#include <functional>
#include <optional>
#include <vector>

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

    // Undo history (Ctrl+Z / Ctrl+Shift+Z). Between beginGesture() and endGesture() (a slider
    // held down) every edit joins one step. clearHistory() forgets it (the app's first scenario).
    bool canUndo() const { return !undo_.empty(); }
    bool canRedo() const { return !redo_.empty(); }
    void undo();
    void redo();
    void beginGesture();
    void endGesture();
    void clearHistory();

signals:
    void scenarioChanged();
    void estimateChanged();
    void pinChanged();
    void historyChanged();

private:
    void evaluateNow();
    void beginStep(); // remembers the scenario before the first edit of a step
    void endStep(); // the step goes on the undo stack when it changed anything
    void restore(std::vector<Scenario>& from, std::vector<Scenario>& to);

    Scenario scenario_;
    Estimate estimate_;
    std::optional<std::pair<Scenario, Estimate>> pinned_;
    bool pending_ = false;
    double last_ms_ = 0;
    std::vector<Scenario> undo_, redo_;
    std::optional<Scenario> step_start_;
    bool gesture_ = false;
};

} // namespace parascope::ui
