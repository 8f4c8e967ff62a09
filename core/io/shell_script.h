#pragma once
// A launch script read as bash would run it, far enough to know what its training command
// receives: assignments (NAME=…, NAME+=…, arrays on one line or many, appends), if / elif / else
// with the tests launch scripts use ([ ], [[ ]], = == != -z -n -eq …, && ||, files taken to
// exist), for loops over words, case, { } groups, functions, && / || lists, `bash -c STRING`,
// `eval` and here-documents fed to sbatch/bash. Commands are not run: their exit status is taken
// as success. The launcher is the command that names a Megatron-LM training script
// (pretrain_gpt.py, …); its arguments are the words it receives after expansion and splitting.
// Everything that could not be decided is said in `notes`. Used by io/megatron_args_import.

#include "io/shell_words.h"
#include "util/json_reader.h"

#include <optional>
#include <string>
#include <vector>

namespace parascope::shell {

struct LaunchCommand {
    std::vector<Field> before; // the launcher's words before the script (torchrun, its options)
    std::string script; // the training script as written (".../pretrain_gpt.py")
    std::vector<Field> arguments; // what the script receives
    int line = 0;
};

struct ScriptReading {
    // The launcher line, or nothing when the text has none (an argument list: `arguments` holds
    // every word).
    std::optional<LaunchCommand> launch;
    std::vector<Field> arguments; // an argument list's words (no launcher)
    std::vector<std::string> notes; // what was assumed or not followed, with its line
};

// nullopt when a size limit is passed or the script cannot be read (errors say where and why).
std::optional<ScriptReading> readScript(const std::string& text, Shell& shell, std::vector<InputError>& errors);

} // namespace parascope::shell
