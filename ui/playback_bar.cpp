#include "playback_bar.h"

#include "format.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QTimer>
#include <QToolButton>

#include <algorithm>

namespace parascope::ui {

namespace {
constexpr int kFrameMs = 33; // ~30 frames per second
constexpr double kStepAtOneX_s = 10; // 1× plays the whole step in 10 s
constexpr int kScrubSteps = 1000;
const double kSpeeds[] = {0.25, 0.5, 1, 2, 4};
} // namespace

PlaybackBar::PlaybackBar(QWidget* parent)
    : QWidget(parent)
    , play_(new QToolButton)
    , stop_(new QToolButton)
    , scrub_(new QSlider(Qt::Horizontal))
    , speed_(new QComboBox)
    , time_(new QLabel)
    , timer_(new QTimer(this))
{
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(4, 0, 4, 0);
    row->addWidget(play_);
    row->addWidget(stop_);
    row->addWidget(scrub_, 1);
    row->addWidget(time_);
    row->addWidget(speed_);
    play_->setObjectName(QStringLiteral("playback.play"));
    scrub_->setObjectName(QStringLiteral("playback.scrub"));
    speed_->setObjectName(QStringLiteral("playback.speed"));
    scrub_->setRange(0, kScrubSteps);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed); // the chart above keeps the height
    scrub_->setMinimumWidth(80);
    for (double s : kSpeeds)
        speed_->addItem(QString::number(s) + QStringLiteral("×"), s);
    speed_->setCurrentIndex(2);
    timer_->setInterval(kFrameMs);
    connect(timer_, &QTimer::timeout, this, &PlaybackBar::tick);
    connect(play_, &QToolButton::clicked, this, &PlaybackBar::toggle);
    connect(stop_, &QToolButton::clicked, this, &PlaybackBar::stop);
    connect(scrub_, &QSlider::valueChanged, this, [this](int v) { seek(step_s_ * v / kScrubSteps); });
    retranslate();
    hide(); // shown while the cursor is
}

void PlaybackBar::retranslate()
{
    play_->setText(playing() ? tr("Pause") : tr("Play"));
    play_->setToolTip(tr("Play or pause the step (Space)"));
    stop_->setText(tr("Stop"));
    speed_->setToolTip(tr("Speed: 1× plays the whole step in 10 s"));
    scrub_->setToolTip(tr("Drag to move through the step (or click in the timeline)"));
}

bool PlaybackBar::playing() const { return timer_->isActive(); }

void PlaybackBar::setStepLength(double step_s)
{
    const double fraction = step_s_ > 0 ? t_s_ / step_s_ : 0;
    step_s_ = std::max(step_s, 1e-12);
    if (active_)
        moveTo(fraction * step_s_);
}

void PlaybackBar::setSpeed(double factor)
{
    for (int i = 0; i < speed_->count(); ++i)
        if (speed_->itemData(i).toDouble() == factor)
            speed_->setCurrentIndex(i);
}

void PlaybackBar::toggle()
{
    if (!active_) {
        active_ = true;
        QWidget::show();
        moveTo(0);
        timer_->start();
    } else if (playing()) {
        timer_->stop();
    } else {
        if (t_s_ >= step_s_)
            moveTo(0); // at the end: play again from the start
        timer_->start();
    }
    retranslate();
}

void PlaybackBar::stop()
{
    timer_->stop();
    active_ = false;
    hide();
    retranslate();
    emit timeChanged(-1);
}

void PlaybackBar::seek(double t_s)
{
    if (!active_) {
        active_ = true;
        QWidget::show();
        retranslate();
    }
    moveTo(std::clamp(t_s, 0.0, step_s_));
}

void PlaybackBar::tick()
{
    const double advance = step_s_ * speed_->currentData().toDouble() * kFrameMs / 1000.0 / kStepAtOneX_s;
    if (t_s_ + advance >= step_s_) {
        timer_->stop(); // stays at the end: the last instant is worth a look
        moveTo(step_s_);
        retranslate();
        return;
    }
    moveTo(t_s_ + advance);
}

void PlaybackBar::moveTo(double t_s)
{
    t_s_ = t_s;
    {
        const QSignalBlocker block(scrub_);
        scrub_->setValue(int(std::lround(t_s_ / step_s_ * kScrubSteps)));
    }
    // Both in the step's unit ("0.46 s / 1.50 s", never "464.70 ms / 1.50 s").
    time_->setText(secondsLike(t_s_, step_s_) + QStringLiteral(" / ") + seconds(step_s_));
    emit timeChanged(t_s_);
}

} // namespace parascope::ui
