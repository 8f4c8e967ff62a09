#include "io/megatron_flags.h"

#include "io/shell_script.h"

#include <algorithm>
#include <set>

namespace parascope::megatron {

namespace {

using shell::Field;

// Megatron flags that take no value (store_true / store_false). Any other flag takes the next
// word unless that word is itself a flag.
const std::set<std::string> kSwitches = {"group-query-attention",
                                         "swiglu",
                                         "disable-bias-linear",
                                         "add-qkv-bias",
                                         "untie-embeddings-and-output-weights",
                                         "qk-layernorm",
                                         "use-rotary-position-embeddings",
                                         "multi-latent-attention",
                                         "moe-router-enable-expert-bias",
                                         "moe-enable-deepep",
                                         "sequence-parallel",
                                         "use-distributed-optimizer",
                                         "overlap-grad-reduce",
                                         "overlap-param-gather",
                                         "tp-comm-overlap",
                                         "account-for-embedding-in-pipeline-split",
                                         "account-for-loss-in-pipeline-split",
                                         "bf16",
                                         "fp16",
                                         "recompute-activations",
                                         "use-flash-attn",
                                         "moe-grouped-gemm",
                                         "fp8-param-gather",
                                         "use-torch-fsdp2",
                                         "use-megatron-fsdp",
                                         "use-custom-fsdp",
                                         "grad-reduce-in-bf16",
                                         "no-gradient-accumulation-fusion",
                                         "no-masked-softmax-fusion",
                                         "no-bias-gelu-fusion",
                                         "no-bias-swiglu-fusion",
                                         "no-bias-dropout-fusion",
                                         "no-rope-fusion",
                                         "use-mcore-models",
                                         "no-async-tensor-model-parallel-allreduce",
                                         "moe-permute-fusion",
                                         "moe-router-force-load-balancing",
                                         "overlap-moe-expert-parallel-comm",
                                         "delay-wgrad-compute",
                                         "log-throughput",
                                         "standalone",
                                         "use-precision-aware-optimizer",
                                         "moe-router-padding-for-fp8",
                                         "cross-entropy-loss-fusion",
                                         "no-create-attention-mask-in-dataloader",
                                         "no-mmap-bin-files",
                                         "mock-data",
                                         "use-legacy-models",
                                         "moe-pad-expert-input-to-capacity",
                                         "moe-use-legacy-grouped-gemm",
                                         "apply-layernorm-1p",
                                         "calculate-per-token-loss",
                                         "manual-gc",
                                         "profile",
                                         "moe-router-pre-softmax",
                                         "enable-experimental",
                                         "external-cuda-graph",
                                         "enable-cuda-graph",
                                         "te-rng-tracker",
                                         "use-nccl-ub",
                                         "fsdp-double-buffer",
                                         "init-model-with-meta-device",
                                         "no-check-for-nan-in-loss-and-grad",
                                         "log-timers-to-tensorboard",
                                         "log-memory-to-tensorboard",
                                         "log-num-zeros-in-grad",
                                         "log-params-norm",
                                         "log-validation-ppl-to-tensorboard",
                                         "auto-detect-ckpt-format",
                                         "no-overlap-p2p-communication",
                                         "overlap-p2p-communication-warmup-flush",
                                         "fine-grained-activation-offloading",
                                         "delay-offload-until-cuda-graph",
                                         "use-separate-send-recv-groups",
                                         "reset-position-ids",
                                         "reset-attention-mask",
                                         "eod-mask-loss",
                                         "no-load-optim",
                                         "no-load-rng",
                                         "no-save-optim",
                                         "no-save-rng",
                                         "distribute-saved-activations",
                                         "moe-shared-expert-overlap",
                                         "use-flash-attn-triton",
                                         "untie-embeddings",
                                         "no-position-embedding"};

// Flags that take several words (argparse nargs='*' / '+' or a fixed count).
const std::set<std::string> kManyValues = {"recompute-modules",
                                           "rampup-batch-size",
                                           "data-path",
                                           "train-data-path",
                                           "valid-data-path",
                                           "test-data-path",
                                           "cuda-graph-scope",
                                           "cuda-graph-modules",
                                           "offload-modules",
                                           "profile-ranks",
                                           "spec",
                                           "per-split-data-args-path"};

bool isFlag(const std::string& w) { return w.size() > 2 && w.rfind("--", 0) == 0; }

// argv as argparse reads it: each flag with its values; the rest is not understood.
void parseArguments(const std::vector<Field>& argv, Launch& out)
{
    std::string last_flag;
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const Field& a = argv[i];
        if (!isFlag(a.text) || a.text.find_first_of(" \t\n") != std::string::npos) {
            std::string why = !a.why.empty() ? "could not be read: " + a.why
                : isFlag(a.text)     ? "one word with blanks inside (quoted): argparse does not read it as a flag and "
                                       "Megatron stops with \"unrecognized arguments\""
                : !last_flag.empty() ? "after the value of " + last_flag
                    + ", which takes one word: Megatron stops with \"unrecognized arguments\" (a quoted value "
                      "split by an unquoted ${ARRAY[@]}?)"
                                     : "neither a flag nor a flag's value";
            out.stray.push_back({a.text, a.line, why});
            continue;
        }
        last_flag = a.text.substr(0, a.text.find('='));
        std::string key = a.text.substr(2);
        Flag f;
        f.line = a.line;
        if (const std::size_t eq = key.find('='); eq != std::string::npos) {
            f.values.push_back({key.substr(eq + 1), a.line, a.why});
            key.resize(eq);
        } else if (!kSwitches.count(key)) {
            const bool many = kManyValues.count(key) > 0;
            while (i + 1 < argv.size() && !isFlag(argv[i + 1].text)) {
                f.values.push_back(argv[++i]);
                if (!many)
                    break;
            }
        }
        std::replace(key.begin(), key.end(), '_', '-'); // torchrun's --nproc_per_node
        out.flags[key] = std::move(f);
    }
}

// A launcher option's value: "--name N" or "--name=N".
const Field* option(const std::vector<Field>& w, std::initializer_list<std::string_view> names, Field& joined)
{
    for (std::size_t k = 0; k < w.size(); ++k)
        for (const std::string_view n : names) {
            if (w[k].text == n && k + 1 < w.size())
                return &w[k + 1];
            if (w[k].text.size() > n.size() && w[k].text.compare(0, n.size(), n) == 0 && w[k].text[n.size()] == '=') {
                joined = {w[k].text.substr(n.size() + 1), w[k].line, w[k].why};
                return &joined;
            }
        }
    return nullptr;
}

// The world size the launcher starts: torchrun's --nnodes × --nproc-per-node (each 1 when not
// given), or srun's tasks (-n, or -N × --ntasks-per-node) when it starts the script itself.
void worldFromLauncher(const std::vector<Field>& before, Launch& out)
{
    const bool torchrun = std::any_of(before.begin(), before.end(), [](const Field& f) {
        return f.text.find("torchrun") != std::string::npos || f.text == "torch.distributed.run"
            || f.text == "torch.distributed.launch";
    });
    Field j1, j2;
    const Field* per = torchrun ? option(before, {"--nproc_per_node", "--nproc-per-node"}, j1)
                                : option(before, {"--ntasks-per-node"}, j1);
    const Field* nodes = torchrun ? option(before, {"--nnodes"}, j2) : option(before, {"--nodes", "-N"}, j2);
    Field j3;
    const Field* tasks = torchrun ? nullptr : option(before, {"--ntasks", "-n"}, j3);
    if (!per && !nodes && !tasks)
        return;
    long long value = 1;
    for (const Field* f : {per, nodes, tasks}) {
        if (!f)
            continue;
        const auto n = shell::wholeNumber(f->text);
        if (!f->why.empty() || !n || *n < 1 || *n > (1 << 20)) {
            out.world_why = "line " + std::to_string(f->line) + ": the launcher's " + shell::shown(f->text) + " "
                + (f->why.empty() ? "is not a whole number of nodes or processes" : f->why);
            return;
        }
        value = f == tasks ? *n : value * *n;
    }
    if (torchrun && !per)
        out.notes.push_back("torchrun without --nproc-per-node starts one process per node");
    out.world = value;
    out.world_from = torchrun ? "torchrun --nnodes " + (nodes ? nodes->text : std::string("1")) + " × --nproc-per-node "
            + (per ? per->text : std::string("1"))
                              : "srun's tasks";
}

std::string joinedWords(const std::vector<Field>& w, std::size_t max_words)
{
    std::string s;
    for (std::size_t k = 0; k < w.size() && k < max_words; ++k)
        s += (k ? " " : "") + w[k].text;
    return s + (w.size() > max_words ? " …" : "");
}

} // namespace

