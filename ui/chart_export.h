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
    double scale = 1; // PNG only
    // A slide carries its context: a title line above the chart (the model, GPU count, layout,
    // batch and schedule: contextLine()) and text below it (the sweep's breaking points); empty
    // strings leave them out.
    QString title_line;
    QString footer;
    bool chinese = false; // text in Chinese: the fonts are the Simplified Chinese ones
};

// What an export may ask for: each side 16–10,000 pixels, a PNG scale of 1–3, and at most 50
// megapixels in the PNG (width·height·scale²: 3840×2160 at 2× or 1920×1080 at 3× fit), so that
// no request renders for minutes. Checked before anything is drawn.
inline constexpr int kExportMinSide = 16, kExportMaxSide = 10000;
inline constexpr double kExportPixelBudget = 50e6;
// Returns why `size` at `scale` cannot be exported, "" when it can; `raster`: a PNG, whose
// pixels count against the budget (SVG and PDF are vector: only the sides are checked).
QString checkExportSize(QSize size, double scale, bool raster = true);

// Why `file` cannot be exported to (an extension other than png, svg or pdf), or empty.
QString checkExportFile(const QString& file);

// The format follows the extension (png, svg, pdf); without one, ".png" is added.
QString withExtension(const QString& file, const QString& default_ext = QStringLiteral("png"));

// Renders `plot` re-themed for slides (setTheme is called with the slide theme and then with
// `restore`; layoutFor with the export size before rendering and with an empty size after).
// Returns an empty string on success, else why it failed.
QString exportChart(QCustomPlot* plot, const ExportRequest& request,
                    const std::function<void(const ChartTheme&)>& setTheme, const ChartTheme& restore,
                    const std::function<void(QSize)>& layoutFor = {});

// The Simplified Chinese font family installed here (Noto Sans CJK SC first), "" if none: a PDF
// embeds what the chart is drawn with, and fontconfig alone picks the Japanese variant.
QString simplifiedChineseFamily();

// The slide theme for a size: fonts about 1/50 of the height.
ChartTheme slideTheme(QSize size);

} // namespace parascope::ui
