#include "collectives_view.h"

#include "comm/explainer_request.h"
#include "byte_size_spin_box.h"

#include "comm/comm_volume.h"
#include "comm_chart.h"
#include "models/scenario_model.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace parascope::ui {

namespace {
constexpr int kFrameMs = 33; // ~30 frames per second
constexpr double kSecondsPerStep = 0.8; // the pieces take this long to cross a link
constexpr int kScrubPerStep = 20; // slider positions per step
constexpr double kMiB = 1048576.0;
} // namespace

CollectivesView::CollectivesView(ScenarioModel* model, QWidget* parent)
    : QWidget(parent)
    , model_(model)
    , chart_(new CollectiveChart(model, this))
    , op_(new QComboBox)
    , size_(new ByteSizeSpinBox)
    , ranks_(new QSpinBox)
    , per_node_(new QSpinBox)
    , algorithm_(new QComboBox)
    , back_(new QToolButton)
    , play_(new QToolButton)
    , forward_(new QToolButton)
    , rewind_(new QToolButton)
    , scrub_(new QSlider(Qt::Horizontal))
    , timer_(new QTimer(this))
{
    layOutControls();
    setUpControls();
    connectControls();
    // A new cluster (other links, other GPUs per node): the chart re-plans on the estimate; the
    // controls follow the node size.
    connect(model, &ScenarioModel::estimateChanged, this, &CollectivesView::followCluster);
    CollectiveChoice start;
    start.gpus_per_node = std::max(1, model->scenario().cluster.gpus_per_node);
    start.ranks = std::min(8, start.gpus_per_node * 2);
    setChoice(start);
    retranslate();
    connect(model, &ScenarioModel::estimateChanged, this, &CollectivesView::follow);
    follow();
}

void CollectivesView::layOutControls()
{
    for (QLabel*& l : labels_)
        l = new QLabel;
    // Two rows of controls above the chart (narrow enough for a 1024-pixel projector): what to
    // run, then the algorithm and the player.
    auto* what = new QHBoxLayout;
    QWidget* fields[] = {op_, size_, ranks_, per_node_, algorithm_};
    for (int i = 0; i < 4; ++i) {
        labels_[i]->setBuddy(fields[i]);
        what->addWidget(labels_[i]);
        what->addWidget(fields[i], i < 2 ? 2 : 1);
    }
    labels_[4]->setBuddy(algorithm_);
    auto* player = new QHBoxLayout;
    player->addWidget(labels_[4]);
    player->addWidget(algorithm_, 1);
    for (QToolButton* b : {rewind_, back_, play_, forward_})
        player->addWidget(b);
    player->addWidget(scrub_, 2);
    for (QComboBox* c : {op_, algorithm_}) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(8);
    }
    scrub_->setMinimumWidth(60);
    // Explicit minimums: a spin box's own follows its largest value ("1048576.000 MiB"), which
    // would widen the window past a 1024-pixel projector.
    size_->setMinimumWidth(96);
    ranks_->setMinimumWidth(52);
    per_node_->setMinimumWidth(44);
    op_->setMinimumWidth(96);
    algorithm_->setMinimumWidth(96);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(4, 4, 4, 4);
    outer->addLayout(what);
    outer->addLayout(player);
    outer->addWidget(chart_, 1);
}

void CollectivesView::setUpControls()
{
    op_->setObjectName(QStringLiteral("collectives.op"));
    size_->setObjectName(QStringLiteral("collectives.size"));
    ranks_->setObjectName(QStringLiteral("collectives.ranks"));
    per_node_->setObjectName(QStringLiteral("collectives.perNode"));
    algorithm_->setObjectName(QStringLiteral("collectives.algorithm"));
    play_->setObjectName(QStringLiteral("collectives.play"));
    scrub_->setObjectName(QStringLiteral("collectives.scrub"));
    for (Collective op : kExplainedCollectives)
        op_->addItem(QString(), int(op));
    for (CollectiveAlgorithm a : kExplainerAlgorithms)
        algorithm_->addItem(QString(), int(a));
    size_->setRange(1.0 / 1024, 1048576); // 1 KiB … 1 TiB, typed with its unit ("1 GiB")
    ranks_->setRange(2, CollectivePlan::kMaxRanks);
    per_node_->setRange(1, 64);
    timer_->setInterval(kFrameMs);
}

