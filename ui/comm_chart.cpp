#include "comm_chart.h"
#include "format.h"

#include "comm/bandwidth_ladder.h"
#include "estimate/display_names.h"
#include "language.h"
#include "models/scenario_model.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>

namespace parascope::ui {

namespace {

// Three significant figures are plenty on a slide ("712 ms", "1.63 s").
QString shortTime(double s)
{
    return s >= 1 ? QString::number(s, 'g', 3) + QStringLiteral(" s")
                  : QString::number(s * 1e3, 'g', 3) + QStringLiteral(" ms");
}

} // namespace

CommChart::CommChart(ScenarioModel* model, QWidget* parent)
    : ChartView(model, parent)
{
    // Horizontal bars (the key axis is the vertical one); each row is two lines of text — what
    // runs where, and its time, bytes and calls — above its bars, so a narrow chart keeps the
    // whole width for the bars and no label overlaps another.
    link_ = new QCPBars(plot_->yAxis, plot_->xAxis);
    exposed_ = new QCPBars(plot_->yAxis, plot_->xAxis);
    pinned_ = new QCPBars(plot_->yAxis, plot_->xAxis);
    auto* group = new QCPBarsGroup(plot_);
    for (QCPBars* b : {link_, exposed_, pinned_}) {
        b->setWidth(0.13);
        b->setPen(Qt::NoPen);
        b->setBarsGroup(group);
    }
    link_->setBrush(palette::sky);
    exposed_->setBrush(palette::vermillion);
    pinned_->setBrush(palette::grey);
    plot_->yAxis->setRangeReversed(true);
    plot_->yAxis->setTicks(false);
    plot_->yAxis->setTickLabels(false);
    placeLegendBelow(plot_, 1); // one entry per row: the chart is often narrow
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        const int row = int(std::lround(plot_->yAxis->pixelToCoord(e->position().y())));
        if (plot_->axisRect()->rect().contains(e->position().toPoint()) && row >= 0 && row < int(rows_.size()))
            QToolTip::showText(e->globalPosition().toPoint(), tooltipForRow(row), plot_);
        else
            QToolTip::hideText();
    });
    // A click on a row opens that collective (MainWindow: the Collectives tab), once the
    // double-click interval has passed without a second click.
    click_ = new QTimer(this);
    click_->setSingleShot(true);
    click_->setInterval(QApplication::doubleClickInterval());
    connect(click_, &QTimer::timeout, this, [this] {
        if (const int entry = entryAtRow(clicked_row_); entry >= 0)
            emit entryActivated(entry);
    });
    connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        if (e->button() != Qt::LeftButton || !plot_->axisRect()->rect().contains(e->position().toPoint()))
            return;
        clicked_row_ = int(std::lround(plot_->yAxis->pixelToCoord(e->position().y())));
        click_->start();
    });
    connect(plot_, &QCustomPlot::mouseDoubleClick, click_, &QTimer::stop);
    retranslate();
}

int CommChart::entryAtRow(int row) const
{
    if (row < 0 || row >= int(rows_.size()) || rows_[std::size_t(row)].size() != 1)
        return -1;
    return rows_[std::size_t(row)].front();
}

void CommChart::retranslate()
{
    link_->setName(tr("On the link"));
    exposed_->setName(tr("Exposed (not overlapped)"));
    pinned_->setName(tr("A: exposed (pinned)"));
    refresh();
}

int CommChart::entryCount() const { return int(model_->estimate().communication.size()); }

QStringList CommChart::rowTexts() const
{
    QStringList out;
    for (const QCPItemText* t : labels_)
        out << t->text();
    return out;
}

