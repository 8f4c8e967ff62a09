// The lessons' reader and checker (from tst_lessons): every shipped lesson reads, every exercise
// grades its engine value right and each listed mistake to its own hint, the diagnostic codes
// the claims name exist, each claim measures what it says (on numbers derived by hand), a claim
// the engine contradicts is named with its lesson and step, and the reader's errors name the
// lesson and the step.

#include "estimate/diagnostic_rules.h"
#include "estimate/evaluate.h"
#include "lessons/exercises.h"
#include "lessons/lessons.h"
#include "lesson_steps.h"
#include "scenario_fixture.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace parascope;
using parascope::test::evaluateSteps;

namespace {

std::string errorsText(const std::vector<InputError>& errors)
{
    std::string out;
    for (const InputError& e : errors)
        out += "\n  " + e.text();
    return out;
}

std::optional<Lesson> lessonFromJson(const std::string& text, std::vector<InputError>& errors)
{
    const auto j = parseJsonText(text, errors);
    return j ? readLesson("test", *j, errors) : std::nullopt;
}

// A small valid lesson (Llama-2 7B, PP 4, 8 microbatches) for the reader's and checker's tests;
// `expect` is spliced in.
std::string lessonJson(const std::string& expect, const std::string& second_expect = R"({"valid": true})")
{
    const std::string scenario = R"({"schema": "parascope.scenario/1", "model": "llama2-7b", "cluster": "dgx-a100-80g",
        "parallel": {"tp": 1, "pp": 4, "dp": 1}, "training": {"global_batch": 8, "micro_batch": 1}})";
    return R"({"title": {"en": "T", "zh": "标题"}, "text": {"en": "Intro", "zh": "介绍"}, "steps": [
        {"label": {"en": "A", "zh": "甲"}, "text": {"en": "Step A", "zh": "步骤甲"}, "expect": )"
        + expect + R"(, "scenario": )" + scenario + R"(},
        {"label": {"en": "B", "zh": "乙"}, "text": {"en": "Step B", "zh": "步骤乙"}, "expect": )"
        + second_expect + R"(, "scenario": )" + scenario + R"(}]})";
}

bool anyErrorContains(const std::vector<InputError>& errors, const std::string& path, const std::string& message = "")
{
    return std::any_of(errors.begin(), errors.end(), [&](const InputError& e) {
        return e.path == path && e.message.find(message) != std::string::npos;
    });
}

} // namespace

class TstLessonsReader : public QObject {
    Q_OBJECT

private slots:
    void everyLessonReads()
    {
        std::vector<InputError> errors;
        const std::vector<Lesson> all = readLessons(errors);
        QVERIFY2(errors.empty(), errorsText(errors).c_str());
        QVERIFY(all.size() >= 4);
        QCOMPARE(lessons().size(), all.size());
        // The app opens on case 2's first step and its tests load these ids.
        for (const char* id : {"1-13b-ddp-vs-tp", "2-llama70b-512", "3-7b-dp-zero-tp", "4-what-breaks-pp16"})
            QVERIFY2(findLesson(id), id);
    }

