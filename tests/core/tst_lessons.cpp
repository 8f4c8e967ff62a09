// The course's lessons (resources/presets/lessons) teach what the engine shows: every step has
// claims (`expect`, core/lessons/lessons.h; that they hold is tst_lesson_claims), every number
// a text quotes with a unit (31.6 %, 18.45 GiB, 204 MiB, 12.08 s) lies in one of those claims,
// and the words follow the course's terminology (shared/reference/zh-terminology.md). Also the
// reader's errors name the lesson and the step.

#include "estimate/diagnostic_rules.h"
#include "estimate/evaluate.h"
#include "lessons/exercises.h"
#include "lessons/lessons.h"
#include "schedule/pipeline_closed_form.h"
#include "lesson_steps.h"
#include "scenario_fixture.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace parascope;
using parascope::test::evaluateSteps;
using parascope::test::joined;

namespace {

std::string errorsText(const std::vector<InputError>& errors)
{
    std::string out;
    for (const InputError& e : errors)
        out += "\n  " + e.text();
    return out;
}

// ---- numbers quoted in a text -------------------------------------------------------------

// A number followed by a unit, as written: "31.6 %" → 0.316 ± 0.0005 (fraction).
struct Quoted {
    double value = 0;
    double half_unit = 0; // half of the last written digit: the rounding the text allows
    ClaimUnit unit = ClaimUnit::Count;
    std::string text;
};

bool isAsciiLetter(char32_t c) { return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z'); }
bool isDigit(char32_t c) { return c >= U'0' && c <= U'9'; }

bool startsWith(const std::u32string& s, std::size_t at, const std::u32string& what)
{
    return s.compare(at, what.size(), what) == 0;
}

// Every number in `text` followed (after at most one space) by %, GiB, MiB, s, ms or 秒. Numbers
// glued to a name (A100, Llama-2, A100-80GB, ZeRO-1) are skipped. A decimal unit of memory (GB,
// MB, TB) is reported in `decimal_units`: the app shows GiB.
std::vector<Quoted> quotedNumbers(const std::string& utf8, std::vector<std::string>& decimal_units)
{
    const std::u32string s = QString::fromStdString(utf8).toStdU32String();
    std::vector<Quoted> out;
    std::size_t i = 0;
    while (i < s.size()) {
        if (!isDigit(s[i]) || (i > 0 && (isDigit(s[i - 1]) || isAsciiLetter(s[i - 1]) || s[i - 1] == U'-' || s[i - 1] == U'.'
                                        || s[i - 1] == U'_'))) {
            ++i;
            continue;
        }
        std::size_t j = i;
        std::string digits;
        int decimals = -1;
        while (j < s.size()) {
            if (isDigit(s[j])) {
                digits += char(s[j]);
                if (decimals >= 0)
                    ++decimals;
                ++j;
            } else if (s[j] == U',' && decimals < 0 && j + 3 < s.size() && isDigit(s[j + 1]) && isDigit(s[j + 2]) && isDigit(s[j + 3])
                       && (j + 4 >= s.size() || !isDigit(s[j + 4]))) {
                ++j; // thousands separator: 2,097,152
            } else if (s[j] == U'.' && decimals < 0 && j + 1 < s.size() && isDigit(s[j + 1])) {
                digits += '.';
                decimals = 0;
                ++j;
            } else {
                break;
            }
        }
        const std::size_t end = j;
        if (j < s.size() && (s[j] == U' ' || s[j] == U'\u00A0' || s[j] == U'\u202F'))
            ++j;
        const auto unitEnds = [&](std::size_t at) { return at >= s.size() || !isAsciiLetter(s[at]); };
        Quoted q;
        q.value = std::stod(digits);
        q.half_unit = 0.5 * std::pow(10.0, -std::max(0, decimals));
        q.text = QString::fromStdU32String(s.substr(i, j - i)).toStdString();
        bool found = true;
        if (j < s.size() && (s[j] == U'%' || s[j] == U'\uFF05')) {
            q.unit = ClaimUnit::Fraction;
            q.value /= 100;
            q.half_unit /= 100;
            q.text += "%";
        } else if (startsWith(s, j, U"GiB") && unitEnds(j + 3)) {
            q.unit = ClaimUnit::GiB;
            q.text += "GiB";
        } else if (startsWith(s, j, U"MiB") && unitEnds(j + 3)) {
            q.unit = ClaimUnit::MiB;
            q.text += "MiB";
        } else if (startsWith(s, j, U"ms") && unitEnds(j + 2)) {
            q.unit = ClaimUnit::Seconds;
            q.value /= 1000;
            q.half_unit /= 1000;
            q.text += "ms";
        } else if ((startsWith(s, j, U"s") && unitEnds(j + 1)) || startsWith(s, j, U"秒")) {
            q.unit = ClaimUnit::Seconds;
            q.text += "s";
        } else {
            found = false;
            for (const char32_t* bad : {U"GB", U"MB", U"TB", U"KB", U"kB"})
                if (startsWith(s, j, bad) && unitEnds(j + 2))
                    decimal_units.push_back(QString::fromStdU32String(s.substr(i, j + 2 - i)).toStdString());
        }
        if (found)
            out.push_back(q);
        i = std::max(end, i + 1);
    }
    return out;
}

// A claim backs a quoted number when the number, read with its rounding, meets the claim's
// range, and the range is narrow enough to pin it (within 10 % of the number plus the rounding).
// A fraction may be quoted without its sign ("20 % faster" for step_s_vs = −0.20).
bool backs(const NumericClaim& c, const Quoted& q)
{
    if (quantityInfo(c.quantity).unit != q.unit)
        return false;
    if (c.max - c.min > 0.1 * std::fabs(q.value) + 4 * q.half_unit)
        return false;
    const auto meets = [&](double v) { return v + q.half_unit >= c.min && v - q.half_unit <= c.max; };
    return meets(q.value) || (q.unit == ClaimUnit::Fraction && meets(-q.value));
}

// The claims a step's text may quote: its own, and those of the steps it compares itself with.
std::vector<NumericClaim> claimsFor(const Lesson& l, std::size_t step)
{
    std::vector<NumericClaim> out = l.steps[step].expect.numbers;
    for (const NumericClaim& c : l.steps[step].expect.numbers)
        if (c.step >= 0 && std::size_t(c.step) < l.steps.size())
            for (const NumericClaim& o : l.steps[std::size_t(c.step)].expect.numbers)
                out.push_back(o);
    return out;
}

std::vector<std::string> unbackedNumbers(const std::string& where, const std::string& text,
                                         const std::vector<NumericClaim>& claims)
{
    std::vector<std::string> out;
    std::vector<std::string> decimal;
    for (const Quoted& q : quotedNumbers(text, decimal)) {
        const bool ok = std::any_of(claims.begin(), claims.end(), [&](const NumericClaim& c) { return backs(c, q); });
        if (!ok)
            out.push_back(where + ": \"" + q.text + "\" is backed by no claim of its expect");
    }
    for (const std::string& d : decimal)
        out.push_back(where + ": \"" + d + "\" uses a decimal unit; lessons say GiB (2^30 B) like the app");
    return out;
}

// ---- words --------------------------------------------------------------------------------

bool isCjk(char32_t c)
{
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3000 && c <= 0x303F) || (c >= 0xFF00 && c <= 0xFFEF);
}

// Half-width punctuation next to Chinese characters ("阶段,", "(流水线") where the course writes
// full-width ("，", "（").
std::vector<std::string> halfWidthPunctuation(const std::string& where, const std::string& utf8)
{
    const std::u32string s = QString::fromStdString(utf8).toStdU32String();
    std::vector<std::string> out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char32_t c = s[i];
        const bool before = i > 0 && isCjk(s[i - 1]);
        const bool after = i + 1 < s.size() && isCjk(s[i + 1]);
        bool bad = false;
        if (c == U',' || c == U';' || c == U':' || c == U'?' || c == U'!')
            bad = before || after;
        else if (c == U'(')
            bad = after;
        else if (c == U')')
            bad = before;
        if (bad)
            out.push_back(where + ": half-width \"" + QString::fromStdU32String(s.substr(i > 0 ? i - 1 : i, 3)).toStdString()
                          + "\" in Chinese text");
    }
    return out;
}

