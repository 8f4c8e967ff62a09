#include "format.h"

#include "estimate/estimate.h"

#include "estimate/display_names.h"
#include "io/error_bands.h"
#include "language.h"

#include <QCoreApplication>
#include <QStringList>

namespace parascope::ui {

QString seconds(double s) { return secondsLike(s, s); }

QString secondsLike(double s, double like)
{
    if (like >= 1)
        return QString::number(s, 'f', 2) + QStringLiteral(" s");
    if (like >= 1e-3 || like == 0)
        return QString::number(s * 1e3, 'f', 2) + QStringLiteral(" ms");
    return QString::number(s * 1e6, 'f', 1) + QStringLiteral(" µs");
}

QString secondsWithBand(const Scenario& sc, double s)
{
    const QString band = inUi(bandText(bandFor(builtInBands(), sc), true));
    return seconds(s) + (chineseUi() ? QStringLiteral("（%1）") : QStringLiteral(" (%1)")).arg(band);
}

QString bandRange(const std::vector<double>& mapes)
{
    if (mapes.empty())
        return {};
    const auto [low, high] = std::minmax_element(mapes.begin(), mapes.end());
    const QString a = QString::number(*low * 100, 'f', 1), b = QString::number(*high * 100, 'f', 1);
    return a == b ? QStringLiteral(" ±%1 %").arg(a) : QStringLiteral(" ±%1–%2 %").arg(a, b);
}

QString bandTooltip(const Scenario& sc) { return bandTooltip(bandFor(builtInBands(), sc)); }

QString bandTooltip(const ErrorBand& band)
{
    return QCoreApplication::translate("MainWindow", "How sure: %1; tokens/s and MFU alike.").arg(inUi(bandText(band)));
}

QString signedPercent(double now, double before)
{
    if (before == 0)
        return QString();
    const double p = (now / before - 1) * 100;
    return (p >= 0 ? QStringLiteral("+") : QString()) + QString::number(p, 'f', 1) + QStringLiteral(" %");
}

QString gib(double bytes, int decimals) { return QString::number(bytes / kGiB, 'f', decimals); }

QString bytesText(double bytes)
{
    if (bytes >= kGiB)
        return QString::number(bytes / kGiB, 'f', 2) + QStringLiteral(" GiB");
    if (bytes >= double(1 << 20))
        return QString::number(bytes / double(1 << 20), 'f', bytes >= 100.0 * (1 << 20) ? 0 : 1)
            + QStringLiteral(" MiB");
    return QString::number(bytes / 1024.0, 'f', 1) + QStringLiteral(" KiB");
}

QString layoutName(const ParallelConfig& p)
{
    QString name = QStringLiteral("TP %1 · PP %2").arg(p.tp).arg(p.pp);
    if (p.vpp > 1)
        name += QStringLiteral(" × VPP %1").arg(p.vpp);
    name += QStringLiteral(" · DP %1").arg(p.dp);
    if (p.cp > 1)
        name += QStringLiteral(" · CP %1").arg(p.cp);
    if (p.ep > 1)
        name += QStringLiteral(" · EP %1").arg(p.ep);
    return name;
}

QString scenarioName(const Scenario& sc)
{
    // What is on screen now, not the name the file or lesson started with ("Case 2: Llama-2 70B,
    // TP8 PP8 DP8" stays in the file while the knobs move on).
    return str(sc.model.name) + QStringLiteral(" · ") + layoutName(sc.parallel);
}

QString compareName(const Scenario& self, const Scenario& other)
{
    return self.model.name == other.model.name ? layoutName(self.parallel) : scenarioName(self);
}

QString invalidReason(const Estimate& est)
{
    const Diagnostic* d = est.layoutError();
    return d ? inUi(d->message) : QString();
}

QString contextLine(const Scenario& sc, std::int64_t gpus)
{
    const ParallelConfig& p = sc.parallel;
    QString layout = QStringLiteral("TP %1 · PP %2").arg(p.tp).arg(p.pp);
    if (p.vpp > 1)
        layout += QStringLiteral(" · VPP %1").arg(p.vpp);
    layout += QStringLiteral(" · DP %1 · CP %2 · EP %3 · ZeRO-%4").arg(p.dp).arg(p.cp).arg(p.ep).arg(p.zero);
    return QCoreApplication::translate("Format", "%1 · %2 × %3 · %4 · micro batch %5 · global batch %6 · %7")
        .arg(str(sc.model.name))
        .arg(gpus)
        .arg(str(sc.cluster.gpu.name), layout)
        .arg(sc.training.micro_batch)
        .arg(sc.training.global_batch)
        .arg(inUi(displayName(p.schedule)));
}

namespace {

bool cjk(QChar c)
{
    const char16_t u = c.unicode(); // CJK punctuation, kana, ideographs; fullwidth forms
    return (u >= 0x2E80 && u <= 0x9FFF) || (u >= 0xF900 && u <= 0xFAFF) || (u >= 0xFF00 && u <= 0xFFEF);
}

// The last place a line may break, before line[k]: at a space (dropped there), or beside a CJK
// character — Chinese has no spaces between words — unless the next character may not start a
// line (，。）…) or the one before may not end it (（“…); −1 where there is none.
qsizetype lastBreak(const QString& line, QChar next)
{
    static const QString no_start = QStringLiteral("，。、；：？！）》」』】’”,.;:!?)%");
    static const QString no_end = QStringLiteral("（《「『【‘“(");
    for (qsizetype k = line.size() - 1; k > 0; --k) {
        const QChar a = line[k - 1], b = line[k];
        if (b == QLatin1Char(' ')) { // not between a number and its unit ("45.3 GB/s", "12 %")
            const QChar after = k + 1 < line.size() ? line[k + 1] : next;
            const bool unit = a.isDigit() && (after.isLetter() || after == QLatin1Char('%')); // "8 块" too
            if (!unit)
                return k;
            continue;
        }
        if ((cjk(a) || cjk(b)) && a != QLatin1Char(' ') && !no_start.contains(b) && !no_end.contains(a))
            return k;
    }
    return -1;
}

} // namespace

QString wrapText(const QString& text, const QFontMetrics& fm, int width)
{
    // Linear: each character's advance is added up (measuring the growing line for every
    // character was quadratic, and the slider paid for it on every redraw).
    QStringList out;
    for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
        QString line;
        int line_px = 0;
        for (qsizetype i = 0; i < paragraph.size(); ++i) {
            const QChar c = paragraph[i];
            const int c_px = fm.horizontalAdvance(c);
            if (line_px + c_px > width && !line.isEmpty()) {
                line += c; // the break may fall just before it
                qsizetype k = lastBreak(line, i + 1 < paragraph.size() ? paragraph[i + 1] : QChar());
                if (k <= 0)
                    k = line.size() - 1; // nowhere to break: cut before it
                if (line[k].isLowSurrogate()) { // never inside a surrogate pair (an emoji, CJK Extension B)
                    if (k < 2) { // the pair alone is wider than the line: it stays whole
                        line_px = fm.horizontalAdvance(line);
                        continue;
                    }
                    --k;
                }
                out << line.left(k);
                line = line.mid(line[k] == QLatin1Char(' ') ? k + 1 : k);
                line_px = fm.horizontalAdvance(line);
                continue;
            }
            line += c;
            line_px += c_px;
        }
        out << line;
    }
    return out.join(QLatin1Char('\n'));
}

QString errorsText(const std::vector<InputError>& errors)
{
    QStringList lines;
    for (const InputError& e : errors)
        lines << str(e.text());
    return lines.join(QLatin1Char('\n'));
}

QString termHtml(const Term& t, bool with_value)
{
    QString head = QStringLiteral("<b>%1</b>").arg(str(t.name).toHtmlEscaped());
    if (with_value)
        head += QStringLiteral(" = %1 %2")
                    .arg(t.unit == "bytes" ? gib(t.value, 3) : QString::number(t.value, 'g', 6))
                    .arg(t.unit == "bytes" ? QStringLiteral("GiB") : str(t.unit).toHtmlEscaped());
    return head
        + QStringLiteral("<br>%1<br>= %2<br><i>%3</i>")
              .arg(str(t.formula).toHtmlEscaped(), str(t.substituted).toHtmlEscaped(), str(t.source).toHtmlEscaped());
}

} // namespace parascope::ui
