#include "controllers/course_controller.h"

#include "lessons/lesson_text.h"

#include "dialogs/advisor_dialog.h"
#include "dialogs/class_answers_dialog.h"
#include "design_task_panel.h"
#include "dialogs/exercise_editor_dialog.h"
#include "exercise_panel.h"
#include "language.h"
#include "lessons/lessons.h"
#include "models/scenario_model.h"
#include "save_file.h"
#include "scenario_panel.h"

#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QMessageBox>
#include <QMainWindow>
#include <QAction>
#include <QGraphicsBlurEffect>
#include <QMenu>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

namespace parascope::ui {

CourseController::CourseController(const WindowContext& context, ScenarioPanel* panel, QList<QWidget*> blurred,
                                   QWidget* withheld)
    : WindowPart(context.window)
    , context_(context)
    , panel_(panel)
    , blurred_(std::move(blurred))
    , withheld_(withheld)
    , lesson_text_(new QTextBrowser)
    , exercise_(new ExercisePanel)
    , design_(new DesignTaskPanel(context.model))
    , tasks_(new QWidget)
{
    auto* tasks = new QVBoxLayout(tasks_);
    tasks->setContentsMargins(0, 0, 0, 0);
    tasks->addWidget(exercise_);
    tasks->addWidget(design_);
    tasks_->hide();
    lesson_text_->setOpenExternalLinks(false);
    // The right dock's width is the user's: its parts never push it wider as their text changes
    // from one lesson step to the next (an explicit minimum wins over the content's).
    lesson_text_->setMinimumWidth(180);
    exercise_->setMinimumWidth(180);
    design_->setMinimumWidth(180);
    connect(exercise_, &ExercisePanel::pendingChanged, this, &CourseController::hideForExercise);
    connect(design_, &DesignTaskPanel::pendingChanged, this, &CourseController::withholdForDesign);
    connect(panel_, &ScenarioPanel::lessonChosen, this, [this](const QString& id) { loadLesson(id, 0); });
}

void CourseController::addScenarioActions(QMenu* menu)
{
    next_step_ = menu->addAction(QString(), this, &CourseController::nextStep);
    next_step_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Right));
    // Ctrl+→ wherever the focus is in the window, the lesson combo box included.
    next_step_->setShortcutContext(Qt::ApplicationShortcut);
    restore_step_ = menu->addAction(QString(), this, &CourseController::restoreStep);
    restore_step_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    updateStepActions();
}

void CourseController::restoreStep()
{
    if (lesson_)
        loadLesson(lesson_id_, lesson_step_);
}

void CourseController::updateStepActions()
{
    if (!next_step_)
        return;
    const bool in_lesson = lesson_.has_value();
    const bool last = in_lesson && lesson_step_ + 1 >= int(lesson_->steps.size());
    // After the last step the lesson starts again, and the action says so.
    next_step_->setText(last ? tr("Back to the lesson's first step") : tr("&Next lesson step"));
    next_step_->setEnabled(in_lesson && lesson_->steps.size() > 1);
    restore_step_->setText(tr("&Restore this lesson step"));
    restore_step_->setToolTip(tr("Put every knob back as this lesson step set it"));
    restore_step_->setEnabled(in_lesson);
    // The design task's references are revealed after the layout is handed in.
    if (advisor_action_)
        advisor_action_->setEnabled(!design_->pending());
}

void CourseController::addToolsActions(QMenu* menu)
{
    advisor_action_ = menu->addAction(QString(), this, [this] { showAdvisor(); });
    advisor_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    editor_action_ = menu->addAction(QString(), this, [this] { showExerciseEditor(); });
    open_lesson_action_ = menu->addAction(QString(), this, [this] {
        const QString f
            = QFileDialog::getOpenFileName(context_.window, tr("Open a lesson file"), QString(), tr("Lesson (*.json)"));
        if (!f.isEmpty())
            openLessonFile(f);
    });
    class_answers_action_ = menu->addAction(QString(), this, [this] {
        const QStringList files = QFileDialog::getOpenFileNames(context_.window, tr("Class answers"), QString(),
                                                                tr("Exercise answers (*.csv)"));
        if (!files.isEmpty())
            showClassAnswers(files);
    });
}

