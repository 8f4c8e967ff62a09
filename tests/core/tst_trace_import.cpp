// A measured step from a PyTorch profiler trace (Kineto's Chrome JSON, io/kineto_trace.h) and its
// comparison with the simulated step (io/trace_comparison.h). The traces in tests/data/traces/
// are written by hand from the format (times in µs; GPU rows pid = device, tid = stream; kernels
// tied to their CPU launch by args.correlation), with numbers that add up by hand.

#include "io/error_bands.h"
#include "io/trace_comparison.h"
#include "scenario_fixture.h"

#include <QTemporaryDir>

#include <fstream>

using namespace parascope;
using namespace parascope::test;

namespace {

std::string dataFile(const char* name) { return std::string(PARASCOPE_TEST_DATA) + "/traces/" + name; }

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 + 1e-9 * std::abs(b); }

double kernelTime(const StepTotals& t, KernelKind k) { return t.kernel_s.count(k) ? t.kernel_s.at(k) : 0.0; }

std::string allErrors(const std::vector<InputError>& errors)
{
    std::string s;
    for (const InputError& e : errors)
        s += e.text() + "\n";
    return s;
}

} // namespace

class TstTraceImport : public QObject {
    Q_OBJECT

private slots:
    void kernelKindsFromNames()
    {
        // Names as cuBLAS, CUTLASS, FlashAttention, cuDNN, NCCL and PyTorch give their kernels.
        QCOMPARE(kernelKind("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64"), KernelKind::Gemm);
        QCOMPARE(kernelKind("nvjet_tst_192x192_64x4_1x2_h_bz_coopB_NNT"), KernelKind::Gemm);
        QCOMPARE(kernelKind("ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_nn"), KernelKind::Gemm);
        QCOMPARE(kernelKind("void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4>>"), KernelKind::Attention);
        QCOMPARE(kernelKind("cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_3"),
                 KernelKind::Attention);
        QCOMPARE(kernelKind("fmha_cutlassF_bf16_aligned_64x64_rf_sm80"), KernelKind::Attention);
        QCOMPARE(kernelKind("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"),
                 KernelKind::Communication);
        QCOMPARE(kernelKind("void multi_tensor_apply_kernel<TensorListMetadata<4>, FusedAdamMathFunctor>"),
                 KernelKind::Optimizer);
        QCOMPARE(kernelKind("void at::native::vectorized_elementwise_kernel<4>"), KernelKind::OtherCompute);
        QCOMPARE(kernelKind("void at::native::(anonymous namespace)::cunn_SoftMaxForward<4>"),
                 KernelKind::OtherCompute);

        QCOMPARE(ncclCollective("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(x)"), std::optional(Collective::AllReduce));
        QCOMPARE(ncclCollective("ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclWork*)"),
                 std::optional(Collective::AllGather));
        QCOMPARE(ncclCollective("ncclDevKernel_ReduceScatter_Sum_f32_RING_LL"),
                 std::optional(Collective::ReduceScatter));
        QCOMPARE(ncclCollective("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"),
                 std::optional(Collective::SendRecv));
        QCOMPARE(ncclCollective("ncclDevKernel_Broadcast_RING_LL"), std::optional(Collective::Broadcast));
        QCOMPARE(ncclCollective("ncclDevKernel_Reduce_Sum_f32_RING_LL"), std::optional(Collective::Reduce));
        QCOMPARE(ncclCollective("sm90_xmma_gemm"), std::optional<Collective>());
    }

