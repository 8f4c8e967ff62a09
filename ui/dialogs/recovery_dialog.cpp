#include "dialogs/recovery_dialog.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>

namespace parascope::ui {

RecoveryAnswer askRecovery(QWidget* parent, const QString& file, int others)
{
    QMessageBox box(QMessageBox::Question, QCoreApplication::translate("MainWindow", "Recover scenario"),
                    QCoreApplication::translate(
                        "MainWindow", "ParaScope did not close properly on %1. Restore the scenario it was working on?")
                        .arg(QLocale().toString(QFileInfo(file).lastModified(), QLocale::ShortFormat)),
                    QMessageBox::NoButton, parent);
    if (others > 0)
        box.setInformativeText(
            QCoreApplication::translate("MainWindow", "Other unsaved scenarios, kept until you answer for each: %1")
                .arg(others));
    QPushButton* restore = box.addButton(QCoreApplication::translate("MainWindow", "Restore"), QMessageBox::AcceptRole);
    QPushButton* discard
        = box.addButton(QCoreApplication::translate("MainWindow", "Discard"), QMessageBox::DestructiveRole);
    box.addButton(QCoreApplication::translate("MainWindow", "Later"), QMessageBox::RejectRole);
    box.setDefaultButton(restore);
    box.exec();
    if (box.clickedButton() == restore)
        return RecoveryAnswer::Restore;
    return box.clickedButton() == discard ? RecoveryAnswer::Discard : RecoveryAnswer::Later;
}

} // namespace parascope::ui
