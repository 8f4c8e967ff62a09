// The simulated step inside evaluate(): memory takes the simulated in-flight peak, the step
// decomposes exactly, bounded work for huge scenarios, the closed form when a schedule cannot
// run, and the timeline / Chrome-trace exports.

#include "time/step_time.h"
#include "io/timeline_json.h"
#include "schedule/pipeline_closed_form.h"
#include "scenario_fixture.h"

using namespace parascope;
using namespace parascope::test;

class TstTimeline : public QObject {
    Q_OBJECT

    static Scenario defaultScenario() { return scenarioFromFile("../../resources/scenarios/default.parascope.json"); }

private slots:
    void memoryUsesTheSimulatedPeak()
    {
        for (ScheduleKind k : {ScheduleKind::OneFOneB, ScheduleKind::GPipe, ScheduleKind::ZbH1, ScheduleKind::ZbV,
                               ScheduleKind::DualPipeV, ScheduleKind::DualPipe}) {
            Scenario sc = defaultScenario();
            sc.parallel.schedule = k;
            const Estimate e = evaluate(sc);
            QVERIFY2(e.timeline.simulated, toString(k));
            for (const StageMemory& s : e.memory.stages)
                QCOMPARE(s.inflight_microbatches, e.timeline.timeline.peak_inflight[std::size_t(s.stage)]);
        }
        // 1F1B: the simulated peak equals the closed form min(p − i, m).
        const Estimate e = evaluate(defaultScenario());
        QCOMPARE(e.timeline.timeline.peak_inflight, inflightMicrobatches(ScheduleKind::OneFOneB, 8, 1, 64));
    }

    void stepDecomposes()
    {
        for (const char* file : {"../../resources/scenarios/default.parascope.json", "cli-custom-moe.parascope.json",
                                 "cli-ddp-13b-oom.parascope.json"}) {
            const Estimate e = evaluate(scenarioFromFile(file));
            const TimeReport& t = e.time;
            // The critical rank's parts, and the mean rank's (the efficiency wall's).
            QVERIFY2(std::abs(t.compute_s + t.idle_s + t.exposed_comm_s + t.optimizer_s - t.step_s) <= 1e-9 * t.step_s,
                     file);
            QVERIFY2(std::abs(t.mean_compute_s + t.uneven_s + t.bubble_s + t.exposed_comm_s + t.optimizer_s - t.step_s)
                         <= 1e-9 * t.step_s,
                     file);
            double exposed = 0;
            for (const CommEntry& c : e.communication)
                exposed += c.exposed_s;
            QVERIFY2(std::abs(exposed - t.exposed_comm_s) <= 1e-6 * t.step_s, file);
            QVERIFY(t.bubble_fraction >= 0 && t.bubble_fraction < 1);
            QVERIFY(e.throughput.mfu > 0 && e.throughput.mfu < 1);
            QVERIFY(e.throughput.hfu >= e.throughput.mfu);
        }
    }

    void moreMicrobatchesShrinkTheBubble()
    {
        // 1F1B on PP 8: the idle fraction falls as m grows, towards (p − 1)/(m + p − 1).
        Scenario sc = defaultScenario();
        double last = 1;
        for (long long gb : {64, 128, 512, 2048}) {
            sc.training.global_batch = gb;
            const double f = evaluate(sc).time.bubble_fraction;
            QVERIFY2(f < last, std::to_string(gb).c_str());
            last = f;
        }
    }

    void interleavingCutsTheBubble()
    {
        Scenario sc = defaultScenario();
        const double plain = evaluate(sc).time.bubble_s;
        sc.parallel.schedule = ScheduleKind::Interleaved;
        sc.parallel.vpp = 2;
        const Estimate e = evaluate(sc);
        QCOMPARE(e.time.method, std::string("simulated"));
        QVERIFY(e.time.bubble_s < plain);
    }

