#pragma once
// Tools → Class answers…: the class's exercise answers (the CSVs File → Export exercise results
// writes, one per student) as a histogram per exercise for the teacher to discuss
// (lessons/class_answers.h, the same bins as `parascope-cli class-answers`): right, each listed
// mistake, and how far off the rest were, with the feedback typical of each bin.

#include "lessons/class_answers.h"

#include <QDialog>

class QComboBox;
class QCustomPlot;
class QLabel;

namespace parascope::ui {

class ClassAnswersDialog : public QDialog {
    Q_OBJECT
public:
    ClassAnswersDialog(std::vector<ExerciseAnswers> answers, QWidget* parent = nullptr);
    QCustomPlot* plot() const { return plot_; }
    QString summary() const; // the shown exercise's bins as text (tests)

private:
    void showExercise(int index);
    std::vector<ExerciseAnswers> answers_;
    QComboBox* exercise_;
    QCustomPlot* plot_;
    QLabel* typical_;
};

} // namespace parascope::ui
