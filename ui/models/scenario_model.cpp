#include "models/scenario_model.h"

#include "estimate/evaluate.h"

#include <QElapsedTimer>
#include <QTimer>

namespace parascope::ui {

ScenarioModel::ScenarioModel(QObject* parent)
    : QObject(parent)
{ }

void ScenarioModel::setScenario(const Scenario& s)
{
    scenario_ = s;
    emit scenarioChanged();
    pending_ = true;
    evaluateNow();
}

void ScenarioModel::edit(const std::function<void(Scenario&)>& change)
{
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
    QElapsedTimer timer;
    timer.start();
    estimate_ = evaluate(scenario_);
    last_ms_ = double(timer.nsecsElapsed()) / 1e6;
    emit estimateChanged();
}

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
