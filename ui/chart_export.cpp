#include "chart_export.h"

#include "save_file.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QSaveFile>
#include <QSvgGenerator>

namespace parascope::ui {

QString withExtension(const QString& file, const QString& default_ext)
{
    const QString suffix = QFileInfo(file).suffix().toLower();
    if (suffix == QLatin1String("png") || suffix == QLatin1String("svg") || suffix == QLatin1String("pdf"))
        return file;
    return file + QLatin1Char('.') + default_ext;
}

ChartTheme slideTheme(QSize size)
{
    ChartTheme t;
    t.font_pt = std::max(9, size.height() / 50);
    return t;
}

QString exportChart(QCustomPlot* plot, const ExportRequest& request, const std::function<void(const ChartTheme&)>& setTheme,
                    const ChartTheme& restore)
{
    const QString file = withExtension(request.file);
    const QString suffix = QFileInfo(file).suffix().toLower();
    const int w = request.size.width(), h = request.size.height();
    if (w < 16 || h < 16 || w > 10000 || h > 10000)
        return QCoreApplication::translate("ChartExport", "size %1×%2 is out of range (16–10000 pixels)").arg(w).arg(h);
    const QFileInfo dir(QFileInfo(file).absolutePath());
    if (!dir.exists() || !dir.isDir())
        return QCoreApplication::translate("ChartExport", "folder %1 does not exist").arg(dir.absoluteFilePath());
    if (!dir.isWritable())
        return QCoreApplication::translate("ChartExport", "folder %1 is not writable").arg(dir.absoluteFilePath());

    setTheme(slideTheme(request.size));
    plot->replot(QCustomPlot::rpImmediateRefresh);
    QString error;
    // Render to a temporary next to the target, then move it over atomically (QSaveFile).
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly)) {
        error = out.errorString();
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator gen;
        gen.setOutputDevice(&out);
        gen.setSize(request.size);
        gen.setViewBox(QRect(QPoint(0, 0), request.size));
        gen.setTitle(QStringLiteral("ParaScope"));
        QCPPainter painter;
        if (!painter.begin(&gen))
            error = QCoreApplication::translate("ChartExport", "the SVG painter could not start");
        else {
            plot->toPainter(&painter, w, h);
            painter.end();
        }
    } else {
        // PNG and PDF render through a temporary file QCustomPlot writes, copied into the save file.
        const QString tmp = file + QStringLiteral(".render-tmp");
        const bool ok = suffix == QLatin1String("pdf")
            ? plot->savePdf(tmp, w, h, QCP::epNoCosmetic, QStringLiteral("ParaScope"))
            : plot->savePng(tmp, w, h, std::clamp(request.scale, 1.0, 3.0));
        QFile rendered(tmp);
        if (!ok || !rendered.open(QIODevice::ReadOnly))
            error = QCoreApplication::translate("ChartExport", "rendering the %1 failed").arg(suffix.toUpper());
        else if (out.write(rendered.readAll()) < 0)
            error = out.errorString();
        rendered.remove();
    }
    if (error.isEmpty())
        error = commitSaveFile(out);
    else
        out.cancelWriting();
    if (!error.isEmpty())
        out.cancelWriting();
    setTheme(restore);
    plot->replot(QCustomPlot::rpQueuedReplot);
    return error;
}

} // namespace parascope::ui
