// CHANGE DETECTOR for the course (CTest label "snapshot"): every range a lesson step claims
// (`expect` in resources/presets/lessons/*.json, core/lessons/lessons.h) holds on evaluate() of
// the step's scenario. The ranges were read off the engine when the lesson was written and pin
// what its text tells the class, so an engine change that moves a number out of a range fails
// here: fix the engine, or change the lesson's range and its text together and say why in the
// commit. The reader is tst_lessons_reader; the quoted numbers and the terminology tst_lessons.

#include "lesson_steps.h"

#include <QtTest>

using namespace parascope;
using parascope::test::evaluateSteps;
using parascope::test::joined;

class TstLessonClaims : public QObject {
    Q_OBJECT

private slots:
    // The heart of it: what each step says, the engine shows.
    void everyClaimHolds()
    {
        std::vector<std::string> failures;
        std::size_t claims = 0;
        for (const Lesson& l : lessons()) {
            const std::vector<std::string> f = checkLesson(l, evaluateSteps(l));
            failures.insert(failures.end(), f.begin(), f.end());
            for (const LessonStep& s : l.steps)
                claims += s.expect.claims();
        }
        QVERIFY2(failures.empty(), joined(failures).c_str());
        QVERIFY(claims >= 50);
    }
};

QTEST_GUILESS_MAIN(TstLessonClaims)
#include "tst_lesson_claims.moc"
