// parascope: the desktop application.
//   parascope [SCENARIO]
//   parascope SCENARIO --export memory|timeline|communication|sweep|search|slots|walls|collective|memory-time --out FILE [--size WxH] [--scale S] [--lang zh|en] [--sweep PATH] [--no-context]
//   parascope [SCENARIO] --screenshot FILE.png --window-size WxH [--tab explorer|sweep|search|collectives|memory-time] [--presenter] [--lang zh|en]
//   parascope [SCENARIO] --presenter
// The export and screenshot forms render without a display (offscreen), never touch the user's
// settings, and exit: 0 written, 2 bad input.

#include "allocator_tuning.h"
#include "chart_export.h"
#include "diagnostics_panel.h"
#include "main_window.h"
#include "controllers/export_controller.h"
#include "controllers/files_controller.h"
#include "controllers/presenter_controller.h"
#include "save_file.h"
#include "models/knobs.h"
#include "parascope/version.h"
#include "search_view.h"

#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QIcon>
#include <QSize>

#include <cstdio>
#include <optional>
#include <cstring>

namespace {

// "1920x1080" → its size; nullopt when it is not two whole numbers joined by 'x'.
std::optional<QSize> parseSize(const QString& text)
{
    const QStringList wh = text.split(QLatin1Char('x'));
    bool okw = false, okh = false;
    const QSize size(wh.size() == 2 ? wh[0].toInt(&okw) : 0, wh.size() == 2 ? wh[1].toInt(&okh) : 0);
    if (!okw || !okh)
        return std::nullopt;
    return size;
}

} // namespace

