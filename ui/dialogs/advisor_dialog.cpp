#include "dialogs/advisor_dialog.h"

#include "background.h"
#include "format.h"
#include "io/scenario_json.h"
#include "language.h"
#include "models/scenario_model.h"

#include <QDialogButtonBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

namespace parascope::ui {

namespace {

constexpr int kDebounceMs = 400; // the sliders rest before the procedure runs again

QString verdictBadge(DecisionVerdict v)
{
    switch (v) {
    case DecisionVerdict::Ok:
        return QStringLiteral("<span style='color:#009E73'>✔ %1</span>").arg(AdvisorDialog::tr("ok"));
    case DecisionVerdict::Changed:
        return QStringLiteral("<span style='color:#0072B2'>➜ %1</span>").arg(AdvisorDialog::tr("changed"));
    case DecisionVerdict::Warn:
        return QStringLiteral("<span style='color:#D55E00'>⚠ %1</span>").arg(AdvisorDialog::tr("look"));
    }
    return {};
}

QString layoutLine(const Scenario& sc) { return str(layoutText(sc.parallel)); }

// What the procedure reads from a scenario: a change elsewhere (a TP slider) does not re-run it.
std::string procedureInputs(const Scenario& sc)
{
    nlohmann::json j = scenarioToJson(sc);
    j.erase("parallel");
    j.erase("name");
    j["gpus"] = sc.parallel.gpus();
    return j.dump();
}

} // namespace

AdvisorDialog::AdvisorDialog(ScenarioModel* model, QWidget* parent)
    : QDialog(parent)
    , model_(model)
    , status_(new QLabel)
    , browser_(new QTextBrowser)
    , apply_(new QPushButton)
    , apply_best_(new QPushButton)
    , watcher_(new QFutureWatcher<DecisionResult>(this))
    , debounce_(new QTimer(this))
{
    setObjectName(QStringLiteral("advisorDialog"));
    auto* layout = new QVBoxLayout(this);
    status_->setWordWrap(true);
    layout->addWidget(status_);
    layout->addWidget(browser_, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(apply_, QDialogButtonBox::ActionRole);
    buttons->addButton(apply_best_, QDialogButtonBox::ActionRole);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    connect(apply_, &QPushButton::clicked, this, &AdvisorDialog::applyLayout);
    connect(apply_best_, &QPushButton::clicked, this, &AdvisorDialog::applySearchBest);
    debounce_->setSingleShot(true);
    debounce_->setInterval(kDebounceMs);
    connect(debounce_, &QTimer::timeout, this, &AdvisorDialog::recompute);
    connect(model_, &ScenarioModel::scenarioChanged, this, &AdvisorDialog::scenarioChanged);
    connect(watcher_, &QFutureWatcher<DecisionResult>::finished, this, [this] {
        if (watcher_->future().resultCount() == 0)
            return;
        pending_ = false;
        result_ = watcher_->result();
        have_result_ = true;
        render();
    });
    resize(720, 640);
    recompute();
}

bool AdvisorDialog::running() const { return pending_ || debounce_->isActive(); }

void AdvisorDialog::scenarioChanged()
{
    if (procedureInputs(model_->scenario()) != inputs_)
        debounce_->start();
}

void AdvisorDialog::recompute()
{
    debounce_->stop();
    inputs_ = procedureInputs(model_->scenario());
    pending_ = true;
    status_->setText(tr("Walking the decision procedure…"));
    apply_->setEnabled(false);
    apply_best_->setEnabled(false);
    watcher_->setFuture(runInBackground<DecisionResult>(
        [sc = model_->scenario()](QPromise<DecisionResult>& promise) { promise.addResult(decide(sc)); }));
}

void AdvisorDialog::applyLayout()
{
    if (have_result_)
        model_->setScenario(result_.scenario);
}

void AdvisorDialog::applySearchBest()
{
    if (have_result_ && result_.search_best)
        model_->setScenario(*result_.search_best);
}

QString AdvisorDialog::text() const { return browser_->toPlainText(); }

void AdvisorDialog::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        render();
    QDialog::changeEvent(e);
}

void AdvisorDialog::render()
{
    setWindowTitle(tr("Advisor: the decision procedure"));
    apply_->setText(tr("Use this layout"));
    apply_best_->setText(tr("Use the search's best"));
    if (!have_result_)
        return;
    const DecisionResult& r = result_;
    status_->setText(
        tr("The course's decision procedure on %1, %2 GPUs, global batch %3: each step with what it found and why.")
            .arg(str(r.scenario.model.name))
            .arg(r.scenario.parallel.gpus())
            .arg(r.scenario.training.global_batch));
    QString html;
    for (const DecisionStep& s : r.steps)
        html += QStringLiteral("<h3>%1 &nbsp; %2</h3><p>%3</p><p style='color:#555'><i>%4</i></p>")
                    .arg(inUi(s.title).toHtmlEscaped(), verdictBadge(s.verdict), inUi(s.finding).toHtmlEscaped(),
                         QString(tr("Why: ") + inUi(s.why)).toHtmlEscaped());
    html += QStringLiteral("<h3>%1</h3><p><b>%2</b> — %3</p>")
                .arg(tr("Result").toHtmlEscaped(), layoutLine(r.scenario).toHtmlEscaped(),
                     (r.fits ? tr("step %1, peak %2 GiB")
                                   .arg(seconds(r.estimate.time.step_s), gib(r.estimate.memory.peak_bytes, 1))
                             : tr("does not fit: peak %1 GiB").arg(gib(r.estimate.memory.peak_bytes, 1)))
                         .toHtmlEscaped());
    if (!r.comparison.en.empty())
        html += QStringLiteral("<h3>%1</h3><p>%2</p>")
                    .arg(tr("Against the strategy search").toHtmlEscaped(), inUi(r.comparison).toHtmlEscaped());
    if (r.search_best)
        html += QStringLiteral("<p><b>%1</b></p>").arg(layoutLine(*r.search_best).toHtmlEscaped());
    browser_->setHtml(html);
    apply_->setEnabled(true);
    apply_best_->setEnabled(r.search_best.has_value());
}

} // namespace parascope::ui
