#pragma once
// Controls that take the mouse wheel only when they have the keyboard focus (clicked or tabbed
// to): scrolling the scenario panel over a slider scrolls the panel, never turns the knob
// silently. An unfocused control passes the wheel on to its parent (the scroll area); the focus
// policy keeps the wheel from giving focus.

#include <QComboBox>
#include <QSlider>
#include <QSpinBox>
#include <QWheelEvent>

namespace parascope::ui {

template <class Control> class FocusWheel : public Control {
public:
    template <class... Args>
    explicit FocusWheel(Args&&... args)
        : Control(std::forward<Args>(args)...)
    {
        this->setFocusPolicy(Qt::StrongFocus);
    }

protected:
    void wheelEvent(QWheelEvent* e) override
    {
        if (this->hasFocus())
            Control::wheelEvent(e);
        else
            e->ignore();
    }
};

using FocusWheelSlider = FocusWheel<QSlider>;
using FocusWheelSpinBox = FocusWheel<QSpinBox>;
using FocusWheelComboBox = FocusWheel<QComboBox>;

} // namespace parascope::ui