QString CommChart::entryName(const CommEntry& c)
{
    std::vector<PipelineBoundary> boundaries;
    for (const BoundarySend& b : c.boundaries)
        boundaries.push_back(b.boundary);
    const Localized link = boundaries.empty() ? displayName(c.link) : boundaryLinks(boundaries);
    return tr("%1 %2 · %3 · %4 · %5 %6 GB/s")
        .arg(inUi(displayName(c.group)), inUi(displayName(c.collective)), inUi(displayName(c.purpose)), inUi(link),
             inUi(displayName(c.algorithm)), QString::number(c.busbw_bytes_per_s / 1e9, 'f', 1));
}

QString CommChart::tooltipFor(int entry) const
{
    const Estimate& e = model_->estimate();
    if (entry < 0 || entry >= int(e.communication.size()))
        return {};
    const CommEntry& c = e.communication[std::size_t(entry)];
    QString text = tr("<b>%1</b><br>a group of %n GPU(s)", nullptr, int(c.group_size)).arg(entryName(c).toHtmlEscaped())
        + tr(" on %n node(s)", nullptr, int(c.nodes_spanned))
        + tr(", by the %1 algorithm at a bus bandwidth of %2 GB/s (nccl-tests' busbw: factor·S/t)")
              .arg(inUi(displayName(c.algorithm)), QString::number(c.busbw_bytes_per_s / 1e9, 'f', 1))
        + tr("; %1 calls of %2; %3 sent per GPU per step")
              .arg(c.calls_per_step, 0, 'f', 0)
              .arg(bytesText(c.bytes_per_call), bytesText(c.bytes_per_gpu_per_step));
    if (!c.boundaries.empty()) {
        text += QStringLiteral("<br><br>") + tr("Stage boundaries (from → to, link, one send):");
        constexpr std::size_t kListed = 16; // a tooltip, not a table: the rest are counted
        for (std::size_t i = 0; i < c.boundaries.size() && i < kListed; ++i) {
            const BoundarySend& b = c.boundaries[i];
            text += QStringLiteral("<br>%1 → %2 · %3 · %4")
                        .arg(b.boundary.from_rank)
                        .arg(b.boundary.to_rank)
                        .arg(inUi(displayName(b.boundary.link)), shortTime(b.seconds));
        }
        if (c.boundaries.size() > kListed)
            text += QStringLiteral("<br>") + tr("… and %n more", nullptr, int(c.boundaries.size() - kListed));
    }
    text += ladderHtml(c);
    for (const Term& t : c.terms)
        text += QStringLiteral("<br><br>") + termHtml(t, false);
    return text;
}

QString CommChart::ladderHtml(const CommEntry& c) const
{
    if (c.group_size < 2)
        return {};
    GroupPlacement g;
    g.size = c.group_size;
    g.nodes = std::max<std::int64_t>(1, c.nodes_spanned);
    g.ranks_per_node = std::max<std::int64_t>(1, c.group_size / g.nodes);
    g.link = c.link;
    networkShares(g, model_->scenario().cluster);
    const BandwidthLadder l = bandwidthLadder(c.link, model_->scenario().cluster, c.collective, c.bytes_per_call, g);
    std::vector<std::string> lines = ladderLines(l, uiLanguage().toStdString());
    if (l.algorithm != c.algorithm && lines.size() > 4) // DeepEP: the last rungs are its own (above)
        lines.erase(lines.begin() + 4, lines.begin() + 6);
    QString out = QStringLiteral("<br><br>") + tr("Bandwidth ladder, %1:").arg(inUi(l.title).toHtmlEscaped());
    for (const std::string& line : lines)
        out += QStringLiteral("<br>") + QString::fromStdString(line).toHtmlEscaped();
    return out;
}

QString CommChart::tooltipForRow(int row) const
{
    if (row < 0 || row >= int(rows_.size()))
        return {};
    QStringList parts;
    for (int entry : rows_[std::size_t(row)])
        parts << tooltipFor(entry);
    return parts.join(QStringLiteral("<hr>"));
}

