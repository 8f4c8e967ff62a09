#pragma once
// The Search tab: every valid strategy for the current model, cluster, sequence length and
// batch on the current GPU count, ranked by tokens/s in a table (apply a row to the scenario
// with one click), and the Pareto front of peak memory vs step time. Runs with progress and
// cancel; exportable like every chart.

#include "chart_view.h"
#include "background.h"
#include "models/search_table_model.h"
#include "search/search.h"

#include <QFutureWatcher>

#include <QColor>

#include <optional>
#include <vector>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class QCPGraph;
class QCPAxisRect;
class QCPColorMap;
class QCPColorScale;
class QCPAbstractItem;
class QCPItemText;
class QCPTextElement;
class QMouseEvent;

namespace parascope::ui {

// What a search hands back to the view: the ranking and, when nothing ranks, why.
struct SearchOutcome {
    SearchResult result;
    std::optional<EmptySearchReason> why;
    std::int64_t gpus = 0;
};

class SearchView : public ChartView {
    Q_OBJECT
public:
    explicit SearchView(ScenarioModel* model, QWidget* parent = nullptr);
    void retranslate();
    // Runs the search on the scenario's GPU count. Interactive: on a worker thread, with progress
    // and Cancel in the tab, the result by signal; otherwise here and now (export, tests).
    void runSearch(bool interactive = true);
    void cancelSearch();
    bool isSearching() const;
    void applyRow(int row);
    SearchTableModel* table() const { return table_; }
    const SearchResult& result() const { return result_; }
    QString summary() const; // the line above the table: counts, and why nothing ranked
    QCPColorMap* heatmap() const { return heat_; }
    const std::vector<HeatCell>& heatCells() const { return heat_cells_; }
    QString heatCaption() const; // the line above the heatmap: what the colours and marks mean

public slots:
    void refresh() override;

protected:
    void themeChanged() override;
    void sizeChanged() override;

private:
    void layOutTable();
    void addParetoGraphs();
    void addHeatmap();
    void draw();
    void drawHeatmap();
    void fitHeatLabels(); // after each layout: a cell's text shows only where it fits
    void hover(QMouseEvent* e);
    void searchFinished();
    void showOutcome(const SearchOutcome& outcome);
    SearchTableModel* table_;
    QTableView* view_;
    QPushButton* run_;
    QPushButton* cancel_button_;
    QProgressBar* progress_;
    QLabel* summary_;
    QFutureWatcher<SearchOutcome>* watcher_;
    CancelToken cancel_;
    QCPGraph* all_ = nullptr;
    QCPGraph* front_ = nullptr;
    QCPGraph* best_ = nullptr;
    QCPAxisRect* heat_rect_ = nullptr;
    QCPColorMap* heat_ = nullptr;
    QCPColorScale* heat_scale_ = nullptr;
    QCPTextElement* heat_title_ = nullptr;
    std::vector<QCPAbstractItem*> heat_items_;
    std::vector<QCPItemText*> heat_texts_; // parallel to heat_cells_
    std::vector<HeatCell> heat_cells_;
    SearchResult result_;
};

} // namespace parascope::ui
