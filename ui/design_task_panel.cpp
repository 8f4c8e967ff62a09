#include "design_task_panel.h"

#include "background.h"
#include "format.h"
#include "language.h"
#include "models/scenario_model.h"
#include "panel_fit.h"

#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QTextDocument>
#include <QVBoxLayout>

namespace parascope::ui {

namespace {

QString markSymbol(DesignMark m)
{
    switch (m) {
    case DesignMark::Pass: return QStringLiteral("<span style='color:#009E73'>✔</span>");
    case DesignMark::Close: return QStringLiteral("<span style='color:#E69F00'>~</span>");
    case DesignMark::Fail: return QStringLiteral("<span style='color:#D55E00'>✘</span>");
    }
    return {};
}

} // namespace

DesignTaskPanel::DesignTaskPanel(ScenarioModel* model, QWidget* parent)
    : QWidget(parent)
    , model_(model)
    , watcher_(new QFutureWatcher<DecisionResult>(this))
    , title_(new QLabel)
    , prompt_(new QLabel)
    , result_(new QLabel)
    , hand_in_(new QPushButton)
{
    setObjectName(QStringLiteral("designTaskPanel"));
    // The prompt and the grade scroll between the title and the button on a short panel.
    titledScrollingText(this, title_, {prompt_, result_})->addWidget(hand_in_);
    hand_in_->setObjectName(QStringLiteral("design.handIn"));
    connect(hand_in_, &QPushButton::clicked, this, &DesignTaskPanel::handIn);
    connect(watcher_, &QFutureWatcher<DecisionResult>::finished, this, &DesignTaskPanel::referencesReady);
    retranslate();
    hide();
}

void DesignTaskPanel::setStep(const Lesson* lesson, int step)
{
    const bool has
        = lesson && step >= 0 && std::size_t(step) < lesson->steps.size() && lesson->steps[std::size_t(step)].design;
    const bool was = pending_;
    lesson_ = has ? lesson : nullptr;
    step_ = has ? step : -1;
    grade_.reset();
    references_.reset();
    setMinimumHeight(0); // the next task's prompt scrolls if it must, until it is graded
    hand_in_waiting_ = false;
    pending_ = has;
    setVisible(has);
    if (has) {
        // The Advisor and the search on the task's GPUs, model and batch: what the grade compares with.
        watcher_->setFuture(
            runInBackground<DecisionResult>([sc = lesson->steps[std::size_t(step)].scenario](
                                                QPromise<DecisionResult>& p) { p.addResult(decide(sc)); }));
    }
    retranslate();
    if (was != pending_)
        emit pendingChanged(pending_);
}

void DesignTaskPanel::referencesReady()
{
    if (watcher_->future().resultCount() == 0 || !lesson_)
        return;
    references_ = cardReferences(watcher_->result());
    retranslate();
    if (hand_in_waiting_)
        handIn();
}

void DesignTaskPanel::handIn()
{
    if (!lesson_)
        return;
    if (!references_) {
        hand_in_waiting_ = true; // graded when the references are back
        retranslate();
        return;
    }
    hand_in_waiting_ = false;
    model_->flush();
    const LessonStep& s = lesson_->steps[std::size_t(step_)];
    grade_ = gradeDesign(*s.design, s.scenario, model_->scenario(), model_->estimate(), *references_);
    const bool was = pending_;
    pending_ = false;
    retranslate();
    if (was)
        emit pendingChanged(false);
}

void DesignTaskPanel::showGrade()
{
    const DesignGrade& g = *grade_;
    QString html = QStringLiteral("<p><b>%1</b> %2</p><table cellpadding='2'>")
                       .arg(tr("Your layout:").toHtmlEscaped(), str(g.card.yours.layout).toHtmlEscaped());
    for (const DesignCheck& c : g.checks)
        html += QStringLiteral("<tr><td valign='top'>%1</td><td>%2</td></tr>")
                    .arg(markSymbol(c.mark),
                         tr("%1: %2").arg(QStringLiteral("<b>%1</b>").arg(inUi(c.name).toHtmlEscaped()),
                                          inUi(c.note).toHtmlEscaped()));
    html += QStringLiteral("</table><p><b>%1</b></p>").arg(inUi(g.verdict).toHtmlEscaped());
    html += QStringLiteral("<p><b>%1</b><br>%2</p>")
                .arg(tr("Revealed").toHtmlEscaped(),
                     tr("The Advisor (the decision procedure): %1, %2 days")
                         .arg(str(g.card.procedure.layout), str(formatDays(g.procedure_days)))
                         .toHtmlEscaped());
    if (g.card.search)
        html += QStringLiteral("<p>%1</p>")
                    .arg(tr("The strategy search: %1, %2 days")
                             .arg(str(g.card.search->layout), str(formatDays(g.search_days)))
                             .toHtmlEscaped());
    html += QStringLiteral("<ul>");
    for (const Localized& d : g.card.differences)
        html += QStringLiteral("<li>%1</li>").arg(inUi(d).toHtmlEscaped());
    html += QStringLiteral("</ul><p><i>%1</i></p>")
                .arg(tr("Tools → Advisor (Ctrl+D) walks the procedure step by step; move a slider and hand in again.")
                         .toHtmlEscaped());
    result_->setText(html);
    fitScrolledText(this, title_->sizeHint().height() + hand_in_->sizeHint().height());
}

QString DesignTaskPanel::resultText() const
{
    QTextDocument doc;
    doc.setHtml(result_->text());
    return doc.toPlainText();
}

void DesignTaskPanel::retranslate()
{
    title_->setText(QStringLiteral("<b>%1</b>").arg(tr("Design task")));
    hand_in_->setText(grade_ ? tr("Hand in again") : tr("Hand in my layout"));
    if (!lesson_) {
        prompt_->clear();
        result_->clear();
        return;
    }
    prompt_->setText(inUi(lesson_->steps[std::size_t(step_)].design->prompt).toHtmlEscaped());
    if (grade_)
        showGrade();
    else if (hand_in_waiting_)
        result_->setText(tr("Grading: the Advisor and the search are still working on these GPUs…").toHtmlEscaped());
    else
        result_->setText(QStringLiteral("<i>%1</i>")
                             .arg(tr("Set TP, PP, DP, ZeRO, recompute and the micro batch with the sliders, then hand "
                                     "in. The Advisor's "
                                     "and the search's answers are revealed after.")
                                      .toHtmlEscaped()));
}

} // namespace parascope::ui
