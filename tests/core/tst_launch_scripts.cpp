// Launch scripts as bash runs them (issue 37 §1-3): the words a command receives after
// expansion and splitting (io/shell_words), the statements that decide which words those are
// (io/shell_script), and the Megatron-LM import that reads the launcher line's arguments with a
// summary of every flag (io/megatron_args_import). The fixtures in tests/data/megatron/ are
// written for these tests in the shape of NVIDIA's example scripts; each expectation says which
// construct it checks.

#include "io/megatron_args_import.h"
#include "io/scenario_json.h"
#include "io/shell_script.h"
#include "io/shell_test.h"
#include "io/shell_words.h"
#include "model/parameter_count.h"

#include <QtTest>

using namespace parascope;

namespace {

std::string dataFile(const std::string& name) { return std::string(PARASCOPE_TEST_DATA) + "/" + name; }

std::vector<std::string> texts(const std::vector<shell::Field>& f)
{
    std::vector<std::string> out;
    for (const shell::Field& x : f)
        out.push_back(x.text);
    return out;
}

// The words a script's launcher passes to pretrain_gpt.py.
std::vector<std::string> launched(const std::string& script, std::vector<std::string>* notes = nullptr)
{
    shell::Shell sh;
    std::vector<InputError> errors;
    const auto r = shell::readScript(script, sh, errors);
    if (!r || !r->launch)
        return {"<no launcher>"};
    if (notes)
        *notes = r->notes;
    return texts(r->launch->arguments);
}

using Words = std::vector<std::string>;

bool has(const nlohmann::json& list, const std::string& key, const std::string& value)
{
    for (const auto& e : list)
        if ((e.is_string() && e.get<std::string>() == value) || (e.is_object() && e.value(key, "") == value))
            return true;
    return false;
}

std::string joined(const std::vector<InputError>& errors)
{
    std::string s;
    for (const InputError& e : errors)
        s += e.text() + "\n";
    return s;
}

} // namespace

class TstLaunchScripts : public QObject {
    Q_OBJECT

private slots:
    void wordsSplitAsBashSplitsThem()
    {
        shell::Shell sh;
        std::string why;
        QVERIFY(sh.assignArray("A", {{"--fp8-format hybrid", 1, ""}, {"--bf16", 2, ""}}, false));
        QVERIFY(sh.assignArray("E", {}, false));
        // Unquoted, an element with a blank is two words; quoted, one.
        QCOMPARE(texts(sh.fields("${A[@]}", 3)), (Words{"--fp8-format", "hybrid", "--bf16"}));
        QCOMPARE(texts(sh.fields("\"${A[@]}\"", 3)), (Words{"--fp8-format hybrid", "--bf16"}));
        QCOMPARE(texts(sh.fields("\"${A[*]}\"", 3)), (Words{"--fp8-format hybrid --bf16"}));
        // The words keep the line of the element they came from.
        QCOMPARE(sh.fields("${A[@]}", 3).back().line, 2);
        // "${E[@]}" of an empty array is no word at all; "" is one empty word.
        QVERIFY(sh.fields("\"${E[@]}\"", 3).empty());
        QCOMPARE(texts(sh.fields("\"\"", 3)), (Words{""}));
        // Positional parameters are unset (the script is read without arguments): defaults apply.
        QCOMPARE(texts(sh.fields("${1:-\"ckpt/llama\"}", 3)), (Words{"ckpt/llama"}));
        QCOMPARE(texts(sh.fields("$#", 3)), (Words{"0"}));
        QVERIFY(sh.fields("$1", 3).empty());
        // Single quotes keep $ and blanks; the quotes an expansion brings are characters.
        QCOMPARE(texts(sh.fields("'$HOME x'", 3)), (Words{"$HOME x"}));
        QVERIFY(sh.assignArray("S", {{"--split '99,1,0'", 4, ""}}, false));
        QCOMPARE(texts(sh.fields("${S[@]}", 5)), (Words{"--split", "'99,1,0'"}));
        // An unset variable stays a word that says why, so the flag needing it can.
        const auto unset = sh.fields("$SEQ", 6);
        QCOMPARE(unset.size(), std::size_t(1));
        QCOMPARE(unset.front().why, std::string("$SEQ is not set in the script"));
        // NAME+=value appends to a scalar.
        QVERIFY(sh.assign(*shell::splitAssignment("X=ab"), 1, why));
        QVERIFY(sh.assign(*shell::splitAssignment("X+=cd"), 2, why));
        QCOMPARE(texts(sh.fields("$X", 3)), (Words{"abcd"}));
    }

