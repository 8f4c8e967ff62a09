// The sweep's marks on its charts: the breaking points' dashed lines and numbers, and the note
// where no value runs.
#include "sweep_view.h"
#include "format.h"
#include "language.h"

#include <qcustomplot.h>

#include <map>

namespace parascope::ui {

// Draws each breaking point's dashed lines and number; returns the numbered list for breaks_.
QString SweepView::markBreaks(int n)
{
    QString text;
    std::map<int, QString> numbers; // slot → "1, 2": one label per line, never two on top of each other
    int number = 0;
    for (const BreakingPoint& b : result_.breaks) {
        ++number;
        int idx = 0;
        for (int i = 0; i < n; ++i)
            if (result_.points[std::size_t(i)].value == b.value)
                idx = i;
        for (QCPAxisRect* r : {memory_rect_, time_rect_, ratio_rect_}) {
            auto* line = new QCPItemStraightLine(plot_);
            line->setClipAxisRect(r);
            line->point1->setAxes(r->axis(QCPAxis::atBottom), r->axis(QCPAxis::atLeft));
            line->point2->setAxes(r->axis(QCPAxis::atBottom), r->axis(QCPAxis::atLeft));
            line->point1->setCoords(idx - 0.5, 0);
            line->point2->setCoords(idx - 0.5, 1);
            line->setPen(QPen(palette::vermillion, 1, Qt::DashLine));
        }
        QString& at = numbers[idx];
        at += (at.isEmpty() ? QString() : QStringLiteral(", ")) + QString::number(number);
        text += QStringLiteral("%1. ").arg(number) + inUi(b.message).toHtmlEscaped() + QStringLiteral("<br>");
    }
    // Numbered on the chart too (exports carry them), in the words of the list below.
    for (const auto& [idx, label_text] : numbers) {
        auto* label = new QCPItemText(plot_);
        label->setClipAxisRect(memory_rect_);
        label->position->setAxes(memory_rect_->axis(QCPAxis::atBottom), memory_rect_->axis(QCPAxis::atLeft));
        label->position->setCoords(idx - 0.45, memory_rect_->axis(QCPAxis::atLeft)->range().upper);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setText(label_text);
        label->setColor(palette::vermillion);
        QFont f = plot_->font();
        f.setPointSize(std::max(6, theme_.font_pt - 2));
        f.setBold(true);
        label->setFont(f);
    }
    return text;
}

// Where no value runs, the step and ratio charts say so instead of standing empty over an axis
// of 10⁻⁶ s.
void SweepView::noneRuns()
{
    for (QCPAxisRect* r : {time_rect_, ratio_rect_}) {
        auto* note = new QCPItemText(plot_);
        note->setClipAxisRect(r);
        note->position->setType(QCPItemPosition::ptAxisRectRatio);
        note->position->setAxisRect(r);
        note->position->setCoords(0.5, 0.5);
        note->setPositionAlignment(Qt::AlignCenter);
        note->setText(tr("No value runs (✗): see the breaking points below"));
        note->setColor(palette::vermillion);
        note->setBrush(QColor(255, 255, 255, 220));
    }
}

} // namespace parascope::ui
