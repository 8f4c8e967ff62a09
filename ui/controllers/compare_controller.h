#pragma once
// Compare: the scenario pinned as A beside the edited B (Scenario → Pin as A, the table in the
// right panel), and a measured PyTorch profiler trace beside the simulated step (Tools → Compare
// with a measured trace, or a trace dropped on the window). The trace (a large model's step is
// hundreds of MB of JSON) is read on a worker behind a busy indicator; its dialog follows every
// edit of the scenario.

#include "controllers/window_context.h"
#include "controllers/window_part.h"

#include <QObject>
#include <QPointer>

class QAction;
class QMenu;

namespace parascope::ui {

class CompareTable;
class TraceDialog;
struct TraceRead; // a trace read on the worker, or why not

class CompareController : public WindowPart {
    Q_OBJECT
public:
    explicit CompareController(const WindowContext& context);
    CompareTable* table() const { return table_; }
    void addScenarioActions(QMenu* menu); // Pin as A, Clear pin, Export comparison table
    // The A/B table as CSV to `file` (UTF-8 with a byte-order mark, which spreadsheets need to
    // read Chinese); the error, empty when written.
    QString exportTable(const QString& file) const;
    void addToolsActions(QMenu* menu); // Compare with a measured trace
    void retranslate() override;

    // device −1: the trace's one GPU (several: the user is asked which).
    void compareWithTrace(const QString& file, int device = -1);
    TraceDialog* traceDialog() const;

private:
    void showTrace(const QString& file, const TraceRead& read);
    void updateTraceComparison();
    WindowContext context_;
    CompareTable* table_;
    QPointer<TraceDialog> trace_dialog_;
    QAction* pin_ = nullptr;
    QAction* unpin_ = nullptr;
    QAction* export_table_ = nullptr;
    QAction* compare_trace_ = nullptr;
};

} // namespace parascope::ui