// AllReduce / ReduceScatter / AllGather, spelled one way in both languages.
std::vector<std::string> collectiveSpellings(const std::string& where, const std::string& text)
{
    std::vector<std::string> out;
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    const struct { const char* right; std::vector<const char*> wrong; } names[] = {
        {"AllReduce", {"all-reduce", "all_reduce", "all reduce", "allreduce"}},
        {"ReduceScatter", {"reduce-scatter", "reduce_scatter", "reduce scatter", "reducescatter"}},
        {"AllGather", {"all-gather", "all_gather", "all gather", "allgather"}},
    };
    for (const auto& n : names)
        for (const char* w : n.wrong)
            for (std::size_t at = lower.find(w); at != std::string::npos; at = lower.find(w, at + 1))
                if (text.compare(at, std::string(w).size(), n.right) != 0)
                    out.push_back(where + ": \"" + text.substr(at, std::string(w).size()) + "\" is spelled " + n.right);
    return out;
}

int codePoints(const std::string& utf8)
{
    return int(QString::fromStdString(utf8).toStdU32String().size());
}

// Every text of a lesson with where it is: ("title.zh", "…").
std::vector<std::pair<std::string, const Localized*>> texts(const Lesson& l)
{
    std::vector<std::pair<std::string, const Localized*>> out = {{"title", &l.title}, {"text", &l.text}};
    for (std::size_t i = 0; i < l.steps.size(); ++i) {
        out.emplace_back("steps[" + std::to_string(i) + "].label", &l.steps[i].label);
        out.emplace_back("steps[" + std::to_string(i) + "].text", &l.steps[i].text);
        if (const auto& ex = l.steps[i].exercise) {
            const std::string at = "steps[" + std::to_string(i) + "].exercise";
            out.emplace_back(at + ".prompt", &ex->prompt);
            out.emplace_back(at + ".formula", &ex->formula);
            for (std::size_t m = 0; m < ex->mistakes.size(); ++m)
                out.emplace_back(at + ".mistakes[" + std::to_string(m) + "].hint", &ex->mistakes[m].hint);
        }
    }
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
        {"label": {"en": "A", "zh": "甲"}, "text": {"en": "Step A", "zh": "步骤甲"}, "expect": )" + expect
           + R"(, "scenario": )" + scenario + R"(},
        {"label": {"en": "B", "zh": "乙"}, "text": {"en": "Step B", "zh": "步骤乙"}, "expect": )" + second_expect
           + R"(, "scenario": )" + scenario + R"(}]})";
}

