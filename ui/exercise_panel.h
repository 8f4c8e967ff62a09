#pragma once
// Predict, then reveal (lessons/exercises.h), in the right panel under the lesson text: a lesson
// step that is an exercise asks for one number — the prompt, a box for the estimate in the unit
// asked (GiB, s, %) and Reveal. Until then the main window hides the charts and the step's text;
// Reveal shows the engine's value, the formula and where the estimate went wrong. Every answer
// is kept for the teacher (File → Export exercise results: CSV).

#include "lessons/exercises.h"

#include <QDateTime>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;

namespace parascope::ui {

struct ExerciseRecord {
    QDateTime at;
    QString lesson;
    int step = 0;
    QString quantity, unit;
    double answer = 0, truth = 0, error = 0;
    bool correct = false;
    QString feedback; // in the UI language at the time
};

class ExercisePanel : public QWidget {
    Q_OBJECT
public:
    explicit ExercisePanel(QWidget* parent = nullptr);
    // The step's exercise (none: the panel hides); the engine's value is measured on the step's
    // own scenario, whatever the sliders show.
    void setStep(const Lesson* lesson, int step);
    bool pending() const { return pending_; } // an exercise waits for its estimate
    const std::vector<ExerciseRecord>& records() const { return records_; }
    QLineEdit* answerBox() const { return answer_; }
    QString resultText() const; // what Reveal showed (tests)
    // The answers as CSV (one header line, one line per answer).
    QByteArray recordsCsv() const;
    void retranslate();

public slots:
    bool reveal(); // false (and a message) when the box holds no number

signals:
    void pendingChanged(bool pending);

private:
    void showGrade();
    const Lesson* lesson_ = nullptr;
    int step_ = -1;
    double truth_ = 0;
    bool pending_ = false;
    std::optional<ExerciseGrade> grade_;
    void fitFeedback(); // the panel's minimum height: the revealed feedback without scrolling
    QLabel* title_;
    QLabel* prompt_;
    QLineEdit* answer_;
    QLabel* unit_;
    QPushButton* reveal_;
    QLabel* result_;
    std::vector<ExerciseRecord> records_;
};

} // namespace parascope::ui