    // Predict, then reveal (lessons/exercises.h): each shipped exercise measures something, its
    // engine value grades right, and an estimate made with each listed mistake gets that mistake's
    // hint, not another's; four of them by hand.
    void exercisesGradeTheirMistakes()
    {
        int exercises = 0;
        for (const Lesson& l : lessons()) {
            const std::vector<Estimate> estimates = evaluateSteps(l);
            for (std::size_t i = 0; i < l.steps.size(); ++i) {
                if (!l.steps[i].exercise)
                    continue;
                ++exercises;
                const Exercise& ex = *l.steps[i].exercise;
                const std::string at = l.id + ": steps[" + std::to_string(i) + "].exercise";
                const double truth = measure(ex.ask, l, i, estimates);
                QVERIFY2(std::isfinite(truth) && truth > 0, at.c_str());
                const double shown = toExerciseUnit(ex.ask.quantity, truth);
                QVERIFY2(gradeExercise(ex, shown, truth).correct, at.c_str());
                for (std::size_t m = 0; m < ex.mistakes.size(); ++m) {
                    const ExerciseGrade g = gradeExercise(ex, shown * ex.mistakes[m].factor, truth);
                    QVERIFY2(!g.correct && g.mistake == int(m), (at + ".mistakes[" + std::to_string(m) + "]").c_str());
                    QVERIFY(g.feedback.en.find(ex.mistakes[m].hint.en) != std::string::npos);
                }
                // Far off, and no listed mistake: how far, and which way, by ratio band.
                const ExerciseGrade off = gradeExercise(ex, shown * 1e-3, truth);
                QVERIFY2(!off.correct && off.mistake < 0 && off.feedback.en.rfind("Far too low: 1/1000", 0) == 0,
                         off.feedback.en.c_str());
            }
        }
        QVERIFY(exercises >= 4);
        const auto lesson = [](const char* id) { return *findLesson(id); };
        const auto truthOf = [](const Lesson& l, std::size_t step) {
            return measure(l.steps[step].exercise->ask, l, step, evaluateSteps(l));
        };
        // Case 10, DP 32: a ring AllReduce sends 2·(n − 1)/n·P per GPU, P = 2·Ψ bytes of bf16 gradients.
        const Lesson ring = lesson("10-ring-allreduce");
        const double psi = double(evaluate(ring.steps[1].scenario).params.total);
        QVERIFY(std::abs(truthOf(ring, 1) - 2.0 * 31 / 32 * 2 * psi / double(1ull << 30)) < 1e-9);
        // Case 5, ZeRO-0: (2 + 2 + 12)·Ψ with Ψ = 6,738,415,616 (Llama-2 7B) = 100.41 GiB.
        QVERIFY(std::abs(truthOf(lesson("5-zero-stages"), 0) - 16 * 6738415616.0 / double(1ull << 30)) < 1e-6);
        // Case 6, GPipe p = 4, m = 8: (p − 1)/(m + p − 1) = 3/11, asked in percent.
        const Lesson pipes = lesson("6-pipeline-schedules");
        QCOMPARE(toExerciseUnit(Quantity::BubbleFormula, truthOf(pipes, 0)), 300.0 / 11);
        QVERIFY(gradeExercise(*pipes.steps[0].exercise, 27, truthOf(pipes, 0)).correct);
        QCOMPARE(gradeExercise(*pipes.steps[0].exercise, 37.5, truthOf(pipes, 0)).mistake, 0); // (p − 1)/m
        // Case 2: 6·Ψ·tokens/(GPUs · 312 TFLOP/s · 0.45) = 6·69e9·2,097,152/(512·312e12·0.45) = 12.1 s,
        // within the exercise's 25 % of the simulated step.
        const Lesson seventy = lesson("2-llama70b-512");
        QVERIFY(gradeExercise(*seventy.steps[0].exercise, 6 * 69e9 * 512 * 4096 / (512 * 312e12 * 0.45),
                              truthOf(seventy, 0))
                    .correct);
    }

