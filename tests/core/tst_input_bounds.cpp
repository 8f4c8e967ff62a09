// Input that once crashed, hung or lied (issue "Reliability and speed, round 3"), as a hostile
// user or one with big real files sends it. Each case failed before its fix:
//  - launch scripts: a 36 KB data blend and a 1 MB word crashed std::regex (one recursion per
//    character); a 600 KB nested ${A:-${A:-…}} and 3 MB of $(((((… overflowed the stack;
//    26 lines of A=$A$A took a gigabyte; $((1/0)) and ${X:-${Y:-32}} ended in "$L is not set";
//  - JSON: keys given twice silently kept the last; error messages quoted megabytes;
//  - traces: 1e308 timestamps printed inf and NaN and exited 0.
// A 600,000-event trace is read here too: before, reading was quadratic (140,000 events took
// 8.6 s, this one would take minutes); this suite's CTest timeout (120 s) bounds it, no timed
// assertion (tests/benchmarks/report measures the reading speed next to Python's json.load).

#include "io/kineto_trace.h"
#include "io/megatron_args_import.h"
#include "io/scenario_json.h"
#include "io/shell_words.h"
#include "util/json_reader.h"

#include <QtTest>

#include <string>

using namespace parascope;

namespace {

const std::string kArgs = "--num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 64 --vocab-size 64 ";

std::string joined(const std::vector<InputError>& errors)
{
    std::string all;
    for (const InputError& e : errors)
        all += e.text() + "\n";
    return all;
}

std::optional<MegatronImport> import(const std::string& script, std::vector<InputError>& errors)
{
    MegatronImportOptions o;
    o.gpus = 8;
    return importMegatronArgs(script, "bounds", o, errors);
}

std::string repeat(const std::string& s, std::size_t n)
{
    std::string out;
    out.reserve(s.size() * n);
    for (std::size_t i = 0; i < n; ++i)
        out += s;
    return out;
}

} // namespace

class TstInputBounds : public QObject {
    Q_OBJECT

private slots:
    void longWordsInLaunchScriptsAreRead()
    {
        // A real data blend: 600 shards, weight and path each, ~36 KB in one assignment.
        std::string blend = "DATA_BLEND=\"";
        for (int i = 0; i < 600; ++i)
            blend += "0.0015 /lustre/corpus/v2/tokenized/shard_" + std::to_string(10000 + i) + "_text_document ";
        blend += "\"\n";
        QVERIFY(blend.size() > 25000);
        std::vector<InputError> errors;
        auto r = import(blend + "LONG=" + std::string(1 << 20, 'x') + "\ntorchrun pretrain_gpt.py " + kArgs
                            + "--data-path $DATA_BLEND\n",
                        errors);
        QVERIFY2(r, joined(errors).c_str());
        QCOMPARE(r->scenario["model"]["layers"].get<int>(), 2);
    }

    void nestingIsBoundedAndSaid()
    {
        // ${A:-${A:-…}} 600 KB deep: refused at 32 levels, naming the flag's line.
        std::string nested = repeat("${A:-", 100000) + "2" + std::string(100000, '}');
        std::vector<InputError> errors;
        QVERIFY(!import(kArgs + "--tensor-model-parallel-size " + nested, errors));
        QVERIFY2(joined(errors).find(
                     "line 1: --tensor-model-parallel-size: cannot be read: ${…:-…} nested deeper than 32 levels")
                     != std::string::npos,
                 joined(errors).c_str());
        QVERIFY(joined(errors).size() < 2000);
        // Three levels are fine, and a default inside a default is read (it said "$L is not set").
        errors.clear();
        auto r = import("L=${X:-${Y:-${Z:-2}}}\n" + kArgs + "--tensor-model-parallel-size $L", errors);
        QVERIFY2(r, joined(errors).c_str());
        QCOMPARE(r->scenario["parallel"]["tp"].get<int>(), 2);

        // 3 MB of $(((((…: parentheses counted on an explicit stack, refused past 32.
        errors.clear();
        QVERIFY(!import(kArgs + "--tensor-model-parallel-size $((" + std::string(3 << 20, '('), errors));
        QVERIFY2(joined(errors).find("is not closed by \"))\"") != std::string::npos, joined(errors).c_str());
        errors.clear();
        QVERIFY(!import(kArgs + "--tensor-model-parallel-size $((" + std::string(40, '(') + "2" + std::string(40, ')')
                            + "))",
                        errors));
        QVERIFY2(joined(errors).find("parentheses nested deeper than 32 levels") != std::string::npos,
                 joined(errors).c_str());
    }

    void longArithmeticIsLinear()
    {
        // 6 MB of 1+1+…: evaluated on explicit stacks (3·2^20 ones).
        std::vector<InputError> errors;
        const std::size_t ones = 3u << 20;
        auto r = import("N=$((" + repeat("1+", ones - 1) + "1))\nTP=$(( (N - " + std::to_string(ones) + ") * 3 + 2 ))\n"
                            + kArgs + "--tensor-model-parallel-size $TP",
                        errors);
        QVERIFY2(r, joined(errors).c_str());
        QCOMPARE(r->scenario["parallel"]["tp"].get<int>(), 2); // (N − N)·3 + 2, with precedence and parentheses
    }