    void closedFormWhenTheScheduleCannotRun()
    {
        // Interleaved needs m to be a multiple of p: 60 microbatches on PP 8 is not.
        Scenario sc = defaultScenario();
        sc.parallel.schedule = ScheduleKind::Interleaved;
        sc.parallel.vpp = 2;
        sc.training.global_batch = 480;
        const Estimate e = evaluate(sc);
        QCOMPARE(e.time.method, std::string("closed-form"));
        QVERIFY(e.time.note.find("multiple of pp") != std::string::npos);
        QVERIFY(!e.timeline.simulated);
        QVERIFY(e.time.step_s > 0);
        QVERIFY(e.has("interleaved_needs_microbatch_multiple"));
    }

    void boundedWork()
    {
        // 10⁶ microbatches on PP 8: simulate a prefix, extrapolate the steady state, say so.
        Scenario sc = defaultScenario();
        sc.training.global_batch = 8'000'000;
        const Estimate e = evaluate(sc);
        QCOMPARE(e.time.method, std::string("simulated (extrapolated)"));
        QVERIFY(e.timeline.microbatches_shown < e.timeline.microbatches_total);
        QCOMPARE(e.timeline.microbatches_total, 1'000'000LL);
        QVERIFY(e.timeline.timeline.ops.size() <= kMaxRecordedOps + 64); // the timeline keeps fewer ops
        // The extrapolation is linear in m: per microbatch, the same as a fully simulated run.
        Scenario small = defaultScenario();
        small.training.global_batch = 8 * 1024; // 32,768 ops: below the timeline budget
        const Estimate s = evaluate(small);
        QCOMPARE(s.time.method, std::string("simulated"));
        const double per_mb_big = e.time.step_s / 1e6, per_mb_small = s.time.step_s / 1024;
        QVERIFY(std::abs(per_mb_big / per_mb_small - 1) < 0.02);
        // PP = 10⁴ with 1 microbatch per rank pair: too large to simulate → closed form.
        Scenario deep = presetScenario("llama2-7b", "dgx-a100-80g", 1, 10000, 1);
        deep.model.layers = 10000;
        deep.training.global_batch = 100000;
        const Estimate d = evaluate(deep);
        QCOMPARE(d.time.method, std::string("closed-form"));
        QVERIFY(d.time.note.find("too large") != std::string::npos);
    }

    void timelineJson()
    {
        const Scenario sc = defaultScenario();
        const Estimate e = evaluate(sc);
        const nlohmann::json j = timelineToJson(sc, e);
        QCOMPARE(j["schema"].get<std::string>(), std::string("parascope.timeline/1"));
        QCOMPARE(j["lanes"].size(), std::size_t(16)); // 8 ranks × (compute, communication)
        // 8 ranks × 64 microbatches × (F + B) compute ops, plus sends, reductions, optimizers.
        std::size_t compute = 0;
        for (const auto& op : j["ops"]) {
            QVERIFY(op["end_s"].get<double>() >= op["start_s"].get<double>());
            QVERIFY(op["end_s"].get<double>() <= e.time.step_s * (1 + 1e-12));
            const std::string type = op["type"];
            if (type == "F" || type == "B")
                ++compute;
        }
        QCOMPARE(compute, std::size_t(8 * 64 * 2));
        // Each compute lane's memory over the step: model states and buffers as a floor at the
        // start and the end, and a peak equal to the memory table's total for that stage.
        for (const auto& lane : j["lanes"]) {
            if (lane["kind"] != "compute")
                continue;
            const StageMemory& s = e.memory.stages[lane["rank"].get<std::size_t>()];
            const nlohmann::json& points = lane["memory"];
            QVERIFY(points.size() > 2);
            double peak = 0;
            for (const auto& p : points)
                peak = std::max(peak, p[1].get<double>());
            QVERIFY2(std::abs(peak - s.total()) <= 1e-6 * s.total(),
                     qPrintable(QStringLiteral("rank %1").arg(lane["rank"].get<int>())));
            QCOMPARE(points.front()[1].get<double>(), s.total() - s.activations);
            QCOMPARE(points.back()[1].get<double>(), s.total() - s.activations);
        }
    }

