// Faults and stragglers (types/scenario.h FaultConfig, estimate/faults.h): each what-if derived by
// hand — a straggler on one GPU, a pipeline paced by a slow stage, one node's links degraded,
// hangs and loss spikes in the goodput — and the scenario file, --set and the walls that carry them.

#include "estimate/evaluate.h"
#include "io/scenario_json.h"
#include "types/knobs.h"
#include "scenario_fixture.h"

#include <algorithm>

using namespace parascope;
using namespace parascope::test;

namespace {

bool near(double a, double b, double rel = 1e-9) { return std::abs(a - b) <= rel * std::abs(b); }

const CommEntry* entry(const Estimate& e, Group g, Purpose p)
{
    for (const CommEntry& c : e.communication)
        if (c.group == g && c.purpose == p)
            return &c;
    return nullptr;
}

} // namespace

class TstFaults : public QObject {
    Q_OBJECT

private slots:
    void oneSlowGpuAlone()
    {
        // Megatron GPT 1.7B on one GPU (no collective, no pipeline): its step is compute +
        // optimizer, and a GPU 50 % slower takes f = 1.5 times each, so the step is 1.5 × the
        // healthy one and the straggler's part exactly half of it:
        //   step' = 1.5 · (compute + optimizer),  straggler = step' − step = 0.5 · step.
        Scenario sc = presetScenario("megatron-gpt-1.7b", "dgx-a100-80g", 1, 1, 1);
        sc.training.seq_len = 2048;
        sc.training.global_batch = 4;
        sc.parallel.zero = 0;
        const Estimate healthy = evaluate(sc);
        QVERIFY(!healthy.hasErrors());
        sc.faults.straggler_slowdown_pct = 50;
        const Estimate slow = evaluate(sc);
        QVERIFY(!slow.hasErrors());
        QVERIFY(near(slow.time.healthy_step_s, healthy.time.step_s));
        QVERIFY(near(slow.time.step_s, 1.5 * healthy.time.step_s, 1e-6));
        QVERIFY(near(slow.time.straggler_s, 0.5 * healthy.time.step_s, 1e-6));
        // Goodput divides by the slowdown: the same interruptions, 1/1.5 of the throughput.
        const StabilityReport& h = healthy.walls.stability_report;
        const StabilityReport& s = slow.walls.stability_report;
        QVERIFY(near(s.straggler_slowdown, 1.5, 1e-6));
        QVERIFY(near(s.goodput, h.goodput / 1.5, 1e-6));
        QVERIFY(slow.has("straggler_slows_step"));
    }

