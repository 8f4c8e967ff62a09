#pragma once
// Playback of the step: a cursor that walks through the simulated timeline so a class can watch
// microbatches flow and memory rise and fall. Play / pause (Space), stop, a scrub slider, the
// speed (1× plays the whole step in 10 s, whatever its length; 0.25× to 4×) and the time. The
// timeline draws the cursor; the memory chart shows each stage's memory at that instant.

#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QTimer;
class QToolButton;

namespace parascope::ui {

class PlaybackBar : public QWidget {
    Q_OBJECT
public:
    explicit PlaybackBar(QWidget* parent = nullptr);
    void setStepLength(double step_s); // a new scenario: same place as a fraction of the step
    bool playing() const;
    bool active() const { return active_; } // playing or paused (the cursor shows)
    double time() const { return t_s_; }
    void setSpeed(double factor);
    void retranslate();

public slots:
    void toggle(); // stopped → play from the start; playing ↔ paused
    void stop(); // the cursor goes away
    void seek(double t_s); // scrub (also a click on the timeline while active)

signals:
    void timeChanged(double t_s); // t < 0: no cursor

private:
    void tick();
    void moveTo(double t_s);
    QToolButton* play_;
    QToolButton* stop_;
    QSlider* scrub_;
    QComboBox* speed_;
    QLabel* time_;
    QTimer* timer_;
    double step_s_ = 1, t_s_ = 0;
    bool active_ = false;
};

} // namespace parascope::ui