int main(int argc, char** argv)
{
    parascope::ui::tuneAllocatorForRedraws(argv); // re-executes once with the allocator kept warm
    // Headless export, --help and --version need no display: pick the offscreen platform unless
    // one is forced (without a display Qt would abort before the parser could answer).
    bool exporting = false, screenshot = false, informational = false;
    for (int i = 1; i < argc; ++i) {
        exporting = exporting || std::strcmp(argv[i], "--export") == 0;
        screenshot = screenshot || std::strcmp(argv[i], "--screenshot") == 0;
        for (const char* flag : {"--help", "-h", "-?", "--help-all", "--version", "-v"})
            informational = informational || std::strcmp(argv[i], flag) == 0;
    }
    if ((exporting || screenshot || informational) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
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
    const QCommandLineOption exportOpt(QStringLiteral("export"),
                                       QStringLiteral("Render a chart and exit: memory, timeline, slots, "
                                                      "communication, sweep, search, walls, collective or memory-time"),
                                       QStringLiteral("chart"));
    const QCommandLineOption outOpt(QStringLiteral("out"), QStringLiteral("File to write (png, svg or pdf)"),
                                    QStringLiteral("file"));
    const QCommandLineOption sizeOpt(QStringLiteral("size"), QStringLiteral("Image size WxH (default 1920x1080)"),
                                     QStringLiteral("WxH"), QStringLiteral("1920x1080"));
    const QCommandLineOption scaleOpt(QStringLiteral("scale"), QStringLiteral("PNG scale 1-3 (default 1)"),
                                      QStringLiteral("s"), QStringLiteral("1"));
    const QCommandLineOption langOpt(QStringLiteral("lang"), QStringLiteral("Language: zh or en"),
                                     QStringLiteral("lang"));
    const QCommandLineOption sweepOpt(QStringLiteral("sweep"),
                                      QStringLiteral("With --export sweep: the knob to sweep (default parallel.pp)"),
                                      QStringLiteral("path"), QStringLiteral("parallel.pp"));
    const QCommandLineOption shotOpt(QStringLiteral("screenshot"),
                                     QStringLiteral("Render the whole window to a PNG and exit"),
                                     QStringLiteral("file"));
    const QCommandLineOption windowSizeOpt(QStringLiteral("window-size"),
                                           QStringLiteral("With --screenshot: the screen size WxH"),
                                           QStringLiteral("WxH"), QStringLiteral("1280x720"));
    const QCommandLineOption tabOpt(
        QStringLiteral("tab"), QStringLiteral("With --screenshot: explorer, sweep, search, collectives or memory-time"),
        QStringLiteral("tab"), QStringLiteral("explorer"));
    const QCommandLineOption presenterOpt(QStringLiteral("presenter"), QStringLiteral("Start in presenter mode"));
    const QCommandLineOption noContextOpt(
        QStringLiteral("no-context"), QStringLiteral("With --export: no title line with the model, GPUs and layout"));
    parser.addOptions({exportOpt, outOpt, sizeOpt, scaleOpt, langOpt, sweepOpt, shotOpt, windowSizeOpt, tabOpt,
                       presenterOpt, noContextOpt});
    parser.process(app);

    // Options that name a value are checked before anything is drawn: a typo is exit 2, never a
    // silent default.
    const QString lang = parser.value(langOpt);
    if (parser.isSet(langOpt) && lang != QLatin1String("zh") && lang != QLatin1String("zh_CN")
        && lang != QLatin1String("en")) {
        std::fprintf(stderr, "parascope: --lang needs zh or en, got \"%s\"\n", qPrintable(lang));
        return 2;
    }
    if (parser.isSet(sweepOpt) && !parascope::ui::findSweepKnob(parser.value(sweepOpt))) {
        QStringList paths;
        for (const parascope::ui::Knob& k : parascope::ui::sweepKnobs())
            paths << QString::fromLatin1(k.path);
        std::fprintf(stderr, "parascope: --sweep needs one of %s, got \"%s\"\n",
                     qPrintable(paths.join(QStringLiteral(", "))), qPrintable(parser.value(sweepOpt)));
        return 2;
    }
    using parascope::ui::MainWindow;
    const std::optional<MainWindow::Tab> tab
        = parascope::enumFromName<MainWindow::Tab>(parser.value(tabOpt).toStdString());
    if (!tab) {
        std::fprintf(stderr, "parascope: --tab needs one of %s\n", parascope::enumNameList<MainWindow::Tab>().c_str());
        return 2;
    }
    if (exporting) {
        if (const QString e = parascope::ui::checkExportFile(parser.value(outOpt)); !e.isEmpty()) {
            std::fprintf(stderr, "parascope: %s\n", qPrintable(e));
            return 2;
        }
    }
    QSize window_size;
    if (screenshot) {
        window_size = parseSize(parser.value(windowSizeOpt)).value_or(QSize());
        if (window_size.width() < 320 || window_size.height() < 240 || window_size.width() > 7680
            || window_size.height() > 4320) {
            std::fprintf(stderr, "parascope: --window-size needs WxH between 320x240 and 7680x4320\n");
            return 2;
        }
        if (!parser.value(shotOpt).endsWith(QLatin1String(".png"), Qt::CaseInsensitive)) {
            std::fprintf(stderr, "parascope: --screenshot writes a .png file\n");
            return 2;
        }
    }

    // An export's size and scale are checked before anything is loaded or drawn.
    QSize export_size;
    double scale = 1;
    if (exporting) {
        const std::optional<QSize> size = parseSize(parser.value(sizeOpt));
        bool oks = false;
        scale = parser.value(scaleOpt).toDouble(&oks);
        if (!size || !oks) {
            std::fprintf(stderr, "parascope: --size needs WxH (e.g. 1920x1080) and --scale a number\n");
            return 2;
        }
        export_size = *size;
        const bool png
            = parascope::ui::withExtension(parser.value(outOpt)).endsWith(QLatin1String(".png"), Qt::CaseInsensitive);
        if (const QString e = parascope::ui::checkExportSize(export_size, scale, png); !e.isEmpty()) {
            std::fprintf(stderr, "parascope: %s\n", qPrintable(e));
            return 2;
        }
    }

    MainWindow window(nullptr, exporting || screenshot ? MainWindow::Session::Headless : MainWindow::Session::Desktop);
    if (parser.isSet(langOpt))
        window.setLanguage(lang, MainWindow::Remember::No); // this run only: the menu's choice stays
    const QStringList args = parser.positionalArguments();
    if (!args.isEmpty()) {
        const QString error = window.files()->openScenario(args.front());
        if (!error.isEmpty() && (exporting || screenshot)) {
            std::fprintf(stderr, "parascope: %s: %s\n", qPrintable(args.front()), qPrintable(error));
            return 2;
        }
    }
    if (exporting) {
        const std::optional<parascope::ui::ChartKind> chart
            = parascope::enumFromName<parascope::ui::ChartKind>(parser.value(exportOpt).toStdString());
        if (!chart) {
            std::fprintf(stderr, "parascope: --export needs one of %s\n",
                         parascope::enumNameList<parascope::ui::ChartKind>().c_str());
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
        const QString error = window.exports()->exportChartTo(*chart, parser.value(outOpt), export_size, scale,
                                                              !parser.isSet(noContextOpt));
        if (!error.isEmpty()) {
            std::fprintf(stderr, "parascope: %s\n", qPrintable(error));
            return 2;
        }
        return 0;
    }
    if (screenshot) {
        // The whole window as it looks on a screen of that size: laid out at the size (or at its
        // minimum size when that is larger, which is then reported), grabbed, cropped to the screen.
        if (parser.isSet(presenterOpt))
            window.presenter()->setOn(true);
        window.showTab(*tab);
        if (*tab == MainWindow::Tab::Sweep)
            window.showSweep(parser.value(sweepOpt), true);
        if (*tab == MainWindow::Tab::Search)
            window.searchView()->runSearch(false);
        window.resize(window_size);
        window.show();
        QCoreApplication::processEvents(); // lay out, then draw what the layout changed (no user input here)
        // The "What would fix it" list is evaluated off the GUI thread: the screenshot waits for it.
        while (window.diagnosticsPanel()->adviceRunning())
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
        QCoreApplication::processEvents();
        const QSize needed = window.minimumSizeHint();
        if (needed.width() > window_size.width() || needed.height() > window_size.height())
            std::fprintf(stderr,
                         "parascope: note: the window needs at least %dx%d; the screenshot shows the top-left %dx%d\n",
                         needed.width(), needed.height(), window_size.width(), window_size.height());
        const QImage image = window.grab().toImage().copy(QRect(QPoint(0, 0), window_size));
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        image.save(&buffer, "PNG");
        if (const QString e = parascope::ui::writeFileAtomically(parser.value(shotOpt), png); !e.isEmpty()) {
            std::fprintf(stderr, "parascope: %s\n", qPrintable(e));
            return 2;
        }
        return 0;
    }
    if (parser.isSet(presenterOpt))
        window.presenter()->setOn(true);
    // Crash recovery: autosave from here on, and offer back what a killed session left.
    window.files()->startAutosave();
    window.show();
    window.files()->offerRecovery();
    return app.exec();
}
