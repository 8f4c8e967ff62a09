#include "exercise_panel.h"

#include "estimate/evaluate.h"
#include "language.h"
#include "panel_fit.h"

#include <QDoubleValidator>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace parascope::ui {

namespace {

// A CSV field: quoted when it holds a comma, a quote or a line break.
QString csvField(QString s)
{
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) || s.contains(QLatin1Char('\n')))
        s = QLatin1Char('"') + s.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
    return s;
}

} // namespace

ExercisePanel::ExercisePanel(QWidget* parent)
    : QWidget(parent)
    , title_(new QLabel)
    , prompt_(new QLabel)
    , answer_(new QLineEdit)
    , unit_(new QLabel)
    , reveal_(new QPushButton)
    , result_(new QLabel)
{
    setObjectName(QStringLiteral("exercisePanel"));
    // The title and the answer row (below) stay in view; the prompt and the result scroll between.
    QVBoxLayout* outer = titledScrollingText(this, title_, {prompt_, result_});
    auto* row = new QHBoxLayout;
    row->addWidget(answer_, 1);
    row->addWidget(unit_);
    row->addWidget(reveal_);
    outer->addLayout(row);
    answer_->setObjectName(QStringLiteral("exercise.answer"));
    // The box takes the row's room but asks for none: the right dock keeps its width whether a
    // step has an exercise or not.
    answer_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    answer_->setMinimumWidth(60);
    auto* validator = new QDoubleValidator(0, 1e12, 6, answer_);
    validator->setLocale(QLocale::c());
    answer_->setValidator(validator);
    connect(answer_, &QLineEdit::returnPressed, this, &ExercisePanel::reveal);
    connect(reveal_, &QPushButton::clicked, this, &ExercisePanel::reveal);
    retranslate();
    hide();
}

void ExercisePanel::setStep(const Lesson* lesson, int step)
{
    const bool has
        = lesson && step >= 0 && std::size_t(step) < lesson->steps.size() && lesson->steps[std::size_t(step)].exercise;
    const bool was = pending_;
    lesson_ = has ? lesson : nullptr;
    step_ = has ? step : -1;
    grade_.reset();
    setMinimumHeight(0); // the next step's prompt scrolls if it must, until its answer is revealed
    pending_ = has;
    setVisible(has);
    if (has) {
        // measure() reads the asked step's estimate (plain and per-stage quantities only).
        std::vector<Estimate> estimates(std::size_t(step) + 1);
        estimates[std::size_t(step)] = evaluate(lesson->steps[std::size_t(step)].scenario);
        truth_ = measure(lesson->steps[std::size_t(step)].exercise->ask, *lesson, std::size_t(step), estimates);
        answer_->clear();
        answer_->setEnabled(true);
        reveal_->setEnabled(true);
    }
    retranslate();
    if (was != pending_)
        emit pendingChanged(pending_);
}

bool ExercisePanel::reveal()
{
    if (!lesson_ || !pending_)
        return false;
    bool ok = false;
    const double answer = QLocale::c().toDouble(answer_->text().trimmed(), &ok);
    if (!ok) {
        result_->setText(
            QStringLiteral("<span style='color:#D55E00'>%1</span>").arg(tr("Type your estimate first: a number.")));
        return false;
    }
    const Exercise& ex = *lesson_->steps[std::size_t(step_)].exercise;
    const Scenario& sc = lesson_->steps[std::size_t(step_)].scenario;
    grade_ = gradeExercise(ex, answer, truth_, {double(sc.training.seq_len), double(sc.parallel.dp)});
    pending_ = false;
    answer_->setEnabled(false);
    reveal_->setEnabled(false);
    ExerciseRecord r;
    r.at = QDateTime::currentDateTime();
    r.lesson = QString::fromStdString(lesson_->id);
    r.step = step_ + 1;
    r.quantity = QString::fromStdString(ex.ask.name());
    r.unit = QString::fromStdString(exerciseUnit(ex.ask.quantity));
    r.answer = answer;
    r.truth = grade_->truth;
    r.error = grade_->error;
    r.correct = grade_->correct;
    r.feedback = inUi(grade_->feedback);
    records_.push_back(r);
    showGrade();
    emit pendingChanged(false);
    return true;
}

void ExercisePanel::showGrade()
{
    if (!grade_ || !lesson_)
        return;
    const Exercise& ex = *lesson_->steps[std::size_t(step_)].exercise;
    const QString colour = grade_->correct ? QStringLiteral("#009E73") : QStringLiteral("#D55E00");
    result_->setText(QStringLiteral("<p style='color:%1'><b>%2</b></p><p>%3</p>")
                         .arg(colour, inUi(grade_->feedback).toHtmlEscaped(),
                              QString(tr("Formula: ") + inUi(ex.formula)).toHtmlEscaped()));
    fitFeedback();
}

void ExercisePanel::fitFeedback() { fitScrolledText(this, title_->sizeHint().height() + reveal_->sizeHint().height()); }

QString ExercisePanel::resultText() const { return result_->text(); }

void ExercisePanel::retranslate()
{
    title_->setText(QStringLiteral("<b>%1</b>").arg(tr("Predict, then reveal")));
    reveal_->setText(tr("Reveal"));
    answer_->setPlaceholderText(tr("your estimate"));
    if (!lesson_) {
        prompt_->clear();
        result_->clear();
        return;
    }
    const Exercise& ex = *lesson_->steps[std::size_t(step_)].exercise;
    prompt_->setText(inUi(ex.prompt).toHtmlEscaped());
    unit_->setText(QString::fromStdString(exerciseUnit(ex.ask.quantity)));
    if (grade_)
        showGrade();
    else
        result_->clear();
}

QByteArray ExercisePanel::recordsCsv() const
{
    QString out = QStringLiteral("time,lesson,step,quantity,unit,estimate,engine,error_percent,verdict,feedback\n");
    for (const ExerciseRecord& r : records_)
        out += QStringList{r.at.toString(Qt::ISODate),
                           csvField(r.lesson),
                           QString::number(r.step),
                           csvField(r.quantity),
                           csvField(r.unit),
                           QString::number(r.answer, 'g', 6),
                           QString::number(r.truth, 'g', 6),
                           QString::number(r.error * 100, 'f', 1),
                           r.correct ? QStringLiteral("right") : QStringLiteral("wrong"),
                           csvField(r.feedback)}
                   .join(QLatin1Char(','))
            + QLatin1Char('\n');
    return out.toUtf8();
}

} // namespace parascope::ui
