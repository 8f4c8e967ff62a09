// parascope-cli end to end: exit codes (0 evaluated, 2 bad input with the JSON path on stderr),
// the report contract, presets. The byte-for-byte golden outputs are tst_cli_snapshots (label
// "snapshot").

#include "hostile_files.h"
#include "process_runner.h"
#include "parascope/version.h"

#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <set>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

class TstCli : public QObject {
    Q_OBJECT

    using Run = parascope::test::ProcessRun;
    static Run run(const QStringList& args) { return parascope::test::runProcess(QStringLiteral(PARASCOPE_CLI), args, QProcessEnvironment::systemEnvironment(), 60000); }
    static QString data(const char* name) { return QStringLiteral(PARASCOPE_TEST_DATA "/") + QString::fromUtf8(name); }
    static QString defaultScenario() { return QStringLiteral(PARASCOPE_SOURCE_DIR "/resources/scenarios/default.parascope.json"); }

    // ---- Chinese means Chinese ------------------------------------------------------------------
    // What may stay in Latin letters in Chinese output: the standard abbreviations and unit
    // symbols of the course (docs: shared/reference/zh-terminology.md keeps TP/PP/DP/CP/EP/VPP/SP,
    // GPU, MFU/HFU, ZeRO, NVLink, InfiniBand), the collectives' one spelling, schedule and
    // framework names, number formats, and the product's name. Everything else is a word that
    // should have been translated.
    static const std::set<QString>& allowedWords()
    {
        static const std::set<QString> words = {
            QStringLiteral("TP"), QStringLiteral("PP"), QStringLiteral("DP"), QStringLiteral("CP"), QStringLiteral("EP"),
            QStringLiteral("VPP"), QStringLiteral("SP"), QStringLiteral("ETP"), QStringLiteral("GPU"), QStringLiteral("CPU"), QStringLiteral("MFU"),
            QStringLiteral("HFU"), QStringLiteral("ZeRO"), QStringLiteral("GiB"), QStringLiteral("MiB"), QStringLiteral("TiB"),
            QStringLiteral("GB"), QStringLiteral("TB"), QStringLiteral("ms"), QStringLiteral("AllReduce"),
            QStringLiteral("AllGather"), QStringLiteral("ReduceScatter"), QStringLiteral("NVLink"), QStringLiteral("InfiniBand"),
            QStringLiteral("PCIe"), QStringLiteral("GPipe"), QStringLiteral("DualPipeV"), QStringLiteral("DualPipe"), QStringLiteral("KV"), QStringLiteral("GQA"),
            QStringLiteral("MoE"), QStringLiteral("FLOPs"), QStringLiteral("MAPE"), QStringLiteral("Megatron"),
            QStringLiteral("DeepSpeed"), QStringLiteral("Narayanan"), QStringLiteral("GPT"), QStringLiteral("ParaScope"),
            QStringLiteral("FSDP"), QStringLiteral("HSDP"), QStringLiteral("Ulysses"), QStringLiteral("rank"), QStringLiteral("GEMM"),
            QStringLiteral("algbw"), QStringLiteral("busbw"), QStringLiteral("KiB")};
        return words;
    }

    // Exact strings that are names, not words: unit symbols with a slash, schedule names with a
    // dash, the program, and every preset's id and display name (models, GPUs, clusters).
    static QStringList namesToStrip()
    {
        static QStringList names;
        if (!names.isEmpty())
            return names;
        names = {QStringLiteral("All-to-All"), QStringLiteral("ZB-H1"), QStringLiteral("ZB-V"), QStringLiteral("tokens/s"),
                 QStringLiteral("TFLOP/s"), QStringLiteral("parascope-cli")};
        const Run r = run({QStringLiteral("presets"), QStringLiteral("--format"), QStringLiteral("json")});
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        for (const auto& kind : j.items())
            for (const auto& preset : kind.value().items()) {
                names << QString::fromStdString(preset.key());
                if (preset.value().contains("name"))
                    names << QString::fromStdString(preset.value()["name"].get<std::string>());
            }
        return names;
    }

    // Every "name" in a scenario (its own, an inline model's or cluster's), and the ids it uses.
    static void scenarioNames(const nlohmann::json& j, QStringList& out)
    {
        if (j.is_object()) {
            for (const auto& item : j.items()) {
                if ((item.key() == "name" || item.key() == "model" || item.key() == "cluster" || item.key() == "gpu")
                    && item.value().is_string())
                    out << QString::fromStdString(item.value().get<std::string>());
                scenarioNames(item.value(), out);
            }
        } else if (j.is_array()) {
            for (const auto& x : j)
                scenarioNames(x, out);
        }
    }

