#include "lessons/lesson_text.h"

#include "estimate/display_names.h"
#include "estimate/evaluate.h"

#include <charconv>
#include <cmath>
#include <optional>

namespace parascope {

namespace {

constexpr const char* kOpen = "{{";
constexpr const char* kClose = "}}";

std::vector<std::string> split(const std::string& s, char sep)
{
    std::vector<std::string> out(1);
    for (char c : s) {
        if (c == sep)
            out.emplace_back();
        else
            out.back().push_back(c);
    }
    return out;
}

std::optional<int> integer(const std::string& s)
{
    int v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size() || v < 0)
        return std::nullopt;
    return v;
}

// The claim a placeholder's inside ("memory_gib:0:activations") names, or why it names none.
std::optional<NumericClaim> parsePlaceholder(const std::string& inside, std::string& why)
{
    const std::vector<std::string> parts = split(inside, ':');
    const QuantityInfo* info = nullptr;
    for (const QuantityInfo& q : kQuantities)
        if (parts[0] == q.key)
            info = &q;
    if (!info) {
        why = "no such quantity";
        return std::nullopt;
    }
    NumericClaim c;
    c.quantity = info->quantity;
    const std::size_t wanted = info->quantity == Quantity::MemoryGib ? 3 : info->shape == QuantityInfo::Plain ? 1 : 2;
    if (parts.size() != wanted) {
        why = "takes " + std::to_string(wanted - 1) + " qualifier(s) after the name";
        return std::nullopt;
    }
    if (info->shape == QuantityInfo::PerCollective) {
        c.collective = parts[1];
        if (!isCollectiveKey(c.collective))
            why = "\"" + parts[1] + "\" is not a collective such as dp.reduce_scatter.gradients";
        return isCollectiveKey(c.collective) ? std::optional<NumericClaim>(c) : std::nullopt;
    }
    if (wanted >= 2) {
        const std::optional<int> n = integer(parts[1]);
        if (!n) {
            why = "\"" + parts[1] + "\" is not a stage or step number";
            return std::nullopt;
        }
        (info->shape == QuantityInfo::VersusStep ? c.step : c.stage) = *n;
    }
    if (wanted == 3) {
        const std::optional<MemoryPart> part = enumFromName<MemoryPart>(parts[2]);
        if (!part) {
            why = "\"" + parts[2] + "\" is not a memory part (" + enumNameList<MemoryPart>() + ")";
            return std::nullopt;
        }
        c.part = *part;
    }
    return c;
}

// The value as the app shows it.
std::string formatted(const NumericClaim& c, double v)
{
    if (!std::isfinite(v))
        return "—";
    const QuantityInfo& info = quantityInfo(c.quantity);
    if (info.shape == QuantityInfo::VersusStep || c.quantity == Quantity::ComputeVsStage0)
        return formatFixed(std::abs(v) * 100, c.quantity == Quantity::ComputeVsStage0 ? 1 : 0, " %");
    switch (info.unit) {
    case ClaimUnit::GiB: return formatFixed(v, 2, " GiB");
    case ClaimUnit::MiB: return formatFixed(v, 0, " MiB");
    case ClaimUnit::Fraction: return formatPercent(v);
    case ClaimUnit::Seconds: return formatSeconds(v);
    case ClaimUnit::Count: return formatFixed(v, 0, "");
    case ClaimUnit::Days: return formatFixed(v, 1, ""); // the text says "days" or "天" after it
    }
    return "—";
}

// Calls `each(inside, begin, end)` for every placeholder, end past its "}}"; an unclosed "{{"
// is reported with an empty inside.
template <class Each> void forEachPlaceholder(const std::string& text, Each&& each)
{
    for (std::size_t at = text.find(kOpen); at != std::string::npos; at = text.find(kOpen, at + 2)) {
        const std::size_t close = text.find(kClose, at + 2);
        if (close == std::string::npos)
            return each(std::string(), at, std::string::npos);
        each(text.substr(at + 2, close - at - 2), at, close + 2);
    }
}

} // namespace

std::vector<std::string> placeholderErrors(const std::string& text)
{
    std::vector<std::string> out;
    forEachPlaceholder(text, [&](const std::string& inside, std::size_t, std::size_t end) {
        std::string why;
        if (end == std::string::npos)
            out.push_back("\"{{\" without \"}}\"");
        else if (!parsePlaceholder(inside, why))
            out.push_back("{{" + inside + "}}: " + why);
    });
    return out;
}

std::string renderLessonText(const std::string& text, const Lesson& lesson, std::size_t step,
                             const std::vector<Estimate>& estimates)
{
    std::string out;
    std::size_t copied = 0;
    forEachPlaceholder(text, [&](const std::string& inside, std::size_t begin, std::size_t end) {
        if (end == std::string::npos)
            return;
        std::string why;
        const std::optional<NumericClaim> c = parsePlaceholder(inside, why);
        out += text.substr(copied, begin - copied);
        out += c ? formatted(*c, measure(*c, lesson, step, estimates)) : "—";
        copied = end;
    });
    return out + text.substr(copied);
}

Lesson renderLesson(const Lesson& lesson, const std::vector<Estimate>& estimates)
{
    Lesson out = lesson;
    const auto render = [&](Localized& l, std::size_t step) {
        l.en = renderLessonText(l.en, lesson, step, estimates);
        l.zh = renderLessonText(l.zh, lesson, step, estimates);
    };
    render(out.text, 0);
    for (std::size_t i = 0; i < out.steps.size(); ++i) {
        render(out.steps[i].text, i);
        if (out.steps[i].exercise)
            render(out.steps[i].exercise->prompt, i);
        if (out.steps[i].design)
            render(out.steps[i].design->prompt, i);
    }
    return out;
}

Lesson renderLesson(const Lesson& lesson)
{
    std::vector<Estimate> estimates;
    estimates.reserve(lesson.steps.size());
    for (const LessonStep& s : lesson.steps)
        estimates.push_back(evaluate(s.scenario));
    return renderLesson(lesson, estimates);
}

} // namespace parascope
