#pragma once
// Tools → Write an exercise from the screen… (issue 38 §8): the teacher picks a quantity the
// window shows for the scenario on screen — a stage's memory part, a collective's time, the
// bubble, the step, the exposed share — sees the engine's value, writes the question (English,
// Chinese or both), how to work it out and the tolerance, and saves it as a step of a lesson file
// of their own (lessons/exercise_writer.h): a new file, or one more step of an existing one. The
// file reloads as a lesson (Tools → Open a lesson file…), the step is an exercise like the
// shipped ones, and the students' exported answers to it bin in Tools → Class answers.

#include "lessons/exercise_writer.h"

#include <QDialog>

#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace parascope::ui {

class ScenarioModel;

class ExerciseEditorDialog : public QDialog {
    Q_OBJECT
public:
    explicit ExerciseEditorDialog(ScenarioModel* model, QWidget* parent = nullptr);

    // The quantities offered for the scenario on screen, in the combo's order (tests).
    const std::vector<NumericClaim>& quantities() const { return quantities_; }
    void choose(int index); // the combo's row
    void setTexts(const Localized& prompt, const Localized& formula, const Localized& label);
    void setTolerancePercent(double percent);
    void setFile(const QString& file, const Localized& new_title = {});
    // Appends the step to the file (created when missing); "" on success, else what is wrong.
    QString save();
    QString savedFile() const { return saved_file_; }
    int savedStep() const { return saved_step_; } // from 1, as the lesson counts

signals:
    void saved(const QString& file, int step);

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslate();
    void refresh(); // the quantities for the scenario on screen, the chosen one kept
    void fillQuantities();
    void showValue();
    double valueOf(const NumericClaim& claim) const;
    ScenarioModel* model_;
    std::vector<NumericClaim> quantities_;
    QComboBox* quantity_;
    QLabel* value_;
    QLineEdit* label_en_;
    QLineEdit* label_zh_;
    QPlainTextEdit* prompt_en_;
    QPlainTextEdit* prompt_zh_;
    QLineEdit* formula_en_;
    QLineEdit* formula_zh_;
    QDoubleSpinBox* tolerance_;
    QLineEdit* file_;
    QLineEdit* title_;
    QLabel* status_;
    QPushButton* browse_;
    std::vector<std::pair<QLabel*, const char*>> row_labels_; // the form's labels and their source texts
    QString saved_file_;
    int saved_step_ = 0;
};

} // namespace parascope::ui
