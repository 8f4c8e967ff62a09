#pragma once
// The status line's key figures: step, tokens/s, MFU and peak memory (with the pinned scenario
// A's deltas), "OUT OF MEMORY" when it does not fit, and for an impossible layout only what is
// wrong (no step time or throughput to quote).

#include "estimate/estimate.h"
#include "types/scenario.h"

#include <QLabel>
#include <QString>

#include <functional>

namespace parascope::ui {

class ScenarioModel;

QString statusLine(const Scenario& sc, const Estimate& e, const Estimate* pinned);

// The status bar's line: follows the estimate; while `hidden` says so (an exercise waits for the
// student's prediction) it says the numbers are hidden instead. Never widens the window: on a
// narrow screen (presenter mode at 1024×768) it keeps the figures that fit whole, from the left,
// and ends with "…" — it used to be cut mid-figure ("peak 50.5 / 80.0 GiB (|") — its tooltip whole.
class StatusLabel : public QLabel {
    Q_OBJECT
public:
    StatusLabel(ScenarioModel* model, std::function<bool()> hidden);
    void refresh();
    QString fullText() const { return full_; } // before fitting (tests)

protected:
    void resizeEvent(QResizeEvent* e) override;
    void showEvent(QShowEvent* e) override;
    void changeEvent(QEvent* e) override; // a font change (presenter mode) fits it again

private:
    ScenarioModel* model_;
    std::function<bool()> hidden_;
    QString full_;
    void fit();
};

// The leading " · "-separated parts of the rich text `html` that fit `width` pixels in `font`,
// then " …"; `html` itself when it fits.
QString fitStatusLine(const QString& html, const QFont& font, int width);

} // namespace parascope::ui
