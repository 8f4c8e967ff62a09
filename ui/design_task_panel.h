#pragma once
// A lesson step's design task (lessons/design_task.h), in the right panel under the lesson text:
// the task, then "Hand in my layout". The charts stay in view — the student designs with the
// sliders — and the Advisor waits (Tools → Advisor is off) until the layout is handed in. The
// grade is the report card's, wall by wall, against the better of the Advisor's and the search's
// layouts on the task's GPUs, and the goal in days; then both references are revealed with their
// own days. The references are worked out on a worker thread when the step loads (the search on
// a thousand GPUs takes a moment), so handing in grades the layout on screen at once, or as soon
// as they are back.

#include "lessons/design_task.h"
#include "search/decision.h"

#include <QFutureWatcher>
#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;

namespace parascope::ui {

class ScenarioModel;

class DesignTaskPanel : public QWidget {
    Q_OBJECT
public:
    explicit DesignTaskPanel(ScenarioModel* model, QWidget* parent = nullptr);
    // The step's design task (none: the panel hides).
    void setStep(const Lesson* lesson, int step);
    bool pending() const { return pending_; } // a task waiting for its layout
    bool busy() const { return !references_; } // the references are still being worked out
    const std::optional<DesignGrade>& grade() const { return grade_; }
    QString resultText() const; // what the panel shows after handing in, as plain text (tests)
    void retranslate();

public slots:
    void handIn(); // grades the layout on screen (when the references are back)

signals:
    void pendingChanged(bool pending);

private:
    void referencesReady();
    void showGrade();
    ScenarioModel* model_;
    const Lesson* lesson_ = nullptr;
    int step_ = -1;
    bool pending_ = false;
    bool hand_in_waiting_ = false; // handed in before the references were back
    std::optional<CardReferences> references_;
    std::optional<DesignGrade> grade_;
    QFutureWatcher<DecisionResult>* watcher_;
    QLabel* title_;
    QLabel* prompt_;
    QLabel* result_;
    QPushButton* hand_in_;
};

} // namespace parascope::ui
