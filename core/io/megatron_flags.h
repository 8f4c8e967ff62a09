#pragma once
// What a Megatron-LM training script receives, as flags: the launch script read by
// io/shell_script (the launcher line's words after expansion), then each --flag with its values
// as argparse takes them (the last occurrence wins), and the words that are neither a flag nor
// a flag's value. Internal to io/ (megatron_args_import.cpp reads the flags' values).

#include "io/shell_words.h"
#include "util/json_reader.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace parascope::megatron {

struct Flag {
    std::vector<shell::Field> values; // several for nargs='*' flags (--recompute-modules …)
    int line = 0;
};

struct NotUnderstood {
    std::string word;
    int line = 0;
    std::string why;
};

struct Launch {
    std::map<std::string, Flag> flags; // by name without "--" ("tensor-model-parallel-size")
    std::vector<NotUnderstood> stray; // words that are not a flag or its value
    std::string launcher; // "line 190: torchrun … pretrain_gpt.py", or "" for an argument list
    std::string script; // "pretrain_gpt.py" (the base name), or "" for an argument list
    // GPUs from the launcher's options (torchrun --nnodes × --nproc-per-node, srun), 0 if not
    // given; `world_why` says why it could not be read.
    std::int64_t world = 0;
    std::string world_from, world_why;
    std::vector<std::string> notes; // what the script reading assumed
};

// nullopt when the script cannot be read or names no training script (errors say why).
std::optional<Launch> readLaunch(const std::string& text, shell::Shell& shell, std::vector<InputError>& errors);

} // namespace parascope::megatron