    void testsDecideBranches()
    {
        shell::Shell sh;
        const auto test = [&](const Words& w) {
            std::vector<shell::Field> f;
            for (const std::string& s : w)
                f.push_back({s, 1, ""});
            return shell::evaluateTest(f, sh);
        };
        QVERIFY(test({"fp8", "==", "fp8"}).value);
        QVERIFY(test({"llama3_8b", "==", "llama*"}).value); // [[ == ]] matches a pattern
        QVERIFY(!test({"MOCK", "!=", "MOCK"}).value);
        QVERIFY(test({"-z", ""}).value && !test({"-n", ""}).value);
        QVERIFY(test({"8", "-gt", "4", "&&", "!", "2", "-eq", "3"}).value);
        QVERIFY(test({"x", "=", "y", "||", "(", "1", "-le", "1", ")"}).value);
        // A file test cannot be checked here: taken as true, and said so.
        const shell::TestResult file = test({"!", "-f", "pretrain_gpt.py"});
        QVERIFY(!file.value && file.decided && !file.note.empty());
        // A regular expression is not decided: false, with a note.
        const shell::TestResult re = test({"abc", "=~", "^a"});
        QVERIFY(!re.decided && !re.value);
        QVERIFY(shell::globMatch("mixtral_8x7b", "*8x?b") && !shell::globMatch("mixtral", "llama*"));
    }

    void statementsChooseWhatTheLauncherReceives()
    {
        // One-line arrays, appends, a commented-out element, an array never passed on.
        QCOMPARE(
            launched("A=(--num-layers 32 --tensor-model-parallel-size 2)\n"
                     "A+=(--fp8-format hybrid)\n"
                     "B=(\n  --bf16\n  # --pipeline-model-parallel-size 4\n)\n"
                     "UNUSED=(--pipeline-model-parallel-size 8)\n"
                     "torchrun --nproc_per_node 8 pretrain_gpt.py ${A[@]} \"${B[@]}\"\n"),
            (Words{"--num-layers", "32", "--tensor-model-parallel-size", "2", "--fp8-format", "hybrid", "--bf16"}));
        // Only the branch taken counts; echo's words and help functions are not arguments.
        QCOMPARE(
            launched("MODEL=8b\nif [[ $MODEL == 70b ]]; then L=80\nelif [ \"$MODEL\" = 8b ]; then L=32\nelse L=1\nfi\n"
                     "echo --num-layers 99\n"
                     "help() { echo --tensor-model-parallel-size 8; }\n"
                     "python pretrain_gpt.py --num-layers $L\n"),
            (Words{"--num-layers", "32"}));
        // case, a for loop that builds arguments, a function that is called.
        QCOMPARE(launched("SIZE=7B\ncase $SIZE in\n  13B|70B) H=8192 ;;\n  7B) H=4096 ;;\n  *) H=1 ;;\nesac\n"
                          "ARGS=()\nfor f in --bf16 --swiglu; do ARGS+=($f); done\n"
                          "add_tp() { ARGS+=(--tensor-model-parallel-size 2); }\nadd_tp\n"
                          "torchrun pretrain_gpt.py --hidden-size $H ${ARGS[@]}\n"),
                 (Words{"--hidden-size", "4096", "--bf16", "--swiglu", "--tensor-model-parallel-size", "2"}));
        // `|| { …; exit 1; }` is not run when the command before it is taken to succeed; `exit`
        // in a branch taken stops the script (the launcher after it is never reached).
        QCOMPARE(launched("mkdir -p logs || { echo no; exit 1; }\npython pretrain_gpt.py --bf16\n"), (Words{"--bf16"}));
        QCOMPARE(launched("exit 0\npython pretrain_gpt.py --bf16\n"), (Words{"<no launcher>"}));
        // A command string re-read by bash -c, and by eval.
        QCOMPARE(launched("ARGS=(--bf16 --swiglu)\nCMD=\"cd /m; python /m/pretrain_gpt.py ${ARGS[@]}\"\n"
                          "srun -l bash -c \"$CMD\" 2>&1 | tee log\n"),
                 (Words{"--bf16", "--swiglu"}));
        QCOMPARE(launched("CMD='python pretrain_gpt.py --fp16'\neval $CMD\n"), (Words{"--fp16"}));
        // A here-document given to sbatch is a script too.
        QCOMPARE(launched("X=--bf16\nsbatch <<EOF\n#!/bin/bash\nsrun python pretrain_gpt.py $X\nEOF\n"),
                 (Words{"--bf16"}));
    }