    void gpipeHoldsEveryMicrobatch1F1BAtMostP()
    {
        // The picture that explains 1F1B: with GPipe, rank 0's memory climbs through all m = 16
        // forwards before the first backward; with 1F1B it never holds more than p = 4
        // microbatches' activations. Llama-2 7B, PP 4. The first rise above the floor is one
        // microbatch's activations (the same for both schedules); the peak is 16 of them for
        // GPipe and 4 for 1F1B.
        double units[2] = {0, 0};
        int i = 0;
        for (const ScheduleKind kind : {ScheduleKind::GPipe, ScheduleKind::OneFOneB}) {
            Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 4, 1);
            sc.parallel.schedule = kind;
            sc.training.global_batch = 16;
            sc.training.micro_batch = 1;
            const Estimate e = evaluate(sc);
            QVERIFY(e.timeline.simulated);
            const nlohmann::json rank0 = timelineToJson(sc, e)["lanes"][0]["memory"];
            const StageMemory& s = e.memory.stages[0];
            const double floor = s.total() - s.activations;
            double peak = 0, unit = 0;
            for (const auto& p : rank0) {
                const double bytes = p[1].get<double>();
                if (unit == 0 && bytes > floor)
                    unit = bytes - floor;
                peak = std::max(peak, bytes);
            }
            QVERIFY(unit > 0);
            const double held = (peak - floor) / unit;
            QVERIFY2(std::abs(held - (kind == ScheduleKind::GPipe ? 16 : 4)) < 1e-9, qPrintable(QString::number(held)));
            units[i++] = unit;
        }
        QVERIFY(std::abs(units[0] - units[1]) <= 1e-9 * units[0]);
    }

    void chromeTrace()
    {
        const Scenario sc = defaultScenario();
        const Estimate e = evaluate(sc);
        const nlohmann::json t = timelineToChromeTrace(sc, e);
        QVERIFY(t["traceEvents"].is_array());
        std::set<int> pids;
        int named_processes = 0, x = 0;
        for (const auto& ev : t["traceEvents"]) {
            if (ev["ph"] == "M" && ev["name"] == "process_name")
                ++named_processes;
            if (ev["ph"] == "X") {
                ++x;
                pids.insert(ev["pid"].get<int>());
                QVERIFY(ev.contains("ts") && ev.contains("dur") && ev.contains("name") && ev.contains("cname"));
                QVERIFY(ev["dur"].get<double>() >= 0);
                QVERIFY(ev["tid"] == 0 || ev["tid"] == 1);
            }
        }
        QCOMPARE(named_processes, 8); // one process per pipeline rank
        QCOMPARE(int(pids.size()), 8);
        QCOMPARE(x, int(e.timeline.timeline.ops.size()));
    }

    // Flow arrows (Trace Event Format "s"/"f" pairs with one id): each pipeline send points at
    // the op that receives it — activations at the next stage's forward of the same microbatch,
    // gradients at the previous stage's backward — which starts no earlier than the send.
    void chromeTraceFlowsFollowTheSends()
    {
        const Scenario sc = defaultScenario(); // PP 8, 1F1B, 64 microbatches
        const Estimate e = evaluate(sc);
        const nlohmann::json t = timelineToChromeTrace(sc, e);
        std::map<int, nlohmann::json> starts, finishes;
        std::map<std::pair<int, double>, std::string> slices; // (pid, ts) of compute slices → name
        int sends = 0;
        for (const auto& ev : t["traceEvents"]) {
            if (ev["ph"] == "s")
                starts[ev["id"].get<int>()] = ev;
            else if (ev["ph"] == "f")
                finishes[ev["id"].get<int>()] = ev;
            else if (ev["ph"] == "X" && ev["tid"] == 0)
                slices[{ev["pid"].get<int>(), ev["ts"].get<double>()}] = ev["name"].get<std::string>();
            else if (ev["ph"] == "X" && ev["args"]["type"] == "send")
                ++sends;
        }
        // 1F1B on 8 ranks: every microbatch crosses 7 boundaries forward and 7 backward.
        QCOMPARE(sends, 64 * 7 * 2);
        QCOMPARE(int(starts.size()), sends);
        QCOMPARE(finishes.size(), starts.size());
        for (const auto& [id, s] : starts) {
            const nlohmann::json& f = finishes.at(id);
            QCOMPARE(f["bp"].get<std::string>(), std::string("e"));
            QVERIFY(f["ts"].get<double>() >= s["ts"].get<double>());
            const bool forward = s["name"] == "activations";
            // The arrow lands on the neighbouring rank, at the start of a compute slice.
            QCOMPARE(f["pid"].get<int>(), s["pid"].get<int>() + (forward ? 1 : -1));
            const auto slice = slices.find({f["pid"].get<int>(), f["ts"].get<double>()});
            QVERIFY(slice != slices.end());
            QVERIFY(slice->second.rfind(forward ? "F " : "B ", 0) == 0);
        }
        // Communication lanes: PP sends, DP collectives and the layers' exposed TP/CP/EP work on
        // their own threads; the default keeps one communication thread.
        const nlohmann::json lanes = timelineToChromeTrace(sc, e, {.comm_lanes = true});
        std::set<std::string> threads;
        std::set<int> tids;
        for (const auto& ev : lanes["traceEvents"]) {
            if (ev["ph"] == "M" && ev["name"] == "thread_name" && ev["pid"] == 0)
                threads.insert(ev["args"]["name"].get<std::string>());
            if (ev["ph"] == "X")
                tids.insert(ev["tid"].get<int>());
        }
        QCOMPARE(
            threads,
            (std::set<std::string>{"compute", "PP send/recv", "DP collectives", "TP/CP/EP in the layers (exposed)"}));
        QVERIFY(tids.count(2)); // the DP gradient reduction
        QVERIFY(tids.count(3)); // TP 8 with SP: each op's exposed all-gather / reduce-scatter
    }

    void expertWorkPerGpuDoesNotDependOnEtpOrEp()
    {
        // Megatron-Core's expert grid re-slices the tp·cp·dp GPUs of a stage. Per microbatch the
        // stage routes dp·cp·T·k token-slots (T = seq·mb/cp tokens per TP group, k = top_k)
        // through experts of 3·h·f_e weights each (SwiGLU: gate, up, down), i.e.
        // 2·3·h·f_e·dp·cp·T·k FLOPs spread evenly over tp·cp·dp GPUs: 6·h·f_e·T·k/tp per GPU,
        // whatever EP and ETP are. (An ETP group gathers the tokens of etp/tp TP groups and
        // holds 1/etp of each expert's width: (etp/tp)·T·k tokens × 1/etp = T·k/tp.) The old
        // engine divided by ETP instead of TP: ETP 4 made the expert GEMMs 2× too cheap, and an
        // ETP larger than the GPUs pushed MFU past 100 %.
        //
        // Mixtral 8x7B (h = q = 4096, kv = 8·128 = 1024, f_e = 14336, E = 8, k = 2) on TP 2,
        // seq 4096, micro batch 1 (T = 4096), with a flat GEMM efficiency curve (g_half = 0):
        //   attention GEMMs  2·T·h·(q + 2kv)/2 + 2·T·q·h/2 = 4096·4096·6144 + 4096·4096·4096
        //   routed experts   2·T·k·3·h·f_e/2 = 4096·2·3·4096·14336
        //   router           2·T·h·E = 2·4096·4096·8
        // all at peak_bf16 · gemm_efficiency · sustained_clock.
        Scenario sc = presetScenario("mixtral-8x7b", "dgx-h100", 2, 1, 4);
        sc.parallel.sequence_parallel = true;
        sc.training.global_batch = 8;
        sc.cluster.gpu.gemm_half_flops = 0;
        const double T = 4096, h = 4096, q = 4096, kv = 1024, fe = 14336, E = 8, k = 2;
        const double flops
            = 2 * T * h * (q + 2 * kv) / 2 + 2 * T * q * h / 2 + 2 * T * k * 3 * h * fe / 2 + 2 * T * h * E;
        const GpuSpec& g = sc.cluster.gpu;
        const double expected = flops / (g.peak_bf16_flops * g.gemm_efficiency * g.sustained_clock);
        for (const auto [ep, etp] :
             {std::pair{2, 2}, std::pair{2, 1}, std::pair{2, 4}, std::pair{4, 2}, std::pair{4, 1}}) {
            Scenario s = sc;
            s.parallel.ep = ep;
            s.parallel.etp = etp;
            const Estimate e = evaluate(s);
            const QString label = QStringLiteral("EP %1 ETP %2").arg(ep).arg(etp);
            QVERIFY2(!e.has("ep_invalid"), qPrintable(label));
            const Term* moe = findTerm(e.time.terms, "time.moe_layer_forward_gemm");
            QVERIFY2(moe, qPrintable(label));
            QVERIFY2(std::fabs(moe->value - expected) <= 1e-9 * expected,
                     qPrintable(label + QStringLiteral(": %1 s, by hand %2 s").arg(moe->value).arg(expected)));
        }
    }

    void closedFormStepByHand()
    {
        // The closed-form step of one pipeline rank, derived from the op-cost formulas
        // (docs/ARCHITECTURE.md, time/op_costs) with everything but the matmuls switched off:
        // a flat GEMM efficiency curve (g_half = 0), no kernel overhead, an HBM so fast that the
        // elementwise passes and the optimizer take no time, TP = PP = DP = 1 (no communication,
        // no bubble), no recompute.
        //
        // Llama-2 7B: L = 32, h = q = kv = 4096 (MHA), f = 11008 (SwiGLU), V = 32000; seq 4096,
        // micro batch 1 (T = 4096 tokens), global batch 4, so m = 4 microbatches.
        //   per layer, forward GEMMs  2T·h·(q + 2kv) + 2T·q·h + 3·2T·h·f   (QKV, out, gate+up+down)
        //   per layer, attention      T·2·s·q   (scores and values; flash skips the causal half
        //                                        of the full count T·4·s·q)
        //   output layer              2T·h·V
        // Forward: GEMMs + attention; backward input: GEMMs + 2.5× attention (FlashAttention-2's
        // backward FLOPs); backward weight: GEMMs (the output layer in all three). So one
        // microbatch takes
        //   t_mb = L·(3·gemm + 3.5·attn) + 3·head,   step = m·t_mb,
        // with GEMMs at peak · gemm_efficiency · sustained_clock and attention at
        // peak · attention_efficiency · s/(s + s½) · sustained_clock (head dim 128: no head-dim
        // factor).
        Scenario sc = presetScenario("llama2-7b", "dgx-a100-80g", 1, 1, 1);
        sc.training.seq_len = 4096;
        sc.training.micro_batch = 1;
        sc.training.global_batch = 4;
        sc.training.recompute = Recompute::None;
        GpuSpec& g = sc.cluster.gpu;
        g.gemm_half_flops = 0;
        g.kernel_overhead_s = 0;
        g.hbm_bytes_per_s = 1e30;
        EvaluateOptions o;
        o.simulate = false;
        const Estimate e = evaluate(sc, o);
        QCOMPARE(e.time.method, std::string("closed-form"));

        const double L = 32, T = 4096, s = 4096, h = 4096, q = 4096, kv = 4096, f = 11008, V = 32000, m = 4;
        const double gemm_rate = g.peak_bf16_flops * g.gemm_efficiency * g.sustained_clock;
        const double attn_rate
            = g.peak_bf16_flops * g.attention_efficiency * s / (s + g.attention_half_seq) * g.sustained_clock;
        const double gemm = (2 * T * h * (q + 2 * kv) + 2 * T * q * h + 3 * 2 * T * h * f) / gemm_rate;
        const double attn = T * 2 * s * q / attn_rate;
        const double head = 2 * T * h * V / gemm_rate;
        const double step = m * (L * (3 * gemm + 3.5 * attn) + 3 * head);
        QVERIFY2(std::fabs(e.time.step_s - step) <= 1e-6 * step,
                 qPrintable(
                     QStringLiteral("engine %1 s, by hand %2 s").arg(e.time.step_s, 0, 'g', 12).arg(step, 0, 'g', 12)));
        QVERIFY(e.time.bubble_fraction < 1e-9);
    }
};

QTEST_GUILESS_MAIN(TstTimeline)
#include "tst_timeline.moc"
