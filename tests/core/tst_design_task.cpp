// The capstone's design task (issue 38 §7, lessons/design_task.h): a layout handed in is graded
// wall by wall against the Advisor's and the search's layouts on the task's GPUs, and the goal in
// days — the days by hand from the step time, the marks' bands at their edges, the GPU count, and
// the lesson file's "design" with its errors.

#include "estimate/evaluate.h"
#include "io/scenario_json.h"
#include "lessons/course_json.h"
#include "lessons/design_task.h"
#include "search/decision.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace parascope;

namespace {

bool near(double a, double b, double rel = 1e-9) { return std::abs(a - b) <= rel * std::abs(b); }

const Lesson& capstone()
{
    const Lesson* l = findLesson("15-capstone-1024-a100");
    if (!l)
        qFatal("lesson 15-capstone-1024-a100 is missing");
    return *l;
}

// decide() on the task's GPUs once: the search on 1,024 GPUs takes a moment.
const CardReferences& capstoneReferences()
{
    static const CardReferences r = cardReferences(decide(capstone().steps[0].scenario));
    return r;
}

const DesignCheck& check(const DesignGrade& g, const std::string& id)
{
    for (const DesignCheck& c : g.checks)
        if (c.id == id)
            return c;
    qFatal("no check %s", id.c_str());
}

} // namespace

class TstDesignTask : public QObject {
    Q_OBJECT

private slots:
    // days = tokens / (tokens/s · time goodput) / 86,400.
    void daysByHand()
    {
        // 2T tokens at 1,000,000 tokens/s, 95 % of the wall-clock useful:
        // 2e12 / 950,000 = 2,105,263 s = 24.37 days.
        QVERIFY(near(trainingDays(2e12, 1e6, 0.95), 2e12 / 0.95e6 / 86400));
        QVERIFY(std::abs(trainingDays(2e12, 1e6, 0.95) - 24.366) < 0.001);
        QVERIFY(std::isinf(trainingDays(2e12, 0, 1)));
    }

    // Pass within a quarter of the better reference or one point above it; close within twice it
    // or two points; fail beyond.
    void marksAtTheirEdges()
    {
        QCOMPARE(designMark(0.125, 0.10), DesignMark::Pass); // 1.25 × 0.10
        QCOMPARE(designMark(0.126, 0.10), DesignMark::Close);
        QCOMPARE(designMark(0.20, 0.10), DesignMark::Close); // 2 × 0.10
        QCOMPARE(designMark(0.201, 0.10), DesignMark::Fail);
        QCOMPARE(designMark(0.0109, 0.001), DesignMark::Pass); // 0.001 + one point
        QCOMPARE(designMark(0.0209, 0.001), DesignMark::Close); // 0.001 + two points
        QCOMPARE(designMark(0.03, 0.001), DesignMark::Fail);
    }

    // The task's starting layout (data parallel alone) does not fit: memory fails and the verdict
    // names it.
    void dataParallelAloneFailsMemory()
    {
        const Lesson& l = capstone();
        const LessonStep& task = l.steps[0];
        QVERIFY(task.design);
        QCOMPARE(task.design->tokens, 2e12);
        QCOMPARE(task.design->days, 30.0);
        QCOMPARE(task.scenario.parallel.gpus(), std::int64_t(1024));
        const DesignGrade g
            = gradeDesign(*task.design, task.scenario, task.scenario, evaluate(task.scenario), capstoneReferences());
        QCOMPARE(check(g, "gpus").mark, DesignMark::Pass);
        QCOMPARE(check(g, "memory").mark, DesignMark::Fail);
        QVERIFY(!g.passed);
        QVERIFY2(g.verdict.en.rfind("Not yet: Memory", 0) == 0, g.verdict.en.c_str());
        QVERIFY(g.verdict.zh.rfind("还不行：显存墙", 0) == 0);
    }