bool anyErrorContains(const std::vector<InputError>& errors, const std::string& path, const std::string& message = "")
{
    return std::any_of(errors.begin(), errors.end(), [&](const InputError& e) {
        return e.path == path && e.message.find(message) != std::string::npos;
    });
}

} // namespace

class TstLessons : public QObject {
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

    void everyStepHasTextAndClaims()
    {
        for (const Lesson& l : lessons())
            for (std::size_t i = 0; i < l.steps.size(); ++i) {
                const std::string where = l.id + " steps[" + std::to_string(i) + "]";
                QVERIFY2(!l.steps[i].text.en.empty() && !l.steps[i].text.zh.empty(), where.c_str());
                QVERIFY2(l.steps[i].expect.claims() >= 1, where.c_str());
            }
    }

    // Every "31.6 %", "18.45 GiB", "204 MiB" or "12.08 s" a text quotes lies in a claim of its step
    // (or of a step it compares itself with); the introduction may quote any step's.
    void everyQuotedNumberIsClaimed()
    {
        std::vector<std::string> failures;
        std::size_t quoted = 0;
        for (const Lesson& l : lessons()) {
            std::vector<NumericClaim> all;
            for (const LessonStep& s : l.steps)
                all.insert(all.end(), s.expect.numbers.begin(), s.expect.numbers.end());
            for (const char* lang : {"en", "zh"}) {
                const std::string where = l.id + ": text." + lang;
                const auto f = unbackedNumbers(where, l.text.in(lang), all);
                failures.insert(failures.end(), f.begin(), f.end());
            }
            for (std::size_t i = 0; i < l.steps.size(); ++i) {
                const std::vector<NumericClaim> mine = claimsFor(l, i);
                for (const char* lang : {"en", "zh"}) {
                    const std::string text = l.steps[i].text.in(lang);
                    const std::string where = l.id + ": steps[" + std::to_string(i) + "].text." + lang;
                    const auto f = unbackedNumbers(where, text, mine);
                    failures.insert(failures.end(), f.begin(), f.end());
                    std::vector<std::string> ignored;
                    quoted += quotedNumbers(text, ignored).size();
                }
            }
            for (const char* lang : {"en", "zh"}) {
                std::vector<std::string> decimal;
                quotedNumbers(l.title.in(lang), decimal);
                for (const std::string& d : decimal)
                    failures.push_back(l.id + ": title." + lang + ": \"" + d + "\" uses a decimal unit");
            }
        }
        QVERIFY2(failures.empty(), joined(failures).c_str());
        QVERIFY(quoted >= 40); // the texts do quote the engine
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
                // Far off, and no listed mistake: how far, and which way.
                const ExerciseGrade off = gradeExercise(ex, shown * 1e-3, truth);
                QVERIFY(!off.correct && off.mistake < 0 && off.feedback.en.rfind("Too low", 0) == 0);
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
        QVERIFY(gradeExercise(*seventy.steps[0].exercise, 6 * 69e9 * 512 * 4096 / (512 * 312e12 * 0.45), truthOf(seventy, 0)).correct);
    }

