// The Search and Sweep views as a lecturer reads them (issue: heatmap and sweep that say what
// they show), offscreen: the heatmap's best cell is the strongest colour, unlike the background
// and the empty cells; every cell carries its value (or, when too small, its tooltip does); empty
// cells are marked and the caption says what the marks mean; the star sits on the Pareto front;
// a PP sweep says that the GPU count changes with it, a micro-batch sweep has nothing to say.
// Slides: an SVG export draws its text as outlines and looks like the PNG. The Collectives and
// memory-over-time tabs, the Advisor, the exercises and the communication what-ifs are
// tst_views_teaching.

#include "io/error_bands.h"
#include "io/report_json.h"
#include "io/scenario_json.h"
#include "status_line.h"
#include "comm_chart.h"
#include "format.h"
#include "memory_chart.h"
#include "language.h"
#include "main_window.h"
#include "controllers/export_controller.h"
#include "models/scenario_model.h"
#include "search_view.h"
#include "svg_text.h"
#include "sweep_view.h"
#include "views_scenarios.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QToolTip>
#include <QtTest>

#include <cmath>

using namespace parascope;
using namespace parascope::ui;
using parascope::test::views::sevenB;
using parascope::test::views::seventyB;

namespace {

// The mean colour of a 5×5 patch around `at`.
QColor patch(const QImage& image, QPoint at)
{
    int r = 0, g = 0, b = 0, n = 0;
    for (int dx = -2; dx <= 2; ++dx)
        for (int dy = -2; dy <= 2; ++dy) {
            const QColor c = image.pixelColor(at + QPoint(dx, dy));
            r += c.red();
            g += c.green();
            b += c.blue();
            ++n;
        }
    return QColor(r / n, g / n, b / n);
}

int distance(const QColor& a, const QColor& b)
{
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue());
}

// A point inside cell `h`, beside its centred text (a third of the way to the left edge).
QPoint besideText(SearchView& v, const HeatCell& h)
{
    QCPAxisRect* rect = v.plot()->axisRects().at(1);
    return QPoint(int(rect->axis(QCPAxis::atBottom)->coordToPixel(h.x - 0.33)),
                  int(rect->axis(QCPAxis::atLeft)->coordToPixel(h.y)));
}

QStringList tickLabels(QCPAxis* axis)
{
    const auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
    return ticker ? QStringList(ticker->ticks().values()) : QStringList();
}

} // namespace

