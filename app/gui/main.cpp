// parascope: the desktop application.
//   parascope [SCENARIO]
//   parascope SCENARIO --export memory|timeline|communication|sweep|search|slots|walls|collective|memory-time --out FILE [--size WxH] [--scale S] [--lang zh|en] [--sweep PATH] [--no-context]
//   parascope [SCENARIO] --screenshot FILE.png --window-size WxH [--tab explorer|sweep|search|collectives|memory-time|layer-ops|textbook] [--dialog advisor] [--presenter] [--lang zh|en]
//   parascope [SCENARIO] --presenter
//   parascope --lesson ID [--step N] [--screenshot FILE.png [--hand-in] …]   (a lesson at a step, e.g. from a
//   slide's link; --hand-in: a design task's step graded, the layout on screen handed in)
// The export and screenshot forms render without a display (offscreen), never touch the user's
// settings, and exit: 0 written, 2 bad input.

#include "allocator_tuning.h"
#include "chart_export.h"
#include "diagnostics_panel.h"
#include "main_window.h"
#include "memory_time_chart.h"
#include "controllers/course_controller.h"
#include "dialogs/advisor_dialog.h"
#include "design_task_panel.h"
#include "controllers/export_controller.h"
#include "controllers/files_controller.h"
#include "controllers/presenter_controller.h"
#include "save_file.h"
#include "lessons/lessons.h"
#include "models/knobs.h"
#include "models/scenario_model.h"
#include "parascope/version.h"
#include "search_view.h"

#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QIcon>
#include <QPainter>
#include <QSize>

#include <algorithm>
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

// Which headless form the command line asks for, read before QApplication exists.
struct Mode {
    bool exporting = false, screenshot = false, informational = false;
};

Mode scanArguments(int argc, char** argv)
{
    Mode m;
    for (int i = 1; i < argc; ++i) {
        m.exporting = m.exporting || std::strcmp(argv[i], "--export") == 0;
        m.screenshot = m.screenshot || std::strcmp(argv[i], "--screenshot") == 0;
        for (const char* flag : {"--help", "-h", "-?", "--help-all", "--version", "-v"})
            m.informational = m.informational || std::strcmp(argv[i], flag) == 0;
    }
    return m;
}

// The application's names, desktop id and icon.
void describeApplication()
{
    QCoreApplication::setOrganizationName(QStringLiteral("ParaScope"));
    QCoreApplication::setApplicationName(QStringLiteral("ParaScope"));
    QCoreApplication::setApplicationVersion(QString::fromStdString(parascope::versionText()));
    // The desktop entry's id (Wayland app id, task bar grouping) and the window icon: the theme's
    // installed icon, or the copy compiled in when run from the build tree.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.parascope.ParaScope"));
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("io.github.parascope.ParaScope"),
                                                 QIcon(QStringLiteral(":/icons/io.github.parascope.ParaScope.svg"))));
}

// Every command-line option, declared once for the parser and the code that reads it.
struct Options {
    const QCommandLineOption exportOpt{QStringLiteral("export"),
                                       QStringLiteral("Render a chart and exit: memory, timeline, slots, "
                                                      "communication, sweep, search, walls, collective or memory-time"),
                                       QStringLiteral("chart")};
    const QCommandLineOption outOpt{QStringLiteral("out"), QStringLiteral("File to write (png, svg or pdf)"),
                                    QStringLiteral("file")};
    const QCommandLineOption sizeOpt{QStringLiteral("size"), QStringLiteral("Image size WxH (default 1920x1080)"),
                                     QStringLiteral("WxH"), QStringLiteral("1920x1080")};
    const QCommandLineOption scaleOpt{QStringLiteral("scale"), QStringLiteral("PNG scale 1-3 (default 1)"),
                                      QStringLiteral("s"), QStringLiteral("1")};
    const QCommandLineOption langOpt{QStringLiteral("lang"), QStringLiteral("Language: zh or en"),
                                     QStringLiteral("lang")};
    const QCommandLineOption sweepOpt{QStringLiteral("sweep"),
                                      QStringLiteral("With --export sweep: the knob to sweep (default parallel.pp)"),
                                      QStringLiteral("path"), QStringLiteral("parallel.pp")};
    const QCommandLineOption shotOpt{QStringLiteral("screenshot"),
                                     QStringLiteral("Render the whole window to a PNG and exit"),
                                     QStringLiteral("file")};
    const QCommandLineOption windowSizeOpt{QStringLiteral("window-size"),
                                           QStringLiteral("With --screenshot: the screen size WxH"),
                                           QStringLiteral("WxH"), QStringLiteral("1280x720")};
    const QCommandLineOption tabOpt{
        QStringLiteral("tab"),
        QStringLiteral("With --screenshot: explorer, sweep, search, collectives, memory-time, memory-allocator (its "
                       "allocated vs reserved view), layer-ops or textbook"),
        QStringLiteral("tab"), QStringLiteral("explorer")};
    const QCommandLineOption dialogOpt{
        QStringLiteral("dialog"),
        QStringLiteral("With --screenshot: advisor (Tools → Advisor, worked out, over the window)"),
        QStringLiteral("name")};
    const QCommandLineOption presenterOpt{QStringLiteral("presenter"), QStringLiteral("Start in presenter mode")};
    const QCommandLineOption lessonOpt{QStringLiteral("lesson"),
                                       QStringLiteral("Open this lesson (its id, e.g. 2-llama70b-512)"),
                                       QStringLiteral("id")};
    const QCommandLineOption stepOpt{QStringLiteral("step"),
                                     QStringLiteral("With --lesson: the step to open, from 1 (default 1)"),
                                     QStringLiteral("n"), QStringLiteral("1")};
    const QCommandLineOption handInOpt{
        QStringLiteral("hand-in"),
        QStringLiteral("With --lesson and --screenshot on a design task's step: hand in the layout, show the grade")};
    const QCommandLineOption noContextOpt{
        QStringLiteral("no-context"), QStringLiteral("With --export: no title line with the model, GPUs and layout")};
};

