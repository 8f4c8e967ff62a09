// The lessons' tasks in the main window, offscreen: the capstone's design task (issue 38 §7) —
// the charts stay in view, the Advisor and the fixes wait until the layout is handed in, the grade is wall by
// wall and reveals the Advisor's and the search's layouts with their days, in both languages.

#include "controllers/course_controller.h"
#include "diagnostics_panel.h"
#include "design_task_panel.h"
#include "exercise_panel.h"
#include "lessons/lessons.h"
#include "main_window.h"
#include "models/scenario_model.h"

#include <QAction>
#include <QListWidget>
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
};

QTEST_MAIN(TstCourseTasks)
#include "tst_course_tasks.moc"
