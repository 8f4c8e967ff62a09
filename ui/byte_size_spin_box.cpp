#include "byte_size_spin_box.h"

#include "util/byte_size.h"

#include <cmath>
#include <optional>

namespace parascope::ui {

namespace {

constexpr double kMiB = 1048576.0;

} // namespace

ByteSizeSpinBox::ByteSizeSpinBox(QWidget* parent)
    : QDoubleSpinBox(parent)
{
    setDecimals(6); // 1 KiB = 0.000977 MiB: the value keeps what was typed
    setKeyboardTracking(false);
}

QString ByteSizeSpinBox::textFromValue(double mib) const { return QString::fromStdString(byteSizeText(mib * kMiB)); }

double ByteSizeSpinBox::valueFromText(const QString& text) const
{
    // A bare number is MiB, as the box has always read it; with a unit, that unit.
    bool plain = false;
    const double v = text.trimmed().toDouble(&plain);
    if (plain)
        return v;
    return parseByteSize(text.trimmed().toStdString()).value_or(kMiB) / kMiB;
}

QValidator::State ByteSizeSpinBox::validate(QString& text, int&) const
{
    const QString t = text.trimmed();
    if (t.isEmpty())
        return QValidator::Intermediate;
    bool plain = false;
    const double v = t.toDouble(&plain);
    const std::optional<double> bytes = plain ? std::optional<double>(v * kMiB) : parseByteSize(t.toStdString());
    if (!bytes)
        return QValidator::Intermediate; // "1 Gi" on the way to "1 GiB"
    const double mib = *bytes / kMiB;
    return mib >= minimum() && mib <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
}

namespace {

// Millions of parameters from "40", "40 M", "1.5 G", "1.5B", "536870912"; nullopt otherwise.
std::optional<double> parseMillions(QString t)
{
    t = t.trimmed().toUpper();
    double scale = 1;
    if (t.endsWith(QLatin1Char('M')))
        t.chop(1);
    else if (t.endsWith(QLatin1Char('G')) || t.endsWith(QLatin1Char('B'))) {
        t.chop(1);
        scale = 1000;
    }
    bool ok = false;
    const double v = t.trimmed().toDouble(&ok);
    if (!ok || v < 0 || !std::isfinite(v))
        return std::nullopt;
    if (scale == 1 && v > 100000 && !t.contains(QLatin1Char('.')))
        return v / 1e6; // a plain count of parameters
    return v * scale;
}

} // namespace

ParamCountSpinBox::ParamCountSpinBox(QWidget* parent)
    : QDoubleSpinBox(parent)
{
    setDecimals(6); // a plain count keeps its every parameter (536870912 = 536.870912 M)
    setKeyboardTracking(false);
}

QString ParamCountSpinBox::textFromValue(double millions) const
{
    return QString::number(millions, 'g', 6) + QStringLiteral(" M");
}

double ParamCountSpinBox::valueFromText(const QString& text) const { return parseMillions(text).value_or(0); }

QValidator::State ParamCountSpinBox::validate(QString& text, int&) const
{
    if (text.trimmed().isEmpty() || text == specialValueText())
        return text.isEmpty() ? QValidator::Intermediate : QValidator::Acceptable;
    const std::optional<double> v = parseMillions(text);
    return v && *v >= minimum() && *v <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
}

} // namespace parascope::ui
