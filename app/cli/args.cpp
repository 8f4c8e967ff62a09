// parascope-cli: the command line, loading the scenario and writing the answer.

#include "cli.h"

#include "types/knobs.h"
#include "hardware/hardware_profile.h"
#include "io/atomic_file.h"
#include "io/scenario_json.h"
#include "parascope/version.h"
#include "util/quote.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace parascope::cli {

using namespace parascope;

namespace {

// The commands and their options, the same in both languages.
const char* const kSynopsis
    = "  parascope-cli evaluate FILE [--set PATH=VALUE]… [--format text|json] [--lang en|zh] [--no-explain] [--profile "
      "PROFILE]\n"
      "  parascope-cli timeline FILE [--set PATH=VALUE]… [--format json|chrome-trace [--comm-lanes]] [--out FILE] "
      "[--profile PROFILE]\n"
      "  parascope-cli sweep FILE --param PARAM --values V1,V2,… [--set PATH=VALUE]… [--format text|json|csv] [--lang "
      "en|zh]\n"
      "  parascope-cli search FILE [--gpus N] [--top K] [--threads N] [--closed-form] [--fewest-gpus] [--format "
      "text|json|csv] [--lang en|zh]\n"
      "  parascope-cli validate [RUNS.json] [--format text|json] [--out BANDS.json] [--lang en|zh]\n"
      "  parascope-cli profile import-nccl-tests LOG... [--op OP] [--ranks N] [--nodes N] [--into PROFILE] --out "
      "PROFILE\n"
      "  parascope-cli presets [models|gpus|clusters] [--format text|json] [--lang en|zh]\n"
      "  parascope-cli model import-hf CONFIG.json [--text-only] [--out MODEL.json]\n"
      "  parascope-cli model import-megatron ARGS [--gpus N] [--cluster PRESET] [--vocab N] [--format text|json] "
      "[--out "
      "SCENARIO.json]\n"
      "  parascope-cli compare-trace FILE TRACE.json [--device N] [--set PATH=VALUE]… [--format text|json] [--lang "
      "en|zh]\n"
      "  parascope-cli collective --op OP --bytes S --ranks N [--cluster PRESET] [--algorithm ALGORITHM] "
      "[--format text|json] [--lang en|zh]\n"
      "      ALGORITHM: the engine's pick by default; ring, tree, nvls (NCCL's), hierarchical, flat_ring, "
      "binomial_tree (teaching)\n"
      "  parascope-cli advise FILE [--set PATH=VALUE]… [--format text|json] [--lang en|zh]\n"
      "  parascope-cli class-answers ANSWERS.csv… [--lesson FILE.json]… [--format text|json] [--lang en|zh]\n"
      "  parascope-cli --version | --help\n";

const char* const kUsageText
    = "\n"
      "evaluate  reads a parascope.scenario/1 JSON file and prints memory per pipeline stage,\n"
      "          communication per collective, step time, what breaks and advice: changes on the\n"
      "          same GPUs that fix a problem, each evaluated. --profile applies a\n"
      "          parascope.hardware-profile/1 (from parascope-probe) to the cluster.\n"
      "timeline  writes the simulated training step: parascope.timeline/1 JSON, or a Chrome trace\n"
      "          (Trace Event Format) that Perfetto and chrome://tracing open, with an arrow from\n"
      "          each pipeline send to the op that receives it; --comm-lanes splits communication\n"
      "          into PP, DP and the layers' exposed TP/CP/EP threads.\n"
      "profile   import-nccl-tests reads nccl-tests logs (text or -J JSON) into a hardware profile;\n"
      "          the collective, ranks and nodes come from the log, or from --op/--ranks/--nodes.\n"
      "model     import-hf turns a Hugging Face config.json into a ParaScope model (Llama, Mistral,\n"
      "          Mixtral, Qwen2/3 dense and MoE, DeepSeek-V2/V3 and MoE 16B, GPT-2, GPT-OSS, Gemma\n"
      "          1/2/3, Phi-2/3, Qwen2.5-VL's language model with --text-only);\n"
      "          import-megatron reads a launch script as bash runs it (or a file of flags) and turns\n"
      "          what its launcher line passes to pretrain_gpt.py into a scenario, with a summary of\n"
      "          the flags used, ignored (and why) and not understood; --gpus, --cluster and --vocab\n"
      "          give what the script does not say.\n"
      "compare-trace  sets a measured step (a PyTorch profiler trace, Kineto's Chrome JSON) beside\n"
      "          the simulated step of FILE: step time, GEMMs, attention, other compute, optimizer,\n"
      "          exposed communication, idle, and the communication kernels by collective.\n"
      "collective  runs one collective step by step: who sends which chunk to whom over which link and\n"
      "          when, the bytes each GPU sends, the time by the α–β model, algbw and busbw as nccl-tests\n"
      "          prints them (OP: all_reduce, all_gather, reduce_scatter, all_to_all, broadcast; S: 1GiB…).\n"
      "advise    walks the course's decision procedure on FILE's model, cluster and batch: 1. does it\n"
      "          fit with DP alone, then ZeRO-1/2/3; 2. TP inside a node, PP across nodes; 3. the\n"
      "          communication per group; 4. balance and bubble (VPP) — each step with its numbers,\n"
      "          verdict and why; then the resulting scenario beside the strategy search's best.\n"
      "sweep     evaluates one knob across values (PARAM: one of the knobs below; enum knobs by their\n"
      "          position) and names the breaking points.\n"
      "--set     moves one of those knobs before evaluating, as the app's slider does (DP keeps\n"
      "          the microbatch count: the global batch follows); repeat it for several.\n"
      "search    evaluates every valid strategy (tp, pp, vpp, dp, cp, ep, SP, ZeRO, micro batch,\n"
      "          recompute, schedule) for the scenario's model, cluster, sequence and batch, ranks\n"
      "          them by tokens/s and prints the Pareto front of peak memory vs step time.\n"
      "validate  predicts every measured run (default: the built-in reference set) and prints\n"
      "          predicted vs published step time, the error and the MAPE, per part and class.\n"
      "          RUNS.json is a parascope.runs/1 file: full scenarios and what was measured.\n"
      "          --out BANDS.json writes the check part's error per class (parascope.bands/1): the\n"
      "          uncertainty every prediction shows (resources/presets/validation/error-bands.json).\n"
      "--lang    en (en_US) or zh (zh_CN): headers, labels, values and messages; every command.\n"
      "exit codes: 0 evaluated (even when it does not fit), 2 bad input, 1 internal error.\n";

const char* const kUsageTextZh
    = "\n"
      "evaluate  读取 parascope.scenario/1 场景文件，输出每个流水线阶段的显存、每种集合通信的通信量、\n"
      "          单步耗时、问题诊断，以及调整建议：在同样的 GPU 上能解决问题的改动，每项都已重新评估。\n"
      "          --profile 用 parascope-probe 生成的 parascope.hardware-profile/1 校准集群。\n"
      "timeline  输出模拟的训练单步：parascope.timeline/1 JSON，或 Perfetto 与 chrome://tracing\n"
      "          可打开的 Chrome 跟踪文件（Trace Event Format），每次流水线发送都有箭头指向接收它的计算；\n"
      "          --comm-lanes 把通信分成 PP、DP 与层内未被重叠的 TP/CP/EP 三条线程。\n"
      "profile   import-nccl-tests 把 nccl-tests 日志（文本或 -J JSON）导入硬件实测档案；集合通信、\n"
      "          进程数和节点数取自日志，或由 --op/--ranks/--nodes 指定。\n"
      "model     import-hf 把 Hugging Face 的 config.json 转为 ParaScope 模型（Llama、Mistral、Mixtral、\n"
      "          Qwen2/3 稠密与 MoE、DeepSeek-V2/V3 与 MoE 16B、GPT-2、GPT-OSS、Gemma 1/2/3、Phi-2/3、\n"
      "          Qwen2.5-VL 的语言模型（--text-only））；import-megatron 把\n"
      "          启动脚本按 bash 的执行方式读取（或参数文件），把启动行传给 pretrain_gpt.py 的参数转为场景，\n"
      "          并列出已采用、未采用（及原因）和未能理解的参数；脚本未给出的由 --gpus、--cluster、--vocab 指定。\n"
      "compare-trace  把实测的一步（PyTorch Profiler 跟踪，Kineto 的 Chrome JSON）与 FILE 的模拟单步并列：\n"
      "          单步耗时、矩阵乘、注意力、其他计算、优化器、未重叠通信、空闲，以及按集合通信分列的通信内核。\n"
      "collective  逐步展示一次集合通信：每一步谁把哪一块经哪条链路发给谁、何时发；每块 GPU 发送的字节数、\n"
      "          α–β 模型下的耗时，以及与 nccl-tests 相同口径的 algbw 与 busbw（OP：all_reduce、all_gather、\n"
      "          reduce_scatter、all_to_all、broadcast；S：1GiB 等）。\n"
      "advise    按课程的决策流程分析 FILE 的模型、集群和批大小：1. 只用 DP 放得下吗？再试 ZeRO-1/2/3；\n"
      "          2. 节点内 TP，跨节点 PP；3. 各通信组的通信量；4. 负载均衡与气泡（VPP）——每一步给出数字、\n"
      "          结论和依据；最后给出得到的场景，并与策略搜索的最优解对比。\n"
      "sweep     让一个参数取一组值逐一评估（PARAM：下列参数之一；枚举参数按序号），并指出临界点。\n"
      "--set     评估前调整一个参数，与界面滑块的规则相同（调整 DP 时微批数不变，全局批大小随之变化）；\n"
      "          可重复使用。\n"
      "search    对场景的模型、集群、序列长度和批大小，评估所有合法策略（TP、PP、VPP、DP、CP、EP、SP、\n"
      "          ZeRO 级别、微批大小、重计算、流水线调度），按吞吐排序，并给出峰值显存与单步耗时的帕累托前沿。\n"
      "validate  预测每个实测的训练结果（默认：内置参考集），输出预测与发表的单步耗时、误差和 MAPE，\n"
      "          按部分与类别分列。RUNS.json 是 parascope.runs/1 文件：完整场景与实测值。\n"
      "          --out BANDS.json 写出检验部分各类别的误差（parascope.bands/1）：每个预测显示的不确定度\n"
      "          （resources/presets/validation/error-bands.json）。\n"
      "--lang    en（en_US）或 zh（zh_CN）：表头、标签、取值和消息的语言；所有命令都适用。\n"
      "退出码：0 已评估（即使放不下），2 输入有误，1 内部错误。\n";

} // namespace

