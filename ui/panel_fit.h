#pragma once
// A right-panel part whose text scrolls between its title and its button (the exercise, the
// design task): once its answer is revealed it is read whole, not scrolled — the part asks the
// splitter above it for the height of its text at its width (the lesson text above gives it up
// and scrolls), at most 60 % of the window.

#include <QLayout>
#include <QScrollArea>
#include <QWidget>

#include <algorithm>

namespace parascope::ui {

// `chrome`: the heights of what does not scroll (the title and the button row).
inline void fitScrolledText(QWidget* part, int chrome)
{
    auto* scroll = part->findChild<QScrollArea*>();
    if (!scroll || !scroll->widget() || !part->layout())
        return;
    const int width = std::max(120, scroll->viewport()->width());
    const int body = scroll->widget()->layout()->totalHeightForWidth(width);
    const QMargins m = part->layout()->contentsMargins();
    const int need = body + chrome + 3 * part->layout()->spacing() + m.top() + m.bottom();
    const int cap = part->window() ? part->window()->height() * 3 / 5 : need;
    part->setMinimumHeight(std::min(need, cap));
}

} // namespace parascope::ui
