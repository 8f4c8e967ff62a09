#include "lessons/exercises.h"

#include <cmath>
#include <cstdio>
#include <vector>

namespace parascope {

std::string exerciseUnit(Quantity q)
{
    switch (quantityInfo(q).unit) {
    case ClaimUnit::GiB: return "GiB";
    case ClaimUnit::MiB: return "MiB";
    case ClaimUnit::Fraction: return "%";
    case ClaimUnit::Seconds: return "s";
    case ClaimUnit::Count: return "";
    case ClaimUnit::Days: return "d"; // the day, a unit accepted for use with the SI
    }
    return "";
}

double toExerciseUnit(Quantity q, double value)
{
    return quantityInfo(q).unit == ClaimUnit::Fraction ? value * 100 : value;
}

namespace {

// The student's value as typed: up to six significant digits, no trailing zeros.
std::string echoed(double v, const std::string& unit)
{
    char t[48];
    std::snprintf(t, sizeof t, "%.6g", v);
    return std::string(t) + (unit.empty() ? "" : unit == "%" ? " %" : " " + unit);
}

// The engine's value at the precision the panel shows.
std::string shown(double v, const std::string& unit)
{
    char t[48];
    const double a = std::abs(v);
    std::snprintf(t, sizeof t, a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : a >= 0.1 ? "%.2f" : "%.3g", v);
    return std::string(t) + (unit.empty() ? "" : unit == "%" ? " %" : " " + unit);
}

std::string percent(double fraction)
{
    char t[32];
    std::snprintf(t, sizeof t, "%.0f %%", std::abs(fraction) * 100);
    return t;
}

// "2.3×" / "1/1000": how many times the engine's value the estimate is.
std::string times(double ratio)
{
    char t[48];
    if (ratio >= 1)
        std::snprintf(t, sizeof t, ratio >= 10 ? "%.0f×" : "%.1f×", ratio);
    else
        std::snprintf(t, sizeof t, 1 / ratio >= 10 ? "1/%.0f" : "1/%.1f", 1 / ratio);
    return t;
}

// How far off, by ratio band; the lead of every wrong answer's feedback.
Localized sizeOfError(double ratio)
{
    const bool high = ratio > 1;
    const double factor = high ? ratio : 1 / ratio;
    const std::string t = times(ratio);
    if (factor <= 1.5)
        return {std::string("Close, but too ") + (high ? "high" : "low") + " by " + percent(ratio - 1),
                std::string("接近了，但") + (high ? "偏高 " : "偏低 ") + percent(ratio - 1)};
    if (factor <= 3)
        return {std::string("Too ") + (high ? "high" : "low") + ": " + t + " the engine's value",
                std::string(high ? "偏高" : "偏低") + "：约为引擎值的 " + t};
    return {std::string("Far too ") + (high ? "high" : "low") + ": " + t + " the engine's value",
            std::string(high ? "远远偏高" : "远远偏低") + "：约为引擎值的 " + t};
}

struct TypicalMistake {
    double factor;
    Localized hint;
};

// The course's typical mistakes that the exercise's unit and the step's scenario allow.
std::vector<TypicalMistake> typicalMistakes(ClaimUnit unit, const ExerciseContext& c)
{
    std::vector<TypicalMistake> out;
    if (unit == ClaimUnit::Fraction)
        out.push_back({0.01,
                       {"That is a fraction; this box asks in percent (0.25 is 25 %).",
                        "你填的是小数；这里要填百分数（0.25 即 25 %）。"}});
    if (unit == ClaimUnit::GiB || unit == ClaimUnit::MiB) {
        const bool gib = unit == ClaimUnit::GiB;
        out.push_back({gib ? 1.073741824 : 1.048576,
                       {gib ? "That is GB (10⁹ bytes); the app counts GiB (2³⁰ bytes = 1.074 GB)."
                            : "That is MB (10⁶ bytes); the app counts MiB (2²⁰ bytes = 1.049 MB).",
                        gib ? "这是 GB（10⁹ 字节）；本应用按 GiB 计（2³⁰ 字节 = 1.074 GB）。"
                            : "这是 MB（10⁶ 字节）；本应用按 MiB 计（2²⁰ 字节 = 1.049 MB）。"}});
        out.push_back(
            {0.5,
             {"Half of it: the textbook's 2 + 2 + 4 bytes per parameter leaves out the fp32 master "
              "weights; mixed-precision Adam keeps 2 + 2 + 12 = 16.",
              "只有一半：教材的每参数 2 + 2 + 4 字节漏了 fp32 主权重；混合精度 Adam 为 2 + 2 + 12 = 16 字节。"}});
        if (c.dp > 1)
            out.push_back({c.dp,
                           {"You multiplied by DP: this is per GPU, and a per-GPU quantity does not grow with DP.",
                            "你乘了 DP：这是每块 GPU 的量，不随 DP 增大。"}});
    }
    if (c.seq_len > 1)
        out.push_back({1 / c.seq_len,
                       {"You counted sequences, not tokens: multiply by the sequence length.",
                        "你按序列而不是按 token 计算了：还要乘以序列长度。"}});
    if (unit == ClaimUnit::Seconds)
        out.push_back({1.0 / 3,
                       {"That is the forward pass alone: the backward costs about twice the forward, so a step is "
                        "about 3× the forward.",
                        "这只是前向：反向约为前向的两倍，一步约为前向的 3 倍。"}});
    return out;
}

} // namespace

ExerciseGrade gradeExercise(const Exercise& ex, double answer, double truth_raw, const ExerciseContext& context)
{
    ExerciseGrade g;
    const std::string unit = exerciseUnit(ex.ask.quantity);
    g.truth = toExerciseUnit(ex.ask.quantity, truth_raw);
    g.answer = answer;
    const auto off = [&](double target) { return target != 0 ? answer / target - 1 : (answer == 0 ? 0.0 : INFINITY); };
    g.error = off(g.truth);
    const std::string value = shown(g.truth, unit), mine = echoed(answer, unit);
    if (std::abs(g.error) <= ex.tolerance) {
        g.correct = true;
        g.feedback = {"Right: the engine says " + value + " (you: " + mine + ", off by " + percent(g.error) + ").",
                      "答对了：引擎给出 " + value + "（你的估计 " + mine + "，相差 " + percent(g.error) + "）。"};
        return g;
    }
    if (answer <= 0 || g.truth <= 0) {
        g.feedback = {"The engine says " + value + ", you " + mine + ". Follow the formula below term by term.",
                      "引擎给出 " + value + "，你的估计是 " + mine + "。请按下面的公式逐项核对。"};
        return g;
    }
    const Localized size = sizeOfError(answer / g.truth);
    const auto say = [&](const Localized& hint) {
        g.feedback = {size.en + ". The engine says " + value + ", you " + mine + ". " + hint.en,
                      size.zh + "。引擎给出 " + value + "，你的估计是 " + mine + "。" + hint.zh};
    };
    for (std::size_t i = 0; i < ex.mistakes.size(); ++i)
        if (std::abs(off(g.truth * ex.mistakes[i].factor)) <= ex.tolerance) {
            g.mistake = int(i);
            say(ex.mistakes[i].hint);
            return g;
        }
    // A typical mistake only where the estimate is nearer to it than to the engine's value.
    for (const TypicalMistake& m : typicalMistakes(quantityInfo(ex.ask.quantity).unit, context)) {
        const double e = std::abs(off(g.truth * m.factor));
        if (e <= std::max(ex.tolerance, 0.02) && e < std::abs(g.error)) {
            say(m.hint);
            return g;
        }
    }
    say({"Follow the formula below term by term.", "请按下面的公式逐项核对。"});
    return g;
}

} // namespace parascope