std::optional<std::string> languageOf(std::string_view v)
{
    if (v == "en" || v == "en_US")
        return "en";
    if (v == "zh" || v == "zh_CN")
        return "zh";
    return std::nullopt;
}

std::string usage(const std::string& lang)
{
    const bool zh = lang == "zh";
    std::string list;
    for (const Knob& k : knobs())
        list += "\n  " + k.path
            + (k.value_name ? "  (" +
                       [&] {
                           std::string names;
                           for (long long v = k.min; v <= k.max; ++v)
                               names += (names.empty() ? "" : ", ") + std::to_string(v) + " "
                                   + std::string(k.value_name(v));
                           return names;
                       }()
                       + ")"
                            : std::string());
    return std::string(zh ? "用法：\n" : "usage:\n") + kSynopsis + (zh ? kUsageTextZh : kUsageText)
        + (zh ? "--set 与 sweep --param 可用的参数：" : "knobs for --set and sweep --param:") + list + "\n";
}

int badUsage(const Args& a, const std::string& en, const std::string& zh_text)
{
    std::cerr << "parascope-cli: " << say(a, en, zh_text) << "\n\n" << usage(a.lang);
    return kExitBadInput;
}

int badUsage(const std::string& message)
{
    std::cerr << "parascope-cli: " << message << "\n\n" << usage();
    return kExitBadInput;
}

