#include "models/scenario_model.h"

#include "estimate/evaluate.h"
#include "io/scenario_json.h"

#include <QElapsedTimer>
#include <QTimer>

namespace parascope::ui {

ScenarioModel::ScenarioModel(QObject* parent)
    : QObject(parent)
{ }

namespace {

constexpr std::size_t kHistoryDepth = 200; // steps back; the oldest go first

} // namespace

void ScenarioModel::setScenario(const Scenario& s)
{
    beginStep();
    scenario_ = s;
    emit scenarioChanged();
    pending_ = true;
    evaluateNow();
}

void ScenarioModel::edit(const std::function<void(Scenario&)>& change)
{
    beginStep();
    change(scenario_);
    emit scenarioChanged();
    if (!pending_) {
        pending_ = true;
        QTimer::singleShot(0, this, &ScenarioModel::evaluateNow);
    }
}

void ScenarioModel::flush()
{
    if (pending_)
        evaluateNow();
}

void ScenarioModel::evaluateNow()
{
    if (!pending_)
        return;
    pending_ = false;
    endStep();
    QElapsedTimer timer;
    timer.start();
    estimate_ = evaluate(scenario_);
    last_ms_ = double(timer.nsecsElapsed()) / 1e6;
    emit estimateChanged();
}

void ScenarioModel::beginStep()
{
    if (!step_start_)
        step_start_ = scenario_;
}

void ScenarioModel::endStep()
{
    if (gesture_ || !step_start_)
        return;
    // A step that changed nothing (the same combo item chosen again) is not one to undo.
    if (scenarioToJson(*step_start_) != scenarioToJson(scenario_)) {
        undo_.push_back(std::move(*step_start_));
        if (undo_.size() > kHistoryDepth)
            undo_.erase(undo_.begin());
        redo_.clear();
        emit historyChanged();
    }
    step_start_.reset();
}

void ScenarioModel::beginGesture() { gesture_ = true; }

void ScenarioModel::endGesture()
{
    gesture_ = false;
    if (!pending_)
        endStep();
}

void ScenarioModel::clearHistory()
{
    flush();
    undo_.clear();
    redo_.clear();
    step_start_.reset();
    emit historyChanged();
}

void ScenarioModel::restore(std::vector<Scenario>& from, std::vector<Scenario>& to)
{
    gesture_ = false;
    flush(); // an edit still pending is a step of its own
    if (from.empty())
        return;
    to.push_back(scenario_);
    scenario_ = std::move(from.back());
    from.pop_back();
    emit scenarioChanged();
    pending_ = true;
    evaluateNow();
    emit historyChanged();
}

void ScenarioModel::undo() { restore(undo_, redo_); }
void ScenarioModel::redo() { restore(redo_, undo_); }

void ScenarioModel::pin()
{
    flush();
    pinned_ = std::make_pair(scenario_, estimate_);
    emit pinChanged();
    emit estimateChanged();
}

void ScenarioModel::unpin()
{
    pinned_.reset();
    emit pinChanged();
    emit estimateChanged();
}

} // namespace parascope::ui
