#include "chart_style.h"

#include <qcustomplot.h>

namespace parascope::ui {

QColor colourOf(OpType t)
{
    switch (t) {
    case OpType::F: return palette::blue;
    case OpType::B: return palette::orange;
    case OpType::I: return palette::purple;
    case OpType::W: return palette::green;
    case OpType::FB: return palette::sky;
    case OpType::Send:
    case OpType::Recv: return palette::grey;
    case OpType::Optimizer: return palette::black;
    default: return palette::vermillion; // collectives
    }
}

void applyTheme(QCustomPlot* plot, const ChartTheme& theme)
{
    QFont font = plot->font();
    font.setPointSize(theme.font_pt);
    plot->setFont(font);
    plot->setBackground(Qt::white);
    QFont label = font;
    QFont ticks = font;
    ticks.setPointSize(std::max(6, theme.font_pt - 1));
    const QPen axis(theme.high_contrast ? Qt::black : QColor(60, 60, 60), theme.high_contrast ? 2 : 1);
    for (QCPAxis* a : plot->axisRect()->axes()) {
        a->setLabelFont(label);
        a->setTickLabelFont(ticks);
        a->setBasePen(axis);
        a->setTickPen(axis);
        a->setSubTickPen(axis);
        a->setTickLabelColor(Qt::black);
        a->setLabelColor(Qt::black);
        a->grid()->setPen(QPen(QColor(220, 220, 220), 1, Qt::DotLine));
    }
    plot->legend->setFont(ticks);
    plot->legend->setBrush(QColor(255, 255, 255, 230));
    plot->legend->setBorderPen(QPen(QColor(180, 180, 180)));
}

void placeLegendBelow(QCustomPlot* plot, int columns)
{
    plot->legend->setVisible(true);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setWrap(columns);
    // The legend starts in the axis rect's inset layout; a view that rebuilt its layout (the
    // sweep's three axis rects) has already taken it out.
    if (QCPLayout* inset = plot->legend->layout())
        inset->take(plot->legend);
    const int row = plot->plotLayout()->rowCount();
    plot->plotLayout()->addElement(row, 0, plot->legend);
    plot->legend->setMargins(QMargins(4, 2, 4, 2));
    plot->plotLayout()->setRowStretchFactor(row, 0.001);
}

} // namespace parascope::ui
