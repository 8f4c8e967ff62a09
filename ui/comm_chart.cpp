#include "comm_chart.h"
#include "format.h"

#include "models/scenario_model.h"

#include <qcustomplot.h>

#include <QToolTip>
#include <QVBoxLayout>

namespace parascope::ui {

namespace {

QString linkName(Link l)
{
    switch (l) {
    case Link::NvLink: return QStringLiteral("NVLink");
    case Link::Network: return QCoreApplication::translate("CommChart", "network");
    case Link::Pcie: return QStringLiteral("PCIe");
    }
    return {};
}

QString entryLabel(const CommEntry& c)
{
    return QStringLiteral("%1 %2\n%3 · %4").arg(QString::fromLatin1(toString(c.group)).toUpper(), QString::fromLatin1(toString(c.collective)),
                                                   QString::fromLatin1(toString(c.purpose)), linkName(c.link));
}

} // namespace

CommChart::CommChart(ScenarioModel* model, QWidget* parent)
    : ChartView(model, parent)
{
    // Horizontal bars: the key axis is the vertical one.
    link_ = new QCPBars(plot_->yAxis, plot_->xAxis);
    exposed_ = new QCPBars(plot_->yAxis, plot_->xAxis);
    pinned_ = new QCPBars(plot_->yAxis, plot_->xAxis);
    auto* group = new QCPBarsGroup(plot_);
    for (QCPBars* b : {link_, exposed_, pinned_}) {
        b->setWidth(0.28);
        b->setPen(Qt::NoPen);
        b->setBarsGroup(group);
    }
    link_->setBrush(palette::sky);
    exposed_->setBrush(palette::vermillion);
    pinned_->setBrush(palette::grey);
    plot_->yAxis->setRangeReversed(true);
    placeLegendBelow(plot_, 1); // one entry per row: the chart is often narrow
    plot_->xAxis->ticker()->setTickCount(3);
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        int index = -1;
        QCPAbstractPlottable* p = plot_->plottableAt(e->pos(), false, &index);
        if ((p == link_ || p == exposed_) && index >= 0)
            QToolTip::showText(e->globalPosition().toPoint(), tooltipFor(int(link_->data()->at(index)->key)), plot_);
        else
            QToolTip::hideText();
    });
    retranslate();
}

void CommChart::retranslate()
{
    link_->setName(tr("Time on the link per step"));
    exposed_->setName(tr("Exposed (not hidden by compute)"));
    pinned_->setName(tr("A: exposed (pinned)"));
    plot_->xAxis->setLabel(tr("Seconds per step"));
    refresh();
}


int CommChart::entryCount() const
{
    return link_->data()->size();
}

QString CommChart::tooltipFor(int entry) const
{
    const Estimate& e = model_->estimate();
    if (entry < 0 || entry >= int(e.communication.size()))
        return {};
    const CommEntry& c = e.communication[std::size_t(entry)];
    QString text = tr("<b>%1</b><br>group of %2 GPUs on %3 node(s); %4 calls of %5 MB; %6 GB sent per GPU")
                       .arg(entryLabel(c).toHtmlEscaped())
                       .arg(c.group_size)
                       .arg(c.nodes_spanned)
                       .arg(c.calls_per_step, 0, 'f', 0)
                       .arg(c.bytes_per_call / 1e6, 0, 'f', 2)
                       .arg(c.bytes_per_gpu_per_step / 1e9, 0, 'f', 2);
    for (const Term& t : c.terms)
        text += QStringLiteral("<br><br>") + termHtml(t, false);
    return text;
}

void CommChart::refresh()
{
    const Estimate& e = model_->estimate();
    const int n = int(e.communication.size());
    QVector<double> keys(n), link(n), exposed(n);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < n; ++i) {
        const CommEntry& c = e.communication[std::size_t(i)];
        keys[i] = i;
        link[i] = c.time_s;
        exposed[i] = c.exposed_s;
        ticker->addTick(i, entryLabel(c));
    }
    link_->setData(keys, link, true);
    exposed_->setData(keys, exposed, true);
    // Pinned A: its exposed time for the same (group, collective, purpose).
    QVector<double> pk, pv;
    double top = 0;
    for (double v : link)
        top = std::max(top, v);
    if (const Estimate* a = model_->pinnedEstimate()) {
        for (int i = 0; i < n; ++i) {
            const CommEntry& c = e.communication[std::size_t(i)];
            for (const CommEntry& ac : a->communication)
                if (ac.group == c.group && ac.collective == c.collective && ac.purpose == c.purpose) {
                    pk << i;
                    pv << ac.exposed_s;
                    top = std::max(top, ac.exposed_s);
                }
        }
    }
    pinned_->setData(pk, pv, true);
    pinned_->setVisible(!pk.isEmpty());
    pinned_->removeFromLegend();
    if (!pk.isEmpty())
        pinned_->addToLegend();
    plot_->yAxis->setTicker(ticker);
    plot_->yAxis->setRange(-0.6, std::max(n, 1) - 0.4);
    plot_->xAxis->setRange(0, std::max(top * 1.1, 1e-6));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace parascope::ui
