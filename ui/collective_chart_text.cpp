// CollectiveChart's words: the headline, the current step, the figures under the diagram, and
// how the form shown relates to what the engine runs (the same time for the same algorithm).

#include "collective_chart.h"

#include "comm/bandwidth_ladder.h"
#include "estimate/display_names.h"
#include "format.h"
#include "language.h"

#include <algorithm>
#include <cmath>

namespace parascope::ui {

namespace {

QString gbps(double bytes_per_s) { return QString::number(bytes_per_s / 1e9, 'f', 1) + QStringLiteral(" GB/s"); }

} // namespace

QStringList CollectiveChart::ladderLines(const CollectivePlan& p, const ClusterSpec& cluster)
{
    const GroupPlacement g = explainerPlacement(p.ranks, cluster);
    const BandwidthLadder l
        = bandwidthLadder(g.crossesNodes() ? Link::Network : Link::NvLink, cluster, p.op, p.bytes, g);
    QStringList out{tr("Bandwidth ladder, %1:").arg(inUi(l.title))};
    for (const std::string& line : parascope::ladderLines(l, uiLanguage().toStdString()))
        out << QStringLiteral("  ") + QString::fromStdString(line);
    return out;
}

QStringList CollectiveChart::engineLines(const CollectivePlan& p)
{
    QStringList out;
    if (p.channels > 1)
        out << tr("NCCL's ring: %1 channels, one per NIC, each with S/%1; the diagram plays channel 1, every step "
                  "timed with all channels sharing the links.")
                   .arg(p.channels);
    if (p.algorithm == p.engine_algorithm) {
        out << tr("The engine (the communication chart) runs this collective by %1 too: the same %2.")
                   .arg(algorithmName(p.algorithm), seconds(p.time_s));
        return out;
    }
    const double factor = p.engine_time_s > 0 ? p.time_s / p.engine_time_s : 0;
    const QString engine = tr("The engine would run %1 here: %2; this form takes %3× as long.")
                               .arg(algorithmName(p.engine_algorithm), seconds(p.engine_time_s))
                               .arg(factor, 0, 'f', 2);
    out << (teachingOnly(p.algorithm) ? tr("Teaching version, not what NCCL runs.") + QLatin1Char(' ') + engine
                                      : engine);
    if (p.engine_algorithm == CollectiveAlgorithm::DeepEp)
        out << tr("DeepEP sends a token once to each other GPU that holds any of its experts, and across nodes once "
                  "to each other node (NVLink forwards it there); the exchange shown sends one copy per expert.");
    return out;
}

QString CollectiveChart::headline() const
{
    const int per_node = plan_ ? plan_->gpus_per_node : std::max(1, choice_.gpus_per_node);
    const int nodes = plan_ ? plan_->nodes : std::max(1, choice_.ranks / per_node);
    // The plan's algorithm: an all-to-all's ring is played as its pairwise exchange, named so.
    return tr("%1 %2 of %3 on %n GPU(s)", nullptr, choice_.ranks)
               .arg(algorithmName(plan_ ? plan_->algorithm : choice_.algorithm), collectiveName(choice_.op),
                    bytesText(choice_.bytes))
        + tr(" · %n node(s)", nullptr, nodes) + tr(" · %1 per node").arg(per_node);
}

QString CollectiveChart::stepLine() const
{
    if (!plan_)
        return error_;
    const int steps = stepCount();
    const int done = std::clamp(int(std::floor(position_)), 0, steps);
    if (done >= steps)
        return tr("Done: %n step(s) in %1", nullptr, steps).arg(seconds(plan_->time_s));
    const CollectiveStep& s = plan_->steps[std::size_t(done)];
    QString text = tr("Step %1 of %2 · %3 · %4 → %5")
                       .arg(done + 1)
                       .arg(steps)
                       .arg(inUi(s.phase), secondsLike(s.start_s, s.end_s), seconds(s.end_s));
    if (!s.transfers.empty())
        text += tr(" · %n send(s) of %1", nullptr, int(s.transfers.size())).arg(bytesText(s.transfers.front().bytes));
    return text;
}

QStringList CollectiveChart::figureLines() const
{
    QStringList out;
    if (!plan_)
        return out;
    const CollectivePlan& p = *plan_;
    const QString formula = p.terms.empty() ? QString() : str(p.terms.front().formula);
    if (choice_.group_gpus > p.ranks)
        out << tr("The group has %1 GPUs; the walkthrough is made for at most %2, and shows that many.")
                   .arg(choice_.group_gpus)
                   .arg(p.ranks);
    if (p.op == Collective::AllReduce)
        out << tr("Each GPU sends %1 (%2). The textbook's 2·S·n = %3 is the total over all %4 GPUs, not one GPU's "
                  "traffic; a "
                  "parameter server would move %5 through its one server.")
                   .arg(bytesText(p.bytes_sent_per_gpu), formula, bytesText(p.textbook_total_bytes))
                   .arg(p.ranks)
                   .arg(bytesText(p.parameter_server_bytes));
    else
        out << tr("Each GPU sends at most %1 (%2).").arg(bytesText(p.bytes_sent_per_gpu), formula);
    out << tr("Time %1 by the α–β model on these links · algbw %2 · busbw %3, as nccl-tests prints them")
               .arg(seconds(p.time_s), gbps(p.algbw_bytes_per_s), gbps(p.busbw_bytes_per_s));
    out << engineLines(p);
    if (plan_) { // the ladder, one line; the whole of it is the chart's tooltip (refresh)
        const ClusterSpec cluster = clusterForChoice();
        const GroupPlacement g = explainerPlacement(p.ranks, cluster);
        const BandwidthLadder l
            = bandwidthLadder(g.crossesNodes() ? Link::Network : Link::NvLink, cluster, p.op, p.bytes, g);
        QStringList values;
        for (const LadderRung& r : l.rungs)
            values << QString::number(r.bytes_per_s / 1e9, 'f', 1);
        out << tr("Bandwidth ladder: %1 GB/s (both ways → one way → per GPU → achievable → algbw → busbw; hover the "
                  "diagram for each step)")
                   .arg(values.join(QStringLiteral(" → ")));
    }
    if (alternatives_.size() > 1) {
        QStringList parts;
        auto fastest = std::min_element(alternatives_.begin(), alternatives_.end(),
                                        [](const auto& a, const auto& b) { return a.second < b.second; });
        for (const auto& [a, t] : alternatives_)
            parts << QStringLiteral("%1%2 %3").arg(algorithmName(a), teachingOnly(a) ? QStringLiteral("*") : QString(),
                                                   seconds(t));
        out << tr("The same on these GPUs: %1 (fastest: %2; teaching forms marked *)")
                   .arg(parts.join(QStringLiteral(" · ")), algorithmName(fastest->first));
    }
    if (!choice_.origin.isEmpty())
        out << tr("From the communication chart: %1, one call of the step.").arg(choice_.origin);
    return out;
}

} // namespace parascope::ui