    void stepsAndTotalsByHand()
    {
        // kineto_three_steps.json: ProfilerStep#3 (CPU 1000–11000 µs), #4 (11000–21000), #5
        // (21000–31000). Step 3's kernels, each tied to a launch inside it (step 4 the same, 10 ms
        // later):
        //   stream 7   GEMM       2000–4000   2.0 ms
        //              flash fwd  4000–5000   1.0 ms
        //              elementwise 5000–5500  0.5 ms
        //              elementwise 7000–7500  0.5 ms  launched under "Optimizer.step#AdamW.step": optimizer
        //              multi_tensor_apply (Adam) 7500–8000  0.5 ms: optimizer by name
        //              memcpy DtoH 8000–8200  0.2 ms
        //   stream 20  NCCL all-reduce 5000–7000  2.0 ms, beside compute only 5000–5500
        // A warm-up kernel launched before step 3 belongs to no step; step 5 has no next step, so
        // only steps 3 and 4 are measured. Window of step 3: its first kernel (2000) to step 4's
        // (12000) = 10 ms. Compute runs 2000–5500 and 7000–8000 = 4.5 ms; with communication,
        // 2000–8000 = 6.0 ms, so 1.5 ms of it is exposed; the copy adds 0.2 ms alone; idle
        // 10 − 6.2 = 3.8 ms.
        std::vector<InputError> errors;
        const auto trace = readKinetoTraceFile(dataFile("kineto_three_steps.json"), {}, errors);
        QVERIFY2(trace, allErrors(errors).c_str());
        QCOMPARE(trace->gpu_name, std::string("NVIDIA H100 80GB HBM3"));
        QCOMPARE(trace->device, 0);
        QCOMPARE(trace->rank, 3);
        QCOMPARE(trace->world_size, 8);
        QCOMPARE(int(trace->steps.size()), 2);
        QCOMPARE(trace->steps[0].number, 3LL);
        QCOMPARE(trace->steps[1].number, 4LL);
        QVERIFY(close(trace->step_s, 10e-3));
        const StepTotals& m = trace->mean;
        QVERIFY(close(m.window_s, 10e-3));
        QVERIFY(close(kernelTime(m, KernelKind::Gemm), 2e-3));
        QVERIFY(close(kernelTime(m, KernelKind::Attention), 1e-3));
        QVERIFY(close(kernelTime(m, KernelKind::OtherCompute), 0.5e-3));
        QVERIFY(close(kernelTime(m, KernelKind::Optimizer), 1e-3));
        QVERIFY(close(kernelTime(m, KernelKind::Communication), 2e-3));
        QVERIFY(close(kernelTime(m, KernelKind::Memcpy), 0.2e-3));
        QVERIFY(close(m.collective_s.at(Collective::AllReduce), 2e-3));
        QVERIFY(close(m.compute_busy_s, 4.5e-3));
        QVERIFY(close(m.exposed_comm_s, 1.5e-3));
        QVERIFY(close(m.exposed_memcpy_s, 0.2e-3));
        QVERIFY(close(m.idle_s, 3.8e-3));
        // The first measured step's kernels, from its window's start: 7 of them.
        QCOMPARE(int(trace->kernels.size()), 7);
        QVERIFY(close(trace->kernels.front().start_s, 0));
        QCOMPARE(trace->kernels.front().stream, 7LL);
        // The event without "dur" is skipped and said.
        QCOMPARE(int(trace->warnings.size()), 1);
        QVERIFY(trace->warnings[0].en.find("1 complete events") != std::string::npos);
    }

    void wholeTraceWithoutStepMarks()
    {
        // kineto_no_steps.json, a bare event array with the old capitalised "Kernel" category:
        // GEMM 100–300 µs (stream 7), NCCL all-gather 200–600 (stream 13), GEMM 700–800. One
        // window 100–800 = 0.7 ms; compute 0.3 ms; with communication 100–600 and 700–800 = 0.6 ms,
        // so 0.3 ms exposed; idle 0.1 ms.
        std::vector<InputError> errors;
        const auto trace = readKinetoTraceFile(dataFile("kineto_no_steps.json"), {}, errors);
        QVERIFY2(trace, allErrors(errors).c_str());
        QCOMPARE(int(trace->steps.size()), 1);
        QCOMPARE(trace->steps[0].number, -1LL);
        QVERIFY(close(trace->step_s, 0.7e-3));
        QVERIFY(close(trace->mean.compute_busy_s, 0.3e-3));
        QVERIFY(close(trace->mean.exposed_comm_s, 0.3e-3));
        QVERIFY(close(trace->mean.idle_s, 0.1e-3));
        QVERIFY(close(trace->mean.collective_s.at(Collective::AllGather), 0.4e-3));
        QCOMPARE(int(trace->warnings.size()), 1);
        QVERIFY(trace->warnings[0].en.find("ProfilerStep") != std::string::npos);
    }

