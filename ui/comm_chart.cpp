#include "comm_chart.h"
#include "format.h"

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
    return tr("%1 %2 · %3 · %4")
        .arg(inUi(displayName(c.group)), inUi(displayName(c.collective)), inUi(displayName(c.purpose)), inUi(link));
}

QString CommChart::tooltipFor(int entry) const
{
    const Estimate& e = model_->estimate();
    if (entry < 0 || entry >= int(e.communication.size()))
        return {};
    const CommEntry& c = e.communication[std::size_t(entry)];
    QString text = tr("<b>%1</b><br>a group of %n GPU(s)", nullptr, int(c.group_size)).arg(entryName(c).toHtmlEscaped())
        + tr(" on %n node(s)", nullptr, int(c.nodes_spanned))
        + tr(", by the %1 algorithm").arg(inUi(displayName(c.algorithm)))
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
    for (const Term& t : c.terms)
        text += QStringLiteral("<br><br>") + termHtml(t, false);
    return text;
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
                                bool narrow)
{
    const QString timing = time > 0 && exposed >= 0.995 * time
        ? tr("%1, all exposed").arg(shortTime(time))
        : tr("%1, exposed %2").arg(shortTime(time), shortTime(exposed));
    const QString volume = tr("%1 · %n call(s)", nullptr, int(std::lround(calls))).arg(bytesText(bytes));
    if (!narrow)
        return {name, timing + QStringLiteral(" · ") + volume};
    // A narrow chart: what runs, what it carries over which link, its time, its volume.
    const QString head = name.section(QStringLiteral(" · "), 0, 0);
    const QString tail = name.section(QStringLiteral(" · "), 1);
    return tail.isEmpty() ? QStringList{head, timing, volume} : QStringList{head, tail, timing, volume};
}

void CommChart::refresh()
{
    if (showInvalid())
        return;
    const Estimate& e = model_->estimate();
    const int n = int(e.communication.size());
    // Rows by time on the link, longest first; what does not fit is summed into one last row.
    std::vector<int> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return e.communication[std::size_t(a)].time_s > e.communication[std::size_t(b)].time_s;
    });
    const QFont font = plot_->xAxis->tickLabelFont();
    // A row is its text — two lines, or four when a line is wider than the chart — and a line
    // of bars under it; the chart shows as many rows as its height holds readably.
    const QFontMetrics fm(font);
    const int width = plot_->axisRect()->width() > 0 ? plot_->axisRect()->width() : plot_->width() - 40;
    bool narrow = false;
    for (const CommEntry& c : e.communication)
        for (const QString& l :
             rowLines(entryName(c), c.time_s, c.exposed_s, c.bytes_per_gpu_per_step, c.calls_per_step, false))
            narrow = narrow || fm.horizontalAdvance(l) > width - 8;
    int lines = narrow ? 5 : 3;
    const int height = plot_->axisRect()->height() > 0 ? plot_->axisRect()->height() : plot_->height() * 2 / 3;
    // QCPItemText spaces its lines a little wider than the font's height: a line's worth of margin.
    // A chart too low for one whole row shows the names only (the numbers are on hover).
    const bool names_only = height < (lines + 1) * fm.height() + 6;
    if (names_only)
        lines = narrow ? 3 : 2;
    const int fit = std::max(1, height / ((lines + 1) * fm.height() + 6));
    const double bar_offset = 0.5 - 0.6 / (lines + 1);
    for (QCPBars* b : {link_, exposed_, pinned_})
        b->setWidth(0.3 / lines);
    // All rows when they fit; else the longest and one row summing "the other k" — or, on a
    // chart too low even for that, the longest alone and the count of the others under the axis.
    rows_.clear();
    const bool sum_the_rest = n > fit && fit >= 3;
    const int shown = n <= fit ? n : (sum_the_rest ? fit - 1 : fit);
    for (int i = 0; i < shown; ++i)
        rows_.push_back({order[std::size_t(i)]});
    if (sum_the_rest)
        rows_.emplace_back(order.begin() + shown, order.end());
    const int hidden = sum_the_rest ? 0 : n - shown;
    double top = 0;
    for (const CommEntry& c : e.communication)
        top = std::max(top, c.time_s);
    const Estimate* a = model_->pinnedEstimate();
    const auto pinnedExposed = [&](const CommEntry& c) -> std::optional<double> {
        if (!a)
            return std::nullopt;
        for (const CommEntry& ac : a->communication)
            if (ac.group == c.group && ac.collective == c.collective && ac.purpose == c.purpose && ac.link == c.link)
                return ac.exposed_s;
        return std::nullopt;
    };
    // Seconds or milliseconds, whichever reads better for the longest bar.
    const bool ms = top < 1;
    const double scale = ms ? 1e3 : 1;
    QVector<double> keys, link, exposed, pk, pv;
    for (QCPItemText* t : labels_)
        plot_->removeItem(t);
    labels_.clear();
    for (std::size_t r = 0; r < rows_.size(); ++r) {
        double time = 0, hidden_not = 0, bytes = 0, calls = 0;
        std::optional<double> pinned;
        for (int entry : rows_[r]) {
            const CommEntry& c = e.communication[std::size_t(entry)];
            time += c.time_s;
            hidden_not += c.exposed_s;
            bytes += c.bytes_per_gpu_per_step;
            calls += c.calls_per_step;
            if (auto p = pinnedExposed(c))
                pinned = pinned.value_or(0) + *p;
        }
        const double key = double(r) + bar_offset;
        keys << key;
        link << time * scale;
        exposed << hidden_not * scale;
        if (pinned) {
            pk << key;
            pv << *pinned * scale;
            top = std::max(top, *pinned);
        }
        const QString name = rows_[r].size() == 1 ? entryName(e.communication[std::size_t(rows_[r].front())])
                                                  : tr("The other %n collective(s)", nullptr, int(rows_[r].size()));
        auto* label = new QCPItemText(plot_);
        label->setClipToAxisRect(true);
        label->setFont(font);
        label->setColor(Qt::black);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setTextAlignment(Qt::AlignLeft);
        label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        label->position->setTypeY(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(0.01, double(r) - 0.48);
        QStringList text = rowLines(name, time, hidden_not, bytes, calls, narrow);
        if (names_only)
            text = text.mid(0, narrow ? 2 : 1);
        label->setText(text.join(QLatin1Char('\n')));
        labels_.push_back(label);
    }
    link_->setData(keys, link, true);
    exposed_->setData(keys, exposed, true);
    pinned_->setData(pk, pv, true);
    pinned_->setVisible(!pk.isEmpty());
    pinned_->removeFromLegend();
    if (!pk.isEmpty())
        pinned_->addToLegend();
    const QString axis = ms ? tr("Time per step (ms)") : tr("Time per step (s)");
    plot_->xAxis->setLabel(hidden > 0 ? tr("%1\n%n more: double-click", nullptr, hidden).arg(axis) : axis);
    plot_->yAxis->setRange(-0.5, std::max<double>(double(rows_.size()), 1) - 0.5);
    plot_->xAxis->setRange(0, std::max(top * scale * 1.05, 1e-6));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace parascope::ui
