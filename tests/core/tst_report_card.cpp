// The layout report card (core/search/report_card.h) on lesson 2's case: Llama-2 70B on 512
// A100s, the lesson's TP 8 × PP 8 × DP 8 with ZeRO-1, graded beside the decision procedure's
// layout and the search's best.

#include "estimate/evaluate.h"
#include "lessons/lessons.h"
#include "search/report_card.h"
#include "scenario_fixture.h"

#include <QtTest>

#include <algorithm>

using namespace parascope;

class TstReportCard : public QObject {
    Q_OBJECT
private slots:
    void lessonTwosLayoutGraded()
    {
        const Lesson* l = findLesson("2-llama70b-512");
        QVERIFY(l);
        const Scenario& yours = l->steps[0].scenario;
        const Estimate e = evaluate(yours);
        const DecisionResult d = decide(yours);
        const ReportCard card = reportCard(yours, e, d);
        // Yours: the marks are the walls' own numbers.
        QCOMPARE(QString::fromStdString(card.yours.layout), QStringLiteral("TP 8 · PP 8 · DP 8 · ZeRO-1"));
        QCOMPARE(card.yours.step_s, e.time.step_s);
        QCOMPARE(card.yours.bubble_imbalance, e.walls.losses.bubble + e.walls.losses.uneven_stages);
        QCOMPARE(card.yours.memory_headroom, 1 - e.memory.peak_bytes / e.memory.capacity_bytes);
        QCOMPARE(card.yours.exposed_comm, e.time.exposed_comm_s / e.time.step_s);
        QVERIFY(card.yours.fits);
        // The procedure stops at the first layout that fits: ZeRO-1 with TP inside the node and
        // no pipeline, so it has no bubble, and the card says that PP 8 is what adds one.
        QCOMPARE(d.scenario.parallel.pp, 1);
        QCOMPARE(card.procedure.step_s, d.estimate.time.step_s);
        QVERIFY(card.procedure.bubble_imbalance < card.yours.bubble_imbalance);
        const auto said = [&](const char* en) {
            return std::any_of(card.differences.begin(), card.differences.end(),
                               [&](const Localized& s) { return s.en.find(en) != std::string::npos; });
        };
        QVERIFY(said("for your PP 8"));
        QVERIFY(said("it fits with less pipelining (TP 8 · PP 1"));
        // The search weighs every layout by its step: faster than yours, and the card says by how much.
        QVERIFY(card.search);
        QVERIFY(card.search->step_s < card.yours.step_s);
        QVERIFY(said("the search's"));
        for (const Localized& s : card.differences)
            QVERIFY2(!s.zh.empty(), s.en.c_str());
    }

    // Where the procedure stops at your own layout (Llama-2 7B on one A100: nothing else to try),
    // the two steps are one: the card says "the same", not "−0.0 % slower".
    void theSameLayoutIsTheSameStep()
    {
        const Scenario yours = test::sevenBOnOneGpu();
        const Estimate e = evaluate(yours);
        const DecisionResult d = decide(yours);
        const ReportCard card = reportCard(yours, e, d);
        QCOMPARE(card.procedure.step_s, card.yours.step_s);
        bool same = false;
        for (const Localized& s : card.differences) {
            QVERIFY2(s.en.find("-0.0") == std::string::npos && s.zh.find("-0.0") == std::string::npos, s.en.c_str());
            same = same || (s.en.find(": the same") != std::string::npos && s.zh.find("：相同") != std::string::npos);
        }
        QVERIFY(same);
    }
};

QTEST_GUILESS_MAIN(TstReportCard)
#include "tst_report_card.moc"