    void errorsSayWhatToDo()
    {
        // Two GPUs in one trace: the device must be chosen, and naming one works.
        std::vector<InputError> errors;
        QVERIFY(!readKinetoTraceFile(dataFile("kineto_two_gpus.json"), {}, errors));
        QCOMPARE(errors.at(0).path, std::string("--device"));
        QVERIFY(errors[0].message.find("GPUs 0, 1") != std::string::npos);
        errors.clear();
        KinetoOptions one;
        one.device = 1;
        const auto trace = readKinetoTraceFile(dataFile("kineto_two_gpus.json"), one, errors);
        QVERIFY2(trace, allErrors(errors).c_str());
        QCOMPARE(trace->device, 1);
        QVERIFY(close(trace->step_s, 50e-6));
        one.device = 4;
        QVERIFY(!readKinetoTraceFile(dataFile("kineto_two_gpus.json"), one, errors));
        QVERIFY(errors.back().message.find("no kernels on GPU 4") != std::string::npos);

        // Not a trace; a trace without GPU work; a gzip-compressed trace.
        errors.clear();
        QVERIFY(!readKinetoTrace(nlohmann::json{{"schema", "parascope.scenario/1"}}, {}, errors));
        QVERIFY(errors.at(0).message.find("traceEvents") != std::string::npos);
        errors.clear();
        const nlohmann::json cpu_only
            = {{"traceEvents", {{{"ph", "X"}, {"cat", "cpu_op"}, {"name", "aten::mm"}, {"ts", 1}, {"dur", 2}}}}};
        QVERIFY(!readKinetoTrace(cpu_only, {}, errors));
        QVERIFY(errors.at(0).message.find("ProfilerActivity.CUDA") != std::string::npos);
        QTemporaryDir dir;
        const std::string gz = dir.filePath(QStringLiteral("rank0.pt.trace.json.gz")).toStdString();
        std::ofstream(gz, std::ios::binary) << "\x1f\x8b\x08\x00 not really gzip";
        errors.clear();
        QVERIFY(!readKinetoTraceFile(gz, {}, errors));
        QVERIFY(errors.at(0).message.find("gunzip -k") != std::string::npos);
    }