void CourseController::retranslate()
{
    updateStepActions();
    advisor_action_->setText(tr("&Advisor: the decision procedure…"));
    class_answers_action_->setText(tr("&Class answers…"));
    editor_action_->setText(tr("&Write an exercise from the screen…"));
    editor_action_->setToolTip(tr("Pick a quantity the window shows, write the question and save it as a lesson step"));
    open_lesson_action_->setText(tr("&Open a lesson file…"));
    class_answers_action_->setToolTip(tr("The students' exported exercise answers (CSV) as a histogram per exercise, "
                                         "with the typical mistake of each bar"));
    advisor_action_->setToolTip(
        tr("Does it fit with DP? Then ZeRO; TP inside a node, PP across nodes; communication; bubble — "
           "step by step, beside the strategy search's best"));
    exercise_->retranslate();
    design_->retranslate();
    showLessonText();
}

namespace {

// The side docks keep the widths they have while a step's texts change. In a crowded window
// (1024×768) QMainWindow otherwise re-divides the width from the docks' size hints the first
// time a dock's content changes, and both docks jumped by about 20 px between two steps.
void keepDockWidths(QMainWindow* window)
{
    if (!window || !window->isVisible())
        return;
    QList<QDockWidget*> docks;
    QList<int> widths;
    for (QDockWidget* d : window->findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly)) {
        const Qt::DockWidgetArea area = window->dockWidgetArea(d);
        if (d->isVisible() && !d->isFloating() && (area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea)) {
            docks << d;
            widths << d->width();
        }
    }
    if (!docks.isEmpty())
        window->resizeDocks(docks, widths, Qt::Horizontal);
}

} // namespace

void CourseController::loadLesson(const QString& id, int step)
{
    const Lesson* raw = findLesson(id.toStdString(), user_lessons_);
    if (!raw || raw->steps.empty())
        return;
    if (!lesson_ || lesson_->id != raw->id)
        lesson_ = renderLesson(*raw); // every step evaluated once: the prose quotes the screen's digits
    const Lesson* l = &*lesson_;
    keepDockWidths(context_.window);
    lesson_id_ = id;
    panel_->showLesson(id);
    lesson_step_ = std::clamp(step, 0, int(l->steps.size()) - 1);
    context_.model->setScenario(l->steps[std::size_t(lesson_step_)].scenario);
    exercise_->setStep(l, lesson_step_);
    design_->setStep(l, lesson_step_);
    tasks_->setVisible(l->steps[std::size_t(lesson_step_)].exercise || l->steps[std::size_t(lesson_step_)].design);
    showLessonText();
    updateStepActions();
    emit lessonLoaded();
}

void CourseController::nextStep()
{
    const Lesson* l = findLesson(lesson_id_.toStdString(), user_lessons_);
    if (!l || l->steps.empty())
        return;
    const bool wraps = lesson_step_ + 1 >= int(l->steps.size());
    loadLesson(lesson_id_, wraps ? 0 : lesson_step_ + 1);
    if (wraps)
        context_.showMessage(tr("That was the lesson's last step: back to step 1"), 5000);
}

void CourseController::leaveLesson()
{
    lesson_id_.clear();
    lesson_.reset();
    panel_->showLesson(QString());
    exercise_->setStep(nullptr, -1);
    design_->setStep(nullptr, -1);
    tasks_->hide();
    showLessonText();
    updateStepActions();
}

bool CourseController::pending() const { return exercise_->pending(); }

void CourseController::showLessonText()
{
    const Lesson* l = lesson_ ? &*lesson_ : nullptr;
    if (!l) {
        lesson_text_->setHtml(tr("<p>Pick a lesson in the scenario panel to read what it shows.</p>"));
        return;
    }
    QString html
        = QStringLiteral("<h3>%1</h3><p>%2</p>").arg(inUi(l->title).toHtmlEscaped(), inUi(l->text).toHtmlEscaped());
    if (l->steps.size() > 1)
        html += tr("<p><i>Step %1 of %2: %3 — Scenario → Next lesson step (Ctrl+→)</i></p>")
                    .arg(lesson_step_ + 1)
                    .arg(l->steps.size())
                    .arg(inUi(l->steps[std::size_t(lesson_step_)].label).toHtmlEscaped());
    // What this step shows, with the engine's numbers (each one a claim tst_lessons checks).
    if (exercise_->pending())
        html += QStringLiteral("<p><i>%1</i></p>")
                    .arg(tr("Exercise: predict the number asked below, then Reveal. The charts and this step's "
                            "text stay hidden until you do.")
                             .toHtmlEscaped());
    else if (std::size_t(lesson_step_) < l->steps.size())
        html += QStringLiteral("<p>%1</p>").arg(inUi(l->steps[std::size_t(lesson_step_)].text).toHtmlEscaped());
    lesson_text_->setHtml(html);
}