    void nvidiaStyleScriptImportsAsFp8WithItsVocabulary()
    {
        std::vector<InputError> errors;
        const std::string script = *readTextFile(dataFile("megatron/llama3_8b_fp8_mock.sh"), errors);
        const auto r = importMegatronArgs(script, "llama3_8b_fp8", {}, errors);
        QVERIFY2(r, joined(errors).c_str());
        const auto sc = readScenario(r->scenario, errors);
        QVERIFY(sc);
        // "--fp8-format hybrid", quoted inside DTYPE_ARGS+=( … ) and passed unquoted: two words, FP8.
        QCOMPARE(sc->training.precision, Precision::Fp8);
        // NullTokenizer takes its size from --vocab-size (the MOCK branch): no --vocab needed;
        // 128256 = 501 · (128 · TP 2), no padding.
        QCOMPARE(sc->model.vocab, std::int64_t(128256));
        // TP 2 from the one-line array; PP 1: the commented-out element and UNUSED_ARGS are not
        // arguments; 16 GPUs from torchrun --nnodes 2 × --nproc_per_node 8 → DP 8.
        QCOMPARE(sc->parallel.tp, 2);
        QCOMPARE(sc->parallel.pp, 1);
        QCOMPARE(sc->parallel.dp, 8);
        QCOMPARE(sc->training.recompute, Recompute::None); // UNUSED_ARGS' full recompute is not passed
        QCOMPARE(sc->parallel.zero, 1); // TRAINING_ARGS+=("${DDP_ARGS[@]}")
        QCOMPARE(countParameters(sc->model, Explain::NumbersOnly).total, std::int64_t(8030261248)); // Llama 3.1 8B
        // The summary: used, ignored with why, not understood.
        const nlohmann::json& s = r->summary;
        QVERIFY(s["launcher"].get<std::string>().find("line 70: torchrun") == 0);
        QVERIFY(has(s["used"], "", "--fp8-format") && has(s["used"], "", "--vocab-size"));
        QVERIFY(has(s["ignored"], "flag", "--fp8-param-gather"));
        for (const auto& i : s["ignored"])
            if (i["flag"] == "--fp8-param-gather")
                QVERIFY(i["why"].get<std::string>().find("FP8") != std::string::npos && i["line"] == 36);
        QVERIFY(has(s["ignored"], "flag", "--split") && s["not_understood"].empty());
    }

    void deepSeekV3SbatchScriptImports()
    {
        std::vector<InputError> errors;
        const std::string script = *readTextFile(dataFile("megatron/deepseek_v3_sbatch.sh"), errors);
        MegatronImportOptions o;
        o.gpus = 256;
        o.vocab = 129280;
        const auto r = importMegatronArgs(script, "deepseek_v3", o, errors);
        QVERIFY2(r, joined(errors).c_str());
        const auto sc = readScenario(r->scenario, errors);
        QVERIFY(sc);
        // Read through sbatch <<EOT … bash -c "${TRAINING_CMD}": HybridEP is costed as DeepEP,
        // --qk-layernorm with MLA is the latents' norms (no per-head qk_norm), [0]*3+[1]*58 one word.
        QCOMPARE(sc->parallel.moe_dispatcher, MoeDispatcher::DeepEp);
        QVERIFY(sc->model.mla && !sc->model.qk_norm);
        QCOMPARE(sc->model.moe->first_dense_layers, 3);
        QCOMPARE(sc->parallel.zero, 3); // --use-megatron-fsdp, optim_grads_params, added in the branch taken
        QCOMPARE(sc->parallel.ep, 8);
        QCOMPARE(sc->training.moe_load_imbalance, 1.0);
        QVERIFY(sc->training.recomputes(RecomputeModule::MoeAct)
                && sc->training.recomputes(RecomputeModule::MlaUpProj));
        // 129280 = 40 · 3232: no padding; the main model is DeepSeek-V3's 671,026,419,200.
        const ParamCounts c = countParameters(sc->model, Explain::NumbersOnly);
        QCOMPARE(c.total - c.mtp_module, std::int64_t(671026419200));
        // --rampup-batch-size takes three words: ignored with why, nothing left over.
        QVERIFY(has(r->summary["ignored"], "flag", "--rampup-batch-size"));
        QVERIFY(r->summary["not_understood"].empty());
    }

