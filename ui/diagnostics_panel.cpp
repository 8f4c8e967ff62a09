#include "diagnostics_panel.h"

#include "format.h"
#include "language.h"
#include "models/diagnostics_model.h"
#include "models/scenario_model.h"

#include <QLabel>
#include <QListView>
#include <QListWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace parascope::ui {

DiagnosticsPanel::DiagnosticsPanel(ScenarioModel* model, QWidget* parent)
    : QWidget(parent)
    , model_(model)
    , diagnostics_(new DiagnosticsModel(this))
    , view_(new QListView)
    , header_(new QLabel)
    , advice_header_(new QLabel)
    , advice_view_(new QListWidget)
    , debounce_(new QTimer(this))
    , watcher_(new QFutureWatcher<AdviceList>(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    setMinimumWidth(180); // the right dock's width never follows the diagnostics' text
    layout->addWidget(header_);
    layout->addWidget(view_, 2);
    layout->addWidget(advice_header_);
    layout->addWidget(advice_view_, 1);
    header_->setWordWrap(true); // a long verdict wraps instead of widening the window
    advice_header_->setWordWrap(true);
    view_->setModel(diagnostics_);
    // No item spacing: the delegate wraps the text to the view's width, and spacing would paint
    // it narrower than it was measured, eliding a long message's last line.
    view_->setWordWrap(true);
    view_->setUniformItemSizes(false);
    view_->setAlternatingRowColors(true);
    view_->setResizeMode(QListView::Adjust);
    advice_view_->setWordWrap(true);
    advice_view_->setResizeMode(QListView::Adjust);
    connect(view_, &QListView::clicked, this, [this](const QModelIndex& i) {
        const int stage = i.data(DiagnosticsModel::StageRole).toInt();
        if (stage >= 0)
            emit stageActivated(stage);
        const QString knob = i.data(DiagnosticsModel::KnobRole).toString();
        if (!knob.isEmpty())
            emit knobActivated(knob);
    });
    connect(advice_view_, &QListWidget::itemDoubleClicked, this,
            [this](QListWidgetItem* item) { applyAdvice(advice_view_->row(item)); });
    // Advice evaluates up to 60 changed scenarios: after the sliders rest, off the GUI thread.
    debounce_->setSingleShot(true);
    debounce_->setInterval(250);
    connect(debounce_, &QTimer::timeout, this, &DiagnosticsPanel::startAdvice);
    connect(watcher_, &QFutureWatcher<AdviceList>::finished, this, &DiagnosticsPanel::showAdvice);
    connect(model_, &ScenarioModel::estimateChanged, this, &DiagnosticsPanel::refresh);
    refresh();
}

void DiagnosticsPanel::retranslate()
{
    diagnostics_->languageChanged();
    refresh();
}

void DiagnosticsPanel::refresh()
{
    // Most severe first: errors, then warnings, then notes ("SP with TP = 1" never leads).
    std::vector<Diagnostic> d = model_->estimate().diagnostics;
    std::stable_sort(d.begin(), d.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return int(a.severity) > int(b.severity); });
    diagnostics_->setDiagnostics(d);
    int errors = 0, warnings = 0;
    for (const Diagnostic& x : d) {
        errors += x.severity == Severity::Error;
        warnings += x.severity == Severity::Warning;
    }
    // Where the layout is: the GPU count it uses, so "what breaks" reads against the right cluster.
    const QString where = tr("%n GPU(s)", nullptr, int(model_->estimate().gpus));
    header_->setText(d.empty() ? tr("<b>What breaks</b> (%1): nothing — valid and fits.").arg(where)
                               : tr("<b>What breaks</b> (%1): %n error(s)", nullptr, errors).arg(where)
                             + tr(", %n warning(s)", nullptr, warnings));
    // Nothing breaks: one line, and the room goes to the lesson text below.
    view_->setVisible(!d.empty());
    advice_.clear();
    advice_view_->clear();
    advice_view_->hide();
    advice_header_->setVisible(!d.empty());
    advice_header_->setText(tr("<b>What would fix it:</b> evaluating changes…"));
    setMaximumHeight(d.empty() ? header_->sizeHint().height() + 12 : QWIDGETSIZE_MAX);
    if (cancel_)
        cancel_->store(true);
    if (d.empty()) {
        debounce_->stop();
        debounce_pending_ = false;
        return;
    }
    debounce_pending_ = true;
    debounce_->start();
}

void DiagnosticsPanel::startAdvice()
{
    debounce_pending_ = false;
    cancel_ = newCancelToken();
    watcher_->setFuture(runInBackground<AdviceList>(
        [sc = model_->scenario(), est = model_->estimate(), token = cancel_](QPromise<AdviceList>& promise) {
            AdviceOptions o;
            o.cancelled = [token] { return token->load(); };
            promise.addResult(advise(sc, est, o));
        }));
}

void DiagnosticsPanel::showAdvice()
{
    if (watcher_->future().resultCount() == 0 || debounce_pending_)
        return;
    const AdviceList list = watcher_->result();
    if (list.cancelled)
        return; // the scenario moved on; its own advice follows
    advice_ = list.items;
    advice_view_->clear();
    for (const Advice& a : advice_) {
        auto* item = new QListWidgetItem(inUi(a.message), advice_view_);
        item->setToolTip(tr("Double-click to apply this change"));
    }
    advice_view_->setVisible(!advice_.empty());
    advice_header_->setText(
        advice_.empty()
            ? tr("<b>What would fix it:</b> no single change on these GPUs fixes it without breaking something else.")
            : tr("<b>What would fix it</b> (each change evaluated; double-click to apply):"));
}

void DiagnosticsPanel::applyAdvice(int row)
{
    if (row < 0 || row >= int(advice_.size()))
        return;
    model_->setScenario(parascope::applyAdvice(model_->scenario(), advice_[std::size_t(row)]));
}

} // namespace parascope::ui
