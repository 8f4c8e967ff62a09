#include "lessons/exercises.h"

#include <cmath>
#include <cstdio>

namespace parascope {

std::string exerciseUnit(Quantity q)
{
    switch (quantityInfo(q).unit) {
    case ClaimUnit::GiB: return "GiB";
    case ClaimUnit::MiB: return "MiB";
    case ClaimUnit::Fraction: return "%";
    case ClaimUnit::Seconds: return "s";
    case ClaimUnit::Count: return "";
    }
    return "";
}

double toExerciseUnit(Quantity q, double value)
{
    return quantityInfo(q).unit == ClaimUnit::Fraction ? value * 100 : value;
}

namespace {

std::string shown(double v, const std::string& unit)
{
    char t[48];
    std::snprintf(t, sizeof t, std::abs(v) >= 100 ? "%.0f" : std::abs(v) >= 10 ? "%.1f" : "%.2f", v);
    return std::string(t) + (unit.empty() ? "" : unit == "%" ? " %" : " " + unit);
}

std::string percent(double fraction)
{
    char t[32];
    std::snprintf(t, sizeof t, "%.0f %%", std::abs(fraction) * 100);
    return t;
}

} // namespace

ExerciseGrade gradeExercise(const Exercise& ex, double answer, double truth_raw)
{
    ExerciseGrade g;
    const std::string unit = exerciseUnit(ex.ask.quantity);
    g.truth = toExerciseUnit(ex.ask.quantity, truth_raw);
    g.answer = answer;
    const auto off = [&](double target) { return target != 0 ? answer / target - 1 : (answer == 0 ? 0.0 : INFINITY); };
    g.error = off(g.truth);
    const std::string value = shown(g.truth, unit), mine = shown(answer, unit);
    if (std::abs(g.error) <= ex.tolerance) {
        g.correct = true;
        g.feedback = {"Right: the engine says " + value + " (you: " + mine + ", off by " + percent(g.error) + ").",
                      "答对了：引擎给出 " + value + "（你的估计 " + mine + "，相差 " + percent(g.error) + "）。"};
        return g;
    }
    for (std::size_t i = 0; i < ex.mistakes.size(); ++i)
        if (std::abs(off(g.truth * ex.mistakes[i].factor)) <= ex.tolerance) {
            g.mistake = int(i);
            g.feedback = {"Not quite: the engine says " + value + ", you " + mine + ". " + ex.mistakes[i].hint.en,
                          "还差一点：引擎给出 " + value + "，你的估计是 " + mine + "。" + ex.mistakes[i].hint.zh};
            return g;
        }
    const bool high = g.error > 0;
    g.feedback = {std::string("Too ") + (high ? "high" : "low") + " by " + percent(g.error) + ": the engine says "
                      + value + ", you " + mine + ". Follow the formula below term by term.",
                  std::string("估计") + (high ? "偏高 " : "偏低 ") + percent(g.error) + "：引擎给出 " + value
                      + "，你的估计是 " + mine + "。请按下面的公式逐项核对。"};
    return g;
}

} // namespace parascope