    // The quoted-number reader itself.
    void quotedNumbersAreRead()
    {
        std::vector<std::string> decimal;
        const std::vector<Quoted> q = quotedNumbers(
            "bubble 31.6 % vs 19 %; 18.45 GiB on A100-80GB, 204 MiB over, 2,097,152 tokens, 12.08 s, 5 ms, 8 stages, 26 GB, 显存 7.61 GiB，3 秒",
            decimal);
        QCOMPARE(int(q.size()), 8);
        QCOMPARE(q[0].unit, ClaimUnit::Fraction);
        QCOMPARE(q[0].value, 0.316);
        QCOMPARE(q[0].half_unit, 0.0005);
        QCOMPARE(q[1].value, 0.19);
        QCOMPARE(q[2].unit, ClaimUnit::GiB);
        QCOMPARE(q[2].value, 18.45);
        QCOMPARE(q[3].unit, ClaimUnit::MiB);
        QCOMPARE(q[4].unit, ClaimUnit::Seconds);
        QCOMPARE(q[4].value, 12.08);
        QCOMPARE(q[5].value, 0.005);
        QCOMPARE(q[6].value, 7.61);
        QCOMPARE(q[7].unit, ClaimUnit::Seconds);
        QCOMPARE(int(decimal.size()), 1);
        QCOMPARE(QString::fromStdString(decimal[0]), QStringLiteral("26 GB"));

        NumericClaim c;
        c.quantity = Quantity::BubbleSimulated;
        c.min = 0.31;
        c.max = 0.32;
        QVERIFY(backs(c, q[0]));
        QVERIFY(!backs(c, q[1]));
        c.min = 0;
        c.max = 1; // too wide to pin 31.6 %
        QVERIFY(!backs(c, q[0]));
        c.quantity = Quantity::StepSVs; // "20 % faster" is −0.20
        c.min = -0.21;
        c.max = -0.19;
        std::vector<std::string> ignored;
        QVERIFY(backs(c, quotedNumbers("20 % faster", ignored).front()));
    }

    // Both languages quote the same numbers: a figure fixed in one is fixed in the other.
    void bothLanguagesQuoteTheSameNumbers()
    {
        std::vector<std::string> failures;
        const auto numbers = [](const std::string& text) {
            std::vector<std::string> ignored, out;
            for (const Quoted& q : quotedNumbers(text, ignored))
                out.push_back(q.text);
            std::sort(out.begin(), out.end());
            return out;
        };
        for (const Lesson& l : lessons())
            for (const auto& [where, text] : texts(l))
                if (numbers(text->en) != numbers(text->zh))
                    failures.push_back(l.id + ": " + where + ": en and zh quote different numbers");
        QVERIFY2(failures.empty(), joined(failures).c_str());
    }

    void chineseTerminology()
    {
        std::vector<std::string> failures;
        for (const Lesson& l : lessons())
            for (const auto& [where, text] : texts(l)) {
                const std::string at = l.id + ": " + where;
                // shared/reference/zh-terminology.md: 显存 for GPU memory, 单步耗时 for step time.
                for (const char* banned : {"内存", "步长"})
                    if (text->zh.find(banned) != std::string::npos)
                        failures.push_back(at + ".zh says " + banned);
                const auto p = halfWidthPunctuation(at + ".zh", text->zh);
                failures.insert(failures.end(), p.begin(), p.end());
                for (const char* lang : {"en", "zh"}) {
                    const auto c = collectiveSpellings(at + "." + lang, text->in(lang));
                    failures.insert(failures.end(), c.begin(), c.end());
                }
            }
        QVERIFY2(failures.empty(), joined(failures).c_str());

        QCOMPARE(int(halfWidthPunctuation("x", "阶段,流水线").size()), 1);
        QCOMPARE(int(halfWidthPunctuation("x", "（p−1)/(m+p−1），公式 (p − 1)").size()), 0);
        QCOMPARE(int(collectiveSpellings("x", "AllReduce, all-reduce, reduce_scatter, AllGather").size()), 2);
    }

