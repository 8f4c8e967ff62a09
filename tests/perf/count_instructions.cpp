// What the instruction-count guard measures (tests/perf/check-instructions.sh runs it under
// valgrind's callgrind, which counts the instructions executed between the two
// CALLGRIND_TOGGLE_COLLECT marks only; the counts are the same on every run, unlike times on a
// shared machine — as SQLite tracks its speed):
//   evaluate  one evaluate() of the largest preset (Llama-3.1 405B on 16,384 H100, TP 8 × PP 16 ×
//             DP 128, interleaved VPP 8, 128 microbatches), as the app runs it on a slider move;
//   slider    one slider move through every view in a shown 1600×1000 window (offscreen): the
//             sequence length slider, the engine, every view's update and the three charts
//             replotted, after four warm-up moves (fonts and caches filled).
// Without valgrind it runs the same work and says so.

#include "estimate/evaluate.h"
#include "io/scenario_json.h"
#include "allocator_tuning.h"
#include "main_window.h"
#include "comm_chart.h"
#include "memory_chart.h"
#include "models/scenario_model.h"
#include "scenario_panel.h"
#include "timeline_chart.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QSlider>
#include <QStandardPaths>
#include <QTest>

#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstring>

using namespace parascope;

namespace {

Scenario largestPreset()
{
    std::vector<InputError> errors;
    const auto j = parseJsonText(R"({"schema":"parascope.scenario/1","model":"llama3.1-405b","cluster":"dgx-h100",
        "parallel":{"tp":8,"pp":16,"dp":128,"vpp":8,"schedule":"interleaved","sequence_parallel":true,"zero":1},
        "training":{"seq_len":8192,"micro_batch":1,"global_batch":16384}})",
                                 errors);
    return *readScenario(*j, errors);
}

int countEvaluate()
{
    const Scenario sc = largestPreset();
    EvaluateOptions o; // as the app evaluates: explained, simulated, the timeline recorded
    (void)evaluate(sc, o); // warm-up: the preset tables are read once
    CALLGRIND_TOGGLE_COLLECT;
    const Estimate e = evaluate(sc, o);
    CALLGRIND_TOGGLE_COLLECT;
    std::printf("evaluate: step %.6f s, %zu timeline ops\n", e.time.step_s, e.timeline.timeline.ops.size());
    return 0;
}

int countSlider(int argc, char** argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    ui::MainWindow w;
    w.resize(1600, 1000);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return 1;
    w.model()->setScenario(largestPreset());
    w.model()->flush();
    QSlider* seq = w.panel()->slider(QStringLiteral("training.seq_len"));
    const int base = seq->value();
    const auto move = [&](int i) {
        seq->setValue(base + (i % 2 == 0 ? -1 : 0)); // 4096 ↔ 8192 tokens
        w.model()->flush();
        for (QCustomPlot* p : {w.memoryChart()->plot(), w.timelineChart()->plot(), w.commChart()->plot()})
            p->replot(QCustomPlot::rpImmediateRefresh);
    };
    for (int i = 0; i < 4; ++i)
        move(i);
    CALLGRIND_TOGGLE_COLLECT;
    move(4);
    CALLGRIND_TOGGLE_COLLECT;
    std::printf("slider: moved to %d\n", seq->value());
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    ui::tuneAllocatorForRedraws(argv); // as the app's main() does
    if (!RUNNING_ON_VALGRIND)
        std::fprintf(stderr, "count_instructions: not under valgrind: the work runs, nothing is counted\n");
    if (argc >= 2 && std::strcmp(argv[1], "evaluate") == 0)
        return countEvaluate();
    if (argc >= 2 && std::strcmp(argv[1], "slider") == 0)
        return countSlider(argc, argv);
    std::fprintf(stderr, "usage: count_instructions evaluate|slider\n");
    return 2;
}