// The parser with its description, help, version, positional argument and options.
void setUpParser(QCommandLineParser& parser, const Options& o)
{
    parser.setApplicationDescription(QStringLiteral("ParaScope: an explorer for parallel LLM training"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("scenario"), QStringLiteral("A parascope.scenario/1 file to open"));
    parser.addOptions({o.exportOpt, o.outOpt, o.sizeOpt, o.scaleOpt, o.langOpt, o.sweepOpt, o.shotOpt, o.windowSizeOpt,
                       o.tabOpt, o.dialogOpt, o.presenterOpt, o.lessonOpt, o.stepOpt, o.handInOpt, o.noContextOpt});
}

using parascope::ui::MainWindow;

// The option values, checked; a failed check has printed its message (exit 2).
struct Checked {
    MainWindow::Tab tab{};
    QSize window_size;
    QSize export_size;
    double scale = 1;
    QString lesson; // --lesson, checked; empty without
    bool advisor = false; // --dialog advisor
    int step = 0; // --step − 1
};

// --lesson names a lesson and --step one of its steps (from 1); false (message printed) otherwise.
bool checkLesson(const QCommandLineParser& parser, const Options& o, Checked& c)
{
    if (!parser.isSet(o.lessonOpt)) {
        if (parser.isSet(o.stepOpt))
            std::fprintf(stderr, "parascope: --step needs --lesson ID\n");
        return !parser.isSet(o.stepOpt);
    }
    c.lesson = parser.value(o.lessonOpt);
    const parascope::Lesson* l = parascope::findLesson(c.lesson.toStdString());
    if (!l) {
        std::string ids;
        for (const parascope::Lesson& x : parascope::lessons())
            ids += (ids.empty() ? "" : ", ") + x.id;
        std::fprintf(stderr, "parascope: --lesson needs one of %s, got \"%s\"\n", ids.c_str(), qPrintable(c.lesson));
        return false;
    }
    bool ok = false;
    const int step = parser.value(o.stepOpt).toInt(&ok);
    if (!ok || step < 1 || step > int(l->steps.size())) {
        std::fprintf(stderr, "parascope: --step needs a number from 1 to %d for lesson %s, got \"%s\"\n",
                     int(l->steps.size()), l->id.c_str(), qPrintable(parser.value(o.stepOpt)));
        return false;
    }
    c.step = step - 1;
    return true;
}

// --lang, --sweep and --tab name a value from a list; nullopt (message printed) otherwise.
std::optional<MainWindow::Tab> checkNamedValues(const QCommandLineParser& parser, const Options& o)
{
    const QString lang = parser.value(o.langOpt);
    if (parser.isSet(o.langOpt) && lang != QLatin1String("zh") && lang != QLatin1String("zh_CN")
        && lang != QLatin1String("en")) {
        std::fprintf(stderr, "parascope: --lang needs zh or en, got \"%s\"\n", qPrintable(lang));
        return std::nullopt;
    }
    if (parser.isSet(o.sweepOpt) && !parascope::ui::findSweepKnob(parser.value(o.sweepOpt))) {
        QStringList paths;
        for (const parascope::ui::Knob& k : parascope::ui::sweepKnobs())
            paths << QString::fromLatin1(k.path);
        std::fprintf(stderr, "parascope: --sweep needs one of %s, got \"%s\"\n",
                     qPrintable(paths.join(QStringLiteral(", "))), qPrintable(parser.value(o.sweepOpt)));
        return std::nullopt;
    }
    const QString tab_name = parser.value(o.tabOpt);
    const std::optional<MainWindow::Tab> tab = tab_name == QLatin1String("memory-allocator")
        ? MainWindow::Tab::MemoryTime
        : parascope::enumFromName<MainWindow::Tab>(tab_name.toStdString());
    if (!tab)
        std::fprintf(stderr, "parascope: --tab needs one of %s or memory-allocator\n",
                     parascope::enumNameList<MainWindow::Tab>().c_str());
    return tab;
}

// --window-size and the --screenshot file; false (message printed) when either is wrong.
bool checkScreenshot(const QCommandLineParser& parser, const Options& o, Checked& c)
{
    c.window_size = parseSize(parser.value(o.windowSizeOpt)).value_or(QSize());
    if (c.window_size.width() < 320 || c.window_size.height() < 240 || c.window_size.width() > 7680
        || c.window_size.height() > 4320) {
        std::fprintf(stderr, "parascope: --window-size needs WxH between 320x240 and 7680x4320\n");
        return false;
    }
    if (!parser.value(o.shotOpt).endsWith(QLatin1String(".png"), Qt::CaseInsensitive)) {
        std::fprintf(stderr, "parascope: --screenshot writes a .png file\n");
        return false;
    }
    if (parser.isSet(o.dialogOpt) && parser.value(o.dialogOpt) != QLatin1String("advisor")) {
        std::fprintf(stderr, "parascope: --dialog needs advisor, got \"%s\"\n", qPrintable(parser.value(o.dialogOpt)));
        return false;
    }
    c.advisor = parser.isSet(o.dialogOpt);
    return true;
}

// An export's size and scale; false (message printed) when they are wrong.
bool checkExportImage(const QCommandLineParser& parser, const Options& o, Checked& c)
{
    const std::optional<QSize> size = parseSize(parser.value(o.sizeOpt));
    bool oks = false;
    c.scale = parser.value(o.scaleOpt).toDouble(&oks);
    if (!size || !oks) {
        std::fprintf(stderr, "parascope: --size needs WxH (e.g. 1920x1080) and --scale a number\n");
        return false;
    }
    c.export_size = *size;
    const bool png
        = parascope::ui::withExtension(parser.value(o.outOpt)).endsWith(QLatin1String(".png"), Qt::CaseInsensitive);
    if (const QString e = parascope::ui::checkExportSize(c.export_size, c.scale, png); !e.isEmpty()) {
        std::fprintf(stderr, "parascope: %s\n", qPrintable(e));
        return false;
    }
    return true;
}

// Options that name a value are checked before anything is drawn: a typo is exit 2, never a
// silent default. nullopt: a check failed and printed why.
std::optional<Checked> checkValues(const QCommandLineParser& parser, const Options& o, const Mode& mode)
{
    Checked c;
    const std::optional<MainWindow::Tab> tab = checkNamedValues(parser, o);
    if (!tab)
        return std::nullopt;
    c.tab = *tab;
    if (!checkLesson(parser, o, c))
        return std::nullopt;
    if (mode.exporting) {
        if (const QString e = parascope::ui::checkExportFile(parser.value(o.outOpt)); !e.isEmpty()) {
            std::fprintf(stderr, "parascope: %s\n", qPrintable(e));
            return std::nullopt;
        }
    }
    if (mode.screenshot && !checkScreenshot(parser, o, c))
        return std::nullopt;

    // An export's size and scale are checked before anything is loaded or drawn.
    if (mode.exporting && !checkExportImage(parser, o, c))
        return std::nullopt;
    return c;
}

// The headless --export: renders the chart to --out; the exit code.
int exportChart(MainWindow& window, const QCommandLineParser& parser, const Options& o, const Checked& c)
{
    const std::optional<parascope::ui::ChartKind> chart
        = parascope::enumFromName<parascope::ui::ChartKind>(parser.value(o.exportOpt).toStdString());
    if (!chart) {
        std::fprintf(stderr, "parascope: --export needs one of %s\n",
                     parascope::enumNameList<parascope::ui::ChartKind>().c_str());
        return 2;
    }
    if (*chart == parascope::ui::ChartKind::Sweep)
        window.showSweep(parser.value(o.sweepOpt), true);
    if (*chart == parascope::ui::ChartKind::Search)
        window.searchView()->runSearch(false);
    if (!parser.isSet(o.outOpt)) {
        std::fprintf(stderr, "parascope: --export needs --out FILE\n");
        return 2;
    }
    window.resize(c.export_size);
    const QString error = window.exports()->exportChartTo(*chart, parser.value(o.outOpt), c.export_size, c.scale,
                                                          !parser.isSet(o.noContextOpt));
    if (!error.isEmpty()) {
        std::fprintf(stderr, "parascope: %s\n", qPrintable(error));
        return 2;
    }
    return 0;
}

// --dialog advisor: the Advisor opened and worked out, drawn centred over the window's image as a
// screen would show it (at its own size, or the screen's less a margin when that is smaller).
void paintAdvisor(MainWindow& window, QImage& image)
{
    parascope::ui::AdvisorDialog* advisor = window.course()->showAdvisor();
    while (advisor->running())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    advisor->resize(std::min(advisor->width(), image.width() - 40), std::min(advisor->height(), image.height() - 40));
    QCoreApplication::processEvents();
    const QImage dialog = advisor->grab().toImage();
    QPainter painter(&image);
    painter.drawImage((image.width() - dialog.width()) / 2, (image.height() - dialog.height()) / 2, dialog);
}

// The headless --screenshot: the whole window as a PNG; the exit code.
int takeScreenshot(MainWindow& window, const QCommandLineParser& parser, const Options& o, const Checked& c)
{
    // The whole window as it looks on a screen of that size: laid out at the size (or at its
    // minimum size when that is larger, which is then reported), grabbed, cropped to the screen.
    if (parser.isSet(o.presenterOpt))
        window.presenter()->setOn(true);
    window.showTab(c.tab);
    if (parser.value(o.tabOpt) == QLatin1String("memory-allocator"))
        window.memoryTimeChart()->setAllocatorView(true);
    if (c.tab == MainWindow::Tab::Sweep)
        window.showSweep(parser.value(o.sweepOpt), true);
    if (c.tab == MainWindow::Tab::Search)
        window.searchView()->runSearch(false);
    if (parser.isSet(o.handInOpt) && window.course()->design()->pending()) {
        window.course()->design()->handIn(); // graded when the Advisor and the search are back
        while (!window.course()->design()->grade())
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
    window.resize(c.window_size);
    window.show();
    QCoreApplication::processEvents(); // lay out, then draw what the layout changed (no user input here)
    // The "What would fix it" list is evaluated off the GUI thread: the screenshot waits for it.
    while (window.diagnosticsPanel()->adviceRunning())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    QCoreApplication::processEvents();
    const QSize needed = window.minimumSizeHint();
    if (needed.width() > c.window_size.width() || needed.height() > c.window_size.height())
        std::fprintf(stderr,
                     "parascope: note: the window needs at least %dx%d; the screenshot shows the top-left %dx%d\n",
                     needed.width(), needed.height(), c.window_size.width(), c.window_size.height());
    QImage image = window.grab().toImage().copy(QRect(QPoint(0, 0), c.window_size));
    if (c.advisor)
        paintAdvisor(window, image);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    if (const QString e = parascope::ui::writeFileAtomically(parser.value(o.shotOpt), png); !e.isEmpty()) {
        std::fprintf(stderr, "parascope: %s\n", qPrintable(e));
        return 2;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    parascope::ui::tuneAllocatorForRedraws(argv); // re-executes once with the allocator kept warm
    // Headless export, --help and --version need no display: pick the offscreen platform unless
    // one is forced (without a display Qt would abort before the parser could answer).
    const Mode mode = scanArguments(argc, argv);
    if ((mode.exporting || mode.screenshot || mode.informational) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    describeApplication();

    QCommandLineParser parser;
    const Options o;
    setUpParser(parser, o);
    parser.process(app);

    const std::optional<Checked> checked = checkValues(parser, o, mode);
    if (!checked)
        return 2;

    const bool headless = mode.exporting || mode.screenshot;
    MainWindow window(nullptr, headless ? MainWindow::Session::Headless : MainWindow::Session::Desktop);
    if (parser.isSet(o.langOpt))
        window.setLanguage(parser.value(o.langOpt), MainWindow::Remember::No); // this run only: the menu's choice stays
    const QStringList args = parser.positionalArguments();
    if (!args.isEmpty()) {
        const QString error = window.files()->openScenario(args.front());
        if (!error.isEmpty() && headless) {
            std::fprintf(stderr, "parascope: %s: %s\n", qPrintable(args.front()), qPrintable(error));
            return 2;
        }
    }
    if (!checked->lesson.isEmpty())
        window.course()->loadLesson(checked->lesson, checked->step);
    window.model()->clearHistory(); // what the app opened with is where undo stops
    if (mode.exporting)
        return exportChart(window, parser, o, *checked);
    if (mode.screenshot)
        return takeScreenshot(window, parser, o, *checked);
    if (parser.isSet(o.presenterOpt))
        window.presenter()->setOn(true);
    // Crash recovery: autosave from here on, and offer back what a killed session left.
    window.files()->startAutosave();
    window.show();
    window.files()->offerRecovery();
    return app.exec();
}