QStringList CommChart::rowLines(const QString& name, double time, double exposed, double bytes, double calls,
                                bool narrow, const QFontMetrics* fm, int width)
{
    const QString timing = time > 0 && exposed >= 0.995 * time
        ? tr("%1, all exposed").arg(shortTime(time))
        : tr("%1, exposed %2").arg(shortTime(time), shortTime(exposed));
    const QString volume = tr("%1 · %n call(s)", nullptr, int(std::lround(calls))).arg(bytesText(bytes));
    if (!narrow)
        return {name, timing + QStringLiteral(" · ") + volume};
    // A narrow chart: what runs and by which algorithm, what it carries over which link, its
    // time, its volume.
    const QString dot = QStringLiteral(" · ");
    const int parts = name.count(dot) + 1;
    const QString head = parts >= 4 ? name.section(dot, 0, 0) + dot + name.section(dot, -1) : name.section(dot, 0, 0);
    const QString tail = parts >= 4 ? name.section(dot, 1, -2) : name.section(dot, 1);
    // Measured (the chart's font and width): where those two lines would run over the chart
    // ("专家 DP ReduceScatter · 环形 46.7 GB/s" at 1024×768), the name's parts in order, as many on a
    // line as fit, a part wider than a line elided — 6 % to spare, as a one-line row (the plot's
    // buffer draws a little wider than these metrics).
    const int room = int(width * 0.94);
    if (!fm || (fm->horizontalAdvance(head) <= room && fm->horizontalAdvance(tail) <= room))
        return tail.isEmpty() ? QStringList{head, timing, volume} : QStringList{head, tail, timing, volume};
    QStringList lines;
    for (const QString& part : name.split(dot)) {
        if (!lines.isEmpty() && fm->horizontalAdvance(lines.back() + dot + part) <= room)
            lines.back() += dot + part;
        else
            lines << fm->elidedText(part, Qt::ElideRight, room);
    }
    return lines << timing << volume;
}

// How the rows are laid out: how many lines of text each has, and how many fit the height.
struct CommChart::RowLayout {
    bool narrow = false; // four lines of text per row instead of two
    bool names_only = false; // too low for the numbers: names only (the numbers are on hover)
    bool one_line = false; // too low even for a wrapped name: the name on one line, elided
    int width = 0; // the text's width in pixels
    int lines = 0; // lines of text and bars per row
    int fit = 1; // rows the height holds readably
    double bar_offset = 0; // the bars' key below the row's text
};

namespace {

// Entries by time on the link, longest first (ties keep their order).
std::vector<int> longestFirst(const std::vector<CommEntry>& comm)
{
    std::vector<int> order(comm.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return comm[std::size_t(a)].time_s > comm[std::size_t(b)].time_s; });
    return order;
}

// A's exposed time for the same collective (group, collective, purpose and link), if A has it.
std::optional<double> pinnedExposed(const Estimate* a, const CommEntry& c)
{
    if (!a)
        return std::nullopt;
    for (const CommEntry& ac : a->communication)
        if (ac.group == c.group && ac.collective == c.collective && ac.purpose == c.purpose && ac.link == c.link)
            return ac.exposed_s;
    return std::nullopt;
}

// A row's sums over its entries; `pinned`: A's exposed time for them, when A has any.
struct RowTotals {
    double time = 0, exposed = 0, bytes = 0, calls = 0;
    std::optional<double> pinned;
};

RowTotals sumRow(const std::vector<int>& entries, const Estimate& e, const Estimate* a)
{
    RowTotals sum;
    for (int entry : entries) {
        const CommEntry& c = e.communication[std::size_t(entry)];
        sum.time += c.time_s;
        sum.exposed += c.exposed_s;
        sum.bytes += c.bytes_per_gpu_per_step;
        sum.calls += c.calls_per_step;
        if (auto p = pinnedExposed(a, c))
            sum.pinned = sum.pinned.value_or(0) + *p;
    }
    return sum;
}

} // namespace

