// A teacher's exercise from the screen (issue 38 §8, lessons/exercise_writer.h): a quantity shown
// — a collective's time, a stage's memory part, the bubble — saved as a lesson step with its
// tolerance, read back as a lesson like the shipped ones, its claim holding on today's engine, and
// a class's answers to it binned once the lesson file is given.

#include "estimate/evaluate.h"
#include "lessons/class_answers.h"
#include "lessons/exercise_writer.h"
#include "lessons/lesson_text.h"
#include "scenario_fixture.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace parascope;
using namespace parascope::test;

namespace {

NumericClaim collectiveClaim(const std::string& key)
{
    NumericClaim c;
    c.quantity = Quantity::CollectiveS;
    c.collective = key;
    return c;
}

// One step of `sc`, for measure().
Lesson oneStep(const Scenario& sc)
{
    Lesson l;
    l.steps.resize(1);
    l.steps[0].scenario = sc;
    return l;
}

} // namespace

class TstExerciseWriter : public QObject {
    Q_OBJECT

private slots:
    // collective_s names a row of the communication chart; its value is that row's time.
    void collectiveTimeIsTheChartsRow()
    {
        const Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 2, 1, 4);
        const Estimate e = evaluate(sc);
        const CommEntry* dp = nullptr;
        for (const CommEntry& entry : e.communication)
            if (entry.group == Group::Dp && !dp)
                dp = &entry;
        QVERIFY(dp);
        const std::string key = collectiveKey(*dp);
        QVERIFY(isCollectiveKey(key));
        QVERIFY(!isCollectiveKey("dp.reduce_scatter"));
        QVERIFY(!isCollectiveKey("dp.scatter.gradients"));
        double by_hand = 0; // the plan's entries of that name, added up
        for (const CommEntry& entry : e.communication)
            if (collectiveKey(entry) == key)
                by_hand += entry.time_s;
        QCOMPARE(measure(collectiveClaim(key), oneStep(sc), 0, {e}), by_hand);
        QVERIFY(std::isnan(measure(collectiveClaim("ep.all_to_all.tokens"), oneStep(sc), 0, {e})));
        QCOMPARE(placeholderOf(collectiveClaim(key)), "{{collective_s:" + key + "}}");
    }

    // Saved, then read back: the step is an exercise asking for that quantity with its tolerance,
    // its claim holds (the engine's value ± 0.1 %), its text quotes the value, and a second save
    // appends a second step.
    void savedStepReadsBackAsALesson()
    {
        const Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 2, 2, 2);
        const Estimate e = evaluate(sc);
        ExerciseDraft d;
        d.ask.quantity = Quantity::MemoryGib;
        d.ask.stage = 1;
        d.ask.part = MemoryPart::Activations;
        d.prompt = {"", "第 1 阶段的激活显存是多少 GiB？"}; // Chinese only: used for both
        d.formula = {"s·b·h·34 per layer", ""};
        d.tolerance = 0.15;
        const double truth = measure(d.ask, oneStep(sc), 0, {e});
        std::vector<InputError> errors;
        const auto step = exerciseStepJson(d, sc, truth, true, errors);
        QVERIFY(step && errors.empty());
        auto lesson = addExerciseStep(nullptr, {"Class 3", ""}, *step, errors);
        QVERIFY(lesson);
        lesson = addExerciseStep(&*lesson, {}, *step, errors);
        QVERIFY(lesson && errors.empty());

        const std::optional<Lesson> l = readLesson("class-3", *lesson, errors);
        QVERIFY2(l, errors.empty() ? "" : errors.front().text().c_str());
        QCOMPARE(int(l->steps.size()), 2);
        QCOMPARE(l->title.zh, std::string("Class 3"));
        const Exercise& ex = *l->steps[1].exercise;
        QCOMPARE(ex.ask.name(), std::string("memory_gib[stage 1, activations]"));
        QCOMPARE(ex.tolerance, 0.15);
        QCOMPARE(ex.prompt.en, ex.prompt.zh);
        QCOMPARE(ex.formula.zh, std::string("s·b·h·34 per layer"));
        const std::vector<Estimate> estimates = {e, e};
        QVERIFY(checkLesson(*l, estimates).empty());
        const Lesson shown = renderLesson(*l, estimates);
        char gib[32];
        std::snprintf(gib, sizeof gib, "%.2f GiB", truth);
        QVERIFY2(shown.steps[0].text.en.find(gib) != std::string::npos, shown.steps[0].text.en.c_str());
    }

    // What the editor refuses, by field; a file that is not a lesson is not appended to.
    void draftsWithoutTextAreRefused()
    {
        const Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 8);
        ExerciseDraft d;
        d.ask.quantity = Quantity::StepS;
        std::vector<InputError> errors;
        QVERIFY(!exerciseStepJson(d, sc, 1.0, true, errors));
        QCOMPARE(int(errors.size()), 2);
        QCOMPARE(errors[0].path, std::string("prompt"));
        QCOMPARE(errors[1].path, std::string("formula"));
        errors.clear();
        d.prompt = {"How long is a step?", ""};
        d.formula = {"6·Ψ·tokens / rate", ""};
        QVERIFY(!exerciseStepJson(d, sc, std::nan(""), true, errors));
        errors.clear();
        const auto step = exerciseStepJson(d, sc, 1.0, true, errors);
        QVERIFY(step);
        const nlohmann::json not_a_lesson = {{"schema", "parascope.scenario/1"}};
        QVERIFY(!addExerciseStep(&not_a_lesson, {}, *step, errors));
        QVERIFY(!errors.empty());
        errors.clear();
        QVERIFY(!addExerciseStep(nullptr, {}, *step, errors));
        QCOMPARE(errors.front().path, std::string("title"));
    }

    // The lesson file on disk, then a class's answers to it: found once the file is given, an
    // error naming the line without it.
    void classAnswersFindTheTeachersLesson()
    {
        const Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 2, 1, 4);
        const Estimate e = evaluate(sc);
        ExerciseDraft d;
        d.ask = collectiveClaim(collectiveKey(e.communication.back()));
        d.prompt = {"How long does this collective take per step?", "这个集合通信每步耗时多少？"};
        d.formula = {"α + β · bytes, per call, × calls", "α + β · 字节数，每次调用，× 调用次数"};
        const double truth = measure(d.ask, oneStep(sc), 0, {e});
        std::vector<InputError> errors;
        const auto lesson
            = addExerciseStep(nullptr, {"Mine", "我的"}, *exerciseStepJson(d, sc, truth, true, errors), errors);
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("my-class.json")).toStdString();
        std::ofstream(file) << lesson->dump(2);
        const std::optional<Lesson> mine = readLessonFile(file, errors);
        QVERIFY(mine && errors.empty());
        QCOMPARE(mine->id, std::string("my-class"));
        QVERIFY(findLesson("my-class", {*mine}) != nullptr);
        QVERIFY(findLesson("1-13b-ddp-vs-tp", {*mine}) != nullptr); // the presets still
        char csv[256];
        std::snprintf(csv, sizeof csv,
                      "2026-12-05T10:00:00,my-class,1,%s,s,%.6g,,,,\n2026-12-05T10:01:00,my-class,1,%s,s,%.6g,,,,\n",
                      d.ask.name().c_str(), truth, d.ask.name().c_str(), truth * 10);
        const std::vector<ExerciseAnswers> a = classAnswers({{"answers.csv", csv}}, errors, {*mine});
        QVERIFY(errors.empty());
        QCOMPARE(int(a.size()), 1);
        QCOMPARE(a[0].title.zh, std::string("我的"));
        QCOMPARE(a[0].bins[0].count, 1); // right
        QCOMPARE(int(a[0].answers.size()), 2);
        QVERIFY(classAnswers({{"answers.csv", csv}}, errors).empty());
        QCOMPARE(errors.front().path, std::string("answers.csv:1"));

        errors.clear();
        std::ofstream(file) << R"({"title": {"en": "t", "zh": "t"}, "text": {"en": "x", "zh": "x"}, "steps": []})";
        QVERIFY(!readLessonFile(file, errors));
        QCOMPARE(errors.front().path, file + ": steps");
    }
};

QTEST_GUILESS_MAIN(TstExerciseWriter)
#include "tst_exercise_writer.moc"
