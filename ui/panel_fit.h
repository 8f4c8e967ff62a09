#pragma once
// A right-panel part whose text scrolls between its title and its button (the exercise, the
// design task): once its answer is revealed it is read whole, not scrolled — the part asks the
// splitter above it for the height of its text at its width (the lesson text above gives it up
// and scrolls), at most 60 % of the window.

#include <QLabel>
#include <QLayout>
#include <QScrollArea>
#include <QVBoxLayout>
#include <QWidget>

#include <algorithm>
#include <initializer_list>

namespace parascope::ui {

// The part's layout: the title, then `texts` (rich, wrapped) scrolling below it when the right
// panel is short (a 768-pixel projector); the caller adds the row that stays in view under them.
inline QVBoxLayout* titledScrollingText(QWidget* part, QLabel* title, std::initializer_list<QLabel*> texts)
{
    auto* outer = new QVBoxLayout(part);
    outer->setContentsMargins(4, 4, 4, 4);
    title->setWordWrap(true);
    title->setTextFormat(Qt::RichText);
    outer->addWidget(title);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    outer->addWidget(scroll, 1);
    auto* body = new QWidget;
    scroll->setWidget(body);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(0, 0, 0, 0);
    for (QLabel* l : texts) {
        l->setWordWrap(true);
        l->setTextFormat(Qt::RichText);
        layout->addWidget(l);
    }
    layout->addStretch(1);
    return outer;
}

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