    // The Latin words left in `text` once names, identifiers a user types or looks up (scenario
    // paths, diagnostic codes, option and file names, run ids: anything with "_" or "." inside),
    // parallel degrees ("TP8") and number formats ("BF16") are taken out: must be none.
    static QStringList englishWords(QString text, const QStringList& names)
    {
        QStringList sorted = names + namesToStrip();
        std::sort(sorted.begin(), sorted.end(), [](const QString& a, const QString& b) { return a.size() > b.size(); });
        for (const QString& n : sorted)
            if (!n.isEmpty())
                text.replace(n, QStringLiteral(" "));
        static const QRegularExpression identifier(QStringLiteral(R"([A-Za-z0-9\-]*[A-Za-z0-9](?:[_.][A-Za-z0-9\-]+)+)"));
        static const QRegularExpression degree(QStringLiteral(R"(\b(?:TP|PP|DP|CP|EP|VPP|BF|FP)\d+\b)"));
        static const QRegularExpression word(QStringLiteral("[A-Za-z]{2,}"));
        static const QRegularExpression option(QStringLiteral(R"(--[a-z][a-z0-9\-]*)")); // command-line options
        text.replace(option, QStringLiteral(" "));
        text.replace(identifier, QStringLiteral(" "));
        text.replace(degree, QStringLiteral(" "));
        QStringList left;
        for (auto it = word.globalMatch(text); it.hasNext();) {
            const QString w = it.next().captured();
            if (!allowedWords().count(w) && !left.contains(w))
                left << w;
        }
        return left;
    }

    static void expectChinese(const QString& what, const QByteArray& output, const QStringList& names)
    {
        const QString text = QString::fromUtf8(output);
        QVERIFY2(text.contains(QRegularExpression(QStringLiteral("[\u4e00-\u9fff]"))), qPrintable(what + QStringLiteral(": no Chinese")));
        const QStringList left = englishWords(text, names);
        QVERIFY2(left.isEmpty(), qPrintable(what + QStringLiteral(": untranslated ") + left.join(QStringLiteral(", "))));
    }

    // The JSON fields that carry messages, in the asked language.
    static QByteArray jsonMessages(const nlohmann::json& j)
    {
        std::string out;
        const std::function<void(const nlohmann::json&)> walk = [&](const nlohmann::json& x) {
            if (x.is_object()) {
                for (const auto& item : x.items()) {
                    const std::string& k = item.key();
                    if ((k == "message" || k == "suggestion" || k == "reason" || k == "fewest_gpus_reason" || k == "skipped_because"
                         || k == "message_zh" || k == "suggestion_zh")
                        && item.value().is_string())
                        out += item.value().get<std::string>() + "\n";
                    walk(item.value());
                }
            } else if (x.is_array()) {
                for (const auto& e : x)
                    walk(e);
            }
        };
        walk(j);
        return QByteArray::fromStdString(out);
    }

    // The course's scenarios as files: the default one and every lesson step.
    static QStringList courseScenarioFiles(const QTemporaryDir& dir)
    {
        QStringList files{defaultScenario()};
        const QDir lessons(QStringLiteral(PARASCOPE_SOURCE_DIR "/resources/presets/lessons"));
        for (const QString& f : lessons.entryList({QStringLiteral("*.json")}, QDir::Files)) {
            QFile in(lessons.filePath(f));
            if (!in.open(QIODevice::ReadOnly))
                continue;
            const nlohmann::json j = nlohmann::json::parse(in.readAll().toStdString());
            int step = 0;
            for (const auto& st : j["steps"]) {
                const QString path = dir.filePath(f + QStringLiteral(".step%1.parascope.json").arg(step++));
                QFile out(path);
                if (out.open(QIODevice::WriteOnly)) {
                    out.write(QByteArray::fromStdString(st["scenario"].dump(2)));
                    files << path;
                }
            }
        }
        return files;
    }

    static QStringList namesOf(const QString& scenario_file)
    {
        QStringList names;
        QFile f(scenario_file);
        if (f.open(QIODevice::ReadOnly))
            scenarioNames(nlohmann::json::parse(f.readAll().toStdString(), nullptr, false), names);
        return names;
    }

private slots:
    void evaluateDefaultText()
    {
        const Run r = run({QStringLiteral("evaluate"), defaultScenario()});
        QCOMPARE(r.code, 0);
        QVERIFY(r.err.isEmpty());
        QVERIFY(r.out.contains("Memory per GPU"));
        QVERIFY(r.out.contains("What breaks"));
    }

    void evaluateDefaultChinese()
    {
        const Run r = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--lang"), QStringLiteral("zh")});
        QCOMPARE(r.code, 0);
        QVERIFY(QString::fromUtf8(r.out).contains(QStringLiteral("每块 GPU 显存")));
    }