    // The lesson combo box shows the whole title.
    void titlesAreShort()
    {
        for (const Lesson& l : lessons()) {
            QVERIFY2(codePoints(l.title.en) <= 40, (l.id + ": " + l.title.en).c_str());
            QVERIFY2(codePoints(l.title.zh) <= 22, (l.id + ": " + l.title.zh).c_str());
        }
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
        const auto l = lessonFromJson(lessonJson(R"({"bubble_formula": {"min": 0, "max": 1}, "inflight": [{"stage": 0, "min": 0, "max": 9}]})",
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
        QVERIFY2(f[2].rfind("lessons/test: steps[1].expect.bubble_simulated: the engine gives 0.", 0) == 0, f[2].c_str());
        QVERIFY2(f[3].rfind("lessons/test: steps[1].expect.memory_gib[stage 3, states]: ", 0) == 0, f[3].c_str());
    }

    void readerErrorsNameLessonAndStep_data()
    {
        QTest::addColumn<QString>("expect");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown key") << QStringLiteral(R"({"valid": true, "peak_gb": {"min": 1, "max": 2}})")
                                     << QStringLiteral("lessons/test: steps[0].expect.peak_gb") << QStringLiteral("unknown key");
        QTest::newRow("no claim") << QStringLiteral("{}") << QStringLiteral("lessons/test: steps[0].expect")
                                  << QStringLiteral("states no claim");
        QTest::newRow("min above max") << QStringLiteral(R"({"peak_gib": {"min": 2, "max": 1}})")
                                       << QStringLiteral("lessons/test: steps[0].expect.peak_gib.min") << QStringLiteral("above max");
        QTest::newRow("range key") << QStringLiteral(R"({"step_s": {"min": 1, "max": 2, "about": 1.5}})")
                                   << QStringLiteral("lessons/test: steps[0].expect.step_s.about") << QStringLiteral("unknown key");
        QTest::newRow("missing max") << QStringLiteral(R"({"step_s": {"min": 1}})")
                                     << QStringLiteral("lessons/test: steps[0].expect.step_s.max") << QStringLiteral("required");
        QTest::newRow("no such step") << QStringLiteral(R"({"step_s_vs": [{"step": 2, "min": 0, "max": 1}]})")
                                      << QStringLiteral("lessons/test: steps[0].expect.step_s_vs[0].step") << QStringLiteral("0 … 1");
        QTest::newRow("itself") << QStringLiteral(R"({"step_s_vs": [{"step": 0, "min": 0, "max": 1}]})")
                                << QStringLiteral("lessons/test: steps[0].expect.step_s_vs[0].step") << QStringLiteral("itself");
        QTest::newRow("no such stage") << QStringLiteral(R"({"inflight": [{"stage": 4, "min": 0, "max": 1}]})")
                                       << QStringLiteral("lessons/test: steps[0].expect.inflight[0].stage")
                                       << QStringLiteral("4 pipeline stages");
        QTest::newRow("memory part") << QStringLiteral(R"({"memory_gib": [{"stage": 0, "part": "ram", "min": 0, "max": 1}]})")
                                     << QStringLiteral("lessons/test: steps[0].expect.memory_gib[0].part")
                                     << QStringLiteral("must be one of weights");
        QTest::newRow("code") << QStringLiteral(R"({"diagnostics_absent": ["Large bubble"]})")
                              << QStringLiteral("lessons/test: steps[0].expect.diagnostics_absent[0]")
                              << QStringLiteral("diagnostic code");
        QTest::newRow("bool") << QStringLiteral(R"({"fits": "yes"})") << QStringLiteral("lessons/test: steps[0].expect.fits")
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
        QVERIFY2(anyErrorContains(errors, "lessons/test: steps[0].text", "must be an object"), errorsText(errors).c_str());
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
        const std::string exercise = R"("exercise": {"ask": {"quantity": "step_s_vs"}, "prompt": {"en": "P", "zh": "问"},
            "formula": {"en": "F", "zh": "式"}, "mistakes": [{"factor": 1, "hint": {"en": "H", "zh": "提示"}}]}, )";
        bad_exercise.insert(bad_exercise.find(R"("scenario")"), exercise);
        QVERIFY(!lessonFromJson(bad_exercise, errors));
        QVERIFY2(anyErrorContains(errors, "lessons/test: steps[0].exercise.ask.quantity", "quantity of one step"), errorsText(errors).c_str());
        QVERIFY2(anyErrorContains(errors, "lessons/test: steps[0].exercise.mistakes[0].factor", "right answer"), errorsText(errors).c_str());

        errors.clear();
        std::string bad_tp = lessonJson(R"({"valid": true})");
        bad_tp.replace(bad_tp.find(R"("tp": 1)"), 7, R"("tp": 0)");
        QVERIFY(!lessonFromJson(bad_tp, errors));
        QVERIFY2(anyErrorContains(errors, "lessons/test: steps[0].scenario.parallel.tp"), errorsText(errors).c_str());
    }
};

QTEST_GUILESS_MAIN(TstLessons)
#include "tst_lessons.moc"