    void aPipelineRunsAtItsSlowestStage()
    {
        // Llama-2 7B, PP 4 · TP 1 on one node, 1F1B, m = 16 microbatches; one GPU of the last
        // rank (3, which also holds the output layer) 50 % slower. With t_r the per-microbatch
        // compute (forward + backward) of rank r: the last rank has no warm-up; it waits for the
        // first forward (Σ_{r<3} F_r), then runs its m forward-backward pairs back to back (the
        // ranks before it are faster, so each next forward is there in time), and the last
        // backward walks back through ranks 2 … 0 (Σ_{r<3} B_r):
        //   step = Σ_{r<3} t_r + m · t_3 (+ the sends and rank 0's optimizer, the same in both),
        // and the same with t_3 → f · t_3 when it is slow, so
        //   straggler = m · (f − 1) · t_3 = 16 · 0.5 · t_3.
        // t_3 from the simulated timeline's busy time of rank 3 (m · t_3; no communication inside
        // the ops at TP 1).
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 4, 1);
        sc.training.global_batch = 16;
        sc.parallel.zero = 0;
        const Estimate healthy = evaluate(sc);
        sc.faults.straggler_slowdown_pct = 50;
        sc.faults.straggler_stage = 3;
        const Estimate slow = evaluate(sc);
        QVERIFY(!slow.hasErrors());
        const std::vector<double>& busy = healthy.timeline.timeline.busy_s;
        QCOMPARE(int(busy.size()), 4);
        QCOMPARE(healthy.timeline.microbatches_shown, 16LL);
        const double m = 16, f = 1.5, t3 = busy[3] / m;
        QVERIFY(near(slow.time.straggler_s, m * (f - 1) * t3, 1e-6));
        // The Gantt: rank 3's compute is 1.5 × its healthy compute; the other ranks' is unchanged
        // (their longer gaps are the wait).
        const std::vector<double>& busy_slow = slow.timeline.timeline.busy_s;
        QVERIFY(near(busy_slow[3], 1.5 * busy[3], 1e-9));
        QVERIFY(near(busy_slow[1], busy[1], 1e-9));
        // The efficiency wall names the straggler's part, and the parts still add up to 1 − MFU.
        const EfficiencyLosses& l = slow.walls.losses;
        QVERIFY(near(l.straggler, slow.time.straggler_s / slow.time.step_s));
        QVERIFY(near(l.lost(), 1 - slow.throughput.mfu, 1e-9));
        QVERIFY(slow.walls.efficiency.explanation.en.find("the straggler") != std::string::npos);
        QVERIFY(slow.walls.efficiency.explanation.zh.find("慢节点") != std::string::npos);
        // On a middle rank the pipeline still runs at the slow rank's pace: its m · f · t_1 of
        // compute is inside the step, which is longer than the healthy one.
        sc.faults.straggler_stage = 1;
        const Estimate middle = evaluate(sc);
        QVERIFY(middle.time.step_s > m * f * busy[1] / m && middle.time.straggler_s > 0);
    }

    void aStragglerOffThePipelineIsAnError()
    {
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 4, 1);
        sc.faults.straggler_slowdown_pct = 20;
        sc.faults.straggler_stage = 4; // PP 4: stages 0 … 3
        const Estimate e = evaluate(sc);
        QVERIFY(e.has("straggler_stage_outside_pipeline"));
        QCOMPARE(e.time.straggler_s, 0.0);
        // No slowdown, no straggler: the stage alone says nothing.
        sc.faults.straggler_slowdown_pct = 0;
        QVERIFY(!evaluate(sc).has("straggler_stage_outside_pipeline"));
    }

    void aDegradedLinkSlowsEveryCollectiveAcrossNodes()
    {
        // Llama-2 7B, TP 8 inside each DGX A100 node, DP 2 across two nodes: the DP gradient
        // all-reduce has one GPU per node, every byte on the network. One node's links at 25 %:
        // its bus bandwidth is the inter-node bandwidth × 0.25 (the ring passes the node; the
        // message-size ramp S/(S + half) does not depend on the bandwidth), so a quarter;
        // the TP collectives inside the nodes (NVLink) are untouched.
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 8, 1, 2);
        sc.training.global_batch = 16;
        const Estimate healthy = evaluate(sc);
        sc.faults.link_bandwidth_pct = 25;
        const Estimate slow = evaluate(sc);
        const CommEntry* dp = entry(healthy, Group::Dp, Purpose::Gradients);
        const CommEntry* dp_slow = entry(slow, Group::Dp, Purpose::Gradients);
        QVERIFY(dp && dp_slow);
        // (busbw = factor · S / t with t = α + S/B: the latency α of each call, the same at any
        // bandwidth, keeps it a little above a quarter, 0.2507 here: within 1 %.)
        QVERIFY(near(dp_slow->busbw_bytes_per_s, 0.25 * dp->busbw_bytes_per_s, 0.01));
        QVERIFY(dp_slow->busbw_bytes_per_s > 0.25 * dp->busbw_bytes_per_s);
        const CommEntry* tp = entry(healthy, Group::Tp, Purpose::Activations);
        const CommEntry* tp_slow = entry(slow, Group::Tp, Purpose::Activations);
        QVERIFY(tp && tp_slow);
        QCOMPARE(tp_slow->time_s, tp->time_s);
        QVERIFY(slow.time.step_s >= healthy.time.step_s);
        QVERIFY(slow.has("degraded_link"));
        QVERIFY(!healthy.has("degraded_link"));
    }

    void hangsAndLossSpikesInTheGoodput()
    {
        // The stability wall's hand case (tst_walls: Llama-2 7B on 1024 GPUs, 1e-3 failures per
        // GPU-day, C = 0.377351 s, restart R = 600 s) with 7 hangs a week (1/day) and 14 loss
        // spikes a week (2/day), NCCL timeout T = 10 min:
        //   λ = (1.024 + 1 + 2)/86,400 = 4.657407e-5 /s;  τ = √(2C/λ) = 127.2963 s
        //   goodput = 1 − C/τ − λ·(τ/2 + R) − (1/86,400)·T = 1 − 0.0408176 = 0.9591824
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 1024);
        sc.training.global_batch = 1024;
        sc.stability.failures_per_gpu_day = 1e-3;
        sc.faults.hangs_per_week = 7;
        sc.faults.loss_spikes_per_week = 14;
        const Estimate e = evaluate(sc);
        const StabilityReport& r = e.walls.stability_report;
        const double C = 6738415616.0 * 14 / 250e9, lambda = 4.024 / 86400, tau = std::sqrt(2 * C / lambda);
        QVERIFY(near(r.hangs_per_day, 1) && near(r.loss_spikes_per_day, 2) && near(r.nccl_timeout_s, 600));
        QVERIFY(near(r.checkpoint_interval_s, tau));
        QVERIFY(near(tau, 127.2963, 1e-6));
        QVERIFY(near(r.goodput, 1 - C / tau - lambda * (tau / 2 + 600) - 600.0 / 86400));
        QVERIFY(near(r.goodput, 0.9591824, 1e-6));
        // A longer timeout costs every hang more: 60 min instead of 10 takes 50 min a day more.
        sc.faults.nccl_timeout_min = 60;
        const double slower = evaluate(sc).walls.stability_report.goodput;
        QVERIFY(near(slower, r.goodput - 3000.0 / 86400, 1e-9));
        // The wall says what is going on, in both languages.
        QVERIFY(e.walls.stability.explanation.en.find("NCCL timeout") != std::string::npos);
        QVERIFY(e.walls.stability.explanation.zh.find("NCCL 超时") != std::string::npos);
    }

    void theFileAndSetCarryEveryFault()
    {
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 8, 2, 2);
        std::string why;
        for (const char* set :
             {"faults.straggler_slowdown_pct=30", "faults.straggler_stage=1", "faults.link_bandwidth_pct=50",
              "faults.hangs_per_week=3", "faults.nccl_timeout_min=30", "faults.loss_spikes_per_week=2"})
            QVERIFY2(applyKnobAssignment(sc, set, why), why.c_str());
        QCOMPARE(sc.faults.straggler_slowdown_pct, 30);
        QCOMPARE(sc.faults.nccl_timeout_min, 30);
        QVERIFY(!applyKnobAssignment(sc, "faults.link_bandwidth_pct=0", why));
        QVERIFY(why.find("outside 1") != std::string::npos);
        // Saved and read back, number for number; a healthy scenario writes no "faults" at all.
        const nlohmann::json j = scenarioToJson(sc);
        QCOMPARE(j["faults"]["link_bandwidth_pct"].get<int>(), 50);
        std::vector<InputError> errors;
        const auto back = readScenario(j, errors);
        QVERIFY(back && errors.empty());
        QVERIFY(back->faults == sc.faults);
        QVERIFY(!scenarioToJson(presetScenario("llama2-7b", "dgx-a100-80g", 8, 2, 2)).contains("faults"));
        // A bad value is an error with its path, never a silent default.
        nlohmann::json bad = j;
        bad["faults"]["link_bandwidth_pct"] = 0;
        bad["faults"]["stragglers"] = 2;
        errors.clear();
        QVERIFY(!readScenario(bad, errors));
        const auto has = [&](const std::string& path) {
            return std::any_of(errors.begin(), errors.end(), [&](const InputError& e) { return e.path == path; });
        };
        QVERIFY(has("faults.link_bandwidth_pct"));
        QVERIFY(has("faults.stragglers"));
    }
};

QTEST_APPLESS_MAIN(TstFaults)
#include "tst_faults.moc"