    void expansionIsBounded()
    {
        // 344 bytes: A=x, then 26 lines of A=$A$A would be 2^26 bytes, 40 lines 2^40.
        std::string script = "A=x\n";
        for (int i = 0; i < 40; ++i)
            script += "A=$A$A\n";
        std::vector<InputError> errors;
        QVERIFY(!import(script + kArgs, errors));
        // 2^20 bytes is the limit for one value: line 22 (A reaches 2^21) is the one refused.
        QVERIFY2(joined(errors).find("line 22: A=\"$A$A\": the value grows past 1 MiB") != std::string::npos,
                 joined(errors).c_str());
        // Many variables of 1 MiB each: refused at 16 MiB in all.
        script = "B=" + std::string(1 << 19, 'y') + "\nC=$B$B\n";
        for (int i = 0; i < 20; ++i)
            script += "V" + std::to_string(i) + "=$C\n";
        errors.clear();
        QVERIFY(!import(script + kArgs, errors));
        QVERIFY2(joined(errors).find("variables together grow past 16 MiB") != std::string::npos,
                 joined(errors).c_str());
    }

    void deepScriptNestingIsRefused()
    {
        // 100,000 "(" or 5,000 nested ifs: the statement reader recurses per level, so it stops
        // at 128 levels with one error, before the stack runs out.
        for (const std::string& script : {std::string(100000, '('), repeat("if true; then ", 5000)}) {
            std::vector<InputError> errors;
            QVERIFY(!import(script, errors));
            QVERIFY2(joined(errors).find("line 1: commands nested deeper than 128 levels") != std::string::npos,
                     joined(errors).c_str());
            QVERIFY2(errors.size() == 1, joined(errors).c_str());
        }
    }

    void refusalsNameTheirCause()
    {
        // Before: "$L is not set" for both.
        std::vector<InputError> errors;
        QVERIFY(!import("L=$((1/0))\n" + kArgs + "--tensor-model-parallel-size $L", errors));
        QVERIFY2(joined(errors).find(
                     "line 2: --tensor-model-parallel-size: cannot be read: $L is not set: its assignment on line 1: "
                     "L=\"$((1/0))\" could not be read: a division by zero in the arithmetic \"$((1/0))\"")
                     != std::string::npos,
                 joined(errors).c_str());
        for (const auto& [construct, says] : std::vector<std::pair<std::string, std::string>>{
                 {"$(nproc)", "the command substitution \"$(nproc)\" (ParaScope does not run commands)"},
                 {"${#X}",
                  "the parameter expansion \"${#X}\" (ParaScope reads ${NAME}, ${NAME:-default} and ${ARRAY[@]})"},
                 {"$((2**3))",
                  "the character '*' (only whole numbers, variables, + − * / % and parentheses) in the arithmetic"},
                 {"$((08))", "the number \"08\" (only decimal whole numbers below 2^63)"},
                 {"$((9223372036854775807+1))", "an overflow in the arithmetic"},
                 {"$SLURM_NNODES", "$SLURM_NNODES is not set in the script"}}) {
            errors.clear();
            QVERIFY(!import(kArgs + "--tensor-model-parallel-size " + construct, errors));
            QVERIFY2(joined(errors).find(says) != std::string::npos, (construct + " → " + joined(errors)).c_str());
        }
    }

    void jsonKeysGivenTwiceAreRefused()
    {
        std::vector<InputError> errors;
        const auto j
            = parseJsonText(R"({"schema": "parascope.scenario/1", "parallel": {"tp": 8, "pp": 2, "tp": 4}})", errors);
        QVERIFY(!j);
        QCOMPARE(errors.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(errors[0].text()),
                 QStringLiteral(
                     "parallel.tp: is given twice in one object (a reader would keep only the last): give it once"));
        // In an array, past the 32 keys checked by a linear search.
        std::string many = R"({"runs": [{}, {)";
        for (int i = 0; i < 40; ++i)
            many += "\"k" + std::to_string(i) + "\": 1, ";
        many += R"("k7": 2}]})";
        errors.clear();
        QVERIFY(!parseJsonText(many, errors));
        QVERIFY2(joined(errors).find("runs[1].k7: is given twice") != std::string::npos, joined(errors).c_str());
        // Depth and syntax keep their messages.
        errors.clear();
        QVERIFY(!parseJsonText(std::string(65, '[') + std::string(65, ']'), errors));
        QVERIFY2(joined(errors).find("nested deeper than 64 levels") != std::string::npos, joined(errors).c_str());
        errors.clear();
        QVERIFY(!parseJsonText("{\n  \"a\": 1,\n  \"b\": }", errors));
        QVERIFY2(joined(errors).find("not valid JSON at line 3, column 8") != std::string::npos,
                 joined(errors).c_str());
        errors.clear();
        QVERIFY(!parseJsonText("[1e400]", errors));
        QVERIFY2(joined(errors).find("the number 1e400 is too large") != std::string::npos, joined(errors).c_str());
    }