    void wordsArgparseWouldRefuseAreNamed()
    {
        std::vector<InputError> errors;
        MegatronImportOptions o;
        o.gpus = 8;
        // Quoted "${A[@]}": the element "--fp8-format hybrid" reaches Megatron as one word.
        const auto r = importMegatronArgs("A=(\"--fp8-format hybrid\")\n"
                                          "torchrun pretrain_gpt.py --num-layers 2 --hidden-size 64 "
                                          "--num-attention-heads 4 --seq-length 64 --vocab-size 64 "
                                          "--step-batch-size-schedule 0:16 2B:64 \"${A[@]}\"\n",
                                          "x", o, errors);
        QVERIFY2(r, joined(errors).c_str());
        QCOMPARE(r->scenario["training"]["precision"].get<std::string>(), std::string("fp32"));
        const nlohmann::json& n = r->summary["not_understood"];
        QCOMPARE(n.size(), std::size_t(2));
        QVERIFY(n[0]["word"] == "2B:64"
                && n[0]["why"].get<std::string>().find("--step-batch-size-schedule") != std::string::npos);
        QVERIFY(n[1]["word"] == "--fp8-format hybrid"
                && n[1]["why"].get<std::string>().find("unrecognized") != std::string::npos);
    }

    // Megatron-Core's CUDA graph flags map to training.cuda_graphs (they were ignored before):
    // the whole layer (no modules, "full", or the "moe" module) is "layers", attention or the
    // router alone "partial", the full_iteration implementation "full_iteration"; every flag is
    // used, none ignored.
    void cudaGraphFlagsMapToTheScenario()
    {
        const auto graphs = [](const std::string& flags) {
            std::vector<InputError> errors;
            MegatronImportOptions o;
            o.gpus = 8;
            const auto r = importMegatronArgs("torchrun pretrain_gpt.py --num-layers 2 --hidden-size 64 "
                                              "--num-attention-heads 4 --seq-length 64 --vocab-size 64 "
                                                  + flags + "\n",
                                              "x", o, errors);
            if (!r || !errors.empty() || !r->summary["ignored"].empty())
                return std::string("<") + joined(errors) + ">";
            return r->scenario["training"].value("cuda_graphs", std::string("none"));
        };
        QCOMPARE(graphs(""), std::string("none"));
        QCOMPARE(graphs("--cuda-graph-impl none"), std::string("none"));
        QCOMPARE(graphs("--cuda-graph-impl transformer_engine --cuda-graph-scope attn moe_router moe_preprocess"),
                 std::string("partial"));
        QCOMPARE(graphs("--cuda-graph-impl transformer_engine --cuda-graph-modules attn"), std::string("partial"));
        QCOMPARE(graphs("--cuda-graph-impl local"), std::string("layers"));
        QCOMPARE(graphs("--cuda-graph-impl transformer_engine --cuda-graph-scope attn moe"), std::string("layers"));
        QCOMPARE(graphs("--enable-cuda-graph"), std::string("layers"));
        QCOMPARE(graphs("--external-cuda-graph --cuda-graph-scope attn"), std::string("partial"));
        QCOMPARE(graphs("--cuda-graph-impl local --cuda-graph-scope full_iteration"), std::string("full_iteration"));
        QCOMPARE(graphs("--cuda-graph-impl full_iteration"), std::string("full_iteration"));
        QVERIFY(graphs("--cuda-graph-impl sometimes").find("--cuda-graph-impl") != std::string::npos);
    }

    void clausesCutShortAreErrorsWithALine()
    {
        // Found by fuzz_measurement: a clause ending with the script once stepped past the last
        // token, and the function around it copied a body from beyond the end.
        for (const char* script : {"function f function", "function f case", "function", "f() case x", "case"}) {
            shell::Shell sh;
            std::vector<InputError> errors;
            QVERIFY2(!shell::readScript(script, sh, errors) || !errors.empty(), script);
            QVERIFY2(!errors.empty() && errors.front().path == "line 1", script);
        }
        std::vector<InputError> errors;
        shell::Shell sh;
        QVERIFY(!shell::readScript("function\n", sh, errors));
        QCOMPARE(errors.front().text(), std::string("line 1: \"function\" without a name"));
    }

    void otherTrainingScriptsAreRefusedByName()
    {
        std::vector<InputError> errors;
        QVERIFY(!importMegatronArgs("torchrun --nproc_per_node 8 pretrain_bert.py --num-layers 24\n", "x", {}, errors));
        QVERIFY2(joined(errors).find("line 1: torchrun --nproc_per_node 8 pretrain_bert.py: pretrain_bert.py is not "
                                     "pretrain_gpt.py")
                     != std::string::npos,
                 joined(errors).c_str());
        errors.clear();
        QVERIFY(!importMegatronArgs("echo hello\nls\n", "x", {}, errors));
        QVERIFY2(joined(errors).find("no command runs a Megatron-LM training script") != std::string::npos,
                 joined(errors).c_str());
    }
};

QTEST_GUILESS_MAIN(TstLaunchScripts)
#include "tst_launch_scripts.moc"
