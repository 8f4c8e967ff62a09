#pragma once
// Numbers in a lesson's text come from the engine when the lesson is shown, formatted as the app
// shows the same quantity, so the prose and the screen give the same digits (a text that said
// 12.06 s beside a status bar saying 12.07 s taught students to trust neither).
//
// A placeholder names a claim quantity (lessons/lessons.h, kQuantities) with its qualifiers:
//   {{step_s}}                      "12.07 s"   (formatSeconds, the status bar's)
//   {{bubble_simulated}}            "11.7 %"    (formatPercent, one decimal everywhere)
//   {{peak_gib}}                    "18.45 GiB" (two decimals, the memory tooltip's)
//   {{memory_gib:0:activations}}    a stage's part: {{memory_gib:STAGE:PART}}
//   {{inflight:0}}, {{compute_vs_stage0:7}}   per stage (compute_vs_stage0 as "2.7 %")
//   {{collective_s:dp.reduce_scatter.gradients}}  a collective's time ("1.54 s")
//   {{step_s_vs:1}}, {{tokens_per_s_vs:1}}    against step 1, the magnitude ("16 %": the prose
//                                             says "longer", "fewer")
// The text around it stays as written; the tests check the rendered prose's numbers against the
// step's claims as before (tst_lessons).

#include "lessons/lessons.h"

#include <string>
#include <vector>

namespace parascope {

// The placeholders of `text` that do not name a quantity with the right qualifiers, as messages
// ("{{peak}}: no such quantity"); checked when a lesson is read.
std::vector<std::string> placeholderErrors(const std::string& text);

// `text` with its placeholders replaced by step `step`'s values (`estimates`: evaluate() of
// every step, as measure() takes them); a value that cannot be measured shows as "—".
std::string renderLessonText(const std::string& text, const Lesson& lesson, std::size_t step,
                             const std::vector<Estimate>& estimates);

// The lesson with every text (introduction, steps, exercise prompts) rendered; the introduction
// takes step 0's values.
Lesson renderLesson(const Lesson& lesson, const std::vector<Estimate>& estimates);

// evaluate() of every step, then renderLesson: what the app and the CLI show.
Lesson renderLesson(const Lesson& lesson);

} // namespace parascope