void CommChart::refresh()
{
    if (showInvalid())
        return;
    const Estimate& e = model_->estimate();
    // Rows by time on the link, longest first; what does not fit is summed into one last row.
    const std::vector<int> order = longestFirst(e.communication);
    const QFont font = plot_->xAxis->tickLabelFont();
    const RowLayout layout = rowLayout(e, QFontMetrics(font));
    for (QCPBars* b : {link_, exposed_, pinned_})
        b->setWidth(layout.one_line ? 0.2 : 0.3 / layout.lines); // two bars side by side under the text
    const int hidden = chooseRows(order, layout.fit);
    double top = 0;
    for (const CommEntry& c : e.communication)
        top = std::max(top, c.time_s);
    // Seconds or milliseconds, whichever reads better for the longest bar.
    const bool ms = top < 1;
    const double scale = ms ? 1e3 : 1;
    top = std::max(top, drawRows(e, layout, font, scale));
    const QString axis = ms ? tr("Time per step (ms)") : tr("Time per step (s)");
    plot_->xAxis->setLabel(hidden > 0 ? tr("%1\n%n more: double-click", nullptr, hidden).arg(axis) : axis);
    plot_->yAxis->setRange(-0.5, std::max<double>(double(rows_.size()), 1) - 0.5);
    plot_->xAxis->setRange(0, top > 0 ? top * scale * 1.05 : 1.0);
    if (rows_.empty()) // one GPU: an empty chart over an axis of 10⁻⁷ ms said nothing
        addNothingLabel(e.gpus == 1 ? tr("One GPU: nothing to communicate") : tr("No collectives in this layout"),
                        font);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

// The rows' text lines and how many rows the chart's height holds.
CommChart::RowLayout CommChart::rowLayout(const Estimate& e, const QFontMetrics& fm) const
{
    RowLayout out;
    // A row is its text — two lines, or four when a line is wider than the chart — and a line
    // of bars under it; the chart shows as many rows as its height holds readably.
    const int width = plot_->axisRect()->width() > 0 ? plot_->axisRect()->width() : plot_->width() - 40;
    for (const CommEntry& c : e.communication)
        for (const QString& l :
             rowLines(entryName(c), c.time_s, c.exposed_s, c.bytes_per_gpu_per_step, c.calls_per_step, false))
            out.narrow = out.narrow || fm.horizontalAdvance(l) > width - 8;
    // Narrow: the most lines a row's name takes (two, or three where its parts must spread).
    int text = 2;
    for (const CommEntry& c : e.communication)
        if (out.narrow)
            text = std::max<int>(text,
                                 rowLines(entryName(c), c.time_s, c.exposed_s, c.bytes_per_gpu_per_step,
                                          c.calls_per_step, true, &fm, width - 8)
                                     .size());
    out.lines = text + 1;
    const int height = plot_->axisRect()->height() > 0 ? plot_->axisRect()->height() : plot_->height() * 2 / 3;
    // QCPItemText spaces its lines a little wider than the font's height: a line's worth of margin.
    // A chart too low for one whole row shows the names only (the numbers are on hover).
    out.names_only = height < (out.lines + 1) * fm.height() + 6;
    if (out.names_only)
        out.lines = out.narrow ? text - 1 : 2;
    // Lower still (presenter mode at 1024×768): the name on one line, cut to the width, so that
    // it never runs over its bars.
    out.one_line = out.names_only && out.narrow && height < (out.lines + 1) * fm.height() + 6;
    if (out.one_line)
        out.lines = 1;
    out.width = width - 8;
    out.fit = std::max(1, height / ((out.lines + 1) * fm.height() + 6));
    out.bar_offset = out.one_line ? 0.25 : 0.5 - 0.6 / (out.lines + 1);
    return out;
}

// Fills rows_ from `order`; returns how many entries have no row (counted under the axis).
int CommChart::chooseRows(const std::vector<int>& order, int fit)
{
    const int n = int(order.size());
    // All rows when they fit; else the longest and one row summing "the other k" — or, on a
    // chart too low even for that, the longest alone and the count of the others under the axis.
    rows_.clear();
    const bool sum_the_rest = n > fit && fit >= 3;
    const int shown = n <= fit ? n : (sum_the_rest ? fit - 1 : fit);
    for (int i = 0; i < shown; ++i)
        rows_.push_back({order[std::size_t(i)]});
    if (sum_the_rest)
        rows_.emplace_back(order.begin() + shown, order.end());
    return sum_the_rest ? 0 : n - shown;
}

// Remakes the rows' bars and labels; returns A's longest exposed time (0 without A).
double CommChart::drawRows(const Estimate& e, const RowLayout& layout, const QFont& font, double scale)
{
    const Estimate* a = model_->pinnedEstimate();
    double top = 0;
    QVector<double> keys, link, exposed, pk, pv;
    for (QCPItemText* t : labels_)
        plot_->removeItem(t);
    labels_.clear();
    for (std::size_t r = 0; r < rows_.size(); ++r) {
        const RowTotals sum = sumRow(rows_[r], e, a);
        const double key = double(r) + layout.bar_offset;
        keys << key;
        link << sum.time * scale;
        exposed << sum.exposed * scale;
        if (sum.pinned) {
            pk << key;
            pv << *sum.pinned * scale;
            top = std::max(top, *sum.pinned);
        }
        const QString name = rows_[r].size() == 1 ? entryName(e.communication[std::size_t(rows_[r].front())])
                                                  : tr("The other %n collective(s)", nullptr, int(rows_[r].size()));
        const QFontMetrics fm(font);
        QStringList text
            = rowLines(name, sum.time, sum.exposed, sum.bytes, sum.calls, layout.narrow, &fm, layout.width);
        if (layout.one_line)
            // 5 % to spare beyond the label's 1 % indent: the plot paints into its own buffer,
            // where a line of Chinese came out a few pixels wider than these metrics say (presenter
            // mode at 1024×768 cut "环形 71.5 GB/s" at the chart's edge instead of eliding it).
            text = {QFontMetrics(font).elidedText(name, Qt::ElideRight, int(layout.width * 0.94))};
        else if (layout.names_only)
            text = text.mid(0, text.size() - (layout.narrow ? 2 : 1)); // the numbers are on hover
        addRowLabel(r, text.join(QLatin1Char('\n')), font);
    }
    link_->setData(keys, link, true);
    exposed_->setData(keys, exposed, true);
    pinned_->setData(pk, pv, true);
    pinned_->setVisible(!pk.isEmpty());
    pinned_->removeFromLegend();
    if (!pk.isEmpty())
        pinned_->addToLegend();
    return top;
}

// The chart's one line where it has no rows, in its middle.
void CommChart::addNothingLabel(const QString& text, const QFont& font)
{
    auto* label = new QCPItemText(plot_);
    label->setFont(font);
    label->setColor(QColor(90, 90, 90));
    label->setBrush(Qt::white); // over the grid's middle line
    label->setPadding(QMargins(4, 2, 4, 2));
    label->setPositionAlignment(Qt::AlignCenter);
    label->position->setType(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(0.5, 0.5);
    label->setText(text);
    labels_.push_back(label);
}

// Row r's text, from the left edge, above its bars.
void CommChart::addRowLabel(std::size_t r, const QString& text, const QFont& font)
{
    auto* label = new QCPItemText(plot_);
    label->setClipToAxisRect(true);
    label->setFont(font);
    label->setColor(Qt::black);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setTextAlignment(Qt::AlignLeft);
    label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    label->position->setTypeY(QCPItemPosition::ptPlotCoords);
    label->position->setCoords(0.01, double(r) - 0.48);
    label->setText(text);
    labels_.push_back(label);
}

} // namespace parascope::ui