namespace {

// Blurred and disabled while something is hidden; the blur is the widget's own effect and goes
// when it is revealed.
void blur(QWidget* w, bool hidden)
{
    if (hidden) {
        auto* effect = new QGraphicsBlurEffect;
        effect->setBlurRadius(18);
        w->setGraphicsEffect(effect);
    } else {
        w->setGraphicsEffect(nullptr);
    }
    w->setEnabled(!hidden);
}

} // namespace

void CourseController::hideForExercise(bool pending)
{
    // The blur is each widget's own effect: it goes when the estimate is revealed.
    for (QWidget* w : blurred_)
        blur(w, pending);
    showLessonText();
    emit pendingChanged();
}

void CourseController::withholdForDesign(bool pending)
{
    if (withheld_)
        blur(withheld_, pending);
    updateStepActions();
}

QString CourseController::exportExerciseResults(const QString& file)
{
    const QString e = writeFileAtomically(file, exercise_->recordsCsv());
    if (e.isEmpty())
        context_.showMessage(tr("Exported %n answer(s) to %1", nullptr, int(exercise_->records().size())).arg(file),
                             3000);
    return e;
}

QString CourseController::showClassAnswers(const QStringList& files)
{
    std::vector<AnswerFile> csvs;
    QString problems;
    for (const QString& f : files) {
        QFile in(f);
        if (in.open(QIODevice::ReadOnly))
            csvs.push_back({f.toStdString(), in.readAll().toStdString()});
        else
            problems += tr("%1: cannot be read (%2)").arg(f, in.errorString()) + QLatin1Char('\n');
    }
    std::vector<InputError> errors;
    std::vector<ExerciseAnswers> answers = classAnswers(csvs, errors, user_lessons_);
    for (const InputError& e : errors)
        problems += QString::fromStdString(e.text()) + QLatin1Char('\n');
    if (!problems.isEmpty())
        QMessageBox::warning(context_.window, tr("Class answers"),
                             tr("These lines were left out:\n%1").arg(problems.trimmed()));
    if (answers.empty())
        return problems.isEmpty() ? tr("no answers in the files") : problems.trimmed();
    auto* dialog = new ClassAnswersDialog(std::move(answers), context_.window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->resize(760, 520);
    dialog->show();
    class_answers_ = dialog;
    return problems.trimmed();
}

ClassAnswersDialog* CourseController::classAnswersDialog() const { return class_answers_; }

ExerciseEditorDialog* CourseController::showExerciseEditor()
{
    if (!editor_) {
        editor_ = new ExerciseEditorDialog(context_.model, context_.window);
        editor_->setAttribute(Qt::WA_DeleteOnClose);
        // The new step at once, as a student meets it: the estimate hidden until revealed.
        connect(editor_, &ExerciseEditorDialog::saved, this,
                [this](const QString& file, int step) { openLessonFile(file, step - 1); });
    }
    editor_->show();
    editor_->raise();
    return editor_;
}

QString CourseController::openLessonFile(const QString& file, int step)
{
    std::vector<InputError> errors;
    std::optional<Lesson> l = readLessonFile(file.toStdString(), errors);
    QString problems;
    for (const InputError& e : errors)
        problems += QString::fromStdString(e.text()) + QLatin1Char('\n');
    if (!l) {
        if (!context_.headless)
            QMessageBox::warning(context_.window, tr("Open a lesson file"), problems.trimmed());
        return problems.trimmed();
    }
    std::erase_if(user_lessons_, [&](const Lesson& u) { return u.id == l->id; });
    const QString id = QString::fromStdString(l->id);
    panel_->addUserLesson(id, l->title);
    const int last = int(l->steps.size()) - 1;
    user_lessons_.push_back(std::move(*l));
    lesson_.reset(); // the file may have changed under the same id
    loadLesson(id, step < 0 ? last : step);
    return {};
}

AdvisorDialog* CourseController::showAdvisor()
{
    if (!advisor_) {
        advisor_ = new AdvisorDialog(context_.model, context_.window);
        advisor_->setAttribute(Qt::WA_DeleteOnClose);
    }
    advisor_->show();
    advisor_->raise();
    return advisor_;
}

} // namespace parascope::ui