void CollectivesView::connectControls()
{
    connect(timer_, &QTimer::timeout, this, &CollectivesView::tick);
    connect(play_, &QToolButton::clicked, this, &CollectivesView::togglePlay);
    connect(forward_, &QToolButton::clicked, this, &CollectivesView::stepForward);
    connect(back_, &QToolButton::clicked, this, &CollectivesView::stepBack);
    connect(rewind_, &QToolButton::clicked, this, &CollectivesView::rewind);
    connect(scrub_, &QSlider::valueChanged, this, [this](int v) {
        if (!writing_)
            chart_->setPosition(double(v) / kScrubPerStep);
    });
    connect(op_, &QComboBox::currentIndexChanged, this, &CollectivesView::readControls);
    connect(algorithm_, &QComboBox::currentIndexChanged, this, &CollectivesView::readControls);
    connect(size_, &QDoubleSpinBox::valueChanged, this, &CollectivesView::readControls);
    connect(ranks_, &QSpinBox::valueChanged, this, &CollectivesView::readControls);
    connect(per_node_, &QSpinBox::valueChanged, this, &CollectivesView::readControls);
}

void CollectivesView::followCluster()
{
    if (chart_->choice().gpus_per_node > nodeSize()) {
        CollectiveChoice c = chart_->choice();
        c.gpus_per_node = nodeSize();
        setChoice(c);
    } else {
        writeControls();
        syncPosition();
    }
}

bool CollectivesView::showCommEntry(int entry, QString* why)
{
    const auto& comm = model_->estimate().communication;
    if (entry < 0 || entry >= int(comm.size()))
        return false;
    const CommEntry& e = comm[std::size_t(entry)];
    if (showEntry(e, CommChart::entryName(e)))
        return true;
    *why = tr("%1 has no step-by-step form: the Collectives tab shows AllReduce, AllGather, ReduceScatter, "
              "All-to-All and broadcast")
               .arg(CommChart::entryName(e));
    return false;
}

void CollectivesView::follow()
{
    const CollectiveChoice& now = chart_->choice();
    if (now.origin.isEmpty() && followed_)
        return;
    followed_ = true;
    const auto& comm = model_->estimate().communication;
    for (const CommEntry& e : comm)
        if (!now.origin_key.isEmpty() && originKey(e) == now.origin_key) {
            // The row as charged too (DeepEP or not, the cluster's links): the engine's figure
            // beside the explainer's is that row's time a call.
            const double call_s = e.calls_per_step > 0 ? e.time_s / e.calls_per_step : 0;
            if (e.bytes_per_call != now.bytes || e.group_size != now.ranks || e.algorithm != now.charged
                || call_s != now.charged_call_s)
                showEntry(e, CommChart::entryName(e));
            else // keep the animation's place; the name follows the language
                chart_->setOriginName(CommChart::entryName(e));
            return;
        }
    if (const int best = defaultEntry(comm); best >= 0)
        showEntry(comm[std::size_t(best)], CommChart::entryName(comm[std::size_t(best)]));
}

void CollectivesView::retranslate()
{
    const char* names[] = {QT_TR_NOOP("Operation"), QT_TR_NOOP("Size"), QT_TR_NOOP("GPUs"), QT_TR_NOOP("per node"),
                           QT_TR_NOOP("Algorithm")};
    for (int i = 0; i < 5; ++i)
        labels_[i]->setText(tr(names[i]));
    for (int i = 0; i < op_->count(); ++i)
        op_->setItemText(i, collectiveName(Collective(op_->itemData(i).toInt())));
    for (int i = 0; i < algorithm_->count(); ++i)
        if (const auto a = CollectiveAlgorithm(algorithm_->itemData(i).toInt()); teachingOnly(a))
            algorithm_->setItemText(i, tr("%1 (teaching)").arg(algorithmName(a)));
        else
            algorithm_->setItemText(i, algorithmName(a));
    size_->setToolTip(tr("The buffer S, as nccl-tests' size column (for an all-gather: the gathered output)"));
    per_node_->setToolTip(tr("GPUs of the group in each node: a data-parallel group across nodes often has one"));
    rewind_->setText(tr("Start"));
    back_->setText(tr("◀ Step"));
    forward_->setText(tr("Step ▶"));
    play_->setText(playing() ? tr("Pause") : tr("Play"));
    scrub_->setToolTip(tr("Drag to move through the steps"));
    chart_->refresh();
}

