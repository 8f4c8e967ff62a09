#pragma once
// A widget whose preferred width is a constant, whatever its content asks: a dock that holds it
// keeps its width while texts change (the right dock between lesson steps), until the user
// drags it. Its height hint and every minimum stay the content's.

#include <QSize>

#include <utility>

namespace parascope::ui {

template <class Widget> class FixedWidthHint : public Widget {
public:
    template <class... Args>
    explicit FixedWidthHint(int width, Args&&... args)
        : Widget(std::forward<Args>(args)...)
        , width_(width)
    { }
    QSize sizeHint() const override { return {width_, Widget::sizeHint().height()}; }

private:
    int width_;
};

} // namespace parascope::ui
