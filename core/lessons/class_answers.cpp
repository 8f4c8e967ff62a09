#include "lessons/class_answers.h"

#include "estimate/evaluate.h"
#include "lessons/exercises.h"
#include "util/decimal_text.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace parascope {

namespace {

// One CSV line's fields: commas outside quotes split, "" inside quotes is a quote.
std::vector<std::string> csvFields(const std::string& line)
{
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"')
            out.back() += '"', ++i;
        else if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted)
            out.emplace_back();
        else if (c != '\r')
            out.back() += c;
    }
    return out;
}

bool number(const std::string& s, double& v) { return parseFiniteDecimal(s, v); }

// The six bands of an answer that matched no listed mistake, by its ratio to the truth.
int bandOf(double ratio)
{
    const bool high = ratio > 1;
    const double f = high ? ratio : (ratio > 0 ? 1 / ratio : INFINITY);
    const int far = f <= 1.5 ? 0 : f <= 3 ? 1 : 2;
    return (high ? 3 : 0) + (high ? far : 2 - far);
}

const Localized kBands[6]
    = {{"too low, beyond 3×", "偏低，超过 3 倍"},    {"too low, 1.5–3×", "偏低，1.5–3 倍"},
       {"too low, within 1.5×", "偏低，1.5 倍以内"}, {"too high, within 1.5×", "偏高，1.5 倍以内"},
       {"too high, 1.5–3×", "偏高，1.5–3 倍"},       {"too high, beyond 3×", "偏高，超过 3 倍"}};

// The engine's value of a step's exercise, evaluated once per lesson.
double truthOf(const Lesson& lesson, std::size_t step, std::map<std::string, std::vector<Estimate>>& cache)
{
    auto it = cache.find(lesson.id);
    if (it == cache.end()) {
        std::vector<Estimate> estimates;
        for (const LessonStep& s : lesson.steps)
            estimates.push_back(evaluate(s.scenario));
        it = cache.emplace(lesson.id, std::move(estimates)).first;
    }
    return measure(lesson.steps[step].exercise->ask, lesson, step, it->second);
}

ExerciseAnswers emptyAnswers(const Lesson& l, int step, double truth)
{
    const Exercise& ex = *l.steps[std::size_t(step - 1)].exercise;
    ExerciseAnswers a{
        l.id, l.title, step, ex.ask.name(), exerciseUnit(ex.ask.quantity), toExerciseUnit(ex.ask.quantity, truth),
        {},   {}};
    a.bins.push_back({{"right", "正确"}, 0, {}});
    for (const ExerciseMistake& m : ex.mistakes)
        a.bins.push_back({m.hint, 0, {}});
    for (const Localized& b : kBands)
        a.bins.push_back({b, 0, {}});
    return a;
}

// The answers binned as they are read: per step, its bins; per bin, the count of each feedback
// text its answers got (the most frequent becomes the bin's `typical`).
struct Binner {
    const std::vector<Lesson>& user; // a teacher's lesson files, looked up before the presets
    using Key = std::pair<std::string, int>;
    std::map<Key, ExerciseAnswers> by_step;
    std::map<std::string, std::vector<Estimate>> cache;
    std::map<std::pair<Key, std::size_t>, std::map<std::string, std::pair<int, Localized>>> said;

    void add(const std::string& line, const std::string& where, std::vector<InputError>& errors)
    {
        const std::vector<std::string> f = csvFields(line);
        double step_value = 0, answer = 0;
        if (f.size() < 6 || !number(f[2], step_value) || !number(f[5], answer)) {
            errors.push_back({where, "not an answer line (time,lesson,step,quantity,unit,estimate,…)"});
            return;
        }
        const Lesson* l = findLesson(f[1], user);
        const int step = int(step_value);
        if (!l || step < 1 || std::size_t(step) > l->steps.size() || !l->steps[std::size_t(step - 1)].exercise) {
            errors.push_back({where, "no exercise at lesson \"" + f[1] + "\" step " + f[2]});
            return;
        }
        const Key key{l->id, step};
        const double truth = truthOf(*l, std::size_t(step - 1), cache);
        auto it = by_step.find(key);
        if (it == by_step.end())
            it = by_step.emplace(key, emptyAnswers(*l, step, truth)).first;
        ExerciseAnswers& a = it->second;
        const LessonStep& st = l->steps[std::size_t(step - 1)];
        const ExerciseGrade g = gradeExercise(*st.exercise, answer, truth,
                                              {double(st.scenario.training.seq_len), double(st.scenario.parallel.dp)});
        a.answers.push_back(answer);
        const std::size_t bin = g.correct ? 0
            : g.mistake >= 0              ? std::size_t(1 + g.mistake)
                                          : 1 + st.exercise->mistakes.size() + std::size_t(bandOf(answer / a.truth));
        ++a.bins[bin].count;
        auto& fb = said[{key, bin}][g.feedback.en];
        fb.first += 1;
        fb.second = g.feedback;
    }

    std::vector<ExerciseAnswers> finish()
    {
        std::vector<ExerciseAnswers> out;
        for (auto& [key, a] : by_step) {
            for (std::size_t b = 1; b < a.bins.size(); ++b) {
                const auto s = said.find({key, b});
                if (s == said.end())
                    continue;
                const auto most
                    = std::max_element(s->second.begin(), s->second.end(),
                                       [](const auto& x, const auto& y) { return x.second.first < y.second.first; });
                a.bins[b].typical = most->second.second;
            }
            out.push_back(std::move(a));
        }
        return out;
    }
};

} // namespace

std::vector<ExerciseAnswers> classAnswers(const std::vector<AnswerFile>& files, std::vector<InputError>& errors,
                                          const std::vector<Lesson>& user)
{
    Binner binner{user, {}, {}, {}};
    for (const AnswerFile& file : files) {
        const std::string& csv = file.text;
        std::size_t start = 0;
        for (int line_no = 1; start < csv.size(); ++line_no) {
            std::size_t end = csv.find('\n', start);
            if (end == std::string::npos)
                end = csv.size();
            const std::string line = csv.substr(start, end - start);
            start = end + 1;
            if (!line.empty() && line != "\r" && line.rfind("time,lesson,", 0) != 0)
                binner.add(line, file.name + ":" + std::to_string(line_no), errors);
        }
    }
    return binner.finish();
}

} // namespace parascope
