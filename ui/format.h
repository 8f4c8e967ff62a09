#pragma once
// The one home of number and text formatting in the app: strings from the core, seconds, GiB,
// input errors as text and a Term as tooltip HTML. Views format through these, so "12.3 ms"
// and "3.40 GiB" read the same in every chart, table and status line.

#include "types/scenario.h"
#include "types/term.h"
#include "util/json_reader.h"

#include <QFontMetrics>
#include <QString>

#include <string>
#include <vector>

namespace parascope {
struct ErrorBand;
struct Estimate;
} // namespace parascope

namespace parascope::ui {

inline constexpr double kGiB = double(1ull << 30);

inline QString str(const std::string& s) { return QString::fromStdString(s); }

// "1.23 s", "12.35 ms", "45.6 µs": three significant figures or more, in the unit that fits.
QString seconds(double s);
// `s` in the unit seconds(like) would pick, so that two times side by side share one unit
// ("0.46 s / 1.50 s", "0.00 µs → 39.7 µs"; never "464.70 ms / 1.50 s").
QString secondsLike(double s, double like);

// A predicted step with how sure it is, the validated error of the scenario's class
// (core/io/error_bands.h): "12.07 s (±6.9 %)", "12.07 s（±6.9 %）".
QString secondsWithBand(const Scenario& sc, double s);
// The band in full for a tooltip: "How sure: ±6.9 % (dense: the mean error of 5 reference runs
// …); tokens/s and MFU alike." — the text the CLI's report and JSON give.
QString bandTooltip(const Scenario& sc);
QString bandTooltip(const ErrorBand& band); // a band already chosen (a search row's)
// The bands of several predictions after a legend or axis name: " ±6.0 %" when they round alike,
// " ±6.0–10.7 %" over the classes they span, "" for none (mapes as fractions).
QString bandRange(const std::vector<double>& mapes);

// "+12.3 %" / "−4.0 %": now relative to before; empty when before is 0.
QString signedPercent(double now, double before);

// Bytes in GiB with `decimals` decimals, without the unit ("3.40").
QString gib(double bytes, int decimals = 2);

// Bytes with the binary unit that reads best: "3.40 GiB", "812 MiB", "64.0 KiB".
QString bytesText(double bytes);

// What a scenario is on screen now: its model and layout ("Llama-2 70B · TP 8 · PP 8 · DP 8"), never
// the name it was loaded with, which the knobs may have left behind.
QString scenarioName(const Scenario& sc);
// The layout alone ("TP 2 · PP 4 · DP 2", with VPP, CP and EP where they are not 1).
QString layoutName(const ParallelConfig& p);
// A scenario beside another (A/B): its layout when both train the same model, else its whole name.
QString compareName(const Scenario& self, const Scenario& other);

// Why the layout cannot run: the first error other than out of memory (a valid layout that does
// not fit), in the UI's language; empty when it can. Every figure of an invalid layout is hidden.
QString invalidReason(const Estimate& est);

// A slide's context in one line, in the UI language: "Llama-2 70B · 512 × A100 SXM 80GB · TP 8 ·
// PP 8 · DP 8 · CP 1 · EP 1 · ZeRO-1 · micro batch 1 · global batch 512 · 1F1B".
QString contextLine(const Scenario& sc, std::int64_t gpus);

// `text` broken into lines no wider than `width` pixels: at spaces (never between a number and
// its unit), or beside a Chinese character unless punctuation forbids it (no line starts with
// "，" or ends with "（"); a word wider than the line is cut; existing line breaks are kept.
QString wrapText(const QString& text, const QFontMetrics& fm, int width);

// One error per line, each with its path ("parallel.tp: must be …").
QString errorsText(const std::vector<InputError>& errors);

// A Term for a tooltip: name (and value when `with_value`), formula, the numbers substituted and
// the source, HTML-escaped. Byte values are shown in GiB.
QString termHtml(const Term& t, bool with_value = true);

} // namespace parascope::ui
