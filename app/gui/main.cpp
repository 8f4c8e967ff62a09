// parascope: the desktop application.
//   parascope [SCENARIO]
//   parascope SCENARIO --export memory|timeline|communication|sweep|search --out FILE [--size WxH] [--scale S] [--lang zh|en] [--sweep PATH]
// The export form renders without a display (offscreen) and exits: 0 written, 2 bad input.

#include "chart_export.h"
#include "main_window.h"
#include "parascope/version.h"
#include "search_view.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QSize>

#include <cstdio>
#include <cstring>

int main(int argc, char** argv)
{
    // Headless export needs no display: pick the offscreen platform unless one is forced.
    bool exporting = false;
    for (int i = 1; i < argc; ++i)
        exporting = exporting || std::strcmp(argv[i], "--export") == 0;
    if (exporting && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("ParaScope"));
    QCoreApplication::setApplicationName(QStringLiteral("ParaScope"));
    QCoreApplication::setApplicationVersion(QString::fromStdString(parascope::versionText()));
    // The desktop entry's id (Wayland app id, task bar grouping) and the window icon: the theme's
    // installed icon, or the copy compiled in when run from the build tree.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.parascope.ParaScope"));
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("io.github.parascope.ParaScope"),
                                                 QIcon(QStringLiteral(":/icons/io.github.parascope.ParaScope.svg"))));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("ParaScope: an explorer for parallel LLM training"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("scenario"), QStringLiteral("A parascope.scenario/1 file to open"));
    const QCommandLineOption exportOpt(QStringLiteral("export"), QStringLiteral("Render a chart and exit: memory, timeline or communication"),
                                       QStringLiteral("chart"));
    const QCommandLineOption outOpt(QStringLiteral("out"), QStringLiteral("File to write (png, svg or pdf)"), QStringLiteral("file"));
    const QCommandLineOption sizeOpt(QStringLiteral("size"), QStringLiteral("Image size WxH (default 1920x1080)"),
                                     QStringLiteral("WxH"), QStringLiteral("1920x1080"));
    const QCommandLineOption scaleOpt(QStringLiteral("scale"), QStringLiteral("PNG scale 1-3 (default 1)"), QStringLiteral("s"),
                                      QStringLiteral("1"));
    const QCommandLineOption langOpt(QStringLiteral("lang"), QStringLiteral("Language: zh or en"), QStringLiteral("lang"));
    const QCommandLineOption sweepOpt(QStringLiteral("sweep"), QStringLiteral("With --export sweep: the knob to sweep (default parallel.pp)"),
                                      QStringLiteral("path"), QStringLiteral("parallel.pp"));
    parser.addOptions({exportOpt, outOpt, sizeOpt, scaleOpt, langOpt, sweepOpt});
    parser.process(app);

    // An export's size and scale are checked before anything is loaded or drawn.
    QSize export_size;
    double scale = 1;
    if (exporting) {
        const QStringList wh = parser.value(sizeOpt).split(QLatin1Char('x'));
        bool okw = false, okh = false, oks = false;
        export_size = QSize(wh.size() == 2 ? wh[0].toInt(&okw) : 0, wh.size() == 2 ? wh[1].toInt(&okh) : 0);
        scale = parser.value(scaleOpt).toDouble(&oks);
        if (!okw || !okh || !oks) {
            std::fprintf(stderr, "parascope: --size needs WxH (e.g. 1920x1080) and --scale a number\n");
            return 2;
        }
        const bool png = parascope::ui::withExtension(parser.value(outOpt)).endsWith(QLatin1String(".png"), Qt::CaseInsensitive);
        if (const QString e = parascope::ui::checkExportSize(export_size, scale, png); !e.isEmpty()) {
            std::fprintf(stderr, "parascope: %s\n", qPrintable(e));
            return 2;
        }
    }

    parascope::ui::MainWindow window;
    if (parser.isSet(langOpt))
        window.setLanguage(parser.value(langOpt));
    const QStringList args = parser.positionalArguments();
    if (!args.isEmpty()) {
        const QString error = window.openScenario(args.front());
        if (!error.isEmpty() && exporting) {
            std::fprintf(stderr, "parascope: %s: %s\n", qPrintable(args.front()), qPrintable(error));
            return 2;
        }
    }
    if (exporting) {
        const std::optional<parascope::ui::ChartKind> chart = parascope::enumFromName<parascope::ui::ChartKind>(parser.value(exportOpt).toStdString());
        if (!chart) {
            std::fprintf(stderr, "parascope: --export needs one of %s\n", parascope::enumNameList<parascope::ui::ChartKind>().c_str());
            return 2;
        }
        if (*chart == parascope::ui::ChartKind::Sweep)
            window.showSweep(parser.value(sweepOpt), true);
        if (*chart == parascope::ui::ChartKind::Search)
            window.searchView()->runSearch(false);
        if (!parser.isSet(outOpt)) {
            std::fprintf(stderr, "parascope: --export needs --out FILE\n");
            return 2;
        }
        window.resize(export_size);
        const QString error = window.exportChartTo(*chart, parser.value(outOpt), export_size, scale);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "parascope: %s\n", qPrintable(error));
            return 2;
        }
        return 0;
    }
    // Crash recovery: autosave from here on, and offer back what a killed session left.
    window.startAutosave();
    window.show();
    window.offerRecovery();
    return app.exec();
}