    // The grade as JSON (what the web edition's grade_design answers): the same checks, marks and
    // notes in the asked language, the days (null where a layout trains nothing) and the text.
    void gradeAsJsonCarriesEveryCheck()
    {
        const LessonStep& task = capstone().steps[0];
        DesignGrade g
            = gradeDesign(*task.design, task.scenario, task.scenario, evaluate(task.scenario), capstoneReferences());
        const nlohmann::json j = designGradeJson(g, "zh");
        QCOMPARE(j["checks"].size(), g.checks.size());
        for (std::size_t i = 0; i < g.checks.size(); ++i) {
            QCOMPARE(j["checks"][i]["id"].get<std::string>(), g.checks[i].id);
            QCOMPARE(j["checks"][i]["mark"].get<std::string>(), std::string(toString(g.checks[i].mark)));
            QCOMPARE(j["checks"][i]["note"].get<std::string>(), g.checks[i].note.zh);
        }
        QCOMPARE(j["verdict"].get<std::string>(), g.verdict.zh);
        QCOMPARE(j["days"].get<double>(), g.days);
        QCOMPARE(j["text"].get<std::string>(), designGradeText(g, "zh"));
        QCOMPARE(j["report_card"]["procedure"]["layout"].get<std::string>(), g.card.procedure.layout);
        g.days = std::numeric_limits<double>::infinity();
        QVERIFY(designGradeJson(g, "en")["days"].is_null());
    }

    // The search's own layout handed in: every wall as good as the references (it is one), and
    // its days from its step time by hand: 2e12 · step / (global batch · sequence) / goodput / 86,400.
    void theSearchsLayoutPassesItsWalls()
    {
        const Lesson& l = capstone();
        const CardReferences& r = capstoneReferences();
        QVERIFY(r.search);
        const Estimate e = evaluate(*r.search);
        const DesignGrade g = gradeDesign(*l.steps[0].design, l.steps[0].scenario, *r.search, e, r);
        for (const char* wall : {"gpus", "memory", "communication", "efficiency", "stability"})
            QCOMPARE(check(g, wall).mark, DesignMark::Pass);
        const double tokens_per_step = double(r.search->training.global_batch) * double(r.search->training.seq_len);
        const double by_hand = 2e12 * e.time.step_s / tokens_per_step / e.walls.stability_report.time_goodput / 86400;
        QVERIFY(near(g.days, by_hand, 1e-6));
        QVERIFY(near(g.search_days, by_hand, 1e-6));
        // Linear scaling from this layout: the GPUs the 30 days would need.
        QVERIFY(near(g.gpus_for_goal, 1024 * by_hand / 30, 1e-6));
        // The goal's mark follows the days: a pass within 30, otherwise a miss that names the GPUs.
        const DesignCheck& goal = check(g, "goal");
        if (by_hand <= 30) {
            QCOMPARE(goal.mark, DesignMark::Pass);
        } else {
            QVERIFY(goal.mark != DesignMark::Pass);
            const std::string need = std::to_string(std::int64_t(std::ceil(g.gpus_for_goal)));
            QVERIFY2(goal.note.en.find(need + " GPUs") != std::string::npos, goal.note.en.c_str());
        }
        // The text reveals both references.
        const std::string text = designGradeText(g, "en");
        QVERIFY(text.find("Revealed") != std::string::npos);
        QVERIFY(text.find(g.card.procedure.layout) != std::string::npos);
        QVERIFY(text.find(g.card.search->layout) != std::string::npos);
        QVERIFY(designGradeText(g, "zh").find("揭晓") != std::string::npos);
    }

    // The lesson's train_days claim measures what the grade computes.
    void trainDaysClaimAgreesWithTheGrade()
    {
        const Lesson& l = capstone();
        for (std::size_t i = 1; i < l.steps.size(); ++i) {
            std::vector<Estimate> estimates;
            for (const LessonStep& s : l.steps)
                estimates.push_back(evaluate(s.scenario));
            NumericClaim days;
            days.quantity = Quantity::TrainDays;
            const DesignGrade g = gradeDesign(*l.steps[0].design, l.steps[0].scenario, l.steps[i].scenario,
                                              estimates[i], capstoneReferences());
            QVERIFY(near(measure(days, l, i, estimates), g.days, 1e-9));
        }
    }

