#pragma once
// Colours and fonts shared by every chart: the Okabe–Ito colour-blind-safe palette, the light
// slide theme used for exports, and the large-font presenter mode.

#include "schedule/simulator.h"

#include <QColor>
#include <QFont>

class QCustomPlot;

namespace parascope::ui {

namespace palette {
inline const QColor blue{0, 114, 178};
inline const QColor sky{86, 180, 233};
inline const QColor green{0, 158, 115};
inline const QColor orange{230, 159, 0};
inline const QColor vermillion{213, 94, 0};
inline const QColor purple{204, 121, 167};
inline const QColor yellow{240, 228, 66};
inline const QColor grey{153, 153, 153};
inline const QColor black{0, 0, 0};
} // namespace palette

QColor colourOf(OpType t);

struct ChartTheme {
    int font_pt = 10;
    bool high_contrast = false; // presenter mode and slides: black axes, thick lines
    // The width of data lines (sweep curves, Pareto front, capacity, cursor): 2 px, 3 px when
    // high contrast, so a line still reads from the back of a room.
    int linePx() const { return high_contrast ? 3 : 2; }
};

// Applies fonts, pens and a white background (slides, presenter mode and screen alike).
void applyTheme(QCustomPlot* plot, const ChartTheme& theme);

// Moves the legend out of the axis rect into a row below it (it never covers data).
void placeLegendBelow(QCustomPlot* plot, int columns);

} // namespace parascope::ui
