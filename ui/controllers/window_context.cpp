#include "controllers/window_context.h"

#include <QMainWindow>
#include <QMessageBox>
#include <QStatusBar>

namespace parascope::ui {

void WindowContext::showError(const QString& title, const QString& text) const
{
    showMessage(text.section(QLatin1Char('\n'), 0, 0), 8000);
    if (window->isVisible())
        QMessageBox::warning(window, title, text);
}

void WindowContext::showMessage(const QString& text, int ms) const { window->statusBar()->showMessage(text, ms); }

} // namespace parascope::ui