    // Half the GPUs is not an answer to the task.
    void anotherGpuCountFails()
    {
        const Lesson& l = capstone();
        Scenario half = l.steps[0].scenario;
        half.parallel.dp /= 2;
        const DesignGrade g
            = gradeDesign(*l.steps[0].design, l.steps[0].scenario, half, evaluate(half), capstoneReferences());
        QCOMPARE(check(g, "gpus").mark, DesignMark::Fail);
        QVERIFY2(check(g, "gpus").note.en.find("uses 512 GPUs; the task gives 1024") != std::string::npos,
                 check(g, "gpus").note.en.c_str());
    }

    // The lessons that reveal the Advisor's and the search's layouts show what they find today:
    // lesson 14 (the search's best, then the Advisor's) and the capstone (the Advisor's, then the
    // search's), each step's layout and training settings those of decide() on the lesson's first
    // step. An engine change that moves either answer fails here, not in class.
    void lessonsShowWhatTheAdvisorAndTheSearchFind()
    {
        const auto same = [](const Scenario& a, const Scenario& b) {
            const nlohmann::json ja = scenarioToJson(a), jb = scenarioToJson(b);
            return ja["parallel"] == jb["parallel"] && ja["training"] == jb["training"];
        };
        const Lesson* search = findLesson("14-automatic-search");
        QVERIFY(search);
        const DecisionResult d14 = decide(search->steps[0].scenario);
        QVERIFY(d14.search_best);
        QVERIFY2(same(search->steps[1].scenario, *d14.search_best), scenarioToJson(*d14.search_best).dump().c_str());
        QVERIFY2(same(search->steps[2].scenario, d14.scenario), scenarioToJson(d14.scenario).dump().c_str());
        const CardReferences& r = capstoneReferences();
        QVERIFY(r.search);
        QVERIFY2(same(capstone().steps[1].scenario, r.procedure), scenarioToJson(r.procedure).dump().c_str());
        QVERIFY2(same(capstone().steps[2].scenario, *r.search), scenarioToJson(*r.search).dump().c_str());
    }

    // "design" in a lesson file: tokens and days are required, and a step is not both an exercise
    // and a design task; each error names the lesson and the field.
    void designIsReadWithErrors()
    {
        const auto lesson = [](const std::string& step_extra) {
            return nlohmann::json::parse(
                R"({"title": {"en": "t", "zh": "t"}, "text": {"en": "x", "zh": "x"}, "steps": [{
                "label": {"en": "a", "zh": "a"}, "text": {"en": "b", "zh": "b"}, "expect": {"valid": true},
                "scenario": {"schema": "parascope.scenario/1", "model": "llama2-7b", "cluster": "dgx-a100-80g",
                             "parallel": {"dp": 8}})"
                + step_extra + "}]}");
        };
        std::vector<InputError> errors;
        const auto ok = readLesson("d", lesson(R"(, "design": {"prompt": {"en": "p", "zh": "p"}, "tokens": 1e12,
            "days": 10})"),
                                   errors);
        QVERIFY2(ok && errors.empty(), errors.empty() ? "" : errors.front().text().c_str());
        QCOMPARE(ok->steps[0].design->tokens, 1e12);
        QVERIFY(lessonDesign(*ok) == &*ok->steps[0].design);

        errors.clear();
        QVERIFY(!readLesson("d", lesson(R"(, "design": {"prompt": {"en": "p", "zh": "p"}, "days": 10})"), errors));
        QVERIFY(!errors.empty());
        QCOMPARE(QString::fromStdString(errors.front().path), QStringLiteral("lessons/d: steps[0].design.tokens"));

        errors.clear();
        QVERIFY(!readLesson("d", lesson(R"(, "design": {"prompt": {"en": "p", "zh": "p"}, "tokens": 1e12, "days": 10},
                "exercise": {"ask": {"quantity": "peak_gib"}, "prompt": {"en": "p", "zh": "p"},
                             "formula": {"en": "f", "zh": "f"}})"),
                            errors));
        bool named = false;
        for (const InputError& e : errors)
            named = named || e.message.find("not both") != std::string::npos;
        QVERIFY(named);
    }
};

QTEST_GUILESS_MAIN(TstDesignTask)
#include "tst_design_task.moc"