int printFileErrors(const std::string& file, const std::vector<InputError>& errors)
{
    for (const InputError& e : errors) { // a file's own error (unreadable, not JSON) already names it
        const bool named = e.path.empty() && e.message.rfind(file, 0) == 0;
        std::cerr << "parascope-cli: " << (named ? std::string() : file + ": ") << e.text() << "\n";
    }
    return kExitBadInput;
}

namespace {
// A command-line whole number, strictly: "1e9", "8x", "" and values out of [min, max] are
// refused (atoi read "1e9" as 1).
std::optional<long long> wholeArg(const char* v, long long min, long long max)
{
    if (!v || !*v)
        return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const long long n = std::strtoll(v, &end, 10);
    if (errno != 0 || *end != '\0' || n < min || n > max)
        return std::nullopt;
    return n;
}

int badWhole(const Args& a, const std::string& arg, const char* v, long long min, long long max)
{
    const std::string range = std::to_string(min) + "…" + std::to_string(max);
    const std::string got = v ? ", got " + parascope::quoteInput(v, 40) : std::string();
    return badUsage(a, arg + " needs a whole number in " + range + got,
                    arg + " 需要 " + range + " 之间的整数"
                        + (v ? "，实际为 " + parascope::quoteInput(v, 40) : std::string()));
}

// What an option parser answers besides an exit code: parsed, or not one of its options.
constexpr int kParsed = -1, kNotMine = -2;

// The words of argv, one at a time; an option's value is the word after it.
struct ArgReader {
    int argc;
    char** argv;
    int i;
    const char* value() { return i + 1 < argc ? argv[++i] : nullptr; }
};

// The language first, wherever it stands: the other options' errors are written in it.
int parseLanguage(int argc, char** argv, int first, Args& a)
{
    for (int i = first; i < argc; ++i)
        if (std::string(argv[i]) == "--lang") {
            if (i + 1 >= argc)
                return badUsage(std::string("--lang needs a value: one of ") + kLanguages);
            const auto lang = languageOf(argv[i + 1]);
            if (!lang)
                return badUsage(std::string("--lang must be one of ") + kLanguages + " (got "
                                + parascope::quoteInput(argv[i + 1], 40) + ")");
            a.lang = *lang;
        }
    return kParsed;
}

// Options that take a whole number.
int parseNumberOption(const std::string& arg, ArgReader& r, Args& a)
{
    if (arg == "--gpus" || arg == "--top" || arg == "--threads") {
        const char* v = r.value();
        const auto n = wholeArg(v, 1, 1 << 24);
        if (!n)
            return badWhole(a, arg, v, 1, 1 << 24);
        (arg == "--gpus" ? a.gpus : arg == "--top" ? a.top : a.threads) = *n;
    } else if (arg == "--ranks" || arg == "--nodes") {
        const char* v = r.value();
        const auto n = wholeArg(v, 1, 1 << 24);
        if (!n)
            return badWhole(a, arg, v, 1, 1 << 24);
        (arg == "--ranks" ? a.nccl.ranks : a.nccl.nodes) = int(*n);
    } else if (arg == "--vocab") {
        const char* v = r.value();
        const auto n = wholeArg(v, 1, 1LL << 30);
        if (!n)
            return badWhole(a, arg, v, 1, 1LL << 30);
        a.vocab = *n;
    } else if (arg == "--device") {
        const char* v = r.value();
        const auto n = wholeArg(v, 0, 1024);
        if (!n)
            return badWhole(a, arg, v, 0, 1024);
        a.device = int(*n);
    } else {
        return kNotMine;
    }
    return kParsed;
}

// Options that take no value.
int parseFlagOption(const std::string& arg, Args& a)
{
    if (arg == "--closed-form")
        a.closed_form = true;
    else if (arg == "--fewest-gpus")
        a.fewest_gpus = true;
    else if (arg == "--comm-lanes")
        a.comm_lanes = true;
    else if (arg == "--text-only")
        a.text_only = true;
    else if (arg == "--no-explain")
        a.explain = false;
    else if (arg == "--help" || arg == "-h")
        a.help = true; // every subcommand answers it (parascope-cli profile --help)
    else
        return kNotMine;
    return kParsed;
}

// Options that take a word: what to read, what to change and where to write.
int parseScenarioOption(const std::string& arg, ArgReader& r, Args& a)
{
    if (arg == "--format") {
        const char* v = r.value();
        if (!v)
            return badUsage(a, "--format needs a value", "--format 需要一个值");
        a.format = v;
    } else if (arg == "--param" || arg == "--values") {
        const char* v = r.value();
        if (!v)
            return badUsage(a, arg + " needs a value", arg + " 需要一个值");
        (arg == "--param" ? a.param : a.values) = v;
    } else if (arg == "--set") {
        const char* v = r.value();
        if (!v)
            return badUsage(a, "--set needs PATH=VALUE (e.g. --set parallel.dp=16)",
                            "--set 需要 PATH=VALUE（例如 --set parallel.dp=16）");
        a.sets.push_back(v);
    } else if (arg == "--lesson") {
        const char* v = r.value();
        if (!v)
            return badUsage(a, "--lesson needs a lesson FILE.json", "--lesson 需要一个教学案例文件 FILE.json");
        a.lessons.push_back(v);
    } else if (arg == "--out") {
        const char* v = r.value();
        if (!v)
            return badUsage(a, "--out needs a FILE", "--out 需要一个文件路径");
        a.out = v;
    } else if (arg == "--lang") {
        ++r.i; // read above
    } else if (arg == "--profile") {
        const char* v = r.value();
        if (!v)
            return badUsage(a, "--profile needs a hardware profile FILE", "--profile 需要一个硬件实测档案文件");
        a.profile = v;
    } else {
        return kNotMine;
    }
    return kParsed;
}

// Options that take a word for the profile, model and collective commands.
int parseToolOption(const std::string& arg, ArgReader& r, Args& a)
{
    if (arg == "--op") {
        const char* v = r.value();
        if (!v)
            return badUsage(a, arg + " needs a value", arg + " 需要一个值");
        a.nccl.op = parascope::enumFromName<parascope::Collective>(v);
        if (!a.nccl.op)
            return badUsage(a, "--op must be one of " + parascope::enumNameList<parascope::Collective>(),
                            "--op 只能取 " + parascope::enumNameList<parascope::Collective>() + " 之一");
    } else if (arg == "--into") {
        const char* v = r.value();
        if (!v)
            return badUsage(a, arg + " needs a value", arg + " 需要一个值");
        a.into = v;
    } else if (arg == "--cluster") {
        const char* v = r.value();
        if (!v)
            return badUsage(a, "--cluster needs a cluster preset (parascope-cli presets clusters)",
                            "--cluster 需要一个集群预设（parascope-cli presets clusters）");
        a.cluster = v;
    } else if (arg == "--bytes" || arg == "--algorithm") {
        const char* v = r.value();
        if (!v)
            return badUsage(a, arg + " needs a value", arg + " 需要一个值");
        (arg == "--bytes" ? a.bytes : a.algorithm) = v;
    } else {
        return kNotMine;
    }
    return kParsed;
}

// One word of the command line: a known option, an unknown one (an error) or a positional.
int parseWord(ArgReader& r, Args& a)
{
    const std::string arg = r.argv[r.i];
    for (const auto parse : {parseNumberOption, parseScenarioOption, parseToolOption})
        if (const int rc = parse(arg, r, a); rc != kNotMine)
            return rc;
    if (const int rc = parseFlagOption(arg, a); rc != kNotMine)
        return rc;
    if (arg.rfind("--", 0) == 0)
        return badUsage(a, "unknown option " + arg, "未知选项 " + arg);
    a.positional.push_back(arg);
    return kParsed;
}
} // namespace

