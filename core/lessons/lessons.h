#pragma once
// Lessons of the course (教学案例), shipped as JSON in resources/presets/lessons and parsed here so
// the app, the CLI and the tests read them the same way. What a step's text promises is stated
// again in its `expect` as claims, and tests/core/tst_lessons.cpp checks them against evaluate().
//
// A lesson file:
//   {
//     "title": {"en": "…", "zh": "…"},   short: the app's combo box shows it (≤ ~40 / ~22 chars)
//     "text":  {"en": "…", "zh": "…"},   the introduction, shown above every step
//     "steps": [ {
//         "label":    {"en": "…", "zh": "…"},   a few words: "DP = 64 + ZeRO-1"
//         "text":     {"en": "…", "zh": "…"},   what this step shows, with the engine's numbers
//         "expect":   { claims, at least one },
//         "scenario": { parascope.scenario/1 }
//     }, … ]
//   }
//
// `expect` holds the claims the step's text makes, each checked on the step's Estimate:
//   "valid": true|false        no configuration error (an error other than out_of_memory)
//   "fits": true|false         the peak stage fits the GPU and there is no out_of_memory
//   "no_warnings": true|false  true: no warning at all; false: at least one
//   "diagnostics_present": ["code", …]   each code is among the diagnostics
//   "diagnostics_absent":  ["code", …]   none of these codes is
//   numeric claims, each a closed range {"min": a, "max": b}:
//   "peak_gib"                 peak memory per GPU, GiB (2^30 B)
//   "over_capacity_mib"        peak memory − GPU memory, MiB (negative: room left)
//   "capacity_gib"             memory of one GPU, GiB
//   "step_s"                   step time, s
//   "bubble_simulated"         the bubble, the heaviest pipeline stage's idle fraction of the step
//                              (TimeReport::bubble_fraction), 0 … 1
//   "bubble_formula"           the schedule's closed form (schedule/pipeline_closed_form.h), e.g.
//                              1F1B (p − 1)/(m + p − 1); 0 without a pipeline
//   "exposed_comm"             communication not hidden by compute / step time, 0 … 1
//   "tp_collectives_per_layer" TP collective calls per layer per microbatch, forward + backward
//   "wall_memory", "wall_communication", "wall_efficiency", "wall_stability"  the four walls'
//                              values (estimate/walls.h), 0 … 1 (memory may exceed 1)
//   "goodput"                  the stability wall's useful fraction of wall-clock time
//   "checkpoint_write_s"       seconds to write one checkpoint (the stability wall's, s)
//   "mfu"                      model FLOPs utilisation, as the status bar shows it, 0 … 1
//   "dp_gib_sent"              GiB each GPU sends per step in its data-parallel gradient and
//                              parameter collectives (dp and expert-dp groups), GiB
//   "uneven_stages"            the efficiency wall's uneven-stages part: what the lighter pipeline
//                              ranks wait for the heaviest, a fraction of the step, 0 … 1
//   "train_days"               days to train the lesson's design task's tokens (its first step with
//                              a "design") at the step's tokens/s and the stability wall's time
//                              goodput (lessons/design_task.h: trainingDays); days
//   per stage (an array of ranges, each with "stage": a pipeline stage; absent = the peak stage):
//   "memory_gib"               [{"stage": 0, "part": P, "min", "max"}], P one of weights,
//                              gradients, optimizer, states (the three above), activations (= saved +
//                              working_set: full recompute's one rebuilt layer), other,
//                              total
//   "inflight"                 [{"stage": 0, "min", "max"}] microbatches whose activations the
//                              stage holds at its peak
//   "compute_vs_stage0"        [{"stage": 15, "min", "max"}] the stage's compute time in the
//                              simulated timeline / stage 0's − 1 (0.25: a quarter more work)
//   per collective (an array of ranges, each with "collective": GROUP.COLLECTIVE.PURPOSE as the
//   communication plan names it, e.g. "dp.reduce_scatter.gradients"; collectiveKey below):
//   "collective_s"             [{"collective": "tp.all_gather.activations", "min", "max"}] the
//                              collective's time on its link per step (the communication chart's
//                              bar; the entries of that name added up), s
//   against another step of the lesson ("step": its index in steps, from 0):
//   "step_s_vs"                [{"step": 1, "min", "max"}] step time / the other's − 1
//                              (−0.2: 20 % faster)
//   "tokens_per_s_vs"          [{"step": 1, "min", "max"}] tokens/s / the other's − 1
// Unknown keys anywhere are errors, as is a step without text or without a claim.
//
// A step may be an exercise (predict, then reveal: lessons/exercises.h): the app hides the
// step's text and charts until the student has typed an estimate of one of the quantities above
// (a plain one, or per stage), then shows the engine's value, the formula and where the estimate
// went wrong:
//   "exercise": {"ask": {"quantity": "dp_gib_sent"} | {"quantity": "memory_gib", "stage": 0, "part": "total"}
//                       | {"quantity": "collective_s", "collective": "dp.reduce_scatter.gradients"},
//                "prompt": {"en", "zh"}, "formula": {"en", "zh"}, "tolerance": 0.1,
//                "mistakes": [{"factor": 4, "hint": {"en", "zh"}}, …]}
// tolerance: the relative error still counted right (default 0.1); a mistake matches an estimate
// within that tolerance of the engine's value × factor ("you multiplied by DP").
//
// A step may instead be a design task (lessons/design_task.h): the student sets the layout with
// the sliders and hands it in; it is graded wall by wall against the Advisor's and the search's
// layouts on the same GPUs, which are revealed after:
//   "design": {"prompt": {"en", "zh"}, "tokens": 2e12, "days": 30}
// A step is an exercise or a design task, not both.
//
// Numbers in the text (checked by tst_lessons): every number written with %, GiB, MiB, s, ms or days
// lies, within its rounding, in a range of the same unit of its step's expect or of a step it
// compares itself with (the introduction: of any step); fractions may be quoted without their
// sign ("20 % faster"). Memory is written in GiB (2^30 B), as the app shows it, never GB. Both
// languages quote the same numbers.

