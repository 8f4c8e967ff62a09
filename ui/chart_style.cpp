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
    // Glyphs straight from the font's character map (no OpenType substitution, which chart text
    // does not need): a PDF's text layer can then map every glyph back to its character. Shaped by
    // HarfBuzz, Noto Sans CJK drew the digits of "Llama-2 70B" with glyphs no character maps to,
    // and the PDF's text copied out as "Llama- B".
    font.setStyleStrategy(QFont::StyleStrategy(font.styleStrategy() | QFont::PreferNoShaping));
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
    // Data lines: thick in presenter mode and on slides (the theme's linePx); thin auxiliary lines
    // (under 2 px: grid-like marks) stay as they are.
    for (int i = 0; i < plot->graphCount(); ++i) {
        QPen pen = plot->graph(i)->pen();
        if (pen.style() != Qt::NoPen) {
            pen.setWidth(theme.linePx());
            plot->graph(i)->setPen(pen);
        }
    }
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* line = qobject_cast<QCPItemStraightLine*>(plot->item(i)); line && line->pen().width() >= 2) {
            QPen pen = line->pen();
            pen.setWidth(theme.linePx());
            line->setPen(pen);
        }
    plot->legend->setFont(ticks);
    // Room under the legend in proportion to its text: on a slide it never sits on the edge.
    plot->legend->setMargins(QMargins(4, 2, 4, std::max(2, QFontInfo(ticks).pixelSize() / 2)));
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
