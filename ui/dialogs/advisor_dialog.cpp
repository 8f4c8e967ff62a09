#include "dialogs/advisor_dialog.h"

#include "background.h"
#include "format.h"
#include "estimate/display_names.h"
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
    // Your layout's card follows every slider; the procedure and the search only their inputs.
    connect(model_, &ScenarioModel::estimateChanged, this, [this] {
        if (have_result_ && isVisible())
            render();
    });
    connect(watcher_, &QFutureWatcher<DecisionResult>::finished, this, [this] {
        if (watcher_->future().resultCount() == 0)
            return;
        pending_ = false;
        result_ = watcher_->result();
        card_references_ = cardReferences(result_);
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

// The report card of the layout on screen beside the procedure's and the search's: a row per
// wall, then why they differ (search/report_card.h; `parascope-cli advise` prints the same).
QString AdvisorDialog::cardHtml(const ReportCard& c)
{
    std::vector<const LayoutMarks*> cols = {&c.yours, &c.procedure};
    if (c.search)
        cols.push_back(&*c.search);
    const QString heads[] = {tr("Yours"), tr("The procedure"), tr("The search")};
    QString html
        = QStringLiteral("<h3>%1</h3><table cellpadding='3'><tr><th></th>").arg(tr("Report card").toHtmlEscaped());
    for (std::size_t i = 0; i < cols.size(); ++i)
        html += QStringLiteral("<th align='left'>%1<br>%2</th>").arg(heads[i], str(cols[i]->layout).toHtmlEscaped());
    const auto row = [&](const QString& name, auto value) {
        html += QStringLiteral("<tr><td>%1</td>").arg(name.toHtmlEscaped());
        for (const LayoutMarks* m : cols)
            html += QStringLiteral("<td>%1</td>").arg(str(value(*m)).toHtmlEscaped());
        html += QStringLiteral("</tr>");
    };
    row(tr("Memory headroom"), [](const LayoutMarks& m) { return formatPercent(m.memory_headroom); });
    row(tr("Exposed communication"), [](const LayoutMarks& m) { return formatPercent(m.exposed_comm); });
    row(tr("Bubble + uneven stages"), [](const LayoutMarks& m) { return formatPercent(m.bubble_imbalance); });
    row(tr("Stability (1 − goodput)"), [](const LayoutMarks& m) { return formatPercent(m.stability); });
    row(tr("Step"), [](const LayoutMarks& m) { return parascope::secondsWithBand(m.step_s, m.step_band); });
    html += QStringLiteral("</table><ul>");
    for (const Localized& d : c.differences)
        html += QStringLiteral("<li>%1</li>").arg(inUi(d).toHtmlEscaped());
    return html + QStringLiteral("</ul>");
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
    QString html = cardHtml(reportCard(model_->scenario(), model_->estimate(), card_references_));
    for (const DecisionStep& s : r.steps)
        html += QStringLiteral("<h3>%1 &nbsp; %2</h3><p>%3</p><p style='color:#555'><i>%4</i></p>")
                    .arg(inUi(s.title).toHtmlEscaped(), verdictBadge(s.verdict), inUi(s.finding).toHtmlEscaped(),
                         QString(tr("Why: ") + inUi(s.why)).toHtmlEscaped());
    html += QStringLiteral("<h3>%1</h3><p><b>%2</b> — %3</p>")
                .arg(tr("Result").toHtmlEscaped(), layoutLine(r.scenario).toHtmlEscaped(),
                     (r.fits ? tr("step %1, peak %2 GiB")
                                   .arg(secondsWithBand(r.scenario, r.estimate.time.step_s),
                                        gib(r.estimate.memory.peak_bytes, 1))
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
