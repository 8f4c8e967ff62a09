#pragma once
// The words of a Megatron-LM launch script as flags: shell statements read (variables set,
// arrays taken as arguments), then every --flag with its raw words, the last occurrence winning
// as with argparse. Internal to io/ (megatron_args_import.cpp reads the flags' values).

#include "io/shell_words.h"
#include "util/json_reader.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace parascope::megatron {

struct Flag {
    std::vector<std::string> values; // raw words (unexpanded), several for nargs='*' flags
    int line = 0;
    bool present = false;
};

// The script's flags by name ("tensor-model-parallel-size"; torchrun's underscores read as
// dashes). Variables the script sets go into `shell`. nullopt when an assignment fails (errors
// say where and why).
std::optional<std::map<std::string, Flag>> readFlags(const std::string& text, shell::Shell& shell,
                                                     std::vector<InputError>& errors);

} // namespace parascope::megatron