    // The size of a mistake by ratio band, the student's value echoed as typed, and the course's
    // typical mistakes in any exercise whose unit allows them (lessons/exercises.h).
    void feedbackJudgesTheSizeOfAMistake()
    {
        Exercise ex;
        ex.tolerance = 0.05;
        ex.ask.quantity = Quantity::StepS;
        const auto en = [&](double answer, double truth, const ExerciseContext& c = {}) {
            return gradeExercise(ex, answer, truth, c).feedback.en;
        };
        // 3 s asked: 3.6 s is close (+20 %), 6.9 s a factor (2.3×), 99 s far (33×), 0.003 s 1/1000.
        QVERIFY(en(3.6, 3).rfind("Close, but too high by 20 %", 0) == 0);
        QVERIFY(en(6.9, 3).rfind("Too high: 2.3× the engine's value", 0) == 0);
        QVERIFY(en(99, 3).rfind("Far too high: 33× the engine's value", 0) == 0);
        const std::string tiny = en(0.003, 3);
        QVERIFY2(tiny.rfind("Far too low: 1/1000", 0) == 0 && tiny.find("you 0.003 s") != std::string::npos,
                 tiny.c_str());
        // The forward alone: 1 s for a 3 s step.
        QVERIFY(en(1, 3).find("forward pass alone") != std::string::npos);
        // Sequences for tokens: S = 4096, the answer 4096× too small.
        QVERIFY(en(3.0 / 4096, 3, {4096, 8}).find("sequences, not tokens") != std::string::npos);
        // A fraction in a percent box: 0.27 typed for 27 % (the truth 0.27 is shown as 27 %).
        ex.ask.quantity = Quantity::BubbleFormula;
        QVERIFY(en(0.27, 0.27).find("this box asks in percent") != std::string::npos);
        // GB for GiB: 100.41 GiB = 107.8 GB; the 2 + 2 + 4 B/param half; × DP on a per-GPU volume.
        ex.ask.quantity = Quantity::MemoryGib;
        QVERIFY(en(100.41 * 1.073741824, 100.41).find("That is GB") != std::string::npos);
        QVERIFY(en(50.2, 100.41).find("2 + 2 + 4") != std::string::npos);
        QVERIFY(en(100.41 * 8, 100.41, {4096, 8}).find("multiplied by DP") != std::string::npos);
        // Without DP in the context, 8× is only "far too high".
        QVERIFY(en(100.41 * 8, 100.41).rfind("Far too high: 8.0×", 0) == 0);
    }

    // A code that no rule emits would make diagnostics_absent pass for nothing.
    void diagnosticCodesExist()
    {
        std::set<std::string> emitted;
        for (const DiagnosticRule& r : diagnosticRules())
            emitted.insert(r.code);
        for (const Lesson& l : lessons())
            for (const LessonStep& s : l.steps)
                for (const auto* codes : {&s.expect.diagnostics_present, &s.expect.diagnostics_absent})
                    for (const std::string& code : *codes)
                        QVERIFY2(emitted.count(code), (l.id + ": " + code).c_str());
    }

    // What each claim measures, on numbers derived by hand.
    void claimsMeasureWhatTheySay()
    {
        std::vector<InputError> errors;
        const auto l = lessonFromJson(
            lessonJson(R"({"bubble_formula": {"min": 0, "max": 1}, "inflight": [{"stage": 0, "min": 0, "max": 9}]})",
                       R"({"step_s_vs": [{"step": 0, "min": -1, "max": 1}]})"),
            errors);
        QVERIFY2(l, errorsText(errors).c_str());
        const std::vector<Estimate> e = evaluateSteps(*l);
        const LessonExpect& x = l->steps[0].expect;
        QCOMPARE(int(x.numbers.size()), 2);
        // 1F1B, p = 4, m = 8: (p − 1)/(m + p − 1) = 3/11.
        QCOMPARE(measure(x.numbers[0], *l, 0, e), 3.0 / 11.0);
        // Stage 0 of 1F1B holds min(p, m) = 4 microbatches.
        QCOMPARE(measure(x.numbers[1], *l, 0, e), 4.0);
        // The same scenario twice: no difference.
        QCOMPARE(measure(l->steps[1].expect.numbers[0], *l, 1, e), 0.0);

        // TP collectives per layer per microbatch (Shoeybi 2019, Korthikanti 2022 §4.2.2): 2 forward
        // + 2 backward AllReduce; with SP each becomes an AllGather + a ReduceScatter: 8; full
        // recompute repeats the forward ones: 12.
        NumericClaim tp;
        tp.quantity = Quantity::TpCollectivesPerLayer;
        Lesson one = *l;
        one.steps.resize(1);
        one.steps[0].scenario = test::presetScenario("llama2-7b", "dgx-a100-80g", 8, 1, 1);
        one.steps[0].scenario.training.global_batch = 8;
        one.steps[0].scenario.parallel.sequence_parallel = false;
        QCOMPARE(measure(tp, one, 0, evaluateSteps(one)), 4.0);
        one.steps[0].scenario.parallel.sequence_parallel = true;
        QCOMPARE(measure(tp, one, 0, evaluateSteps(one)), 8.0);
        one.steps[0].scenario.training.recompute = Recompute::Full;
        QCOMPARE(measure(tp, one, 0, evaluateSteps(one)), 12.0);
    }

