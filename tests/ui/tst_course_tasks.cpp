// The lessons' tasks in the main window, offscreen: the capstone's design task (issue 38 §7) —
// the charts stay in view, the Advisor and the fixes wait until the layout is handed in, the grade
// is wall by wall and reveals the Advisor's and the search's layouts with their days, in both
// languages — and an exercise a teacher writes from the screen (§8): saved to a lesson file,
// reopened as a student meets it, answered, exported, and binned in the class's histogram.

#include "controllers/course_controller.h"
#include "diagnostics_panel.h"
#include "design_task_panel.h"
#include "dialogs/class_answers_dialog.h"
#include "dialogs/exercise_editor_dialog.h"
#include "scenario_panel.h"
#include "exercise_panel.h"
#include "lessons/lessons.h"
#include "main_window.h"
#include "models/scenario_model.h"

#include <QAction>
#include <QComboBox>
#include <QLineEdit>
#include <QListWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace parascope;
using namespace parascope::ui;

namespace {

const DesignCheck* findCheck(const DesignGrade& g, const char* id)
{
    for (const DesignCheck& c : g.checks)
        if (c.id == id)
            return &c;
    return nullptr;
}

} // namespace

class TstCourseTasks : public QObject {
    Q_OBJECT

private slots:
    void capstoneDesignTask()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        w.course()->loadLesson(QStringLiteral("15-capstone-1024-a100"), 0);
        DesignTaskPanel* d = w.course()->design();
        QVERIFY(d->pending());
        QVERIFY(!w.course()->exercise()->pending());
        QVERIFY(w.centralWidget()->isEnabled()); // the student designs with the charts in view
        QVERIFY(!w.course()->advisorAction()->isEnabled()); // revealed after handing in
        // The fixes of "what breaks" would name the Advisor's layout: withheld too.
        QVERIFY(!w.diagnosticsPanel()->adviceView()->isEnabled());
        QVERIFY(w.diagnosticsPanel()->adviceView()->graphicsEffect() != nullptr);

        // The starting layout (DP 1024 alone) handed in: memory fails.
        d->handIn();
        QTRY_VERIFY_WITH_TIMEOUT(d->grade().has_value(), 20000);
        QCOMPARE(findCheck(*d->grade(), "memory")->mark, DesignMark::Fail);
        QVERIFY(!d->pending());
        QVERIFY(w.course()->advisorAction()->isEnabled());
        QVERIFY(w.diagnosticsPanel()->adviceView()->isEnabled());
        QVERIFY(w.diagnosticsPanel()->adviceView()->graphicsEffect() == nullptr);

        // The search's layout (step 3 of the lesson) set with the sliders and handed in again: every
        // wall passes, the goal is missed by as little as any layout on 1,024 GPUs can, and both
        // references are revealed with their days.
        const Lesson* l = findLesson("15-capstone-1024-a100");
        w.model()->setScenario(l->steps[2].scenario);
        d->handIn();
        const DesignGrade& g = *d->grade();
        for (const char* wall : {"gpus", "memory", "communication", "efficiency", "stability"})
            QCOMPARE(findCheck(g, wall)->mark, DesignMark::Pass);
        QCOMPARE(findCheck(g, "goal")->mark, DesignMark::Close);
        const QString text = d->resultText();
        QVERIFY2(text.contains(QStringLiteral("Revealed")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("The Advisor (the decision procedure): TP 8")));
        QVERIFY(text.contains(QStringLiteral("The strategy search: TP 2")));
        QVERIFY(text.contains(QString::number(g.search_days, 'f', 1) + QStringLiteral(" days")));

        // In Chinese, and leaving the task behind gives the Advisor back.
        w.setLanguage(QStringLiteral("zh"));
        QVERIFY2(d->resultText().contains(QStringLiteral("揭晓")), qPrintable(d->resultText()));
        QVERIFY(d->resultText().contains(QStringLiteral("训练目标")));
        w.course()->loadLesson(QStringLiteral("15-capstone-1024-a100"), 0);
        QVERIFY(d->pending());
        w.course()->loadLesson(QStringLiteral("15-capstone-1024-a100"), 1);
        QVERIFY(!d->pending());
        QVERIFY(!d->isVisible());
        QVERIFY(w.course()->advisorAction()->isEnabled());
    }

    void exerciseWrittenFromTheScreen()
    {
        MainWindow w;
        w.setLanguage(QStringLiteral("en"));
        ExerciseEditorDialog* editor = w.course()->showExerciseEditor();
        // The default scenario's DP gradient ReduceScatter: a row of the communication chart.
        int row = -1;
        for (std::size_t i = 0; i < editor->quantities().size(); ++i)
            if (editor->quantities()[i].collective == "dp.reduce_scatter.gradients")
                row = int(i);
        QVERIFY(row >= 0);
        editor->choose(row);
        editor->setTexts({"How long does DP's ReduceScatter take per step?", "DP 的 ReduceScatter 每步耗时多少？"},
                         {"α + β · bytes per call, × calls", "α + β · 每次字节数，× 调用次数"}, {"DP time", "DP 耗时"});
        editor->setTolerancePercent(20);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("week-3.json"));
        QCOMPARE(editor->save(), QStringLiteral("Choose the lesson file to save to."));
        editor->setFile(file, {"Week 3", "第三周"});
        QCOMPARE(editor->save(), QString());
        QCOMPARE(editor->savedStep(), 1);
        // Reopened as a student meets it: in the lesson combo, the estimate hidden until revealed.
        QVERIFY(w.course()->exercise()->pending());
        QCOMPARE(w.panel()->lessonCombo()->currentData().toString(), QStringLiteral("week-3"));
        const double truth = measure(w.course()->userLessons().front().steps[0].exercise->ask,
                                     w.course()->userLessons().front(), 0, {w.model()->estimate()});
        w.course()->exercise()->answerBox()->setText(QString::number(truth * 4, 'g', 6));
        QVERIFY(w.course()->exercise()->reveal());
        // A second save appends a second step.
        QCOMPARE(editor->save(), QString());
        QCOMPARE(editor->savedStep(), 2);
        QCOMPARE(int(w.course()->userLessons().front().steps.size()), 2);
        // The answers exported and read back into the class histogram, found in the teacher's file.
        const QString csv = dir.filePath(QStringLiteral("answers.csv"));
        QCOMPARE(w.course()->exportExerciseResults(csv), QString());
        QCOMPARE(w.course()->showClassAnswers({csv}), QString());
        QVERIFY(w.course()->classAnswersDialog());
    }
};

QTEST_MAIN(TstCourseTasks)
#include "tst_course_tasks.moc"
