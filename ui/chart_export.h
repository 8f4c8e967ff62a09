#pragma once
// Exporting a chart for slides: PNG (scale 1–3×), SVG or PDF at a slide size, in the light slide
// theme with fonts scaled to the size; the missing extension is added; a failed write says why.

#include "chart_style.h"

#include <QSize>
#include <QString>

#include <functional>

class QCustomPlot;

namespace parascope::ui {

struct ExportRequest {
    QString file;
    QSize size{1920, 1080}; // logical size
    double scale = 1;       // PNG only
};

// The format follows the extension (png, svg, pdf); without one, ".png" is added.
QString withExtension(const QString& file, const QString& default_ext = QStringLiteral("png"));

// Renders `plot` re-themed for slides (setTheme is called with the slide theme and then with
// `restore`). Returns an empty string on success, else why it failed.
QString exportChart(QCustomPlot* plot, const ExportRequest& request, const std::function<void(const ChartTheme&)>& setTheme,
                    const ChartTheme& restore);

// The slide theme for a size: fonts about 1/50 of the height.
ChartTheme slideTheme(QSize size);

} // namespace parascope::ui
