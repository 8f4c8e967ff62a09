#include "dialogs/exercise_editor_dialog.h"

#include "estimate/display_names.h"
#include "io/scenario_json.h"
#include "language.h"
#include "lessons/exercises.h"
#include "models/scenario_model.h"
#include "save_file.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <set>

namespace parascope::ui {

namespace {

QString partName(MemoryPart p)
{
    switch (p) {
    case MemoryPart::Weights: return ExerciseEditorDialog::tr("weights");
    case MemoryPart::Gradients: return ExerciseEditorDialog::tr("gradients");
    case MemoryPart::Optimizer: return ExerciseEditorDialog::tr("optimizer states");
    case MemoryPart::Activations: return ExerciseEditorDialog::tr("activations");
    case MemoryPart::Other: return ExerciseEditorDialog::tr("other");
    default: return ExerciseEditorDialog::tr("total");
    }
}

// What the combo calls a quantity: the screen's words, then the file's spelling.
QString quantityName(const NumericClaim& c, const Estimate& e)
{
    QString name;
    if (c.quantity == Quantity::MemoryGib)
        name = ExerciseEditorDialog::tr("Stage %1 memory: %2").arg(c.stage).arg(partName(c.part));
    else if (c.quantity == Quantity::CollectiveS) {
        for (const CommEntry& entry : e.communication)
            if (collectiveKey(entry) == c.collective)
                name = ExerciseEditorDialog::tr("%1 %2 (%3): time per step")
                           .arg(inUi(displayName(entry.group)), inUi(displayName(entry.collective)),
                                inUi(displayName(entry.purpose)));
    } else {
        const std::pair<Quantity, const char*> plain[]
            = {{Quantity::PeakGib, QT_TR_NOOP("Peak memory per GPU")},
               {Quantity::StepS, QT_TR_NOOP("Step time")},
               {Quantity::BubbleSimulated, QT_TR_NOOP("Bubble (the simulated timeline)")},
               {Quantity::BubbleFormula, QT_TR_NOOP("Bubble (the schedule's formula)")},
               {Quantity::ExposedComm, QT_TR_NOOP("Exposed communication / step")},
               {Quantity::DpGibSent, QT_TR_NOOP("GiB each GPU sends in DP collectives per step")},
               {Quantity::Mfu, QT_TR_NOOP("MFU")}};
        for (const auto& [q, text] : plain)
            if (q == c.quantity)
                name = ExerciseEditorDialog::tr(text);
    }
    return name + QStringLiteral("  [") + QString::fromStdString(c.name()) + QLatin1Char(']');
}

NumericClaim claimOf(Quantity q, int stage = -1, MemoryPart part = MemoryPart::Total, std::string collective = {})
{
    NumericClaim c;
    c.quantity = q;
    c.stage = stage;
    c.part = part;
    c.collective = std::move(collective);
    return c;
}

} // namespace

ExerciseEditorDialog::ExerciseEditorDialog(ScenarioModel* model, QWidget* parent)
    : QDialog(parent)
    , model_(model)
    , quantity_(new QComboBox)
    , value_(new QLabel)
    , label_en_(new QLineEdit)
    , label_zh_(new QLineEdit)
    , prompt_en_(new QPlainTextEdit)
    , prompt_zh_(new QPlainTextEdit)
    , formula_en_(new QLineEdit)
    , formula_zh_(new QLineEdit)
    , tolerance_(new QDoubleSpinBox)
    , file_(new QLineEdit)
    , title_(new QLineEdit)
    , status_(new QLabel)
    , browse_(new QPushButton)
{
    setObjectName(QStringLiteral("exerciseEditor"));
    auto* form = new QFormLayout;
    const auto row = [&](const char* label, auto field) {
        auto* l = new QLabel;
        row_labels_.push_back({l, label});
        form->addRow(l, field);
    };
    row(QT_TR_NOOP("Quantity"), quantity_);
    row(QT_TR_NOOP("The engine now"), value_);
    row(QT_TR_NOOP("Question (English)"), prompt_en_);
    row(QT_TR_NOOP("Question (Chinese)"), prompt_zh_);
    row(QT_TR_NOOP("How to work it out (English)"), formula_en_);
    row(QT_TR_NOOP("How to work it out (Chinese)"), formula_zh_);
    row(QT_TR_NOOP("Step label (English)"), label_en_);
    row(QT_TR_NOOP("Step label (Chinese)"), label_zh_);
    tolerance_->setRange(0.1, 100);
    tolerance_->setDecimals(1);
    tolerance_->setSuffix(QStringLiteral(" %"));
    tolerance_->setValue(10);
    row(QT_TR_NOOP("Tolerance"), tolerance_);
    auto* file_row = new QHBoxLayout;
    file_row->addWidget(file_, 1);
    file_row->addWidget(browse_);
    row(QT_TR_NOOP("Lesson file"), file_row);
    row(QT_TR_NOOP("New lesson's title"), title_);
    for (QPlainTextEdit* e : {prompt_en_, prompt_zh_})
        e->setFixedHeight(e->fontMetrics().lineSpacing() * 4);
    status_->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Close);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(status_);
    layout->addStretch(1);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    connect(buttons->button(QDialogButtonBox::Save), &QPushButton::clicked, this, [this] {
        const QString e = save();
        status_->setText(
            e.isEmpty()
                ? tr("Saved as step %1 of %2: Tools → Open a lesson file… shows it").arg(saved_step_).arg(saved_file_)
                : e);
    });
    connect(browse_, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getSaveFileName(this, tr("Lesson file"), file_->text(), tr("Lesson (*.json)"),
                                                       nullptr, QFileDialog::DontConfirmOverwrite);
        if (!f.isEmpty())
            file_->setText(f);
    });
    connect(quantity_, &QComboBox::currentIndexChanged, this, &ExerciseEditorDialog::showValue);
    // The scenario on screen moves: the quantities and their values follow it.
    connect(model_, &ScenarioModel::estimateChanged, this, &ExerciseEditorDialog::refresh);
    retranslate();
    resize(620, 560);
}