#include "estimate/estimate.h"
#include "types/diagnostic.h"
#include "types/scenario.h"
#include "util/json_reader.h"

#include <optional>
#include <string>
#include <vector>

namespace parascope {

// The unit a number in a lesson's text carries when a claim backs it ("31.6 %", "18.45 GiB").
enum class ClaimUnit { GiB, MiB, Fraction, Seconds, Count, Days };

enum class Quantity {
    PeakGib,
    OverCapacityMib,
    CapacityGib,
    StepS,
    BubbleSimulated,
    BubbleFormula,
    ExposedComm,
    TpCollectivesPerLayer,
    MemoryGib,
    Inflight,
    ComputeVsStage0,
    StepSVs,
    TokensPerSVs,
    WallMemory,
    WallCommunication,
    WallEfficiency,
    WallStability,
    Goodput,
    CheckpointWriteS,
    Mfu,
    DpGibSent,
    UnevenStages,
    TrainDays,
    CollectiveS
};

// The one table of numeric claims: JSON key, unit, and what qualifies it.
struct QuantityInfo {
    Quantity quantity;
    const char* key;
    ClaimUnit unit;
    enum Shape { Plain, PerStage, VersusStep, PerCollective } shape;
};
inline constexpr QuantityInfo kQuantities[] = {
    {Quantity::PeakGib, "peak_gib", ClaimUnit::GiB, QuantityInfo::Plain},
    {Quantity::OverCapacityMib, "over_capacity_mib", ClaimUnit::MiB, QuantityInfo::Plain},
    {Quantity::CapacityGib, "capacity_gib", ClaimUnit::GiB, QuantityInfo::Plain},
    {Quantity::StepS, "step_s", ClaimUnit::Seconds, QuantityInfo::Plain},
    {Quantity::BubbleSimulated, "bubble_simulated", ClaimUnit::Fraction, QuantityInfo::Plain},
    {Quantity::BubbleFormula, "bubble_formula", ClaimUnit::Fraction, QuantityInfo::Plain},
    {Quantity::ExposedComm, "exposed_comm", ClaimUnit::Fraction, QuantityInfo::Plain},
    {Quantity::TpCollectivesPerLayer, "tp_collectives_per_layer", ClaimUnit::Count, QuantityInfo::Plain},
    {Quantity::MemoryGib, "memory_gib", ClaimUnit::GiB, QuantityInfo::PerStage},
    {Quantity::Inflight, "inflight", ClaimUnit::Count, QuantityInfo::PerStage},
    {Quantity::ComputeVsStage0, "compute_vs_stage0", ClaimUnit::Fraction, QuantityInfo::PerStage},
    {Quantity::StepSVs, "step_s_vs", ClaimUnit::Fraction, QuantityInfo::VersusStep},
    {Quantity::TokensPerSVs, "tokens_per_s_vs", ClaimUnit::Fraction, QuantityInfo::VersusStep},
    {Quantity::WallMemory, "wall_memory", ClaimUnit::Fraction, QuantityInfo::Plain},
    {Quantity::WallCommunication, "wall_communication", ClaimUnit::Fraction, QuantityInfo::Plain},
    {Quantity::WallEfficiency, "wall_efficiency", ClaimUnit::Fraction, QuantityInfo::Plain},
    {Quantity::WallStability, "wall_stability", ClaimUnit::Fraction, QuantityInfo::Plain},
    {Quantity::Goodput, "goodput", ClaimUnit::Fraction, QuantityInfo::Plain},
    {Quantity::CheckpointWriteS, "checkpoint_write_s", ClaimUnit::Seconds, QuantityInfo::Plain},
    {Quantity::Mfu, "mfu", ClaimUnit::Fraction, QuantityInfo::Plain},
    {Quantity::DpGibSent, "dp_gib_sent", ClaimUnit::GiB, QuantityInfo::Plain},
    {Quantity::UnevenStages, "uneven_stages", ClaimUnit::Fraction, QuantityInfo::Plain},
    {Quantity::TrainDays, "train_days", ClaimUnit::Days, QuantityInfo::Plain},
    {Quantity::CollectiveS, "collective_s", ClaimUnit::Seconds, QuantityInfo::PerCollective},
};
const QuantityInfo& quantityInfo(Quantity q);

// A stage's memory part. The activations split into what is saved for the backward ("saved")
// and, with full recompute, the one layer rebuilt during its backward ("working_set").
enum class MemoryPart { Weights, Gradients, Optimizer, States, Activations, Saved, WorkingSet, Other, Total };
inline constexpr EnumName<MemoryPart> kMemoryPartNames[] = {{MemoryPart::Weights, "weights"},
                                                            {MemoryPart::Gradients, "gradients"},
                                                            {MemoryPart::Optimizer, "optimizer"},
                                                            {MemoryPart::States, "states"},
                                                            {MemoryPart::Activations, "activations"},
                                                            {MemoryPart::Saved, "saved"},
                                                            {MemoryPart::WorkingSet, "working_set"},
                                                            {MemoryPart::Other, "other"},
                                                            {MemoryPart::Total, "total"}};
constexpr std::span<const EnumName<MemoryPart>> enumNames(MemoryPart) { return kMemoryPartNames; }
inline const char* toString(MemoryPart v) { return nameOf(v); }

struct NumericClaim {
    Quantity quantity = Quantity::PeakGib;
    int stage = -1; // PerStage: the pipeline stage, −1 = the peak stage
    MemoryPart part = MemoryPart::Total; // memory_gib
    int step = -1; // VersusStep: the step compared with
    std::string collective; // PerCollective: "dp.reduce_scatter.gradients"
    double min = 0, max = 0; // in the unit of the quantity (GiB, MiB, s, fraction, count)
    std::string name() const; // "memory_gib[stage 0, activations]", "collective_s[dp.all_gather.parameters]"
};

struct LessonExpect {
    std::optional<bool> valid, fits, no_warnings;
    std::vector<std::string> diagnostics_present, diagnostics_absent;
    std::vector<NumericClaim> numbers;
    std::size_t claims() const;
};

struct ExerciseMistake {
    double factor = 1; // the estimate ≈ the engine's value × factor
    Localized hint; // what went wrong
};

struct Exercise {
    NumericClaim ask; // the quantity asked for (min and max unused)
    Localized prompt, formula;
    double tolerance = 0.1;
    std::vector<ExerciseMistake> mistakes;
};

// A design task: train `tokens` in `days` on the step's GPUs, model and batch (design_task.h).
struct DesignTask {
    Localized prompt;
    double tokens = 0; // tokens to train on
    double days = 0; // the deadline, days of wall-clock training
};

struct LessonStep {
    Localized label;
    Localized text;
    LessonExpect expect;
    Scenario scenario;
    std::optional<Exercise> exercise;
    std::optional<DesignTask> design;
};

struct Lesson {
    std::string id;
    Localized title, text;
    std::vector<LessonStep> steps;
};

// One lesson from its JSON. Every error names the lesson and the step
// (`lessons/ID: steps[1].expect.peak_gib.min: …`, `lessons/ID: steps[1].scenario.parallel.tp: …`).
std::optional<Lesson> readLesson(const std::string& id, const nlohmann::json& j, std::vector<InputError>& errors);

// Every lesson preset, sorted by id, read as readLesson() does.
std::vector<Lesson> readLessons(std::vector<InputError>& errors);

// A collective of the communication plan as claims name it: "dp.reduce_scatter.gradients".
std::string collectiveKey(const CommEntry& entry);
bool isCollectiveKey(const std::string& key); // three known names joined by dots

// A lesson file a teacher wrote (the exercise editor's, or by hand): read as readLesson() does,
// its id the file's name without ".json". Errors name the file.
std::optional<Lesson> readLessonFile(const std::string& path, std::vector<InputError>& errors);

// The lesson `id` among `user` lessons first, then the presets (nullptr: neither).
const Lesson* findLesson(const std::string& id, const std::vector<Lesson>& user);

// The lesson's design task: that of its first step with one (nullptr: none).
const DesignTask* lessonDesign(const Lesson& lesson);

// The lessons, read once; those that do not read are left out (the tests read them all).
const std::vector<Lesson>& lessons();
const Lesson* findLesson(const std::string& id);

// What a numeric claim of step `step` measures, in its unit; `estimates` holds evaluate() of every
// step of the lesson, in order (compute_vs_stage0 needs their timelines: EvaluateOptions'
// default). NaN when the claim has nothing to measure (no such stage, no simulated timeline).
double measure(const NumericClaim& claim, const Lesson& lesson, std::size_t step,
               const std::vector<Estimate>& estimates);

// A claim's number in a message, six significant digits ("0.316228").
std::string claimNumber(double v);

// Every claim of every step that the estimates contradict, one line each, naming the lesson, the
// step and the claim: `lessons/ID: steps[1].expect.bubble_simulated: 0.3162 is not in 0.18 … 0.2`.
std::vector<std::string> checkLesson(const Lesson& lesson, const std::vector<Estimate>& estimates);

} // namespace parascope