    // A claim the engine contradicts is reported with the lesson, the step and the claim.
    void aWrongClaimIsNamed()
    {
        std::vector<InputError> errors;
        const auto l = lessonFromJson(lessonJson(R"({"valid": true})",
                                                 R"({"fits": false, "bubble_simulated": {"min": 0.9, "max": 1},
                                                     "diagnostics_present": ["out_of_memory"], "memory_gib": [{"stage": 3, "part": "states", "min": 0, "max": 0.1}]})"),
                                      errors);
        QVERIFY2(l, errorsText(errors).c_str());
        const std::vector<std::string> f = checkLesson(*l, evaluateSteps(*l));
        QCOMPARE(int(f.size()), 4);
        QVERIFY2(f[0].rfind("lessons/test: steps[1].expect.fits: claims false", 0) == 0, f[0].c_str());
        QVERIFY2(f[1].rfind("lessons/test: steps[1].expect.diagnostics_present: out_of_memory", 0) == 0, f[1].c_str());
        QVERIFY2(f[2].rfind("lessons/test: steps[1].expect.bubble_simulated: the engine gives 0.", 0) == 0,
                 f[2].c_str());
        QVERIFY2(f[3].rfind("lessons/test: steps[1].expect.memory_gib[stage 3, states]: ", 0) == 0, f[3].c_str());
    }

    void readerErrorsNameLessonAndStep_data()
    {
        QTest::addColumn<QString>("expect");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown key") << QStringLiteral(R"({"valid": true, "peak_gb": {"min": 1, "max": 2}})")
                                     << QStringLiteral("lessons/test: steps[0].expect.peak_gb")
                                     << QStringLiteral("unknown key");
        QTest::newRow("no claim") << QStringLiteral("{}") << QStringLiteral("lessons/test: steps[0].expect")
                                  << QStringLiteral("states no claim");
        QTest::newRow("min above max") << QStringLiteral(R"({"peak_gib": {"min": 2, "max": 1}})")
                                       << QStringLiteral("lessons/test: steps[0].expect.peak_gib.min")
                                       << QStringLiteral("above max");
        QTest::newRow("range key") << QStringLiteral(R"({"step_s": {"min": 1, "max": 2, "about": 1.5}})")
                                   << QStringLiteral("lessons/test: steps[0].expect.step_s.about")
                                   << QStringLiteral("unknown key");
        QTest::newRow("missing max") << QStringLiteral(R"({"step_s": {"min": 1}})")
                                     << QStringLiteral("lessons/test: steps[0].expect.step_s.max")
                                     << QStringLiteral("required");
        QTest::newRow("no such step") << QStringLiteral(R"({"step_s_vs": [{"step": 2, "min": 0, "max": 1}]})")
                                      << QStringLiteral("lessons/test: steps[0].expect.step_s_vs[0].step")
                                      << QStringLiteral("0 … 1");
        QTest::newRow("itself") << QStringLiteral(R"({"step_s_vs": [{"step": 0, "min": 0, "max": 1}]})")
                                << QStringLiteral("lessons/test: steps[0].expect.step_s_vs[0].step")
                                << QStringLiteral("itself");
        QTest::newRow("no such stage") << QStringLiteral(R"({"inflight": [{"stage": 4, "min": 0, "max": 1}]})")
                                       << QStringLiteral("lessons/test: steps[0].expect.inflight[0].stage")
                                       << QStringLiteral("4 pipeline stages");
        QTest::newRow("memory part") << QStringLiteral(
            R"({"memory_gib": [{"stage": 0, "part": "ram", "min": 0, "max": 1}]})")
                                     << QStringLiteral("lessons/test: steps[0].expect.memory_gib[0].part")
                                     << QStringLiteral("must be one of weights");
        QTest::newRow("code") << QStringLiteral(R"({"diagnostics_absent": ["Large bubble"]})")
                              << QStringLiteral("lessons/test: steps[0].expect.diagnostics_absent[0]")
                              << QStringLiteral("diagnostic code");
        QTest::newRow("bool") << QStringLiteral(R"({"fits": "yes"})")
                              << QStringLiteral("lessons/test: steps[0].expect.fits")
                              << QStringLiteral("true or false");
    }

    void readerErrorsNameLessonAndStep()
    {
        QFETCH(QString, expect);
        QFETCH(QString, path);
        QFETCH(QString, message);
        std::vector<InputError> errors;
        QVERIFY(!lessonFromJson(lessonJson(expect.toStdString()), errors));
        QVERIFY2(anyErrorContains(errors, path.toStdString(), message.toStdString()), errorsText(errors).c_str());
    }

    void readerErrorsOutsideExpect()
    {
        std::vector<InputError> errors;
        std::string j = lessonJson(R"({"valid": true})");
        // A step without text, a step key nobody reads, a language nobody reads.
        const std::string step_text = R"("text": {"en": "Step A", "zh": "步骤甲"}, )";
        j.replace(j.find(step_text), step_text.size(), R"("note": 1, )");
        j.replace(j.find(R"("zh": "介绍")"), std::string(R"("zh": "介绍")").size(), R"("zh": "介绍", "fr": "Intro")");
        QVERIFY(!lessonFromJson(j, errors));
        QVERIFY2(anyErrorContains(errors, "lessons/test: steps[0].text", "must be an object"),
                 errorsText(errors).c_str());
        QVERIFY2(anyErrorContains(errors, "lessons/test: steps[0].note", "unknown key"), errorsText(errors).c_str());
        QVERIFY2(anyErrorContains(errors, "lessons/test: text.fr", "unknown key"), errorsText(errors).c_str());

        errors.clear();
        std::string no_expect = lessonJson(R"({"valid": true})");
        const std::string expect = R"("expect": {"valid": true}, )";
        no_expect.replace(no_expect.find(expect), expect.size(), "");
        QVERIFY(!lessonFromJson(no_expect, errors));
        QVERIFY2(anyErrorContains(errors, "lessons/test: steps[0].expect", "is missing"), errorsText(errors).c_str());

        // An exercise that asks for nothing the engine measures, or lists the right answer as a mistake.
        errors.clear();
        std::string bad_exercise = lessonJson(R"({"valid": true})");
        const std::string exercise
            = R"("exercise": {"ask": {"quantity": "step_s_vs"}, "prompt": {"en": "P", "zh": "问"},
            "formula": {"en": "F", "zh": "式"}, "mistakes": [{"factor": 1, "hint": {"en": "H", "zh": "提示"}}]}, )";
        bad_exercise.insert(bad_exercise.find(R"("scenario")"), exercise);
        QVERIFY(!lessonFromJson(bad_exercise, errors));
        QVERIFY2(anyErrorContains(errors, "lessons/test: steps[0].exercise.ask.quantity", "quantity of one step"),
                 errorsText(errors).c_str());
        QVERIFY2(anyErrorContains(errors, "lessons/test: steps[0].exercise.mistakes[0].factor", "right answer"),
                 errorsText(errors).c_str());

        errors.clear();
        std::string bad_tp = lessonJson(R"({"valid": true})");
        bad_tp.replace(bad_tp.find(R"("tp": 1)"), 7, R"("tp": 0)");
        QVERIFY(!lessonFromJson(bad_tp, errors));
        QVERIFY2(anyErrorContains(errors, "lessons/test: steps[0].scenario.parallel.tp"), errorsText(errors).c_str());
    }
};

QTEST_GUILESS_MAIN(TstLessonsReader)
#include "tst_lessons_reader.moc"
