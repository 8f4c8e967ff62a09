#pragma once
// Export a chart for slides: the size (16:9 or 4:3 projector sizes), the PNG scale, then the file.

#include <QSize>
#include <QString>

#include <optional>

class QWidget;

namespace parascope::ui {

struct ExportChoice {
    QString file;
    QSize size;
    double scale = 2;
    bool context = true; // the scenario's title line above the chart
};

// Asks for size and scale, then for the file (suggested name `name`, in the last folder an export
// went to, else Pictures); nullopt when cancelled.
std::optional<ExportChoice> askExport(QWidget* parent, const QString& name);

// The file as the file dialog's chosen type asks: a name without .png, .svg or .pdf takes the
// suffix of the chosen filter ("PDF (*.pdf)" → "slide.pdf"); a name with one keeps it.
QString withChosenType(const QString& file, const QString& filter);

} // namespace parascope::ui