    void evaluateJsonFollowsTheContract()
    {
        const Run r = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--format"), QStringLiteral("json")});
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
        for (const char* k : {"group", "collective", "calls_per_step", "bytes_per_call", "bytes_per_gpu_per_step", "link",
                              "purpose", "time_s", "exposed_s"})
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

    void outOfMemoryStillExitsZero()
    {
        // Evaluated but does not fit: exit 0, "fits": false, an out_of_memory diagnostic.
        const Run r = run({QStringLiteral("evaluate"), data("cli-ddp-13b-oom.parascope.json"), QStringLiteral("--format"),
                           QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["memory"]["fits"].get<bool>(), false);
        bool oom = false;
        for (const auto& d : j["diagnostics"])
            oom = oom || (d["code"] == "out_of_memory" && d["severity"] == "error" && d["stage"] == 0);
        QVERIFY(oom);
    }

    void badInputNamesThePath()
    {
        const Run r = run({QStringLiteral("evaluate"), data("cli-bad-tp.parascope.json")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains("parallel.tp: must be an integer in 1"), r.err.constData());
        QVERIFY2(r.err.contains("got 0"), r.err.constData());
        QVERIFY2(r.err.contains("parallel.colour: unknown key"), r.err.constData());
    }

    void profileCalibrates()
    {
        const Run r = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--profile"), data("profile-a100-80g.json"),
                           QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["calibration"].size(), std::size_t(7));
        const Run plain = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--format"), QStringLiteral("json")});
        const nlohmann::json k = nlohmann::json::parse(plain.out.toStdString());
        QVERIFY(!k.contains("calibration"));
        // The measured GEMM curve is below the datasheet-derived one: compute takes longer.
        QVERIFY(j["time"]["compute_s"].get<double>() > k["time"]["compute_s"].get<double>());

        const Run bad = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--profile"), data("bad-profile.json")});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("bad-profile.json: devices[0].gemm[0].dtype"), bad.err.constData());
    }

    void timelineExports()
    {
        const QString dir = QDir::tempPath() + QStringLiteral("/parascope-tst-cli-%1").arg(QCoreApplication::applicationPid());
        QDir().mkpath(dir);
        const QString trace = dir + QStringLiteral("/step.trace.json");
        Run r = run({QStringLiteral("timeline"), defaultScenario(), QStringLiteral("--format"), QStringLiteral("chrome-trace"),
                     QStringLiteral("--out"), trace});
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

        r = run({QStringLiteral("timeline"), defaultScenario(), QStringLiteral("--format"), QStringLiteral("svg")});
        QCOMPARE(r.code, 2);
        r = run({QStringLiteral("timeline"), defaultScenario(), QStringLiteral("--out"), dir + QStringLiteral("/no/such/dir/x.json")});
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
        // Measured 2026-12-01: check MAPE 10.4 % over 44 runs; the issue's target, 10 %, is not
        // met yet (tst_validation holds today's figures against regressions).
        QVERIFY(j["parts"]["check"]["mape"].get<double>() <= 0.105);
        QVERIFY(j["check_classes"].contains("long_context") && j["check_classes"].contains("fp8"));
        QCOMPARE(j["runs"][0]["part"].get<std::string>(), std::string("fit"));
        // A user's own runs (parascope.runs/1): the contract's keys, classes, memory, false OOM.
        r = run({QStringLiteral("validate"), data("runs-example.json"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json u = nlohmann::json::parse(r.out.toStdString());
        for (const char* key : {"evaluated", "mape", "max_abs_error", "worst", "runs", "check_classes", "false_oom", "memory"})
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
                 QStringLiteral("--nodes"), QStringLiteral("1"), QStringLiteral("--into"), data("profile-a100-80g.json"),
                 QStringLiteral("--out"), merged});
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
        r = run({QStringLiteral("model"), QStringLiteral("import-hf"), data("hf/gemma-3-4b-it.json"), QStringLiteral("--text-only")});
        QCOMPARE(r.code, 0);
        QTemporaryDir dir;
        const QString scenario = dir.filePath(QStringLiteral("llama3_8b.parascope.json"));
        r = run({QStringLiteral("model"), QStringLiteral("import-megatron"), data("megatron/llama3_8b.sh")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("line 39: --tokenizer-type") && r.err.contains("--vocab"), r.err.constData());
        r = run({QStringLiteral("model"), QStringLiteral("import-megatron"), data("megatron/llama3_8b.sh"), QStringLiteral("--vocab"),
                 QStringLiteral("128256"), QStringLiteral("--out"), scenario});
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
        QCOMPARE(run({QStringLiteral("evaluate"), picked}).code, 0);
        r = run({QStringLiteral("advise"), defaultScenario()});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("TP 8 inside a node is enough") && r.out.contains("Result: TP 8 · PP 1 · DP 64"), r.out.constData());
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
        Run r = run({QStringLiteral("compare-trace"), defaultScenario(), trace, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["schema"].get<std::string>(), std::string("parascope.trace-comparison/1"));
        QCOMPARE(j["trace"]["step_s"].get<double>(), 0.01);
        QCOMPARE(j["trace"]["rank"].get<int>(), 3);
        QCOMPARE(j["rows"][0]["key"].get<std::string>(), std::string("step"));
        const Run report = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--format"), QStringLiteral("json")});
        const double step = nlohmann::json::parse(report.out.toStdString())["time"]["step_s"].get<double>();
        QCOMPARE(j["rows"][0]["simulated_s"].get<double>(), step);
        r = run({QStringLiteral("compare-trace"), defaultScenario(), trace});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("measured trace: NVIDIA H100 80GB HBM3 · rank 3/8, 2 steps"), r.out.constData());
        QVERIFY2(r.out.contains("exposed communication") && r.out.contains("1.50"), r.out.constData());
        r = run({QStringLiteral("compare-trace"), defaultScenario(), trace, QStringLiteral("--lang"), QStringLiteral("zh")});
        QCOMPARE(r.code, 0);
        // The GPU's name, CUDA's copy functions and the trace's JSON fields stay as written.
        expectChinese(QStringLiteral("compare-trace"), r.out,
                      {QStringLiteral("NVIDIA H100 80GB HBM3"), QStringLiteral("memcpy"), QStringLiteral("memset"), QStringLiteral("traceEvents"),
                       QStringLiteral(" ts "), QStringLiteral(" dur ")});
        // What the trace cannot tell is asked for, naming the option; what is wrong says where.
        r = run({QStringLiteral("compare-trace"), defaultScenario(), data("traces/kineto_two_gpus.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("kineto_two_gpus.json: --device: the trace has kernels on GPUs 0, 1"), r.err.constData());
        r = run({QStringLiteral("compare-trace"), defaultScenario(), data("traces/kineto_two_gpus.json"), QStringLiteral("--device"),
                 QStringLiteral("1")});
        QCOMPARE(r.code, 0);
        r = run({QStringLiteral("compare-trace"), defaultScenario()});
        QCOMPARE(r.code, 2);
        r = run({QStringLiteral("compare-trace"), defaultScenario(), data("hf/gpt2.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("traceEvents"), r.err.constData());
    }

    void collectiveStepByStep()
    {
        // A ring all-reduce of 1 GiB over 8 GPUs: 14 steps, 2·7/8 GiB sent per GPU
        // (tst_collective_steps derives the times).
        Run r = run({QStringLiteral("collective"), QStringLiteral("--op"), QStringLiteral("all_reduce"), QStringLiteral("--bytes"),
                     QStringLiteral("1GiB"), QStringLiteral("--ranks"), QStringLiteral("8"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["schema"].get<std::string>(), std::string("parascope.collective/1"));
        QCOMPARE(j["steps"].size(), std::size_t(14));
        QCOMPARE(j["bytes_sent_per_gpu"].get<double>(), 2.0 * 7 / 8 * 1073741824.0);
        QCOMPARE(j["steps"][0]["transfers"][0]["link"].get<std::string>(), std::string("nvlink"));
        QCOMPARE(j["cluster"].get<std::string>(), std::string("dgx-h100"));
        // nccl-tests' 8M is 8·1024² bytes; a hierarchical all-reduce over two nodes.
        r = run({QStringLiteral("collective"), QStringLiteral("--op"), QStringLiteral("all_reduce"), QStringLiteral("--bytes"),
                 QStringLiteral("8M"), QStringLiteral("--ranks"), QStringLiteral("16"), QStringLiteral("--algorithm"),
                 QStringLiteral("hierarchical"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        QCOMPARE(nlohmann::json::parse(r.out.toStdString())["bytes"].get<double>(), 8.0 * 1048576);
        r = run({QStringLiteral("collective"), QStringLiteral("--op"), QStringLiteral("all_gather"), QStringLiteral("--bytes"),
                 QStringLiteral("64KiB"), QStringLiteral("--ranks"), QStringLiteral("4"), QStringLiteral("--lang"), QStringLiteral("zh")});
        QCOMPARE(r.code, 0);
        expectChinese(QStringLiteral("collective"), r.out, {QStringLiteral("DGX H100, 8×NDR 400 Gb/s")});
        // Bad input names the option.
        r = run({QStringLiteral("collective"), QStringLiteral("--op"), QStringLiteral("all_reduce"), QStringLiteral("--bytes"),
                 QStringLiteral("1GiB"), QStringLiteral("--ranks"), QStringLiteral("12")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--ranks: 12 GPUs do not fill nodes of 8"), r.err.constData());
        r = run({QStringLiteral("collective"), QStringLiteral("--op"), QStringLiteral("all_reduce"), QStringLiteral("--bytes"),
                 QStringLiteral("1XB"), QStringLiteral("--ranks"), QStringLiteral("8")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--bytes needs a size"), r.err.constData());
        r = run({QStringLiteral("collective"), QStringLiteral("--op"), QStringLiteral("all_gather"), QStringLiteral("--bytes"),
                 QStringLiteral("1GiB"), QStringLiteral("--ranks"), QStringLiteral("8"), QStringLiteral("--algorithm"), QStringLiteral("tree")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--algorithm"), r.err.constData());
    }

    void sweepOutputs()
    {
        Run r = run({QStringLiteral("sweep"), defaultScenario(), QStringLiteral("--param"), QStringLiteral("parallel.pp"),
                     QStringLiteral("--values"), QStringLiteral("4,8,16"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["points"].size(), std::size_t(3));
        QCOMPARE(j["points"][1]["value"].get<long long>(), 8LL);
        r = run({QStringLiteral("sweep"), defaultScenario(), QStringLiteral("--param"), QStringLiteral("parallel.pp"),
                 QStringLiteral("--values"), QStringLiteral("4,8,16"), QStringLiteral("--format"), QStringLiteral("csv")});
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
        Run r = run({QStringLiteral("search"), scen, QStringLiteral("--gpus"), QStringLiteral("8"), QStringLiteral("--top"),
                     QStringLiteral("3"), QStringLiteral("--closed-form"), QStringLiteral("--format"), QStringLiteral("json")});
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
                 QStringLiteral("3"), QStringLiteral("--closed-form"), QStringLiteral("--format"), QStringLiteral("csv")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("rank,tp,pp,vpp,dp"));
        QCOMPARE(r.out.trimmed().split('\n').size(), 4);
        r = run({QStringLiteral("search"), scen, QStringLiteral("--gpus"), QStringLiteral("0")});
        QCOMPARE(r.code, 2);
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("stderrContains");
        QTest::newRow("no command") << QStringList{} << QByteArray("missing command");
        QTest::newRow("unknown command") << QStringList{QStringLiteral("frobnicate")} << QByteArray("unknown command");
        QTest::newRow("missing file") << QStringList{QStringLiteral("evaluate"), QStringLiteral("/nonexistent.json")}
                                      << QByteArray("no such file");
        QTest::newRow("directory") << QStringList{QStringLiteral("evaluate"), QStringLiteral(PARASCOPE_TEST_DATA)}
                                   << QByteArray("is a directory");
        QTest::newRow("no file") << QStringList{QStringLiteral("evaluate")} << QByteArray("exactly one scenario FILE");
        QTest::newRow("bad format") << QStringList{QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--format"),
                                                   QStringLiteral("xml")}
                                    << QByteArray("--format needs json or text");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("evaluate"), QStringLiteral("--fast")}
                                        << QByteArray("unknown option --fast");
        QTest::newRow("bad preset kind") << QStringList{QStringLiteral("presets"), QStringLiteral("tpus")}
                                         << QByteArray("unknown preset kind");
    }

    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, stderrContains);
        const Run r = run(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(stderrContains), r.err.constData());
    }

    void boundedWork_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* f : {"bounded-gpus-1e6", "bounded-microbatches-1e6", "bounded-pp-1e4", "bounded-seq-1e7",
                              "bounded-pp-1e5-vpp-1024", "bounded-pp-128"})
            QTest::newRow(f) << data(f) + QStringLiteral(".parascope.json");
    }

    void boundedWork()
    {
        // 10⁶ GPUs, 10⁶ microbatches, PP 10⁴, seq 10⁷: every command answers, and what it writes
        // stays bounded (the times are in the README, from bench_gui and these commands).
        QFETCH(QString, file);
        Run r = run({QStringLiteral("evaluate"), file, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json report = nlohmann::json::parse(r.out.toStdString());
        std::size_t with_terms = 0;
        for (const auto& st : report["memory"]["stages"])
            with_terms += st.contains("terms") ? 1 : 0;
        QVERIFY(with_terms <= 65); // kExplainedStages + the peak stage
        QCOMPARE(report["memory"]["explained_stages"].get<std::size_t>(), with_terms);
        // One entry per pipeline stage (about 260 bytes each without terms), plus the rest.
        QVERIFY(r.out.size() < 8'000'000 + 300 * qsizetype(report["memory"]["stages"].size()));

        r = run({QStringLiteral("timeline"), file});
        QCOMPARE(r.code, 0);
        const nlohmann::json timeline = nlohmann::json::parse(r.out.toStdString());
        QVERIFY(timeline["ops"].size() <= 50000 + 64); // kMaxRecordedOps: a prefix, extrapolated
        if (timeline["microbatches_shown"].get<long long>() < timeline["microbatches_total"].get<long long>())
            QVERIFY(timeline["timeline_note"].get<std::string>().find("simulated") != std::string::npos);
        // One step time for one scenario, whether or not the timeline was asked for.
        QCOMPARE(timeline["step_s"].get<double>(), report["time"]["step_s"].get<double>());
        r = run({QStringLiteral("timeline"), file, QStringLiteral("--format"), QStringLiteral("chrome-trace")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.size() < 30'000'000);

        r = run({QStringLiteral("sweep"), file, QStringLiteral("--param"), QStringLiteral("parallel.pp"), QStringLiteral("--values"),
                 QStringLiteral("1,2,4,8,16,10000")});
        QCOMPARE(r.code, 0);
        r = run({QStringLiteral("search"), file, QStringLiteral("--top"), QStringLiteral("3"), QStringLiteral("--format"),
                 QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        QVERIFY(nlohmann::json::parse(r.out.toStdString()).contains("top"));
    }

    void hostileFilesAreRefusedClearly()
    {
        // Every hostile file: exit code 2 (bad input), a message that names the problem, quickly,
        // for the scenario and for the two measurement inputs.
        QTemporaryDir dir;
        for (const parascope::test::HostileFile& f : parascope::test::hostileFiles(dir)) {
            const Run r = run({QStringLiteral("evaluate"), f.path});
            const QString why = f.name + QStringLiteral(": ") + QString::fromUtf8(r.err);
            QVERIFY2(r.code == 2, qPrintable(why));
            QVERIFY2(QString::fromUtf8(r.err).contains(f.expected, Qt::CaseInsensitive), qPrintable(why));
            const Run p = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--profile"), f.path});
            QVERIFY2(p.code == 2 && !p.err.isEmpty(), qPrintable(f.name + QStringLiteral(" as --profile: ") + QString::fromUtf8(p.err)));
            const Run n = run({QStringLiteral("profile"), QStringLiteral("import-nccl-tests"), f.path});
            QVERIFY2(n.code == 2 && !n.err.isEmpty(),
                     qPrintable(f.name + QStringLiteral(" as an nccl-tests log: ") + QString::fromUtf8(n.err)));
        }
        // A file without read permission. Root reads it anyway, so as root the CLI runs as "nobody"
        // (runuser), from a folder open to it.
        QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                              | QFileDevice::ReadOther | QFileDevice::ExeOther);
        const QString locked = parascope::test::unreadableFile(dir);
        Run r;
#ifdef Q_OS_UNIX
        if (geteuid() == 0) {
            if (QStandardPaths::findExecutable(QStringLiteral("runuser")).isEmpty())
                QSKIP("running as root without runuser: a mode-000 file is readable to root");
            // A copy of the CLI next to the file: the build folder itself may be closed to nobody.
            const QString cli = dir.filePath(QStringLiteral("parascope-cli"));
            QVERIFY(QFile::copy(QStringLiteral(PARASCOPE_CLI), cli));
            QVERIFY(QFile::setPermissions(cli, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                                   | QFileDevice::ReadOther | QFileDevice::ExeOther));
            r = parascope::test::runProcess(QStringLiteral("runuser"), {QStringLiteral("-u"), QStringLiteral("nobody"),
                                                                       QStringLiteral("--"), cli, QStringLiteral("evaluate"), locked});
        } else
#endif
        {
            r = run({QStringLiteral("evaluate"), locked});
        }
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("cannot be read") && r.err.toLower().contains("permission denied"), r.err.constData());
    }

    void versionAndHelp()
    {
        Run r = run({QStringLiteral("--version")});
        QCOMPARE(r.code, 0);
        // project(VERSION), then the git revision when built from git.
        QCOMPARE(r.out.trimmed(), QByteArray("parascope-cli ") + QByteArray::fromStdString(parascope::versionText()));
        if (*parascope::kGitRevision)
            QVERIFY(r.out.contains(QByteArray(" (git ") + parascope::kGitRevision + ')'));
        r = run({QStringLiteral("--help")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("usage:"));
        // Every subcommand answers --help (and -h) with the usage, exit 0, nothing on stderr.
        for (const char* cmd : {"evaluate", "timeline", "sweep", "search", "validate", "profile", "presets", "model", "compare-trace", "collective"})
            for (const char* flag : {"--help", "-h"}) {
                r = run({QString::fromLatin1(cmd), QString::fromLatin1(flag)});
                QVERIFY2(r.code == 0 && r.out.contains("usage:") && r.err.isEmpty(), cmd);
            }
    }

    void presets()
    {
        Run r = run({QStringLiteral("presets")});
        QCOMPARE(r.code, 0);
        for (const char* id : {"llama2-7b", "llama2-70b", "llama3.1-405b", "mixtral-8x7b", "gpt3-175b", "megatron-gpt-1t",
                               "a100-40g", "a100-80g", "h100-sxm", "h200", "b200", "dgx-a100-80g", "dgx-h100"})
            QVERIFY2(r.out.contains(id), id);
        r = run({QStringLiteral("presets"), QStringLiteral("gpus"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["gpus"]["a100-80g"]["memory_gib"].get<double>(), 80.0);
        QVERIFY(!j.contains("models"));
    }

    void setMovesAKnobAsTheSweepDoes_data()
    {
        // One value per knob of types/knobs.h, each different from the default scenario's.
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("value");
        const std::pair<const char*, const char*> rows[] = {
            {"training.seq_len", "2048"}, {"training.micro_batch", "2"}, {"training.global_batch", "1024"},
            {"parallel.tp", "4"},         {"parallel.pp", "4"},          {"parallel.vpp", "2"},
            {"parallel.dp", "32"},        {"parallel.cp", "2"},          {"parallel.ep", "1"},
            {"parallel.zero", "0"},       {"training.recompute", "2"},   {"parallel.schedule", "2"},
            {"gpus", "1024"}};
        for (const auto& [path, value] : rows)
            QTest::newRow(path) << QString::fromLatin1(path) << QString::fromLatin1(value);
    }

    void setMovesAKnobAsTheSweepDoes()
    {
        // `evaluate --set PATH=V` and the sweep's point at V are the same scenario, number for
        // number (the app's slider calls the same rule; tst_knobs and tst_gui check that side).
        QFETCH(QString, path);
        QFETCH(QString, value);
        const Run e = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--set"), path + QLatin1Char('=') + value,
                           QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--no-explain")});
        QCOMPARE(e.code, 0);
        const Run w = run({QStringLiteral("sweep"), defaultScenario(), QStringLiteral("--param"), path, QStringLiteral("--values"), value,
                           QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(w.code, 0);
        const nlohmann::json report = nlohmann::json::parse(e.out.toStdString());
        const nlohmann::json point = nlohmann::json::parse(w.out.toStdString())["points"][0];
        QCOMPARE(point["step_s"].get<double>(), report["time"]["step_s"].get<double>());
        QCOMPARE(point["tokens_per_s"].get<double>(), report["throughput"]["tokens_per_s"].get<double>());
        QCOMPARE(point["mfu"].get<double>(), report["throughput"]["mfu"].get<double>());
        // (The report rounds bytes to whole bytes; the sweep keeps the engine's double.)
        QVERIFY(std::abs(point["peak_bytes"].get<double>() - report["memory"]["peak_bytes"].get<double>()) <= 0.5);
        QCOMPARE(point["diagnostics"].size(), report["diagnostics"].size());
    }

    void setRefusesWhatNoKnobCanDo()
    {
        for (const char* bad : {"parallel.pp", "model.hidden=1", "parallel.zero=7", "parallel.tp=two"}) {
            const Run r = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--set"), QString::fromLatin1(bad)});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("--set"), r.err.constData());
        }
    }

    void chineseMeansChinese()
    {
        // Every subcommand with --lang zh: headers, labels, enum values, units and messages in
        // Chinese (text, and the messages of the JSON). Scenarios: the default one, every lesson
        // step, and every test scenario that evaluates (each raises its own diagnostics and advice).
        QTemporaryDir dir;
        QStringList scenarios = courseScenarioFiles(dir);
        QVERIFY(scenarios.size() >= 9);
        const QDir data(QStringLiteral(PARASCOPE_TEST_DATA));
        for (const QString& f : data.entryList({QStringLiteral("diag-*.parascope.json"), QStringLiteral("cli-*.parascope.json")}, QDir::Files))
            if (!f.contains(QStringLiteral("bad")))
                scenarios << data.filePath(f);
        const QString zh = QStringLiteral("zh");
        for (const QString& file : scenarios) {
            const QStringList names = namesOf(file);
            Run r = run({QStringLiteral("evaluate"), file, QStringLiteral("--lang"), zh});
            QCOMPARE(r.code, 0);
            expectChinese(QStringLiteral("evaluate ") + file, r.out, names);
            r = run({QStringLiteral("evaluate"), file, QStringLiteral("--lang"), zh, QStringLiteral("--format"), QStringLiteral("json")});
            QCOMPARE(r.code, 0);
            const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
            if (!j["diagnostics"].empty())
                expectChinese(QStringLiteral("evaluate --format json ") + file, jsonMessages(j), names);
        }

        const QString d = defaultScenario();
        const QStringList names = namesOf(d);
        const struct { const char* param; const char* values; } sweeps[] = {
            {"parallel.pp", "1,2,4,8,16,32,64,100"}, {"training.recompute", "0,1,2,5"}, {"parallel.schedule", "0,1,2,3,4,5"},
            {"training.micro_batch", "1,2,4,8"},     {"gpus", "64,100,512"}};
        for (const auto& sw : sweeps)
            for (const char* format : {"text", "json"}) {
                const Run r = run({QStringLiteral("sweep"), d, QStringLiteral("--param"), QString::fromLatin1(sw.param),
                                   QStringLiteral("--values"), QString::fromLatin1(sw.values), QStringLiteral("--lang"), zh,
                                   QStringLiteral("--format"), QString::fromLatin1(format)});
                QCOMPARE(r.code, 0);
                const QString what = QStringLiteral("sweep %1 (%2)").arg(QString::fromLatin1(sw.param), QString::fromLatin1(format));
                // (The path as typed, "gpus", names the knob like "parallel.pp" does.)
                expectChinese(what, std::string(format) == "json" ? jsonMessages(nlohmann::json::parse(r.out.toStdString())) : r.out,
                              names + QStringList{QString::fromLatin1(sw.param)});
            }

        // Search: a scenario that trains (lesson 3a), one where nothing divides the batch, one that
        // fits nowhere (Llama-2 70B on 8 GPUs), with --fewest-gpus.
        const QString seventy = dir.filePath(QStringLiteral("70b-on-8.parascope.json"));
        {
            QFile f(seventy);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"schema":"parascope.scenario/1","model":"llama2-70b","cluster":"dgx-a100-80g",)"
                    R"("parallel":{"tp":8,"pp":1,"dp":1},"training":{"global_batch":8}})");
        }
        const struct { QString file; QStringList extra; } searches[] = {
            {*std::find_if(scenarios.begin(), scenarios.end(), [](const QString& f) { return f.endsWith(QStringLiteral("3-7b-dp-zero-tp.json.step0.parascope.json")); }),
             {QStringLiteral("--fewest-gpus")}},
            {data.filePath(QStringLiteral("search-no-layout-5128.parascope.json")), {QStringLiteral("--gpus"), QStringLiteral("5128")}},
            {seventy, {}}};
        for (const auto& sr : searches)
            for (const char* format : {"text", "json"}) {
                QStringList args{QStringLiteral("search"), sr.file, QStringLiteral("--closed-form"), QStringLiteral("--top"),
                                 QStringLiteral("3"), QStringLiteral("--lang"), zh, QStringLiteral("--format"), QString::fromLatin1(format)};
                args += sr.extra;
                const Run r = run(args);
                QCOMPARE(r.code, 0);
                const QByteArray out = std::string(format) == "json" ? jsonMessages(nlohmann::json::parse(r.out.toStdString())) : r.out;
                if (!out.isEmpty())
                    expectChinese(QStringLiteral("search ") + sr.file, out, namesOf(sr.file));
            }

        Run r = run({QStringLiteral("validate"), QStringLiteral("--lang"), zh});
        QCOMPARE(r.code, 0);
        expectChinese(QStringLiteral("validate"), r.out, {});
        // A runs file with a skipped run (its reason) in JSON.
        r = run({QStringLiteral("validate"), data.filePath(QStringLiteral("runs-skipped.json")), QStringLiteral("--lang"), zh,
                 QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        expectChinese(QStringLiteral("validate --format json"), jsonMessages(nlohmann::json::parse(r.out.toStdString())), {});

        r = run({QStringLiteral("presets"), QStringLiteral("--lang"), zh});
        QCOMPARE(r.code, 0);
        expectChinese(QStringLiteral("presets"), r.out, {});

        // profile and timeline answer in files; what they say on stderr is Chinese too.
        r = run({QStringLiteral("profile"), QStringLiteral("import-nccl-tests"), data.filePath(QStringLiteral("nccl-all_reduce-2x8.log")),
                 QStringLiteral("--out"), dir.filePath(QStringLiteral("p.json")), QStringLiteral("--lang"), zh});
        QCOMPARE(r.code, 0);
        expectChinese(QStringLiteral("profile import-nccl-tests"), r.err, {});
        const QString closed = data.filePath(QStringLiteral("diag-interleaved_needs_microbatch_multiple.parascope.json"));
        r = run({QStringLiteral("timeline"), closed, QStringLiteral("--lang"), zh});
        QCOMPARE(r.code, 0);
        expectChinese(QStringLiteral("timeline"), r.err, namesOf(closed));
        // A usage error, in Chinese (its first line; the usage below shows the syntax).
        r = run({QStringLiteral("evaluate"), d, QStringLiteral("--format"), QStringLiteral("xml"), QStringLiteral("--lang"), zh});
        QCOMPARE(r.code, 2);
        QVERIFY2(QString::fromUtf8(r.err.split('\n').front()).contains(QStringLiteral("只能是")), r.err.constData());
        QVERIFY2(QString::fromUtf8(r.err).contains(QStringLiteral("用法：")), r.err.constData());
    }

    void languageIsOneOfFour_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<bool>("accepted");
        QTest::addColumn<QString>("same_as");
        QTest::newRow("en") << QStringLiteral("en") << true << QStringLiteral("en");
        QTest::newRow("en_US") << QStringLiteral("en_US") << true << QStringLiteral("en");
        QTest::newRow("zh") << QStringLiteral("zh") << true << QStringLiteral("zh");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN") << true << QStringLiteral("zh");
        QTest::newRow("fr") << QStringLiteral("fr") << false << QString();
        QTest::newRow("zh_TW (traditional: not provided)") << QStringLiteral("zh_TW") << false << QString();
        QTest::newRow("zhx") << QStringLiteral("zhx") << false << QString();
        QTest::newRow("empty") << QString() << false << QString();
    }

    void languageIsOneOfFour()
    {
        QFETCH(QString, lang);
        QFETCH(bool, accepted);
        QFETCH(QString, same_as);
        for (const char* cmd : {"evaluate", "sweep", "search", "validate", "presets"}) {
            QStringList args{QString::fromLatin1(cmd)};
            if (std::string(cmd) != "validate" && std::string(cmd) != "presets")
                args << defaultScenario();
            if (std::string(cmd) == "sweep")
                args << QStringLiteral("--param") << QStringLiteral("parallel.pp") << QStringLiteral("--values") << QStringLiteral("8");
            if (std::string(cmd) == "search")
                args << QStringLiteral("--closed-form") << QStringLiteral("--top") << QStringLiteral("1");
            const Run r = run(args + QStringList{QStringLiteral("--lang"), lang});
            if (!accepted) {
                QCOMPARE(r.code, 2);
                QVERIFY2(r.err.contains("--lang must be one of en, en_US, zh, zh_CN"), r.err.constData());
                QVERIFY(r.out.isEmpty());
                continue;
            }
            QCOMPARE(r.code, 0);
            if (std::string(cmd) == "search")
                continue; // it prints its run time
            const Run ref = run(args + QStringList{QStringLiteral("--lang"), same_as});
            QCOMPARE(r.out, ref.out);
        }
    }

    void outOfMemoryAdviceFitsInTheReport()
    {
        // 13B under plain DDP on 64 A100: the report's advice fits, says how, in both languages.
        const Run r = run({QStringLiteral("evaluate"), data("cli-ddp-13b-oom.parascope.json"), QStringLiteral("--format"),
                           QStringLiteral("json"), QStringLiteral("--no-explain")});
        QCOMPARE(r.code, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QVERIFY(j.contains("advice") && !j["advice"].empty());
        int oom = 0;
        for (const auto& a : j["advice"]) {
            QVERIFY(!a["changes"].empty());
            QVERIFY(a["message_en"].get<std::string>().find(": ") != std::string::npos);
            QVERIFY(QString::fromStdString(a["message_zh"].get<std::string>()).contains(QStringLiteral("单步耗时")));
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
        const Run clean = run({QStringLiteral("evaluate"), defaultScenario(), QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY(!nlohmann::json::parse(clean.out.toStdString()).contains("advice"));
    }

    // Every scenario in tests/data answers: 0 for valid files, 2 for the deliberately bad ones.
    void everyExampleAnswers()
    {
        const QDir dir(QStringLiteral(PARASCOPE_TEST_DATA));
        const QStringList files = dir.entryList({QStringLiteral("*.parascope.json")}, QDir::Files);
        QVERIFY(files.size() >= 3);
        for (const QString& f : files) {
            const Run r = run({QStringLiteral("evaluate"), dir.filePath(f), QStringLiteral("--format"), QStringLiteral("json")});
            const bool bad = f.contains(QStringLiteral("bad"));
            QVERIFY2(r.code == (bad ? 2 : 0), qPrintable(f + QStringLiteral(": ") + QString::fromUtf8(r.err)));
        }
    }
};

QTEST_GUILESS_MAIN(TstCli)
#include "tst_cli.moc"