// Returns an exit code on error, -1 when parsed.
int parseArgs(int argc, char** argv, int first, Args& a)
{
    if (const int rc = parseLanguage(argc, argv, first, a); rc != kParsed)
        return rc;
    for (ArgReader r{argc, argv, first}; r.i < argc; ++r.i)
        if (const int rc = parseWord(r, a); rc != kParsed)
            return rc;
    return -1;
}

// Reads the scenario (and applies --profile); prints every input error with its path.
std::optional<parascope::Scenario> loadScenario(const Args& a, const char* command)
{
    if (a.positional.size() != 1) {
        badUsage(a, std::string(command) + " needs exactly one scenario FILE",
                 std::string(command) + " 需要且只需要一个场景文件");
        return std::nullopt;
    }
    std::vector<parascope::InputError> errors;
    auto scenario = parascope::readScenarioFile(a.positional[0], errors);
    if (!scenario) {
        for (const parascope::InputError& e : errors)
            std::cerr << "parascope-cli: " << (e.path.empty() ? "" : a.positional[0] + ": ") << e.text() << "\n";
        return std::nullopt;
    }
    if (!a.profile.empty()) {
        const auto profile = parascope::readHardwareProfileFile(a.profile, errors);
        if (!profile) {
            for (const parascope::InputError& e : errors)
                std::cerr << "parascope-cli: " << (e.path.empty() ? "" : a.profile + ": ") << e.text() << "\n";
            return std::nullopt;
        }
        scenario->cluster = parascope::calibrate(scenario->cluster, *profile);
    }
    // --set moves a knob exactly as the app's slider and a sweep do (types/knobs.h).
    for (const std::string& assignment : a.sets) {
        std::string why;
        if (!parascope::applyKnobAssignment(*scenario, assignment, why)) {
            std::cerr << "parascope-cli: --set " << assignment << ": " << why << "\n";
            return std::nullopt;
        }
    }
    return scenario;
}

// Writes text to --out (atomically: a temporary file renamed over the target) or stdout.
int emit(const Args& a, const std::string& text)
{
    if (a.out.empty()) {
        std::cout << text;
        return kExitOk;
    }
    if (const std::string error = parascope::writeFileAtomically(a.out, text); !error.empty()) {
        std::cerr << "parascope-cli: " << error << "\n";
        return kExitBadInput;
    }
    return kExitOk;
}

} // namespace parascope::cli
