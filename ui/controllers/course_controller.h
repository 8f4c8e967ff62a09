#pragma once
// The course beside the charts: the lesson the scenario panel picked, its text and step (Scenario
// → Next lesson step, Ctrl+→), the exercise of a step (predict, then reveal: the charts stay
// blurred until then; the answers export as CSV for the teacher), a step's design task (the
// layout handed in and graded; the Advisor waits until then) and the Advisor (Tools → Advisor,
// Ctrl+D), the course's decision procedure on the scenario.

#include "controllers/window_context.h"
#include "controllers/window_part.h"
#include "lessons/lessons.h"

#include <QObject>
#include <QPointer>

#include <optional>

class QAction;
class QMenu;
class QTextBrowser;
class QWidget;

namespace parascope::ui {

class AdvisorDialog;
class ClassAnswersDialog;
class DesignTaskPanel;
class ExerciseEditorDialog;
class ExercisePanel;
class ScenarioPanel;

class CourseController : public WindowPart {
    Q_OBJECT
public:
    // blurred: what an exercise hides until its estimate is revealed (the charts' tabs, and the
    // "what breaks" panel with its fixes, which quote the numbers); withheld: what a design task
    // hides until the layout is handed in (the fixes, which would give the Advisor's layout away).
    CourseController(const WindowContext& context, ScenarioPanel* panel, QList<QWidget*> blurred,
                     QWidget* withheld = nullptr);
    QTextBrowser* lessonText() const { return lesson_text_; }
    ExercisePanel* exercise() const { return exercise_; }
    DesignTaskPanel* design() const { return design_; }
    QAction* advisorAction() const { return advisor_action_; }
    QWidget* tasks() const { return tasks_; } // the exercise and the design task, for the right panel
    void addScenarioActions(QMenu* menu); // Next lesson step, Restore this lesson step
    void addToolsActions(QMenu* menu); // Advisor, exercise editor, open a lesson file, class answers
    void retranslate() override;

    // A lesson's step becomes the scenario; an unknown lesson changes nothing.
    void loadLesson(const QString& id, int step = 0);
    void nextStep();
    void restoreStep(); // the lesson step's scenario once more, every knob as the step set it
    // No lesson: a scenario file was opened.
    void leaveLesson();
    bool pending() const; // an exercise hides the estimate
    QString exportExerciseResults(const QString& file);
    AdvisorDialog* showAdvisor();
    // The class's answer CSVs as a histogram per exercise (dialogs/class_answers_dialog.h); the
    // lines left out, one per line ("" when none). Lines that cannot be read are also shown in a
    // message box.
    QString showClassAnswers(const QStringList& files);
    ClassAnswersDialog* classAnswersDialog() const;
    // Tools → Write an exercise from the screen…: its saves open the lesson file at the new step.
    ExerciseEditorDialog* showExerciseEditor();
    // Tools → Open a lesson file…: a teacher's lesson (the editor's, or by hand) at `step` (from 0,
    // −1 its last); "" when it opened, else what is wrong (also in a message box when visible).
    QString openLessonFile(const QString& file, int step = 0);
    const std::vector<Lesson>& userLessons() const { return user_lessons_; }

signals:
    void lessonLoaded(); // the scenario is the lesson's, no file's
    void pendingChanged(); // the status line hides or shows the numbers

private:
    void hideForExercise(bool pending);
    void withholdForDesign(bool pending);
    void showLessonText();
    void updateStepActions(); // texts and enabled states of the step actions and the Advisor
    WindowContext context_;
    ScenarioPanel* panel_;
    QList<QWidget*> blurred_;
    QPointer<QWidget> withheld_;
    QTextBrowser* lesson_text_;
    ExercisePanel* exercise_;
    DesignTaskPanel* design_;
    QWidget* tasks_; // holds both; hidden when the step has neither
    QPointer<AdvisorDialog> advisor_;
    QString lesson_id_;
    // The lesson shown, its numbers rendered from the engine (lessons/lesson_text.h) when loaded.
    std::optional<Lesson> lesson_;
    int lesson_step_ = 0;
    QAction* next_step_ = nullptr;
    QAction* restore_step_ = nullptr;
    QAction* advisor_action_ = nullptr;
    QAction* class_answers_action_ = nullptr;
    QAction* editor_action_ = nullptr;
    QAction* open_lesson_action_ = nullptr;
    std::vector<Lesson> user_lessons_; // lesson files opened this session, looked up before the presets
    QPointer<ExerciseEditorDialog> editor_;
    QPointer<ClassAnswersDialog> class_answers_;
};

} // namespace parascope::ui
