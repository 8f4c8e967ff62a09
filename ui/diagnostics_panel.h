#pragma once
// The "What breaks" panel: every diagnostic with its severity icon, message and suggestion;
// clicking one highlights the stage or the knob it concerns. Under it, the changes that fix
// them, each evaluated by the engine (core/search/advice.h, computed off the GUI thread):
// double-click one to apply it. When nothing breaks the panel is one line and gives its room to
// the lesson text.

#include "background.h"
#include "search/advice.h"

#include <QFutureWatcher>
#include <QListWidget> // adviceView() converts to the QWidget it is
#include <QWidget>

class QLabel;
class QListView;
class QTimer;

namespace parascope::ui {

class DiagnosticsModel;
class ScenarioModel;

class DiagnosticsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosticsPanel(ScenarioModel* model, QWidget* parent = nullptr);
    DiagnosticsModel* diagnostics() const { return diagnostics_; }
    QListView* view() const { return view_; }
    QListWidget* adviceView() const { return advice_view_; }
    const std::vector<Advice>& advice() const { return advice_; }
    bool adviceRunning() const { return watcher_->isRunning() || debounce_pending_; }
    void applyAdvice(int row); // sets the scenario to the advice's
    void retranslate();

signals:
    void stageActivated(int stage);
    void knobActivated(const QString& path);

private:
    void refresh();
    void startAdvice();
    void showAdvice();
    ScenarioModel* model_;
    DiagnosticsModel* diagnostics_;
    QListView* view_;
    QLabel* header_;
    QLabel* advice_header_;
    QListWidget* advice_view_;
    QTimer* debounce_;
    bool debounce_pending_ = false;
    QFutureWatcher<AdviceList>* watcher_;
    CancelToken cancel_;
    std::vector<Advice> advice_;
};

} // namespace parascope::ui
