#include "about.h"

#include "parascope/version.h"

#include <QCoreApplication>
#include <QMessageBox>
#include <nlohmann/json.hpp>
#include <qcustomplot.h>

namespace parascope::ui {

namespace {
// Translation context "About" for the free functions below.
struct About {
    Q_DECLARE_TR_FUNCTIONS(About)
};
} // namespace

QString aboutHtml()
{
    const QString revision = *kGitRevision ? About::tr("git revision %1").arg(QLatin1String(kGitRevision))
                                           : About::tr("not built from git");
    // The public page, when the build was given one (PARASCOPE_PUBLIC_URL).
    const QString homepage
        = *kHomepage ? QStringLiteral("<br><a href=\"%1\">%1</a>").arg(QLatin1String(kHomepage)) : QString();
    return QStringLiteral("<h3>ParaScope %1</h3><p>%2</p><p>%3</p><p>%4</p><p>%5%6</p>")
        .arg(
            QLatin1String(kVersion), revision.toHtmlEscaped(),
            About::tr("An explorer for parallel LLM training: memory per pipeline stage, communication per collective, "
                      "the pipeline timeline and what breaks.")
                .toHtmlEscaped(),
            About::tr("Qt %1 (built with %2), QCustomPlot %3, nlohmann/json %4.%5.%6")
                .arg(QLatin1String(qVersion()), QLatin1String(QT_VERSION_STR), QLatin1String(QCUSTOMPLOT_VERSION_STR))
                .arg(NLOHMANN_JSON_VERSION_MAJOR)
                .arg(NLOHMANN_JSON_VERSION_MINOR)
                .arg(NLOHMANN_JSON_VERSION_PATCH)
                .toHtmlEscaped(),
            About::tr("Licensed under the GNU General Public License, version 3 or later.").toHtmlEscaped(), homepage);
}

void showAbout(QWidget* parent) { QMessageBox::about(parent, About::tr("About ParaScope"), aboutHtml()); }

} // namespace parascope::ui
