#pragma once
// The Collectives tab: pick an operation, a size, a GPU count, GPUs per node and an algorithm
// (or click a row of the communication chart to open that collective with its real size and
// group), then watch it step by step: play, pause, step forward and back, scrub. The chart
// (collective_chart.h) draws the GPUs, the pieces, the transfers per link and the figures.

#include "collective_chart.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QSpinBox;
class QTimer;
class QToolButton;

namespace parascope {
struct CommEntry;
}

namespace parascope::ui {

class ScenarioModel;

class CollectivesView : public QWidget {
    Q_OBJECT
public:
    explicit CollectivesView(ScenarioModel* model, QWidget* parent = nullptr);
    CollectiveChart* chart() const { return chart_; }
    void setChoice(const CollectiveChoice& c);
    // One call of a communication-chart entry: its collective, its size (bytes per call), its
    // group's GPUs and how many share a node, hierarchical when an all-reduce spans nodes (as
    // NCCL runs it), else ring; a send/recv or reduce has no step-by-step form (false).
    bool showEntry(const CommEntry& entry, const QString& name);
    // Row `entry` of the estimate's communication (the communication chart's row): shown (true),
    // or false with why it cannot be (no such row: why stays empty).
    bool showCommEntry(int entry, QString* why);
    // The entry the view opens on: the scenario's longest collective that has a step-by-step form.
    static int defaultEntry(const std::vector<CommEntry>& communication);
    static QString originKey(const CommEntry& e); // CollectiveChoice::origin_key of an entry
    // The estimate changed (or the language): a view opened from a row of the communication chart
    // (or on the default row at the start) keeps showing that row of the new estimate, else the
    // longest collective; one the user set up by hand stays.
    void follow();
    bool playing() const;
    void retranslate();

public slots:
    void togglePlay();
    void stepForward();
    void stepBack();
    void rewind();

protected:
    void changeEvent(QEvent* e) override;

private:
    void readControls(); // controls → chart
    void writeControls(); // chart's choice → controls (no signal loops)
    void syncPosition(); // the slider and buttons follow the chart's position
    void tick();
    int nodeSize() const; // the cluster's GPUs per node
    void followCluster(); // a new cluster: the controls follow its node size
    void layOutControls(); // the two rows of controls above the chart
    void setUpControls(); // object names, items and ranges
    void connectControls(); // the player and the controls drive the chart
    ScenarioModel* model_;
    CollectiveChart* chart_;
    QComboBox* op_;
    QDoubleSpinBox* size_;
    QSpinBox* ranks_;
    QSpinBox* per_node_;
    QComboBox* algorithm_;
    QToolButton* back_;
    QToolButton* play_;
    QToolButton* forward_;
    QToolButton* rewind_;
    QSlider* scrub_;
    QLabel* labels_[5] = {};
    QTimer* timer_;
    bool writing_ = false;
    bool followed_ = false; // follow() has shown a row once
};

} // namespace parascope::ui
