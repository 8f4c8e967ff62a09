#pragma once
// The "What breaks" panel: every diagnostic with its severity icon, message and suggestion;
// clicking one highlights the stage or the knob it concerns.

#include <QWidget>

class QLabel;
class QListView;

namespace parascope::ui {

class DiagnosticsModel;
class ScenarioModel;

class DiagnosticsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosticsPanel(ScenarioModel* model, QWidget* parent = nullptr);
    DiagnosticsModel* diagnostics() const { return diagnostics_; }
    QListView* view() const { return view_; }
    void retranslate();

signals:
    void stageActivated(int stage);
    void knobActivated(const QString& path);

private:
    void refresh();
    ScenarioModel* model_;
    DiagnosticsModel* diagnostics_;
    QListView* view_;
    QLabel* header_;
};

} // namespace parascope::ui
