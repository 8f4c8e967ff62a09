#pragma once
// What leaves the window: a chart for slides (File → Export chart, with its context line, the
// sweep's breaking points under it, the timeline as the asked view: timed or slot grid), the
// memory chart on the clipboard, the report as JSON, the exercise answers as CSV and the step as
// a Chrome trace.

#include "chart_kind.h"
#include "chart_style.h"
#include "controllers/window_context.h"
#include "controllers/window_part.h"

#include <QObject>
#include <QSize>

#include <functional>
#include <utility>
#include <vector>

class QAction;
class QMenu;

namespace parascope::ui {

class ChartView;
class CourseController;
class SweepView;
class TimelineChart;

// The window's charts and what exporting them needs besides.
struct ExportSources {
    std::function<ChartView*(ChartKind)> chart; // the view that draws a kind
    TimelineChart* timeline = nullptr; // drawn as the asked view (timed or slot grid)
    SweepView* sweep = nullptr; // its breaking points go under the chart
    CourseController* course = nullptr; // the exercise answers
    std::function<ChartTheme()> theme; // the window's theme (presenter mode's is larger)
};

class ExportController : public WindowPart {
    Q_OBJECT
public:
    ExportController(const WindowContext& context, ExportSources sources);
    void addFileActions(QMenu* menu); // Export chart ▸, Copy, Export report, exercises, trace
    void retranslate() override;

    // context: the scenario's title line above the chart (contextLine), on by default.
    QString exportChartTo(ChartKind which, const QString& file, QSize size, double scale, bool context = true);

private:
    void exportChartDialog(ChartKind which);
    void exportFile(const QString& title, const QString& filter, const QString& ext,
                    const std::function<QString(const QString&)>& write);
    WindowContext context_;
    ExportSources sources_;
    QMenu* menu_ = nullptr;
    std::vector<std::pair<ChartKind, QAction*>> charts_;
    QAction* copy_ = nullptr;
    QAction* report_ = nullptr;
    QAction* exercises_ = nullptr;
    QAction* trace_ = nullptr;
};

} // namespace parascope::ui
