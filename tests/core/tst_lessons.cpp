// The course's lessons (resources/presets/lessons) teach what the engine shows: every step has
// text and claims (`expect`, core/lessons/lessons.h; that they hold is tst_lesson_claims), every
// number a text quotes with a unit (31.6 %, 18.45 GiB, 204 MiB, 12.08 s) lies in one of those
// claims, both languages quote the same numbers, and the words follow the course's terminology
// (shared/reference/zh-terminology.md). That every lesson reads, the exercises' grading, what the
// claims measure and the reader's errors naming the lesson and the step are tst_lessons_reader.

#include "estimate/evaluate.h"
#include "lessons/lesson_text.h"
#include "lessons/lessons.h"
#include "estimate/display_names.h"
#include "lesson_steps.h"
#include "zh_terms.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

using namespace parascope;
using parascope::test::joined;
using parascope::test::zhTermFailures;

namespace {

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

// Every number in `text` followed (after at most one space) by %, GiB, MiB, s, ms, 秒, days or 天. Numbers
// glued to a name (A100, Llama-2, A100-80GB, ZeRO-1) are skipped. A decimal unit of memory (GB,
// MB, TB) is reported in `decimal_units`: the app shows GiB.
std::vector<Quoted> quotedNumbers(const std::string& utf8, std::vector<std::string>& decimal_units)
{
    const std::u32string s = QString::fromStdString(utf8).toStdU32String();
    std::vector<Quoted> out;
    std::size_t i = 0;
    while (i < s.size()) {
        if (!isDigit(s[i])
            || (i > 0
                && (isDigit(s[i - 1]) || isAsciiLetter(s[i - 1]) || s[i - 1] == U'-' || s[i - 1] == U'.'
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
            } else if (s[j] == U',' && decimals < 0 && j + 3 < s.size() && isDigit(s[j + 1]) && isDigit(s[j + 2])
                       && isDigit(s[j + 3]) && (j + 4 >= s.size() || !isDigit(s[j + 4]))) {
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
        } else if ((startsWith(s, j, U"days") && unitEnds(j + 4)) || startsWith(s, j, U"天")) {
            q.unit = ClaimUnit::Days;
            q.text += "days";
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

// The design task's deadline is a given of the task, quoted as "30 days" wherever the lesson
// talks of its goal.
std::vector<NumericClaim> givens(const Lesson& l)
{
    std::vector<NumericClaim> out;
    if (const DesignTask* d = lessonDesign(l)) {
        NumericClaim deadline;
        deadline.quantity = Quantity::TrainDays;
        deadline.min = deadline.max = d->days;
        out.push_back(deadline);
    }
    return out;
}

// The claims a step's text may quote: its own, those of the steps it compares itself with, and
// the lesson's givens.
std::vector<NumericClaim> claimsFor(const Lesson& l, std::size_t step)
{
    std::vector<NumericClaim> out = givens(l);
    out.insert(out.end(), l.steps[step].expect.numbers.begin(), l.steps[step].expect.numbers.end());
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
            out.push_back(where + ": half-width \""
                          + QString::fromStdU32String(s.substr(i > 0 ? i - 1 : i, 3)).toStdString()
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
    const struct {
        const char* right;
        std::vector<const char*> wrong;
    } names[] = {
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

int codePoints(const std::string& utf8) { return int(QString::fromStdString(utf8).toStdU32String().size()); }

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
        if (const auto& d = l.steps[i].design)
            out.emplace_back("steps[" + std::to_string(i) + "].design.prompt", &d->prompt);
    }
    return out;
}

std::string fixedGib(double bytes)
{
    char t[32];
    std::snprintf(t, sizeof t, "%.2f GiB", bytes / double(1ull << 30));
    return t;
}

// The lessons as shown: their {{placeholders}} rendered from the engine (lessons/lesson_text.h).
const std::vector<Lesson>& shownLessons()
{
    static const std::vector<Lesson> shown = [] {
        std::vector<Lesson> out;
        for (const Lesson& l : lessons())
            out.push_back(renderLesson(l));
        return out;
    }();
    return shown;
}

} // namespace

class TstLessons : public QObject {
    Q_OBJECT

private slots:
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
        for (const Lesson& l : shownLessons()) {
            std::vector<NumericClaim> all = givens(l);
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

    // The quoted-number reader itself.
    void quotedNumbersAreRead()
    {
        std::vector<std::string> decimal;
        const std::vector<Quoted> q
            = quotedNumbers("bubble 31.6 % vs 19 %; 18.45 GiB on A100-80GB, 204 MiB over, 2,097,152 tokens, 12.08 s, 5 "
                            "ms, 8 stages, 26 GB, 显存 7.61 GiB，3 秒, 67.3 days, 30 天, 2 dayside",
                            decimal);
        QCOMPARE(int(q.size()), 10);
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
        QCOMPARE(q[8].unit, ClaimUnit::Days);
        QCOMPARE(q[8].value, 67.3);
        QCOMPARE(q[9].unit, ClaimUnit::Days);
        QCOMPARE(q[9].value, 30.0);
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
        for (const Lesson& l : shownLessons())
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
                // The course's terms (zh_terms.h): 显存 for GPU memory, 单步耗时 for step time, 模拟.
                const auto terms = zhTermFailures(at + ".zh", text->zh);
                failures.insert(failures.end(), terms.begin(), terms.end());
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

    // The app's translations and the engine's Chinese texts use the same terms as the lessons.
    void translationsUseTheTerms()
    {
        std::vector<InputError> errors;
        const auto j = readJsonFile(std::string(PARASCOPE_SOURCE_DIR) + "/resources/translations/zh_CN.json", errors);
        QVERIFY(j && j->is_object());
        std::vector<std::string> failures;
        for (const auto& [source, zh] : j->items())
            if (zh.is_string()) {
                const auto terms = zhTermFailures("zh_CN.json \"" + source + "\"", zh.get<std::string>());
                failures.insert(failures.end(), terms.begin(), terms.end());
            }
        QVERIFY2(failures.empty(), joined(failures).c_str());
        QCOMPARE(int(zhTermFailures("x", "事件仿真").size()), 1);
    }

    // A placeholder shows the engine's value as the app formats it (the status bar's step time,
    // one-decimal percentages); one that names nothing is an error where the lesson is read.
    void numbersComeFromTheEngine()
    {
        const Lesson* l = findLesson("2-llama70b-512");
        QVERIFY(l);
        const Estimate e = evaluate(l->steps[0].scenario);
        const std::vector<Estimate> estimates(l->steps.size(), e);
        QCOMPARE(renderLessonText("step {{step_s}}, bubble {{bubble_simulated}}, {{memory_gib:0:activations}}", *l, 0,
                                  estimates),
                 "step " + formatSeconds(e.time.step_s) + ", bubble " + formatPercent(e.time.bubble_fraction) + ", "
                     + fixedGib(e.memory.stages[0].activations));
        QCOMPARE(renderLessonText("{{step_s_vs:0}} longer", *l, 0, estimates), std::string("0 % longer"));
        QCOMPARE(int(placeholderErrors("{{peak}} and {{memory_gib:0}} and {{inflight:x}} and {{step_s").size()), 4);
        QVERIFY(placeholderErrors("{{peak_gib}} {{memory_gib:3:weights}} {{step_s_vs:1}}").empty());
        std::vector<InputError> errors;
        nlohmann::json j
            = nlohmann::json::parse(R"({"title": {"en": "t", "zh": "t"}, "text": {"en": "x {{peek}}", "zh": "x"},
            "steps": []})");
        QVERIFY(!readLesson("bad", j, errors));
        bool named = false;
        for (const InputError& e2 : errors)
            named = named
                || (e2.path.find("text.en") != std::string::npos && e2.message.find("{{peek}}") != std::string::npos);
        QVERIFY2(named, errors.empty() ? "no error" : errors.front().text().c_str());
    }

    // The lesson combo box shows the whole title.
    void titlesAreShort()
    {
        for (const Lesson& l : lessons()) {
            QVERIFY2(codePoints(l.title.en) <= 40, (l.id + ": " + l.title.en).c_str());
            QVERIFY2(codePoints(l.title.zh) <= 22, (l.id + ": " + l.title.zh).c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TstLessons)
#include "tst_lessons.moc"
