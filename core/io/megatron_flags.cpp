#include "io/megatron_flags.h"

#include <algorithm>
#include <set>

namespace parascope::megatron {

namespace {

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
                                         "moe-use-legacy-grouped-gemm"};

// Statements: NAME=value (after export/local/declare) sets a variable, NAME=( … ) an array whose
// words are arguments too; every other word is an argument. nullopt when an assignment fails.
std::optional<std::vector<shell::Word>> arguments(const std::string& text, shell::Shell& shell,
                                                  std::vector<InputError>& errors)
{
    using shell::Word;
    const std::size_t errors_before = errors.size();
    const std::vector<Word> words = shell::lex(text);
    std::vector<Word> args;
    bool statement_start = true;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const Word& w = words[i];
        if (w.separator) {
            statement_start = true;
            continue;
        }
        if (statement_start && (w.text == "export" || w.text == "local" || w.text == "declare" || w.text == "readonly"))
            continue;
        if (const auto assignment = statement_start ? shell::splitAssignment(w.text) : std::nullopt) {
            const auto& [var, raw] = *assignment;
            std::string why;
            if (raw.empty() && i + 1 < words.size() && words[i + 1].text == "(") {
                std::string joined;
                for (i += 2; i < words.size() && words[i].text != ")"; ++i) {
                    if (words[i].separator)
                        continue;
                    args.push_back(words[i]);
                    joined += (joined.empty() ? "" : " ") + words[i].text;
                }
                if (!shell.set(var, joined))
                    errors.push_back({"line " + std::to_string(w.line) + ": " + var + "=( … )",
                                      "the script's variables together grow past "
                                          + std::to_string(shell::kMaxTotalBytes >> 20) + " MiB (ParaScope's limit)"});
            } else if (!shell.assign(var, raw, w.line, why)) {
                errors.push_back({"", why});
            }
            if (errors.size() > errors_before)
                return std::nullopt;
            continue; // a failed assignment: a later use of the variable says why
        }
        statement_start = false;
        args.push_back(w);
    }
    return args;
}

} // namespace

std::optional<std::map<std::string, Flag>> readFlags(const std::string& text, shell::Shell& shell,
                                                     std::vector<InputError>& errors)
{
    const std::optional<std::vector<shell::Word>> read = arguments(text, shell, errors);
    if (!read)
        return std::nullopt;
    const std::vector<shell::Word>& args = *read;
    std::map<std::string, Flag> flags;
    // Flags in order; the last occurrence wins, as with argparse.
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string t = args[i].text;
        if (t.rfind("--", 0) != 0 || t.size() < 3)
            continue;
        std::string key = t.substr(2), inline_value;
        bool has_inline = false;
        if (const std::size_t eq = key.find('='); eq != std::string::npos) {
            inline_value = key.substr(eq + 1);
            key.resize(eq);
            has_inline = true;
        }
        std::replace(key.begin(), key.end(), '_', '-'); // torchrun's --nproc_per_node
        Flag f;
        f.present = true;
        f.line = args[i].line;
        if (has_inline) {
            f.values.push_back(inline_value);
        } else if (!kSwitches.count(key)) {
            const bool many = key == "recompute-modules";
            while (i + 1 < args.size() && args[i + 1].text.rfind("--", 0) != 0 && args[i + 1].text != "("
                   && args[i + 1].text != ")") {
                f.values.push_back(args[++i].text);
                if (!many)
                    break;
            }
        }
        flags[key] = f;
    }
    return flags;
}

} // namespace parascope::megatron
