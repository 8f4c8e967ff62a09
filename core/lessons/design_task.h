#pragma once
// A design task (module 5's capstone: "70B on 1,024 A100, 2T tokens in 30 days — propose a
// layout"): a lesson step that gives the GPUs, the model and the batch, and a goal in tokens and
// days. The student sets the layout with the sliders and hands it in; the grade is the report
// card's (search/report_card.h), wall by wall, against the better of the course's decision
// procedure (the Advisor) and the strategy search on the same GPUs, and the goal in days — then
// both references are revealed with their own days.
//
// A step's "design" (lessons.h): {"prompt": {"en", "zh"}, "tokens": 2e12, "days": 30}.
//
// The marks, each wall against the better reference (lower is better but for memory):
//   memory          pass: the peak fits the GPU; fail: out of memory (by how much)
//   communication   exposed communication / step
//   efficiency      bubble + uneven stages / step
//   stability       1 − goodput
//     pass   within a quarter of the better reference, or one point of the step above it
//     close  within twice it, or two points above it
//     fail   beyond that
//   goal            days = tokens / (tokens/s · time goodput) / 86,400 (the step's throughput, less
//                   the stability wall's checkpoints, restarts and hangs) against the deadline; when missed, the
//                   GPUs the layout's tokens/s per GPU would need (linear scaling: a lower bound,
//                   larger groups only lose efficiency), and whether the references meet it
//   GPUs            the layout uses the task's GPU count (else it is not an answer to the task)

#include "lessons/lessons.h"
#include "search/report_card.h"
#include "types/diagnostic.h"
#include "util/enum_names.h"

#include <cstdint>
#include <string>
#include <vector>

namespace parascope {

// Days as the grade writes them, one decimal ("50.7"; "∞" when the layout trains nothing): the
// panel's text and the grade's notes show the same digits.
std::string formatDays(double days);

// Days to train `tokens` at `tokens_per_s` with `goodput` of the wall-clock time useful (the
// stability wall's time goodput: a straggler is already in tokens/s); +inf at 0.
double trainingDays(double tokens, double tokens_per_s, double goodput);

enum class DesignMark { Pass, Close, Fail };
inline constexpr EnumName<DesignMark> kDesignMarkNames[]
    = {{DesignMark::Pass, "pass"}, {DesignMark::Close, "close"}, {DesignMark::Fail, "fail"}};
constexpr std::span<const EnumName<DesignMark>> enumNames(DesignMark) { return kDesignMarkNames; }
inline const char* toString(DesignMark v) { return nameOf(v); }

// A wall where lower is better, `yours` against the better reference's `best` (fractions of the
// step): the pass and close bands above.
DesignMark designMark(double yours, double best);

struct DesignCheck {
    std::string id; // "gpus", "memory", "communication", "efficiency", "stability", "goal"
    Localized name;
    DesignMark mark = DesignMark::Fail;
    Localized note; // yours against the reference, with the numbers
};

struct DesignGrade {
    ReportCard card;
    std::vector<DesignCheck> checks; // in the order of DesignCheck::id's comment
    double days = 0, procedure_days = 0, search_days = 0; // search_days NaN without a search result
    std::int64_t gpus = 0, task_gpus = 0;
    double gpus_for_goal = 0; // at the layout's tokens/s per GPU
    bool passed = false; // every check a pass
    Localized verdict; // one sentence: passed, or the first check that failed
};

// `task_scenario` is the step's (its GPU count is the task's); `references` are those of
// decide(task_scenario) (search/report_card.h).
DesignGrade gradeDesign(const DesignTask& task, const Scenario& task_scenario, const Scenario& yours,
                        const Estimate& yours_estimate, const CardReferences& references);

// The grade as the app and the CLI print it: the checks, then the references revealed.
std::string designGradeText(const DesignGrade& grade, const std::string& lang);

} // namespace parascope