    void quotedInputIsCapped()
    {
        // A 1.5 MB schedule name was quoted whole in the message.
        const std::string huge(1500000, 'z');
        nlohmann::json sc = {{"schema", "parascope.scenario/1"},
                             {"model", "llama2-7b"},
                             {"cluster", "dgx-h100"},
                             {"parallel", {{"schedule", huge}}}};
        std::vector<InputError> errors;
        QVERIFY(!readScenario(sc, errors));
        QVERIFY(!errors.empty());
        QVERIFY2(joined(errors).size() < 1000, std::to_string(joined(errors).size()).c_str());
        QVERIFY(joined(errors).find("(1500000 bytes)") != std::string::npos);
        errors.clear();
        QVERIFY(!parseJsonText("[\"" + huge, errors));
        QVERIFY2(joined(errors).size() < 1000, std::to_string(joined(errors).size()).c_str());
        errors.clear();
        QVERIFY(!import(kArgs + "--normalization " + huge, errors));
        QVERIFY2(joined(errors).size() < 1000, std::to_string(joined(errors).size()).c_str());
    }

    void bigTraceIsReadInOnePass()
    {
        // 600,000 events (~110 MB): two steps, each kernel launched through the runtime.
        std::string text = R"({"deviceProperties": [{"id": 0, "name": "NVIDIA H100"}], "traceEvents": [)";
        text
            += R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 3000000},)";
        text
            += R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 3000000, "dur": 3000000})";
        const int pairs = 300000;
        for (int i = 0; i < pairs; ++i) {
            const std::string ts = std::to_string(i * 20), corr = std::to_string(i);
            text += R"(,{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": )" + ts
                + R"(, "dur": 2, "args": {"correlation": )" + corr + "}}";
            text += R"(,{"ph": "X", "cat": "kernel", "name": "ampere_bf16_gemm", "pid": 0, "tid": 7, "ts": )" + ts
                + R"(, "dur": 15, "args": {"device": 0, "stream": 7, "correlation": )" + corr
                + R"(, "grid": [132, 1, 1]}})";
        }
        text += "]}";
        std::vector<InputError> errors;
        const auto doc = readTraceDocument(text, errors);
        QVERIFY2(doc, joined(errors).c_str());
        QCOMPARE(doc->events.size(), std::size_t(2 + 2 * pairs));
        const auto trace = readKinetoTrace(*doc, {}, errors);
        QVERIFY2(trace, joined(errors).c_str());
        QCOMPARE(trace->gpu_name, std::string("NVIDIA H100"));
        // Step 1 launches kernels 0 … 149,999 (ts < 3 s); its window runs to step 2's first kernel.
        QCOMPARE(trace->steps.front().number, 1LL);
        QVERIFY(std::abs(trace->steps.front().end_s - 3.0) < 1e-9);
    }

    void traceTimesBeyondAnyMeasurementAreRefused()
    {
        // ts 1e308: the step printed inf and NaN and the command exited 0.
        const auto trace = [](double ts, double dur) {
            return nlohmann::json{{"traceEvents",
                                   {{{"ph", "X"},
                                     {"cat", "kernel"},
                                     {"name", "gemm"},
                                     {"pid", 0},
                                     {"tid", 7},
                                     {"ts", 1000.0},
                                     {"dur", 5.0}},
                                    {{"ph", "X"},
                                     {"cat", "kernel"},
                                     {"name", "gemm"},
                                     {"pid", 0},
                                     {"tid", 7},
                                     {"ts", ts},
                                     {"dur", dur}}}}};
        };
        std::vector<InputError> errors;
        QVERIFY(!readKinetoTrace(trace(1e308, 5), {}, errors));
        QCOMPARE(QString::fromStdString(joined(errors)),
                 QStringLiteral(
                     "traceEvents[1].ts: 1e+308 µs is not a time a trace holds (|ts| ≤ 1e17 µs, dur ≤ 1e12 µs)\n"));
        errors.clear();
        QVERIFY(!readKinetoTrace(trace(2000, 1e300), {}, errors));
        QVERIFY2(joined(errors).find("traceEvents[1].dur") != std::string::npos, joined(errors).c_str());
        errors.clear();
        const auto fine = readKinetoTrace(trace(1.7e15, 5), {}, errors); // Kineto's epoch microseconds
        QVERIFY2(fine, joined(errors).c_str());
        QVERIFY(std::isfinite(fine->step_s));
    }
};

QTEST_GUILESS_MAIN(TstInputBounds)
#include "tst_input_bounds.moc"