class TstViews : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { uiLanguageStorage() = QStringLiteral("en"); }

    // Chinese has no spaces between words: a line broke only at the few spaces beside Latin
    // words ("…每块其他 GPU" / "一次，跨节点时…" / "（再由 NVLink" / "转发到节点内）"), leaving half
    // lines. It now breaks beside any Chinese character, never before "，" or after "（", and
    // never between a number and its unit ("45.3 GB/s").
    void wrapBreaksChineseAnywhereButPunctuation()
    {
        const QFont font(QStringLiteral("Noto Sans CJK SC"), 12);
        const QFontMetrics fm(font);
        const QString zh = QStringLiteral(
            "DeepEP 把一个词元只发给持有其任一专家的每块其他 GPU 一次，跨节点时只发给每个其他节点一次（再由 NVLink "
            "转发到节点内）；图中的两两交换则为每个专家各发一份。");
        const int width = fm.horizontalAdvance(zh) / 3;
        const QStringList lines = wrapText(zh, fm, width).split(QLatin1Char('\n'));
        QVERIFY2(lines.size() >= 3 && lines.size() <= 4, qPrintable(lines.join(QLatin1Char('|'))));
        QCOMPARE(lines.join(QString()).remove(QLatin1Char(' ')), QString(zh).remove(QLatin1Char(' ')));
        for (int i = 0; i < lines.size(); ++i) {
            QVERIFY2(fm.horizontalAdvance(lines[i]) <= width, qPrintable(lines[i]));
            if (i + 1 < lines.size()) // full lines: no half line left by a far-away space
                QVERIFY2(fm.horizontalAdvance(lines[i]) > width - 3 * fm.horizontalAdvance(QChar(0x4E00)),
                         qPrintable(lines[i]));
            QVERIFY2(!QStringLiteral("，。；：）").contains(lines[i].front()), qPrintable(lines[i]));
            QVERIFY2(!QStringLiteral("（").contains(lines[i].back()), qPrintable(lines[i]));
        }
        // An emoji (a surrogate pair) is never cut in two, even in a run with nowhere to break.
        const QString emoji = QString(40, QChar(0x2603)) + QString::fromUtf8("\xF0\x9F\x98\x80").repeated(30);
        for (int w = 30; w < 200; w += 7)
            for (const QString& line : wrapText(emoji, fm, w).split(QLatin1Char('\n')))
                QVERIFY2(!line.front().isLowSurrogate() && !line.back().isHighSurrogate(), qPrintable(line));
        // "8 块 GPU": the number keeps its measure word.
        const QString count = QStringLiteral("节点内 TP 8 块 GPU 节点间 DP 64 块 GPU");
        for (int w = fm.horizontalAdvance(QStringLiteral("节点间 DP")); w < fm.horizontalAdvance(count); w += 3)
            for (const QString& line : wrapText(count, fm, w).split(QLatin1Char('\n')))
                QVERIFY2(!line.endsWith(QLatin1Char('8')) && !line.endsWith(QStringLiteral("64")), qPrintable(line));
        // A number keeps its unit: "45.3 GB/s" is never split, even where the width falls inside it.
        const QString en = QStringLiteral("total bus bandwidth busbw 45.3 GB/s as nccl-tests prints them");
        for (int w = fm.horizontalAdvance(QStringLiteral("busbw")) + 4; w < fm.horizontalAdvance(en); w += 3)
            for (const QString& line : wrapText(en, fm, w).split(QLatin1Char('\n')))
                QVERIFY2(!line.endsWith(QStringLiteral("45.3")) && !line.startsWith(QStringLiteral("GB/s")),
                         qPrintable(QStringLiteral("%1 px: %2").arg(w).arg(line)));
    }

    // One GPU has no collectives: the communication chart stood empty over an axis of 10⁻⁷ ms.
    // It says so, on an axis of 0 … 1.
    void oneGpuHasNothingToCommunicate()
    {
        ScenarioModel model;
        model.setScenario(test::views::scenario(R"({"schema":"parascope.scenario/1","model":"llama2-7b",
            "cluster":"dgx-a100-80g","parallel":{"tp":1,"pp":1,"dp":1},
            "training":{"seq_len":2048,"micro_batch":1,"global_batch":1,"recompute":"full"}})"));
        model.flush();
        QVERIFY(model.estimate().communication.empty());
        CommChart chart(&model);
        chart.resize(500, 300);
        chart.refresh();
        QCOMPARE(chart.rowTexts(), QStringList{QStringLiteral("One GPU: nothing to communicate")});
        QCOMPARE(chart.plot()->xAxis->range().upper, 1.0);
    }

    // An invalid configuration hides the memory chart; the capacity label, drawn above the bars'
    // frames on the axes' layer, stayed ("capacity 80.0 GiB" over "Invalid configuration").
    void capacityLabelGoesWithAnInvalidChart()
    {
        ScenarioModel model;
        model.setScenario(test::views::scenario(R"({"schema":"parascope.scenario/1","model":"llama2-7b",
            "cluster":"dgx-a100-80g","parallel":{"tp":1,"pp":1,"dp":8},"training":{"global_batch":8}})"));
        model.flush();
        MemoryChart chart(&model);
        chart.resize(600, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const auto capacityShown = [&chart] {
            chart.plot()->replot();
            for (int i = 0; i < chart.plot()->itemCount(); ++i)
                if (auto* t = qobject_cast<QCPItemText*>(chart.plot()->item(i));
                    t && t->visible() && t->text().contains(QStringLiteral("GiB")) && t->layer()->visible())
                    return true;
            return false;
        };
        QVERIFY(capacityShown());
        Scenario bad = model.scenario();
        bad.parallel.tp = 3; // 32 heads: no
        bad.parallel.dp = 1;
        model.setScenario(bad);
        model.flush();
        QVERIFY(model.estimate().hasErrors());
        QVERIFY(!capacityShown());
    }

    void heatmapShowsTheBestAndMarksEmptyCells()
    {
        ScenarioModel model;
        model.setScenario(seventyB());
        SearchView v(&model);
        v.resize(1000, 900);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.runSearch(false);
        const QImage image = v.plot()->toPixmap().toImage(); // lays out, then draws (texts fitted)
        const std::vector<HeatCell>& cells = v.heatCells();
        QVERIFY(cells.size() >= 4);
        const auto best = std::find_if(cells.begin(), cells.end(), [](const HeatCell& h) { return h.best; });
        QVERIFY(best != cells.end());
        QCOMPARE(std::count_if(cells.begin(), cells.end(), [](const HeatCell& h) { return h.best; }), 1L);
        const auto empty = std::find_if(cells.begin(), cells.end(), [](const HeatCell& h) { return h.empty; });
        QVERIFY(empty != cells.end()); // Llama-2 70B with TP 1 · PP 2 fits nowhere

        // The best cell is the fastest one, and the table's first row (the star) has its step.
        for (const HeatCell& h : cells)
            QVERIFY(h.empty || h.step_s >= best->step_s);
        QCOMPARE(best->step_s, v.result().top.front().step_s);
        // Its tooltip says how sure that step is: the band of the table's first layout (issue 36 §1).
        const ErrorBand band = bandFor(builtInBands(), applyRow(model.scenario(), v.result().top.front()));
        QVERIFY2(best->tooltip.contains(QString::fromStdString(bandText(band, true).en)), qPrintable(best->tooltip));

        // Its colour, as drawn: far from the white background and from an empty cell, and it is
        // the strongest (darkest) of all the cells.
        const QColor white(Qt::white);
        const QColor best_px = patch(image, besideText(v, *best)), empty_px = patch(image, besideText(v, *empty));
        QVERIFY2(distance(best_px, white) > 300, qPrintable(best_px.name()));
        QVERIFY2(distance(best_px, empty_px) > 200, qPrintable(best_px.name() + QLatin1Char(' ') + empty_px.name()));
        QVERIFY(distance(best_px, best->fill) < 30); // drawn in the colour the view reports
        for (const HeatCell& h : cells) {
            if (h.empty)
                continue;
            QVERIFY(qGray(h.fill.rgb()) >= qGray(best->fill.rgb()));
            QVERIFY2(distance(h.fill, white) > 60, qPrintable(h.fill.name())); // even the slowest is no background
            QVERIFY(distance(h.fill, empty->fill) > 60); // and no empty cell
        }
        // Empty cells: light grey with hatching (the patch is grey, darker than the plain fill).
        QVERIFY(std::abs(empty_px.red() - empty_px.blue()) < 12 && empty_px.red() < 250 && empty_px.red() > 120);

        // Every cell says its value (or why it is empty), in the chart's font, readable on its fill.
        const QList<QCPItemText*> texts = v.plot()->findChildren<QCPItemText*>();
        for (const HeatCell& h : cells) {
            QVERIFY2(h.text_shown, qPrintable(h.text));
            if (h.empty)
                QVERIFY(h.text == QStringLiteral("OOM") || h.text == QStringLiteral("—"));
            else
                QVERIFY(std::abs(h.text.toDouble() / h.step_s - 1) < 0.01); // "9.85" for 9.854 s
            const auto it = std::find_if(texts.begin(), texts.end(), [&](QCPItemText* t) {
                return t->text() == h.text && t->visible() && std::lround(t->position->coords().x()) == h.x
                    && std::lround(t->position->coords().y()) == h.y;
            });
            QVERIFY2(it != texts.end(), qPrintable(h.text));
            QCOMPARE((*it)->font().pointSize(), std::max(6, v.theme().font_pt - 1));
            if (!h.empty) // white on dark cells, black on light ones
                QCOMPARE((*it)->color(), qGray(h.fill.rgb()) < 128 ? QColor(Qt::white) : QColor(Qt::black));
            QVERIFY(h.tooltip.contains(QStringLiteral("TP %1 · PP %2").arg(h.tp).arg(h.pp)));
        }
        QVERIFY(best->tooltip.contains(best->text + QStringLiteral(" s")));
        // The caption explains the colours and the marks.
        QVERIFY(v.heatCaption().contains(QStringLiteral("darker = faster")));
        QVERIFY(v.heatCaption().contains(QStringLiteral("OOM")) && v.heatCaption().contains(QStringLiteral("—")));

        // The star (best tokens/s) is on the Pareto front.
        const SearchRow& first = v.result().top.front();
        QVERIFY(std::any_of(v.result().pareto.begin(), v.result().pareto.end(),
                            [&](const SearchRow& p) { return p.index == first.index; }));

        // Too small for the numbers: they go, the tooltip keeps them (hover shows it).
        const HeatCell fastest = *best;
        v.resize(420, 420);
        QApplication::processEvents();
        v.plot()->replot();
        const std::vector<HeatCell>& small = v.heatCells();
        QVERIFY(std::any_of(small.begin(), small.end(), [](const HeatCell& h) { return !h.text_shown; }));
        for (const HeatCell& h : small)
            QVERIFY(!h.tooltip.isEmpty());
        QCPAxisRect* heat = v.plot()->axisRects().at(1);
        const QPoint centre(int(heat->axis(QCPAxis::atBottom)->coordToPixel(fastest.x)),
                            int(heat->axis(QCPAxis::atLeft)->coordToPixel(fastest.y)));
        QTest::mouseMove(v.plot(), centre);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(fastest.text), qPrintable(QToolTip::text()));
    }

    void sweepSaysWhatElseChanges()
    {
        ScenarioModel model;
        model.setScenario(sevenB());
        SweepView v(&model);
        v.resize(1000, 800);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        auto* note = v.findChild<QLabel*>(QStringLiteral("sweepAxisNote"));
        QVERIFY(note);
        QCPAxis* bottom = v.plot()->axisRects().at(2)->axis(QCPAxis::atBottom);

        // PP keeps DP 4 on TP 2: 8, 16, 32 GPUs. The note says so, and the values' tick labels
        // carry the GPU count on a second line.
        v.runSweep(QStringLiteral("parallel.pp"), {1, 2, 4}, true);
        QCOMPARE(v.axisNote(), QStringLiteral("Along this axis the GPU count changes from 8 to 32 (DP kept at 4)."));
        QVERIFY(note->isVisibleTo(&v));
        QVERIFY(note->text().contains(v.axisNote()));
        const QStringList labels = tickLabels(bottom);
        QVERIFY2(labels.contains(QStringLiteral("1\n8 GPUs")) || labels.contains(QStringLiteral("1\n8 GPU(s)")),
                 qPrintable(labels.join(u'|')));
        QVERIFY(v.pointText(2).contains(QStringLiteral("DP 4")));
        // Each point says how sure its step is, as `sweep --format json` does (issue 36 §1).
        QVERIFY2(v.pointText(2).contains(QStringLiteral("How sure: ")
                                         + QString::fromStdString(bandText(v.result().points[2].band).en)),
                 qPrintable(v.pointText(2)));
        // And the step's legend (what an export shows): the band, one class along this axis.
        bool legend = false;
        const QString step_band = QString::fromStdString(bandText(v.result().points[0].band, true).en);
        for (int i = 0; i < v.plot()->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(v.plot()->legend->item(i)))
                legend = legend || item->plottable()->name() == QStringLiteral("Step time (s) ") + step_band;
        QVERIFY(legend);
        // In Chinese too.
        uiLanguageStorage() = QStringLiteral("zh");
        QCOMPARE(v.axisNote(), QStringLiteral("沿此轴，GPU 数从 8 变为 32（DP 保持为 4）。"));
        uiLanguageStorage() = QStringLiteral("en");

        // The micro batch moves nothing else: no note, one-line labels.
        v.runSweep(QStringLiteral("training.micro_batch"), {1, 2, 4}, true);
        QVERIFY(v.axisNote().isEmpty());
        QVERIFY(!note->isVisibleTo(&v));
        for (const QString& l : tickLabels(bottom))
            QVERIFY2(!l.contains(QLatin1Char('\n')), qPrintable(l));
    }

    void svgKeepsItsTextSelectable()
    {
        // A lecturer selects and edits the slide's text: the SVG carries real <text> (Chinese
        // included) whose fonts fall back to the slide machine's Simplified Chinese face; a string
        // Qt drew in several runs is one <text>. Where the first font is installed (QSvgRenderer
        // reads one family, not a list), it matches the PNG export but for anti-aliasing.
        QTemporaryDir dir;
        MainWindow w;
        w.setLanguage(QStringLiteral("zh"));
        w.model()->setScenario(sevenB());
        const QSize size(1024, 640);
        const QString svg = dir.filePath(QStringLiteral("m.svg")), png = dir.filePath(QStringLiteral("m.png"));
        QCOMPARE(w.exports()->exportChartTo(ChartKind::Memory, svg, size, 1), QString());
        QCOMPARE(w.exports()->exportChartTo(ChartKind::Memory, png, size, 1), QString());
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.count("<text") > 20);
        QVERIFY(QString::fromUtf8(bytes).contains(QStringLiteral(">显存容量")));
        QVERIFY(bytes.contains("font-family=\"'Noto Sans CJK SC', 'Source Han Sans SC', 'PingFang SC', "
                               "'Microsoft YaHei'"));
        QVERIFY(bytes.contains("<svg xmlns=\"http://www.w3.org/2000/svg\"")); // no generated n1: prefixes
        QVERIFY(QString::fromUtf8(bytes).contains(contextLine(w.model()->scenario(), w.model()->estimate().gpus)
                                                  + QStringLiteral("</text>")));

        QSvgRenderer renderer(QString::fromUtf8(bytes)
                                  .replace(QRegularExpression(QStringLiteral("font-family=\"'([^']*)'[^\"]*\"")),
                                           QStringLiteral("font-family=\"\\1\""))
                                  .toUtf8());
        QVERIFY(renderer.isValid());
        QImage drawn(size, QImage::Format_ARGB32);
        drawn.fill(Qt::white);
        QPainter painter(&drawn);
        renderer.render(&painter);
        painter.end();
        const QImage reference = QImage(png).convertToFormat(QImage::Format_ARGB32);
        QCOMPARE(reference.size(), size);
        // Pixels that differ clearly (not an edge's shade): few, and text exists in both.
        int differ = 0, dark_svg = 0, dark_png = 0;
        for (int y = 0; y < size.height(); ++y)
            for (int x = 0; x < size.width(); ++x) {
                const int a = qGray(drawn.pixel(x, y)), b = qGray(reference.pixel(x, y));
                differ += std::abs(a - b) > 96 ? 1 : 0;
                dark_svg += a < 128 ? 1 : 0;
                dark_png += b < 128 ? 1 : 0;
            }
        QVERIFY2(differ < size.width() * size.height() / 100, qPrintable(QString::number(differ)));
        QVERIFY(dark_png > 1000);
        QVERIFY2(std::abs(dark_svg - dark_png) < dark_png / 5,
                 qPrintable(QStringLiteral("%1 vs %2").arg(dark_svg).arg(dark_png)));
    }

    // Issue 36 §1: the status bar quotes the step with its band, and its tooltip says the band
    // as the CLI's report and JSON say it (one text, core/io/error_bands.h), in each language.
    void statusBarSaysHowSureAsTheCliDoes()
    {
        for (const char* lang : {"en", "zh"}) {
            MainWindow w;
            w.setLanguage(QLatin1String(lang));
            w.model()->setScenario(sevenB());
            w.model()->flush();
            const auto* status = w.findChild<StatusLabel*>();
            QVERIFY(status);
            const ErrorBand band = bandFor(builtInBands(), w.model()->scenario());
            QVERIFY(band.runs > 0);
            const QString short_form = QString::fromStdString(bandText(band, true).en);
            QVERIFY2(status->text().contains(short_form), qPrintable(status->text()));
            const nlohmann::json report = reportToJson(w.model()->scenario(), w.model()->estimate(), lang, false);
            const QString cli_text = QString::fromStdString(report["uncertainty"]["text"].get<std::string>());
            QVERIFY2(status->toolTip().contains(cli_text.toHtmlEscaped()), qPrintable(status->toolTip()));
        }
    }

    void svgFontsFallBackAndBadInputSaysWhere()
    {
        // Every font-family (on a group or a text) leads with the font drawn with, then the
        // common Simplified Chinese and Latin faces; the text, its place and its fill are kept.
        const QByteArray svg
            = "<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 200 50\">"
              "<g transform=\"rotate(-90)\" font-family=\"DejaVu Sans\"><text fill=\"#d55e00\" x=\"5\" y=\"20\" "
              "font-family=\"Noto Sans CJK SC\" font-size=\"12\" xml:space=\"preserve\"> GiB 显存</text>"
              "<text x=\"1\" y=\"2\" xml:space=\"preserve\"> </text></g></svg>";
        QString error;
        const QString out = QString::fromUtf8(withFontFallbacks(svg, &error));
        QVERIFY(error.isEmpty());
        QVERIFY(out.contains(QStringLiteral("<g transform=\"rotate(-90)\" font-family=\"'DejaVu Sans', "
                                            "'Noto Sans CJK SC', ")));
        QVERIFY(out.contains(QStringLiteral("<text fill=\"#d55e00\" x=\"5\" y=\"20\" font-family=\"'Noto Sans CJK SC', "
                                            "'Source Han Sans SC'")));
        QVERIFY(out.contains(QStringLiteral("> GiB 显存</text>")));
        QVERIFY(out.contains(QStringLiteral("xml:space=\"preserve\"> </text>"))); // a space alone is kept
        QCOMPARE(fontFallbacks(QStringLiteral("Arial")).count(QStringLiteral("Arial")), 1);
        QVERIFY(fontFallbacks(QString()).endsWith(QStringLiteral("sans-serif")));
        // Broken XML: an error with its place, and nothing to write.
        QVERIFY(withFontFallbacks("<svg><text>open", &error).isEmpty());
        QVERIFY2(error.startsWith(QStringLiteral("SVG line 1")), qPrintable(error));
    }
};

QTEST_MAIN(TstViews)
#include "tst_views.moc"
