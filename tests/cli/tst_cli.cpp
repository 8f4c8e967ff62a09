// parascope-cli end to end: the report contract and what each subcommand answers (evaluate,
// profile, timeline, validate, import-nccl-tests, model import-*, advise, compare-trace,
// collective, sweep, search, presets). Exit codes, usage errors, bounded work, hostile files and
// --set are tst_cli_input; --lang and "Chinese means Chinese" are tst_cli_language. The
// byte-for-byte golden outputs are tst_cli_snapshots (label "snapshot").

#include "cli_chinese.h"
#include "cli_run.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>

using parascope::test::data;
using parascope::test::defaultScenario;
using parascope::test::expectChinese;
using parascope::test::run;
using parascope::test::Run;

class TstCli : public QObject {
    Q_OBJECT

private slots:
    void evaluateDefaultText()
    {
        const Run r = run({QStringLiteral("evaluate"), defaultScenario()});
        QCOMPARE(r.code, 0);
        QVERIFY(r.err.isEmpty());
        QVERIFY(r.out.contains("Memory per GPU"));
        QVERIFY(r.out.contains("What breaks"));
    }

    void evaluateJsonFollowsTheContract()
    {
        const Run r
            = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["schema"].get<std::string>(), std::string("parascope.report/1"));
        // Every key of DESIGN.md's parascope.report/1.
        for (const char* k : {"model", "memory", "flops", "communication", "time", "throughput", "diagnostics"})
            QVERIFY2(j.contains(k), k);
        for (const char* k : {"params", "active_params"})
            QVERIFY2(j["model"].contains(k), k);
        for (const char* k : {"capacity_bytes", "peak_bytes", "peak_stage", "fits", "stages"})
            QVERIFY2(j["memory"].contains(k), k);
        for (const char* k : {"stage", "weights", "gradients", "optimizer", "activations", "other", "total"})
            QVERIFY2(j["memory"]["stages"][0].contains(k), k);
        for (const char* k : {"model_flops_per_step", "hardware_flops_per_step"})
            QVERIFY2(j["flops"].contains(k), k);
        for (const char* k : {"group", "collective", "calls_per_step", "bytes_per_call", "bytes_per_gpu_per_step",
                              "link", "purpose", "time_s", "exposed_s"})
            QVERIFY2(j["communication"][0].contains(k), k);
        for (const char* k : {"step_s", "compute_s", "bubble_s", "bubble_fraction", "exposed_comm_s", "optimizer_s"})
            QVERIFY2(j["time"].contains(k), k);
        for (const char* k : {"tokens_per_s", "model_tflops_per_gpu", "hardware_tflops_per_gpu", "mfu", "hfu"})
            QVERIFY2(j["throughput"].contains(k), k);
        QCOMPARE(j["model"]["params"].get<std::int64_t>(), std::int64_t(68976648192));
        QCOMPARE(j["memory"]["capacity_bytes"].get<std::int64_t>(), std::int64_t(85899345920)); // 80 GiB
        // Every stage total is the sum of its parts.
        for (const auto& s : j["memory"]["stages"]) {
            const std::int64_t sum = s["weights"].get<std::int64_t>() + s["gradients"].get<std::int64_t>()
                + s["optimizer"].get<std::int64_t>() + s["activations"].get<std::int64_t>()
                + s["other"].get<std::int64_t>();
            QVERIFY(std::abs(sum - s["total"].get<std::int64_t>()) <= 5); // each rounded to whole bytes
            QVERIFY(!s["terms"].empty());
        }
    }

    void profileCalibrates()
    {
        const Run r = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--profile"),
                           data("profile-a100-80g.json"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["calibration"].size(), std::size_t(7));
        const Run plain
            = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--format"), QStringLiteral("json")});
        const nlohmann::json k = nlohmann::json::parse(plain.out.toStdString());
        QVERIFY(!k.contains("calibration"));
        // The measured GEMM curve is below the datasheet-derived one: compute takes longer.
        QVERIFY(j["time"]["compute_s"].get<double>() > k["time"]["compute_s"].get<double>());

        const Run bad = run(
            {QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--profile"), data("bad-profile.json")});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("bad-profile.json: devices[0].gemm[0].dtype"), bad.err.constData());
    }

    void timelineExports()
    {
        const QString dir
            = QDir::tempPath() + QStringLiteral("/parascope-tst-cli-%1").arg(QCoreApplication::applicationPid());
        QDir().mkpath(dir);
        const QString trace = dir + QStringLiteral("/step.trace.json");
        Run r = run({QStringLiteral("timeline"), defaultScenario(), QStringLiteral("--format"),
                     QStringLiteral("chrome-trace"), QStringLiteral("--out"), trace});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.isEmpty());
        QFile f(trace);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const nlohmann::json t = nlohmann::json::parse(f.readAll().toStdString());
        QVERIFY(t["traceEvents"].size() > 1000);
        QCOMPARE(t["otherData"]["schedule"].get<std::string>(), std::string("1f1b"));
        QVERIFY(!QFile::exists(trace + QStringLiteral(".tmp-parascope")));

        r = run({QStringLiteral("timeline"), defaultScenario()});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["schema"].get<std::string>(), std::string("parascope.timeline/1"));
        // The step with how sure it is: the report's band (issue 36 §1), in the trace's header too.
        const Run report
            = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--format"), QStringLiteral("json")});
        const nlohmann::json band = nlohmann::json::parse(report.out.toStdString())["uncertainty"];
        QCOMPARE(j["uncertainty"], band);
        QCOMPARE(t["otherData"]["step_band"], band["text"]);

        r = run({QStringLiteral("timeline"), defaultScenario(), QStringLiteral("--format"), QStringLiteral("svg")});
        QCOMPARE(r.code, 2);
        r = run({QStringLiteral("timeline"), defaultScenario(), QStringLiteral("--out"),
                 dir + QStringLiteral("/no/such/dir/x.json")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("cannot write"));
        QDir(dir).removeRecursively();
    }

    void validatePublishedRuns()
    {
        Run r = run({QStringLiteral("validate")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("narayanan21_t1_1T"));
        QVERIFY(r.out.contains("MAPE"));
        QVERIFY(r.out.contains("check (no constant fitted on these): MAPE"));
        r = run({QStringLiteral("validate"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QVERIFY(j["evaluated"].get<int>() >= 30);
        // Accuracy on the held-out part only (tst_validation holds the bounds and the figures).
        QVERIFY(j["parts"]["check"]["evaluated"].get<int>() >= 44);
        // Measured 2026-12-01: check MAPE 10.4 % over 44 runs; the target, 10 %, is not
        // met yet (tst_validation holds today's figures against regressions).
        QVERIFY(j["parts"]["check"]["mape"].get<double>() <= 0.105);
        QVERIFY(j["check_classes"].contains("long_context") && j["check_classes"].contains("fp8"));
        QCOMPARE(j["runs"][0]["part"].get<std::string>(), std::string("fit"));
        // A user's own runs (parascope.runs/1): the contract's keys, classes, memory, false OOM.
        r = run({QStringLiteral("validate"), data("runs-example.json"), QStringLiteral("--format"),
                 QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json u = nlohmann::json::parse(r.out.toStdString());
        for (const char* key :
             {"evaluated", "mape", "max_abs_error", "worst", "runs", "check_classes", "false_oom", "memory"})
            QVERIFY2(u.contains(key), key);
        QCOMPARE(u["evaluated"].get<int>(), 3);
        for (const char* key : {"id", "predicted_step_s", "published_step_s", "error", "class", "predicted_oom"})
            QVERIFY2(u["runs"][0].contains(key), key);
        QCOMPARE(u["runs"][0]["measured_peak_gib"].get<double>(), 60.0);
        QVERIFY(u["check_classes"].contains("fsdp"));
        QCOMPARE(u["false_oom"].get<int>(), 1);
        r = run({QStringLiteral("validate"), data("runs-example.json")});
        QVERIFY(r.out.contains("check, FSDP / ZeRO-3: MAPE"));
        QVERIFY(r.out.contains("predicted out of memory: 1 (my-7b-ddp1)"));
        r = run({QStringLiteral("validate"), data("cli-bad-tp.parascope.json")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("runs"));
    }

    void importNcclTests()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("cluster.profile.json"));
        Run r = run({QStringLiteral("profile"), QStringLiteral("import-nccl-tests"), data("nccl-all_reduce-2x8.log"),
                     data("nccl/reduce_scatter-J.json"), QStringLiteral("--out"), out});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("all_reduce on 16 ranks, 2 nodes, 7 sizes"), r.err.constData());
        // The -J file: reduce_scatter from argv[0], 8 ranks on 2 hosts; the log's own average beside ours.
        QVERIFY2(r.err.contains("reduce_scatter on 8 ranks, 2 nodes, 2 sizes"), r.err.constData());
        QVERIFY2(r.err.contains("average busbw: the log says 40.8 GB/s"), r.err.constData());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const nlohmann::json p = nlohmann::json::parse(f.readAll().toStdString());
        QCOMPARE(p["collectives"].size(), std::size_t(9));
        // Merged into an existing profile with --into, and used by evaluate --profile.
        const QString merged = dir.filePath(QStringLiteral("merged.json"));
        r = run({QStringLiteral("profile"), QStringLiteral("import-nccl-tests"), data("nccl_all_gather_perf_1node.txt"),
                 QStringLiteral("--nodes"), QStringLiteral("1"), QStringLiteral("--into"),
                 data("profile-a100-80g.json"), QStringLiteral("--out"), merged});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("on 8 ranks, 1 node, "), r.err.constData()); // one node, not "1 node(s)"
        r = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--profile"), merged});
        QCOMPARE(r.code, 0);
        // Errors: no --out, no nodes in a log that names no host (its ranks come from busbw/algbw), a bad --op.
        r = run({QStringLiteral("profile"), QStringLiteral("import-nccl-tests"), data("nccl-all_reduce-2x8.log")});
        QCOMPARE(r.code, 2);
        r = run({QStringLiteral("profile"), QStringLiteral("import-nccl-tests"), data("nccl_all_gather_perf_1node.txt"),
                 QStringLiteral("--out"), merged});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--nodes"));
        r = run({QStringLiteral("profile"), QStringLiteral("import-nccl-tests"), data("nccl-all_reduce-2x8.log"),
                 QStringLiteral("--op"), QStringLiteral("allreduce"), QStringLiteral("--out"), merged});
        QCOMPARE(r.code, 2);
    }

    // model import-hf and import-megatron: the model object on stdout (the count beside the model
    // card's on stderr), a scenario that evaluate reads, and errors naming the field or the flag.
    void importModels()
    {
        Run r = run({QStringLiteral("model"), QStringLiteral("import-hf"), data("hf/qwen3-30b-a3b.json")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("qwen3-30b-a3b (Qwen3MoeForCausalLM): 30,532,122,624 parameters"), r.err.constData());
        const nlohmann::json m = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(m["moe"]["experts"].get<int>(), 128);
        QVERIFY(m["qk_norm"].get<bool>());
        r = run({QStringLiteral("model"), QStringLiteral("import-hf"), data("hf/gemma-3-4b-it.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("vision_config") && r.err.contains("--text-only"), r.err.constData());
        r = run({QStringLiteral("model"), QStringLiteral("import-hf"), data("hf/gemma-3-4b-it.json"),
                 QStringLiteral("--text-only")});
        QCOMPARE(r.code, 0);
        QTemporaryDir dir;
        const QString scenario = dir.filePath(QStringLiteral("llama3_8b.parascope.json"));
        r = run({QStringLiteral("model"), QStringLiteral("import-megatron"), data("megatron/llama3_8b.sh")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("line 39: --tokenizer-type") && r.err.contains("--vocab"), r.err.constData());
        r = run({QStringLiteral("model"), QStringLiteral("import-megatron"), data("megatron/llama3_8b.sh"),
                 QStringLiteral("--vocab"), QStringLiteral("128256"), QStringLiteral("--out"), scenario});
        QCOMPARE(r.code, 0);
        r = run({QStringLiteral("evaluate"), scenario});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("TP 2 · PP 2 · DP 4"), r.out.constData());
        r = run({QStringLiteral("model"), QStringLiteral("import-safetensors"), data("hf/gpt2.json")});
        QCOMPARE(r.code, 2);
    }

    void advise()
    {
        // The decision procedure on the default scenario (Llama-2 70B, 512 A100 80GB): tst_decision
        // derives its outcome by hand (no ZeRO stage fits, TP 8 inside the node does).
        Run r = run({QStringLiteral("advise"), defaultScenario(), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["schema"].get<std::string>(), std::string("parascope.advice/1"));
        QCOMPARE(j["steps"].size(), std::size_t(4));
        QCOMPARE(j["steps"][0]["id"].get<std::string>(), std::string("memory"));
        QCOMPARE(j["steps"][1]["verdict"].get<std::string>(), std::string("changed"));
        QCOMPARE(j["scenario"]["parallel"]["tp"].get<int>(), 8);
        QCOMPARE(j["scenario"]["schema"].get<std::string>(), std::string("parascope.scenario/1"));
        QVERIFY(j["search_best"]["step_s"].get<double>() <= j["step_s"].get<double>());
        // The returned scenario is a scenario: evaluate reads it back.
        QTemporaryDir dir;
        const QString picked = dir.filePath(QStringLiteral("picked.json"));
        QFile f(picked);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(j["scenario"].dump()));
        f.close();
        const Run picked_eval
            = run({QStringLiteral("evaluate"), picked, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(picked_eval.code, 0);
        // The result says how sure its step is, as evaluate says it of the same scenario.
        QCOMPARE(j["uncertainty"], nlohmann::json::parse(picked_eval.out.toStdString())["uncertainty"]);
        QCOMPARE(j["report_card"]["yours"]["step_band"], j["uncertainty"]); // one band, one JSON form
        r = run({QStringLiteral("advise"), defaultScenario()});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("TP 8 inside a node is enough") && r.out.contains("Result: TP 8 · PP 1 · DP 64"),
                 r.out.constData());
        r = run({QStringLiteral("advise"), defaultScenario(), QStringLiteral("--lang"), QStringLiteral("zh")});
        QCOMPARE(r.code, 0);
        expectChinese(QStringLiteral("advise"), r.out, {});
        QCOMPARE(run({QStringLiteral("advise")}).code, 2);
    }

    void compareTrace()
    {
        // The hand-made trace of tests/data/traces (tst_trace_import derives its 10 ms step and
        // each part) beside the default scenario's step.
        const QString trace = data("traces/kineto_three_steps.json");
        Run r = run({QStringLiteral("compare-trace"), defaultScenario(), trace, QStringLiteral("--format"),
                     QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["schema"].get<std::string>(), std::string("parascope.trace-comparison/1"));
        QCOMPARE(j["trace"]["step_s"].get<double>(), 0.01);
        QCOMPARE(j["trace"]["rank"].get<int>(), 3);
        QCOMPARE(j["rows"][0]["key"].get<std::string>(), std::string("step"));
        const Run report
            = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--format"), QStringLiteral("json")});
        const double step = nlohmann::json::parse(report.out.toStdString())["time"]["step_s"].get<double>();
        QCOMPARE(j["rows"][0]["simulated_s"].get<double>(), step);
        // How sure the simulated step is (issue 36 §1): the report's band, in the JSON and the notes.
        const nlohmann::json band = nlohmann::json::parse(report.out.toStdString())["uncertainty"];
        QCOMPARE(j["uncertainty"], band);
        r = run({QStringLiteral("compare-trace"), defaultScenario(), trace});
        QVERIFY2(
            r.out.contains(QByteArray::fromStdString("the simulated step carries " + band["text"].get<std::string>())),
            r.out.constData());
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("measured trace: NVIDIA H100 80GB HBM3 · rank 3/8, 2 steps"), r.out.constData());
        QVERIFY2(r.out.contains("exposed communication") && r.out.contains("1.50"), r.out.constData());
        // An 8-GPU H100 trace is not the default scenario's job (512 A100): no error figure.
        QVERIFY2(r.out.contains("different job") && !r.out.contains("step time error:"), r.out.constData());
        QVERIFY(j["step_error"].is_null() && j["different_job"].size() == 2);
        r = run({QStringLiteral("compare-trace"), defaultScenario(), trace, QStringLiteral("--lang"),
                 QStringLiteral("zh")});
        QCOMPARE(r.code, 0);
        // The GPU's name, CUDA's copy functions and the trace's JSON fields stay as written.
        expectChinese(QStringLiteral("compare-trace"), r.out,
                      {QStringLiteral("NVIDIA H100 80GB HBM3"), QStringLiteral("memcpy"), QStringLiteral("memset"),
                       QStringLiteral("traceEvents"), QStringLiteral(" ts "), QStringLiteral(" dur ")});
        // What the trace cannot tell is asked for, naming the option; what is wrong says where.
        r = run({QStringLiteral("compare-trace"), defaultScenario(), data("traces/kineto_two_gpus.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("kineto_two_gpus.json: --device: the trace has kernels on GPUs 0, 1"),
                 r.err.constData());
        r = run({QStringLiteral("compare-trace"), defaultScenario(), data("traces/kineto_two_gpus.json"),
                 QStringLiteral("--device"), QStringLiteral("1")});
        QCOMPARE(r.code, 0);
        r = run({QStringLiteral("compare-trace"), defaultScenario()});
        QCOMPARE(r.code, 2);
        r = run({QStringLiteral("compare-trace"), defaultScenario(), data("hf/gpt2.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("traceEvents"), r.err.constData());
    }

    void collectiveStepByStep()
    {
        // By default what the engine runs: on a DGX H100 node an all-reduce of 1 GiB goes
        // through NVLink SHARP (tst_one_answer checks the engine's time is the same).
        Run r = run({QStringLiteral("collective"), QStringLiteral("--op"), QStringLiteral("all_reduce"),
                     QStringLiteral("--bytes"), QStringLiteral("1GiB"), QStringLiteral("--ranks"), QStringLiteral("8"),
                     QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json d = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(d["algorithm"].get<std::string>(), std::string("nvls"));
        QCOMPARE(d["engine_algorithm"].get<std::string>(), std::string("nvls"));
        QCOMPARE(d["time_s"].get<double>(), d["engine_time_s"].get<double>());
        // A ring all-reduce of 1 GiB over 8 GPUs: 14 steps, 2·7/8 GiB sent per GPU
        // (tst_collective_steps derives the times).
        r = run({QStringLiteral("collective"), QStringLiteral("--op"), QStringLiteral("all_reduce"),
                 QStringLiteral("--bytes"), QStringLiteral("1GiB"), QStringLiteral("--ranks"), QStringLiteral("8"),
                 QStringLiteral("--algorithm"), QStringLiteral("ring"), QStringLiteral("--format"),
                 QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["schema"].get<std::string>(), std::string("parascope.collective/1"));
        QCOMPARE(j["steps"].size(), std::size_t(14));
        QCOMPARE(j["bytes_sent_per_gpu"].get<double>(), 2.0 * 7 / 8 * 1073741824.0);
        QCOMPARE(j["steps"][0]["transfers"][0]["link"].get<std::string>(), std::string("nvlink"));
        QCOMPARE(j["cluster"].get<std::string>(), std::string("dgx-h100"));
        // nccl-tests' 8M is 8·1024² bytes; a hierarchical all-reduce over two nodes.
        r = run({QStringLiteral("collective"), QStringLiteral("--op"), QStringLiteral("all_reduce"),
                 QStringLiteral("--bytes"), QStringLiteral("8M"), QStringLiteral("--ranks"), QStringLiteral("16"),
                 QStringLiteral("--algorithm"), QStringLiteral("hierarchical"), QStringLiteral("--format"),
                 QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        QCOMPARE(nlohmann::json::parse(r.out.toStdString())["bytes"].get<double>(), 8.0 * 1048576);
        r = run({QStringLiteral("collective"), QStringLiteral("--op"), QStringLiteral("all_gather"),
                 QStringLiteral("--bytes"), QStringLiteral("64KiB"), QStringLiteral("--ranks"), QStringLiteral("4"),
                 QStringLiteral("--lang"), QStringLiteral("zh")});
        QCOMPARE(r.code, 0);
        expectChinese(QStringLiteral("collective"), r.out, {QStringLiteral("DGX H100, 8×NDR 400 Gb/s")});
        // Bad input names the option.
        r = run({QStringLiteral("collective"), QStringLiteral("--op"), QStringLiteral("all_reduce"),
                 QStringLiteral("--bytes"), QStringLiteral("1GiB"), QStringLiteral("--ranks"), QStringLiteral("12")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--ranks: 12 GPUs do not fill nodes of 8"), r.err.constData());
        r = run({QStringLiteral("collective"), QStringLiteral("--op"), QStringLiteral("all_reduce"),
                 QStringLiteral("--bytes"), QStringLiteral("1XB"), QStringLiteral("--ranks"), QStringLiteral("8")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--bytes needs a size"), r.err.constData());
        r = run({QStringLiteral("collective"), QStringLiteral("--op"), QStringLiteral("all_gather"),
                 QStringLiteral("--bytes"), QStringLiteral("1GiB"), QStringLiteral("--ranks"), QStringLiteral("8"),
                 QStringLiteral("--algorithm"), QStringLiteral("tree")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--algorithm"), r.err.constData());
    }

    void sweepOutputs()
    {
        Run r = run({QStringLiteral("sweep"), defaultScenario(), QStringLiteral("--param"),
                     QStringLiteral("parallel.pp"), QStringLiteral("--values"), QStringLiteral("4,8,16"),
                     QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["points"].size(), std::size_t(3));
        QCOMPARE(j["points"][1]["value"].get<long long>(), 8LL);
        r = run({QStringLiteral("sweep"), defaultScenario(), QStringLiteral("--param"), QStringLiteral("parallel.pp"),
                 QStringLiteral("--values"), QStringLiteral("4,8,16"), QStringLiteral("--format"),
                 QStringLiteral("csv")});
        QCOMPARE(r.code, 0);
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines[0].startsWith("value,valid,peak_gib"));
        QCOMPARE(lines[2].split(',').size(), lines[0].split(',').size());
        r = run({QStringLiteral("sweep"), defaultScenario(), QStringLiteral("--param"), QStringLiteral("parallel.pp"),
                 QStringLiteral("--values"), QStringLiteral("8,16"), QStringLiteral("--lang"), QStringLiteral("zh")});
        QCOMPARE(r.code, 0);
        QVERIFY(QString::fromUtf8(r.out).contains(QStringLiteral("临界点")));
        r = run({QStringLiteral("sweep"), defaultScenario(), QStringLiteral("--param"), QStringLiteral("model.hidden"),
                 QStringLiteral("--values"), QStringLiteral("1")});
        QCOMPARE(r.code, 2);
        r = run({QStringLiteral("sweep"), defaultScenario(), QStringLiteral("--param"), QStringLiteral("parallel.pp"),
                 QStringLiteral("--values"), QStringLiteral("4,x")});
        QCOMPARE(r.code, 2);
    }

    void searchOutputs()
    {
        const QString scen = data("cli-ddp-13b-oom.parascope.json"); // 13B on 64 GPUs: DDP does not fit, others do
        Run r = run({QStringLiteral("search"), scen, QStringLiteral("--gpus"), QStringLiteral("8"),
                     QStringLiteral("--top"), QStringLiteral("3"), QStringLiteral("--closed-form"),
                     QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["schema"].get<std::string>(), std::string("parascope.search/1"));
        QCOMPARE(j["largest_micro_batch"].get<long long>(), 0LL); // plain DDP of 13B does not fit at any micro batch
        QVERIFY(j["top"].size() <= 3 && !j["top"].empty());
        QVERIFY(j["top"][0]["tokens_per_s"].get<double>() >= j["top"].back()["tokens_per_s"].get<double>());
        QCOMPARE(j["top"][0]["parallel"]["tp"].get<int>() * j["top"][0]["parallel"]["pp"].get<int>()
                     * j["top"][0]["parallel"]["dp"].get<int>() * j["top"][0]["parallel"]["cp"].get<int>(),
                 8);
        r = run({QStringLiteral("search"), scen, QStringLiteral("--gpus"), QStringLiteral("8"), QStringLiteral("--top"),
                 QStringLiteral("3"), QStringLiteral("--closed-form"), QStringLiteral("--format"),
                 QStringLiteral("csv")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("rank,tp,pp,vpp,dp"));
        const QList<QByteArray> rows = r.out.trimmed().split('\n');
        QCOMPARE(rows.size(), 4);
        // Each row's band and its class, as the JSON's step_band says them.
        const QList<QByteArray> head = rows[0].split(','), first = rows[1].split(',');
        QCOMPARE(first.size(), head.size());
        QCOMPARE(first[head.indexOf("band_class")].toStdString(), j["top"][0]["step_band"]["class"].get<std::string>());
        QVERIFY(
            std::abs(first[head.indexOf("step_band")].toDouble() - j["top"][0]["step_band"]["relative"].get<double>())
            < 5e-5); // four decimals in the CSV
        r = run({QStringLiteral("search"), scen, QStringLiteral("--gpus"), QStringLiteral("0")});
        QCOMPARE(r.code, 2);
    }

    void presets()
    {
        Run r = run({QStringLiteral("presets")});
        QCOMPARE(r.code, 0);
        for (const char* id :
             {"llama2-7b", "llama2-70b", "llama3.1-405b", "mixtral-8x7b", "gpt3-175b", "megatron-gpt-1t", "a100-40g",
              "a100-80g", "h100-sxm", "h200", "b200", "dgx-a100-80g", "dgx-h100"})
            QVERIFY2(r.out.contains(id), id);
        r = run(
            {QStringLiteral("presets"), QStringLiteral("gpus"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["gpus"]["a100-80g"]["memory_gib"].get<double>(), 80.0);
        QVERIFY(!j.contains("models"));
    }

    void outOfMemoryAdviceFitsInTheReport()
    {
        // 13B under plain DDP on 64 A100: the report's advice fits, says how, in both languages.
        const Run r = run({QStringLiteral("evaluate"), data("cli-ddp-13b-oom.parascope.json"),
                           QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--no-explain")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QVERIFY(j.contains("advice") && !j["advice"].empty());
        int oom = 0;
        for (const auto& a : j["advice"]) {
            QVERIFY(!a["changes"].empty());
            QVERIFY(a["message_en"].get<std::string>().find(": ") != std::string::npos);
            QVERIFY(QString::fromStdString(a["message_zh"].get<std::string>()).contains(QStringLiteral("单步耗时")));
            // Each changed layout's step with its own class's band (issue 36 §1), in the message too.
            const std::string short_band
                = QStringLiteral("±%1 %").arg(a["step_band"]["relative"].get<double>() * 100, 0, 'f', 1).toStdString();
            QVERIFY(a["message_en"].get<std::string>().find(short_band) != std::string::npos);
            if (a["code"] == "out_of_memory") {
                ++oom;
                QVERIFY(a["fits"].get<bool>());
                QVERIFY(a["peak_bytes"].get<std::int64_t>() <= a["capacity_bytes"].get<std::int64_t>());
            }
        }
        QVERIFY(oom >= 1);
        // The text report lists it after what breaks; a scenario with nothing wrong has no advice.
        const Run text = run({QStringLiteral("evaluate"), data("cli-ddp-13b-oom.parascope.json")});
        QVERIFY(text.out.contains("Advice, each change evaluated"));
        const Run clean
            = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY(!nlohmann::json::parse(clean.out.toStdString()).contains("advice"));
    }
};

QTEST_GUILESS_MAIN(TstCli)
#include "tst_cli.moc"