    void comparisonPartsAddUpOnBothSides()
    {
        // The scenario's step against the hand-made trace: the rows are the Estimate's own
        // numbers on the simulated side and the hand totals above on the measured side, and on
        // each side the parts add up to the step (simulated: compute by kind + optimizer +
        // exposed communication + bubble; measured: the 10 ms window).
        Scenario sc = presetScenario("llama2-7b", "dgx-h100", 2, 2, 2);
        const Estimate est = evaluate(sc);
        std::vector<InputError> errors;
        const auto trace = readKinetoTraceFile(dataFile("kineto_three_steps.json"), {}, errors);
        QVERIFY2(trace, allErrors(errors).c_str());
        const TraceComparison c = compareWithTrace(sc, est, *trace);
        QVERIFY(close(c.row("step")->simulated_s, est.time.step_s));
        QVERIFY(close(c.row("step")->measured_s, 10e-3));
        QVERIFY(close(c.row("gemm")->simulated_s, est.time.compute_kinds.gemm_s));
        QVERIFY(close(c.row("attention")->simulated_s, est.time.compute_kinds.attention_s));
        QVERIFY(close(c.row("optimizer")->simulated_s, est.time.optimizer_s));
        QVERIFY(close(c.row("exposed_communication")->simulated_s, est.time.exposed_comm_s));
        // Measured: compute kernels 2 + 1 + 0.5 + 1.0 = 4.5 ms fill the 4.5 ms some compute
        // kernel runs, so each part is its kernel time.
        QVERIFY(close(c.row("gemm")->measured_s, 2e-3));
        QVERIFY(close(c.row("attention")->measured_s, 1e-3));
        QVERIFY(close(c.row("other_compute")->measured_s, 0.5e-3));
        QVERIFY(close(c.row("optimizer")->measured_s, 1e-3));
        QVERIFY(close(c.row("exposed_communication")->measured_s, 1.5e-3));
        QVERIFY(close(c.row("copies")->measured_s, 0.2e-3));
        QVERIFY(close(c.row("idle")->measured_s, 3.8e-3));
        double simulated = 0, measured = 0;
        for (const TraceRow& r : c.rows)
            if (r.part_of_step) {
                simulated += r.simulated_s;
                measured += r.measured_s;
            }
        QVERIFY2(std::abs(simulated - est.time.step_s) <= 1e-9 * est.time.step_s,
                 qPrintable(QStringLiteral("parts %1 s, step %2 s").arg(simulated).arg(est.time.step_s)));
        QVERIFY(close(measured, 10e-3));
        // Communication kernels: the plan's per-step time of every collective, and the trace's.
        double plan = 0;
        for (const CommEntry& e : est.communication)
            plan += e.time_s;
        QVERIFY(close(c.row("communication")->simulated_s, plan));
        QVERIFY(close(c.row("communication")->measured_s, 2e-3));
        QVERIFY(close(c.row("comm.all_reduce")->measured_s, 2e-3));
        QVERIFY(close(c.step_error, (est.time.step_s - 10e-3) / 10e-3));
        // The trace's job had 8 GPUs, the scenario 8 (TP 2 · PP 2 · DP 2): no note about it; the
        // simulated step's band (issue 36 §1), and PP 2 says which rank is simulated.
        QCOMPARE(est.gpus, 8LL);
        QCOMPARE(int(c.notes.size()), 2);
        QCOMPARE(c.notes[0].en, "the simulated step carries " + bandText(bandFor(builtInBands(), sc)).en);
        QVERIFY(c.notes[1].en.find("critical") != std::string::npos);
        QVERIFY(c.sameJob());
        // The same trace (an H100, 8 GPUs) against an A100 scenario of 16 GPUs is a different
        // job: no error figure, and each reason said.
        const Scenario a100 = presetScenario("llama2-7b", "dgx-a100-80g", 2, 2, 4);
        const TraceComparison on_a100 = compareWithTrace(a100, evaluate(a100), *trace);
        QVERIFY(!on_a100.sameJob());
        QCOMPARE(int(on_a100.different_job.size()), 2);
        QVERIFY(on_a100.different_job[0].en.find("ran on NVIDIA H100 80GB HBM3") != std::string::npos);
        QVERIFY(on_a100.different_job[1].en.find("a job of 8 GPUs; the scenario has 16") != std::string::npos);
        QVERIFY(traceComparisonToJson(a100, *trace, on_a100)["step_error"].is_null());
        QCOMPARE(traceComparisonToJson(a100, *trace, on_a100)["different_job"].size(), std::size_t(2));
        // A trace with no attention kernels against a transformer that spends more than a tenth of
        // its step in attention (a recommender's trace): a different job too.
        MeasuredTrace no_attention = *trace;
        no_attention.mean.kernel_s[KernelKind::Attention] = 0;
        Scenario long_seq = sc;
        long_seq.training.seq_len = 32768;
        const Estimate long_est = evaluate(long_seq);
        const TraceComparison rec = compareWithTrace(long_seq, long_est, no_attention);
        QVERIFY2(long_est.time.compute_kinds.attention_s > 0.1 * long_est.time.step_s, "attention share");
        QVERIFY(!rec.sameJob() && rec.different_job[0].en.find("no attention kernels") != std::string::npos);
        const nlohmann::json j = traceComparisonToJson(sc, *trace, c);
        QCOMPARE(j["step_error"].get<double>(), c.step_error);
        QCOMPARE(j["schema"].get<std::string>(), std::string(kTraceComparisonSchema));
        QCOMPARE(j["trace"]["steps"].size(), std::size_t(2));
        QCOMPARE(j["rows"][0]["key"].get<std::string>(), std::string("step"));
    }
};

QTEST_GUILESS_MAIN(TstTraceImport)
#include "tst_trace_import.moc"
