#include "dialogs/export_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDir>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QSettings>
#include <QStandardPaths>

namespace parascope::ui {

std::optional<ExportChoice> askExport(QWidget* parent, const QString& name)
{
    QDialog d(parent);
    d.setWindowTitle(QCoreApplication::translate("ExportDialog", "Export chart"));
    auto* form = new QFormLayout(&d);
    auto* size = new QComboBox;
    size->addItem(QCoreApplication::translate("ExportDialog", "1920 × 1080 (16:9)"), QSize(1920, 1080));
    size->addItem(QCoreApplication::translate("ExportDialog", "1280 × 720 (16:9)"), QSize(1280, 720));
    size->addItem(QCoreApplication::translate("ExportDialog", "1024 × 768 (4:3)"), QSize(1024, 768));
    auto* scale = new QDoubleSpinBox;
    scale->setRange(1, 3);
    scale->setSingleStep(1);
    scale->setValue(2);
    form->addRow(QCoreApplication::translate("ExportDialog", "Size"), size);
    form->addRow(QCoreApplication::translate("ExportDialog", "PNG scale"), scale);
    auto* context
        = new QCheckBox(QCoreApplication::translate("ExportDialog", "Title line with the model, GPUs and layout"));
    context->setChecked(true);
    form->addRow(QString(), context);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &d, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &d, &QDialog::reject);
    if (d.exec() != QDialog::Accepted)
        return std::nullopt;
    // The last folder an export went to, else Pictures (never the working directory).
    QSettings settings;
    const QString folder = settings
                               .value(QStringLiteral("lastExportFolder"),
                                      QStandardPaths::writableLocation(QStandardPaths::PicturesLocation))
                               .toString();
    QString filter;
    const QString chosen = QFileDialog::getSaveFileName(
        parent, QCoreApplication::translate("ExportDialog", "Export chart"), QDir(folder).filePath(name),
        QCoreApplication::translate("ExportDialog", "PNG image (*.png);;SVG vector image (*.svg);;PDF (*.pdf)"),
        &filter);
    if (chosen.isEmpty())
        return std::nullopt;
    const QString f = withChosenType(chosen, filter);
    settings.setValue(QStringLiteral("lastExportFolder"), QFileInfo(f).absolutePath());
    return ExportChoice{f, size->currentData().toSize(), scale->value(), context->isChecked()};
}

QString withChosenType(const QString& file, const QString& filter)
{
    const QString suffix = QFileInfo(file).suffix().toLower();
    for (const char* known : {"png", "svg", "pdf"})
        if (suffix == QLatin1String(known))
            return file;
    const qsizetype star = filter.indexOf(QLatin1String("(*."));
    const qsizetype close = filter.indexOf(QLatin1Char(')'), star);
    if (star < 0 || close < 0)
        return file;
    return file + QLatin1Char('.') + filter.mid(star + 3, close - star - 3);
}

} // namespace parascope::ui