void CollectivesView::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(e);
}

void CollectivesView::setChoice(const CollectiveChoice& c)
{
    chart_->setChoice(c);
    writeControls();
    syncPosition();
}

QString CollectivesView::originKey(const CommEntry& e)
{
    return QStringLiteral("%1/%2/%3").arg(int(e.group)).arg(int(e.collective)).arg(int(e.purpose));
}

bool CollectivesView::showEntry(const CommEntry& entry, const QString& name)
{
    const std::optional<ExplainerRequest> r = explainerRequest(entry);
    if (!r)
        return false;
    CollectiveChoice c;
    c.op = r->op;
    c.bytes = r->bytes;
    c.ranks = r->ranks;
    c.group_gpus = r->group_gpus; // above kMaxRanks the chart says it shows fewer
    c.gpus_per_node = r->gpus_per_node;
    c.algorithm = r->algorithm;
    c.charged = r->charged;
    c.charged_call_s = r->charged_call_s;
    c.origin = name;
    c.origin_key = originKey(entry);
    setChoice(c);
    return true;
}

int CollectivesView::defaultEntry(const std::vector<CommEntry>& communication)
{
    int best = -1;
    for (std::size_t i = 0; i < communication.size(); ++i) {
        const CommEntry& e = communication[i];
        if (explainerRequest(e) && (best < 0 || e.time_s > communication[std::size_t(best)].time_s))
            best = int(i);
    }
    return best;
}

void CollectivesView::readControls()
{
    if (writing_)
        return;
    timer_->stop();
    CollectiveChoice c;
    c.op = Collective(op_->currentData().toInt());
    c.bytes = size_->value() * kMiB;
    c.ranks = ranks_->value();
    c.gpus_per_node = per_node_->value();
    c.algorithm = CollectiveAlgorithm(algorithm_->currentData().toInt());
    chart_->setChoice(c); // hand-made: no longer the communication chart's row
    syncPosition();
}

void CollectivesView::writeControls()
{
    writing_ = true;
    const CollectiveChoice& c = chart_->choice();
    const QSignalBlocker b1(op_), b2(size_), b3(ranks_), b4(per_node_), b5(algorithm_);
    op_->setCurrentIndex(std::max(0, op_->findData(int(c.op))));
    algorithm_->setCurrentIndex(std::max(0, algorithm_->findData(int(c.algorithm))));
    size_->setValue(c.bytes / kMiB);
    ranks_->setValue(c.ranks);
    per_node_->setMaximum(nodeSize());
    per_node_->setValue(c.gpus_per_node > 0 ? c.gpus_per_node : nodeSize());
    writing_ = false;
}

void CollectivesView::syncPosition()
{
    writing_ = true;
    const int steps = chart_->stepCount();
    const QSignalBlocker block(scrub_);
    scrub_->setRange(0, steps * kScrubPerStep);
    scrub_->setValue(int(std::lround(chart_->position() * kScrubPerStep)));
    for (QToolButton* b : {rewind_, back_, play_, forward_})
        b->setEnabled(steps > 0);
    play_->setText(playing() ? tr("Pause") : tr("Play"));
    writing_ = false;
}

int CollectivesView::nodeSize() const { return std::max(1, model_->scenario().cluster.gpus_per_node); }

bool CollectivesView::playing() const { return timer_->isActive(); }

void CollectivesView::togglePlay()
{
    if (playing()) {
        timer_->stop();
    } else {
        if (chart_->position() >= chart_->stepCount())
            chart_->setPosition(0);
        timer_->start();
    }
    syncPosition();
}

void CollectivesView::stepForward()
{
    timer_->stop();
    chart_->setPosition(std::floor(chart_->position()) + 1);
    syncPosition();
}

void CollectivesView::stepBack()
{
    timer_->stop();
    const double pos = chart_->position();
    chart_->setPosition(pos > std::floor(pos) ? std::floor(pos) : pos - 1);
    syncPosition();
}

void CollectivesView::rewind()
{
    timer_->stop();
    chart_->setPosition(0);
    syncPosition();
}

void CollectivesView::tick()
{
    const double next = chart_->position() + kFrameMs / 1000.0 / kSecondsPerStep;
    chart_->setPosition(next);
    if (next >= chart_->stepCount())
        timer_->stop();
    syncPosition();
}

} // namespace parascope::ui
