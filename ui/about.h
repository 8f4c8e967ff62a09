#pragma once
// Help → About: the version (project version and git revision), the libraries ParaScope runs on,
// its licence and homepage. Shared by the dialog and its test.

#include <QString>

class QWidget;

namespace parascope::ui {

QString aboutHtml();
void showAbout(QWidget* parent);

} // namespace parascope::ui