void ExerciseEditorDialog::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslate();
    QDialog::changeEvent(e);
}

void ExerciseEditorDialog::retranslate()
{
    setWindowTitle(tr("Write an exercise from the screen"));
    for (const auto& [label, text] : row_labels_)
        label->setText(tr(text));
    tolerance_->setToolTip(tr("An estimate this close to the engine's value, relatively, counts as right"));
    browse_->setText(tr("Browse…"));
    title_->setPlaceholderText(tr("only for a new file"));
    refresh(); // the quantities' names in the new language
}

void ExerciseEditorDialog::refresh()
{
    const int at = quantity_->currentIndex();
    const std::string chosen
        = at >= 0 && std::size_t(at) < quantities_.size() ? quantities_[std::size_t(at)].name() : "";
    fillQuantities();
    const auto same = std::find_if(quantities_.begin(), quantities_.end(),
                                   [&](const NumericClaim& c) { return c.name() == chosen; });
    quantity_->setCurrentIndex(same == quantities_.end() ? 0 : int(same - quantities_.begin()));
}

void ExerciseEditorDialog::fillQuantities()
{
    const Estimate& e = model_->estimate();
    quantities_.clear();
    for (Quantity q : {Quantity::PeakGib, Quantity::StepS, Quantity::BubbleSimulated, Quantity::BubbleFormula,
                       Quantity::ExposedComm, Quantity::DpGibSent, Quantity::Mfu})
        quantities_.push_back(claimOf(q));
    // The memory chart's bars: the first, the peak and the last stage, part by part.
    const int last = int(e.memory.stages.size()) - 1;
    for (int stage : std::set<int>{0, e.memory.peak_stage, last})
        for (MemoryPart p : {MemoryPart::Weights, MemoryPart::Gradients, MemoryPart::Optimizer, MemoryPart::Activations,
                             MemoryPart::Other, MemoryPart::Total})
            if (stage >= 0)
                quantities_.push_back(claimOf(Quantity::MemoryGib, stage, p));
    // The communication chart's rows.
    std::set<std::string> seen;
    for (const CommEntry& entry : e.communication)
        if (seen.insert(collectiveKey(entry)).second)
            quantities_.push_back(claimOf(Quantity::CollectiveS, -1, MemoryPart::Total, collectiveKey(entry)));
    std::erase_if(quantities_, [&](const NumericClaim& c) { return !std::isfinite(valueOf(c)); });
    quantity_->clear();
    for (const NumericClaim& c : quantities_)
        quantity_->addItem(quantityName(c, e));
    showValue();
}

