#include "class_answers_dialog.h"

#include "chart_style.h"
#include "language.h"
#include "lessons/lessons.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QVBoxLayout>

namespace parascope::ui {

ClassAnswersDialog::ClassAnswersDialog(std::vector<ExerciseAnswers> answers, QWidget* parent)
    : QDialog(parent)
    , answers_(std::move(answers))
    , exercise_(new QComboBox)
    , plot_(new QCustomPlot)
    , typical_(new QLabel)
{
    setWindowTitle(tr("Class answers"));
    exercise_->setObjectName(QStringLiteral("classAnswers.exercise"));
    for (const ExerciseAnswers& a : answers_)
        exercise_->addItem(tr("%1, step %2: %3 (%4 answers)")
                               .arg(inUi(a.title))
                               .arg(a.step)
                               .arg(QString::fromStdString(a.quantity))
                               .arg(a.answers.size()));
    typical_->setWordWrap(true);
    typical_->setTextFormat(Qt::RichText);
    plot_->setMinimumSize(520, 260);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(exercise_);
    layout->addWidget(plot_, 1);
    layout->addWidget(typical_);
    layout->addWidget(buttons);
    connect(exercise_, qOverload<int>(&QComboBox::currentIndexChanged), this, &ClassAnswersDialog::showExercise);
    showExercise(0);
}

void ClassAnswersDialog::showExercise(int index)
{
    plot_->clearPlottables();
    typical_->clear();
    if (index < 0 || std::size_t(index) >= answers_.size())
        return;
    const ExerciseAnswers& a = answers_[std::size_t(index)];
    // One horizontal bar per bin that has answers, the first bin (right) on top.
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    auto* bars = new QCPBars(plot_->yAxis, plot_->xAxis);
    bars->setBrush(QColor(0x00, 0x72, 0xB2));
    bars->setPen(Qt::NoPen);
    QString notes;
    int row = 0, most = 1;
    for (auto it = a.bins.rbegin(); it != a.bins.rend(); ++it) {
        if (it->count == 0)
            continue;
        // A hint is a sentence: its start names the mistake, the note below says it whole.
        const QString label = plot_->yAxis->tickLabelFont().family().isEmpty()
            ? inUi(it->label)
            : QFontMetrics(plot_->yAxis->tickLabelFont()).elidedText(inUi(it->label), Qt::ElideRight, 240);
        ticker->addTick(row, label);
        bars->addData(row++, it->count);
        most = std::max(most, it->count);
        if (!it->typical.en.empty())
            notes.prepend(QStringLiteral("<p><b>%1</b> (%2): %3</p>")
                              .arg(inUi(it->label).toHtmlEscaped())
                              .arg(it->count)
                              .arg(inUi(it->typical).toHtmlEscaped()));
    }
    plot_->yAxis->setTicker(ticker);
    auto whole = QSharedPointer<QCPAxisTickerFixed>::create(); // counts: whole numbers
    whole->setTickStep(1);
    whole->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    plot_->xAxis->setTicker(whole);
    plot_->yAxis->setRange(-0.6, std::max(row, 1) - 0.4);
    plot_->xAxis->setRange(0, most + 0.5);
    plot_->xAxis->setLabel(
        tr("answers (the engine today: %1 %2)").arg(QString::number(a.truth, 'g', 4), QString::fromStdString(a.unit)));
    typical_->setText(notes);
    plot_->replot();
}

QString ClassAnswersDialog::summary() const
{
    QString out;
    const int index = exercise_->currentIndex();
    if (index < 0)
        return out;
    for (const AnswerBin& b : answers_[std::size_t(index)].bins)
        if (b.count > 0)
            out += QStringLiteral("%1 %2\n").arg(b.count).arg(inUi(b.label));
    return out;
}

} // namespace parascope::ui