std::optional<Launch> readLaunch(const std::string& text, shell::Shell& shell, std::vector<InputError>& errors)
{
    const std::optional<shell::ScriptReading> read = shell::readScript(text, shell, errors);
    if (!read)
        return std::nullopt;
    Launch out;
    out.notes = read->notes;
    if (read->launch) {
        const shell::LaunchCommand& c = *read->launch;
        out.script = c.script.substr(c.script.find_last_of('/') + 1);
        out.launcher = "line " + std::to_string(c.line) + ": " + joinedWords(c.before, 3)
            + (c.before.empty() ? "" : " ") + c.script;
        worldFromLauncher(c.before, out);
        parseArguments(c.arguments, out);
        if (!read->arguments.empty())
            out.notes.push_back("lines that start with a flag outside the launcher (first on line "
                                + std::to_string(read->arguments.front().line) + ") are not arguments: not read");
        return out;
    }
    if (read->arguments.empty()) {
        errors.push_back({"",
                          "no command runs a Megatron-LM training script (torchrun / python … pretrain_gpt.py "
                          "…), and the text is not an argument list (--num-layers …)"});
        for (const std::string& n : read->notes) // what was not followed may be why
            errors.push_back({"", "(while reading) " + n});
        return std::nullopt;
    }
    parseArguments(read->arguments, out);
    return out;
}

} // namespace parascope::megatron
