#include "status_line.h"

#include "format.h"
#include "language.h"
#include "models/scenario_model.h"

#include <QCoreApplication>

#include <algorithm>
#include <QEvent>
#include <QTextDocument>

namespace parascope::ui {

QString statusLine(const Scenario& sc, const Estimate& e, const Estimate* pinned)
{
    // An impossible layout has no step time or throughput to quote: the status line says what is
    // wrong (the first error; the list is in "What breaks").
    if (const Diagnostic* d = e.layoutError()) // OOM: valid, its numbers follow
        return QStringLiteral("<span style='color:#D55E00'><b>") + QCoreApplication::translate("MainWindow", "INVALID")
            + QStringLiteral("</b></span> · ") + inUi(d->message).toHtmlEscaped();
    QString text
        = QCoreApplication::translate("MainWindow", "Step %1 · %2 tokens/s · MFU %3 % · peak %4 / %5 GiB (stage %6)")
              .arg(secondsWithBand(sc, e.time.step_s)) // with how sure it is (core/io/error_bands.h)
              .arg(e.throughput.tokens_per_s, 0, 'f', 0)
              .arg(e.throughput.mfu * 100, 0, 'f', 1)
              .arg(gib(e.memory.peak_bytes, 1), gib(e.memory.capacity_bytes, 1))
              .arg(e.memory.peak_stage);
    if (sc.parallel.offload != Offload::None)
        text += QCoreApplication::translate("MainWindow", " · CPU offload %1 / %2 GiB per node")
                    .arg(gib(e.memory.cpu_bytes_per_node, 0), gib(e.memory.host_capacity_bytes, 0));
    if (!sc.cluster.calibration.empty())
        text = QCoreApplication::translate("MainWindow", "<b>calibrated</b> · ") + text;
    // Three states (memory_verdict.h): near the capacity the model cannot tell, and says so.
    if (e.memory.verdict == MemoryVerdict::OutOfMemory)
        text = QStringLiteral("<span style='color:#D55E00'><b>")
            + QCoreApplication::translate("MainWindow", "OUT OF MEMORY") + QStringLiteral("</b></span> · ") + text;
    else if (e.memory.verdict == MemoryVerdict::Borderline)
        text = QStringLiteral("<span style='color:#B06000'><b>")
            + QCoreApplication::translate("MainWindow", "MEMORY BORDERLINE (±%1 GiB)")
                  .arg(gib(kMemoryBandFraction * e.memory.capacity_bytes, 1))
            + QStringLiteral("</b></span> · ") + text;
    if (const Estimate* a = pinned)
        text += QCoreApplication::translate("MainWindow", " · vs A: step %1, tokens/s %2, peak %3")
                    .arg(signedPercent(e.time.step_s, a->time.step_s),
                         signedPercent(e.throughput.tokens_per_s, a->throughput.tokens_per_s),
                         signedPercent(e.memory.peak_bytes, a->memory.peak_bytes));
    return text;
}

StatusLabel::StatusLabel(ScenarioModel* model, std::function<bool()> hidden)
    : model_(model)
    , hidden_(std::move(hidden))
{
    setTextFormat(Qt::RichText);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setMinimumWidth(1);
    connect(model_, &ScenarioModel::estimateChanged, this, &StatusLabel::refresh);
}

void StatusLabel::refresh()
{
    const QString text = hidden_() ? tr("Predict first: the numbers are hidden until you reveal your estimate.")
                                   : statusLine(model_->scenario(), model_->estimate(), model_->pinnedEstimate());
    full_ = text;
    fit();
    setToolTip(hidden_() ? text : text + QStringLiteral("<br>") + bandTooltip(model_->scenario()).toHtmlEscaped());
}

void StatusLabel::resizeEvent(QResizeEvent* e)
{
    QLabel::resizeEvent(e);
    fit();
}

void StatusLabel::showEvent(QShowEvent* e)
{
    QLabel::showEvent(e);
    fit();
}

void StatusLabel::changeEvent(QEvent* e)
{
    QLabel::changeEvent(e);
    if (e->type() == QEvent::FontChange)
        fit();
}

// Fitted only while shown (a hidden label has no width of its own yet), and measured again only
// when the label's own layout of the whole line (its size hint) is wider than it: a slider move
// lays the line out once, as before.
void StatusLabel::fit()
{
    setText(full_);
    if (isVisible() && sizeHint().width() > width())
        setText(fitStatusLine(full_, font(), width() - 2 * margin() - 4));
}

QString fitStatusLine(const QString& html, const QFont& font, int width)
{
    QTextDocument doc;
    doc.setDefaultFont(font);
    doc.setDocumentMargin(0);
    const auto fits = [&](const QString& text) {
        doc.setHtml(text);
        return doc.idealWidth() <= width;
    };
    if (width <= 0 || fits(html))
        return html;
    const QString sep = QStringLiteral(" · ");
    QStringList parts = html.split(sep);
    while (parts.size() > 1) {
        // First without the last part's closing parenthesis ("(stage 0)"), then without the part.
        const QString& last = parts.back();
        const qsizetype paren = std::max(last.lastIndexOf(QStringLiteral(" (")), last.lastIndexOf(QChar(0xFF08)));
        if (paren > 0) {
            QStringList shorter = parts;
            shorter.back() = last.left(paren);
            if (const QString text = shorter.join(sep) + QStringLiteral(" …"); fits(text))
                return text;
        }
        parts.removeLast();
        if (const QString text = parts.join(sep) + QStringLiteral(" …"); fits(text))
            return text;
    }
    return parts.front() + QStringLiteral(" …");
}

} // namespace parascope::ui
