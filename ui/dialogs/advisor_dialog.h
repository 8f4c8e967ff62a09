#pragma once
// Tools → Advisor: the course's decision procedure (search/decision.h) on the scenario being
// edited — does it fit with DP, then ZeRO; TP inside a node, PP across; communication per group;
// balance and bubble — each step with its verdict, what it found and why, then the layout it
// arrives at beside the strategy search's best, each one button away from the sliders. Worked
// out on a worker thread; it stays open and follows the scenario's model, cluster and batch. On
// top, the report card of the layout on screen beside both (search/report_card.h), following
// every slider.

#include "search/decision.h"
#include "search/report_card.h"

#include <QDialog>
#include <QFutureWatcher>

class QLabel;
class QPushButton;
class QTextBrowser;
class QTimer;

namespace parascope::ui {

class ScenarioModel;

class AdvisorDialog : public QDialog {
    Q_OBJECT
public:
    explicit AdvisorDialog(ScenarioModel* model, QWidget* parent = nullptr);
    bool running() const;
    const DecisionResult& result() const { return result_; }
    QString text() const; // what the browser shows, as plain text (tests)

public slots:
    void recompute(); // now, for the model's scenario
    void applyLayout(); // the procedure's scenario replaces the edited one
    void applySearchBest();

protected:
    void changeEvent(QEvent* e) override;

private:
    void render();
    static QString cardHtml(const ReportCard& c);
    void scenarioChanged(); // debounced: only what the procedure reads re-runs it
    ScenarioModel* model_;
    QLabel* status_;
    QTextBrowser* browser_;
    QPushButton* apply_;
    QPushButton* apply_best_;
    QFutureWatcher<DecisionResult>* watcher_;
    QTimer* debounce_;
    DecisionResult result_;
    CardReferences card_references_; // result_'s layouts marked once: a slider move evaluates nothing
    bool have_result_ = false;
    bool pending_ = false; // a run whose result has not been shown yet
    std::string inputs_; // the model, cluster, GPUs and batch the result is for
};

} // namespace parascope::ui
