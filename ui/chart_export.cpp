#include "chart_export.h"

#include "format.h"
#include "save_file.h"
#include "pdf_text.h"
#include "svg_text.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QFontDatabase>
#include <QFileInfo>
#include <QPageLayout>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <cmath>

namespace parascope::ui {

QString withExtension(const QString& file, const QString& default_ext)
{
    const QString suffix = QFileInfo(file).suffix().toLower();
    if (suffix == QLatin1String("png") || suffix == QLatin1String("svg") || suffix == QLatin1String("pdf"))
        return file;
    return file + QLatin1Char('.') + default_ext;
}

QString checkExportFile(const QString& file)
{
    const QString suffix = QFileInfo(file).suffix().toLower();
    if (suffix.isEmpty() || suffix == QLatin1String("png") || suffix == QLatin1String("svg")
        || suffix == QLatin1String("pdf"))
        return {};
    return QCoreApplication::translate("ChartExport", "cannot write .%1 files: use .png, .svg or .pdf").arg(suffix);
}

ChartTheme slideTheme(QSize size)
{
    ChartTheme t;
    t.font_pt = std::max(9, size.height() / 50);
    return t;
}

QString checkExportSize(QSize size, double scale, bool raster)
{
    const int w = size.width(), h = size.height();
    if (w < kExportMinSide || h < kExportMinSide || w > kExportMaxSide || h > kExportMaxSide)
        return QCoreApplication::translate("ChartExport", "size %1×%2 is out of range (%3–%4 pixels a side)")
            .arg(w)
            .arg(h)
            .arg(kExportMinSide)
            .arg(kExportMaxSide);
    if (!std::isfinite(scale) || scale < 1 || scale > 3)
        return QCoreApplication::translate("ChartExport", "scale %1 is out of range (1–3)").arg(scale);
    const double pixels = double(w) * h * scale * scale;
    if (raster && pixels > kExportPixelBudget)
        return QCoreApplication::translate("ChartExport",
                                           "%1×%2 at scale %3 is %4 megapixels, over the %5-megapixel budget "
                                           "(e.g. 3840×2160 at 2×, or 1920×1080 at 3×)")
            .arg(w)
            .arg(h)
            .arg(scale)
            .arg(pixels / 1e6, 0, 'f', 1)
            .arg(kExportPixelBudget / 1e6, 0, 'f', 0);
    return {};
}

namespace {

// The chart drawn into `device` page by page (PDF) or as one picture (SVG), as QCustomPlot's own
// savePdf() does, but into memory so that the file is written once, atomically.
bool paintVector(QCustomPlot* plot, QPaintDevice* device, int w, int h)
{
    QCPPainter painter;
    if (!painter.begin(device))
        return false;
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    painter.setMode(QCPPainter::pmNonCosmetic);
    plot->toPainter(&painter, w, h);
    painter.end();
    return true;
}

// The slide's context: the title line above the chart, the footer (wrapped) below it. Returns
// the elements added, for the caller to take out again.
std::vector<QCPTextElement*> addContext(QCustomPlot* plot, const ExportRequest& request)
{
    std::vector<QCPTextElement*> added;
    const auto addText = [&](const QString& text, bool top) {
        if (text.isEmpty())
            return;
        QFont f = plot->font();
        f.setPointSize(std::max(6, plot->font().pointSize() - (top ? 0 : 1)));
        auto* element = new QCPTextElement(plot, text, f);
        element->setTextFlags(top ? Qt::AlignCenter : Qt::AlignLeft | Qt::AlignVCenter);
        element->setTextColor(top ? Qt::black : QColor(60, 60, 60));
        QCPLayoutGrid* grid = plot->plotLayout();
        if (top)
            grid->insertRow(0);
        const int row = top ? 0 : grid->rowCount();
        grid->addElement(row, 0, element);
        grid->setRowStretchFactor(row, 0.001);
        added.push_back(element);
    };
    addText(request.title_line, true);
    const QFontMetrics footer_fm(plot->font());
    addText(wrapText(request.footer, footer_fm, request.size.width() - 24), false);
    return added;
}

// The chart as SVG into `buffer` (which writes `bytes`), its fonts then given fallbacks in `bytes`.
// Returns why it failed, or "".
QString renderSvg(QCustomPlot* plot, QBuffer& buffer, QByteArray& bytes, QSize size)
{
    QString error;
    QSvgGenerator gen;
    gen.setOutputDevice(&buffer);
    gen.setSize(size);
    gen.setViewBox(QRect(QPoint(0, 0), size));
    // Fonts at the chart's own resolution: a 10 pt label is as many pixels as in the PNG.
    gen.setResolution(plot->logicalDpiX());
    gen.setTitle(QStringLiteral("ParaScope"));
    if (!paintVector(plot, &gen, size.width(), size.height()))
        error = QCoreApplication::translate("ChartExport", "the SVG painter could not start");
    // Real text a lecturer can select and edit, with fonts the slide machine is likely to have.
    if (error.isEmpty()) {
        buffer.close();
        QString why;
        bytes = withFontFallbacks(bytes, &why);
        if (bytes.isEmpty())
            error = QCoreApplication::translate("ChartExport", "writing the SVG's fonts failed: %1").arg(why);
    }
    return error;
}

// The chart as a one-page PDF into `buffer` (which writes `bytes`), its text layer then repaired.
// Returns why it failed, or "".
QString renderPdf(QCustomPlot* plot, QBuffer& buffer, QByteArray& bytes, QSize size)
{
    const int w = size.width(), h = size.height();
    QPdfWriter pdf(&buffer);
    pdf.setCreator(QStringLiteral("ParaScope"));
    pdf.setTitle(QStringLiteral("ParaScope"));
    // One device unit per chart pixel at the chart's own resolution, so that fonts keep
    // their size relative to the drawing (as in the PNG); the page is w × h pixels at that dpi.
    const int dpi = plot->logicalDpiX();
    pdf.setResolution(dpi);
    pdf.setPageLayout(QPageLayout(
        QPageSize(QSizeF(w * 72.0 / dpi, h * 72.0 / dpi), QPageSize::Point, QString(), QPageSize::ExactMatch),
        QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
    if (!paintVector(plot, &pdf, w, h))
        return QCoreApplication::translate("ChartExport", "the PDF painter could not start");
    buffer.close();
    QString why;
    bytes = repairPdfTextLayer(bytes, &why);
    if (!why.isEmpty()) // the PDF is still right to look at; only copying its text is not
        qWarning("PDF text layer left as Qt wrote it: %s", qPrintable(why));
    return {};
}

// The chart as a PNG at the request's scale into `buffer`. Returns why it failed, or "".
QString renderPng(QCustomPlot* plot, QBuffer& buffer, const ExportRequest& request, const QString& suffix)
{
    const QPixmap pixmap = plot->toPixmap(request.size.width(), request.size.height(), request.scale);
    if (pixmap.isNull() || !pixmap.save(&buffer, "PNG"))
        return QCoreApplication::translate("ChartExport", "rendering the %1 failed").arg(suffix.toUpper());
    return {};
}

} // namespace

QString simplifiedChineseFamily()
{
    static const QString family = [] {
        const QStringList installed = QFontDatabase::families();
        for (const char* f :
             {"Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "Source Han Sans CN", "WenQuanYi Micro Hei"})
            if (installed.contains(QLatin1String(f)))
                return QString::fromLatin1(f);
        return QString();
    }();
    return family;
}

QString exportChart(QCustomPlot* plot, const ExportRequest& request,
                    const std::function<void(const ChartTheme&)>& setTheme, const ChartTheme& restore,
                    const std::function<void(QSize)>& layoutFor)
{
    if (const QString e = checkExportFile(request.file); !e.isEmpty())
        return e;
    const QString file = withExtension(request.file);
    const QString suffix = QFileInfo(file).suffix().toLower();
    if (const QString e = checkExportSize(request.size, request.scale, suffix == QLatin1String("png")); !e.isEmpty())
        return e;
    const QFileInfo dir(QFileInfo(file).absolutePath());
    if (!dir.exists() || !dir.isDir())
        return QCoreApplication::translate("ChartExport", "folder %1 does not exist").arg(dir.absoluteFilePath());

    // Chinese text is drawn (and embedded in a PDF) with a Simplified Chinese font.
    const QFont plot_font = plot->font();
    if (const QString family = request.chinese ? simplifiedChineseFamily() : QString(); !family.isEmpty()) {
        QFont f = plot_font;
        f.setFamily(family);
        plot->setFont(f);
    }
    setTheme(slideTheme(request.size));
    // The context above, the notes below; taken out again after rendering.
    const std::vector<QCPTextElement*> added = addContext(plot, request);
    if (layoutFor)
        layoutFor(request.size);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QString error;
    if (suffix == QLatin1String("svg"))
        error = renderSvg(plot, buffer, bytes, request.size);
    else if (suffix == QLatin1String("pdf"))
        error = renderPdf(plot, buffer, bytes, request.size);
    else
        error = renderPng(plot, buffer, request, suffix);
    buffer.close();
    if (error.isEmpty())
        error = writeFileAtomically(file, bytes);
    for (QCPTextElement* element : added)
        plot->plotLayout()->remove(element);
    plot->plotLayout()->simplify();
    plot->setFont(plot_font);
    setTheme(restore);
    if (layoutFor)
        layoutFor(QSize());
    plot->replot(QCustomPlot::rpQueuedReplot);
    return error;
}

} // namespace parascope::ui
