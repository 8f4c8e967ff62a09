#pragma once
// One collective, drawn step by step (comm/collective_steps.h): the GPUs in their nodes, each
// with the buffer's pieces (a cell per piece; darker = reduced from more GPUs), the transfers of
// the current step as arrows coloured by link (NVLink, network, PCIe) with the pieces moving
// along them, and below, what the course compares: the bytes each GPU really sends against the
// textbook's 2·S·n, the time by the α–β model, algbw and busbw as nccl-tests prints them, and
// the same collective by the other algorithms (ring, tree, hierarchical). The links are the
// scenario's cluster's. One chart: the view (collectives_view.h) plays it, --export collective
// puts it on a slide.

#include "chart_view.h"

#include "comm/collective_steps.h"

#include <QStringList>

#include <optional>

namespace parascope::ui {

// Which collective to show. gpus_per_node 0: the cluster's (ranks fill nodes in order); a group
// that spans nodes with fewer GPUs in each (DP across 8 nodes: one per node) says so.
struct CollectiveChoice {
    Collective op = Collective::AllReduce;
    double bytes = 256.0 * 1048576;
    int ranks = 8;
    int gpus_per_node = 0;
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    QString origin; // the communication chart's row it came from ("DP ReduceScatter · gradients · NVLink"), or ""
    QString origin_key; // that row in any language: "group/collective/purpose"
    std::int64_t group_gpus = 0; // that row's group size, when more than `ranks` can show
    // That row's algorithm and time a call, as the engine charged it (comm/explainer_request.h).
    CollectiveAlgorithm charged = CollectiveAlgorithm::Ring;
    double charged_call_s = 0;
};

// The most GPUs drawn one by one; above, the figures alone (still exact).
inline constexpr int kMaxDrawnRanks = 32;

class CollectiveChart : public ChartView {
    Q_OBJECT
public:
    explicit CollectiveChart(ScenarioModel* model, QWidget* parent = nullptr);
    void setChoice(const CollectiveChoice& c);
    void setOriginName(const QString& name); // the same row named in another language (keeps the place)
    const CollectiveChoice& choice() const { return choice_; }
    // The plan on the scenario's cluster; empty (with error()) when the choice has none.
    const std::optional<CollectivePlan>& plan() const { return plan_; }
    QString error() const { return error_; }
    int stepCount() const { return plan_ ? int(plan_->steps.size()) : 0; }
    // Where the animation is: whole steps done plus the fraction of the next (0 … stepCount()).
    void setPosition(double steps_done);
    double position() const { return position_; }
    // The text as drawn (tests, the view's accessible description).
    QString headline() const; // algorithm, operation, GPUs, nodes, size
    QString stepLine() const; // the step at the position: phase, time, the transfers' size
    QStringList figureLines() const; // bytes per GPU vs the textbook, time and bandwidths, the other algorithms
    // The other algorithms' times for the same operation, size and GPUs (those that run it).
    std::vector<std::pair<CollectiveAlgorithm, double>> alternatives() const { return alternatives_; }

public slots:
    void refresh() override;

private:
    ClusterSpec clusterForChoice() const;
    static QStringList engineLines(const CollectivePlan& p);
    // The link's bandwidth ladder, datasheet to busbw (comm/bandwidth_ladder.h), as the CLI prints it.
    static QStringList ladderLines(const CollectivePlan& p, const ClusterSpec& cluster);
    CollectiveChoice choice_;
    std::optional<CollectivePlan> plan_;
    std::vector<std::pair<CollectiveAlgorithm, double>> alternatives_;
    QString error_;
    double position_ = 0;
    class CollectiveDiagram* diagram_ = nullptr;
};

// The algorithms the explainer offers: what NCCL runs, then the teaching forms.
inline constexpr CollectiveAlgorithm kExplainerAlgorithms[]
    = {CollectiveAlgorithm::Ring,         CollectiveAlgorithm::Tree,     CollectiveAlgorithm::Nvls,
       CollectiveAlgorithm::Hierarchical, CollectiveAlgorithm::FlatRing, CollectiveAlgorithm::BinomialTree};

// The names the view and the chart use, in the UI language.
QString collectiveName(Collective op);
QString algorithmName(CollectiveAlgorithm a);

} // namespace parascope::ui