double ExerciseEditorDialog::valueOf(const NumericClaim& claim) const
{
    Lesson one;
    one.steps.resize(1);
    one.steps[0].scenario = model_->scenario();
    return measure(claim, one, 0, {model_->estimate()});
}

void ExerciseEditorDialog::showValue()
{
    const int i = quantity_->currentIndex();
    if (i < 0 || std::size_t(i) >= quantities_.size())
        return value_->clear();
    const NumericClaim& c = quantities_[std::size_t(i)];
    value_->setText(QStringLiteral("%1 %2").arg(QString::number(toExerciseUnit(c.quantity, valueOf(c)), 'g', 4),
                                                QString::fromStdString(exerciseUnit(c.quantity))));
}

void ExerciseEditorDialog::choose(int index) { quantity_->setCurrentIndex(index); }

void ExerciseEditorDialog::setTexts(const Localized& prompt, const Localized& formula, const Localized& label)
{
    prompt_en_->setPlainText(QString::fromStdString(prompt.en));
    prompt_zh_->setPlainText(QString::fromStdString(prompt.zh));
    formula_en_->setText(QString::fromStdString(formula.en));
    formula_zh_->setText(QString::fromStdString(formula.zh));
    label_en_->setText(QString::fromStdString(label.en));
    label_zh_->setText(QString::fromStdString(label.zh));
}

void ExerciseEditorDialog::setTolerancePercent(double percent) { tolerance_->setValue(percent); }

void ExerciseEditorDialog::setFile(const QString& file, const Localized& new_title)
{
    file_->setText(file);
    title_->setText(QString::fromStdString(chineseUi() ? new_title.zh : new_title.en));
}

QString ExerciseEditorDialog::save()
{
    const int i = quantity_->currentIndex();
    const QString file = file_->text().trimmed();
    if (i < 0 || std::size_t(i) >= quantities_.size())
        return tr("Pick a quantity first.");
    if (file.isEmpty())
        return tr("Choose the lesson file to save to.");
    ExerciseDraft d;
    d.ask = quantities_[std::size_t(i)];
    const auto text = [](const QString& s) { return s.trimmed().toStdString(); };
    d.prompt = {text(prompt_en_->toPlainText()), text(prompt_zh_->toPlainText())};
    d.formula = {text(formula_en_->text()), text(formula_zh_->text())};
    d.label = {text(label_en_->text()), text(label_zh_->text())};
    d.tolerance = tolerance_->value() / 100;
    std::vector<InputError> errors;
    const std::optional<nlohmann::json> step
        = exerciseStepJson(d, model_->scenario(), valueOf(d.ask), model_->estimate().layoutError() == nullptr, errors);
    std::optional<nlohmann::json> existing;
    if (step && QFile::exists(file))
        existing = readJsonFile(file.toStdString(), errors);
    const std::string title = text(title_->text());
    const std::optional<nlohmann::json> lesson = step && errors.empty()
        ? addExerciseStep(existing ? &*existing : nullptr, {title, title}, *step, errors)
        : std::nullopt;
    QString problems;
    for (const InputError& e : errors)
        problems += QString::fromStdString(e.text()) + QLatin1Char('\n');
    if (!lesson)
        return problems.trimmed();
    if (const QString e = writeFileAtomically(file, QByteArray::fromStdString(lesson->dump(2) + "\n")); !e.isEmpty())
        return e;
    saved_file_ = file;
    saved_step_ = int((*lesson)["steps"].size());
    emit saved(file, saved_step_);
    return {};
}

} // namespace parascope::ui
