#pragma once
// A Megatron-LM launch (a launch script, or a text file of arguments: "--num-layers 32
// --tensor-model-parallel-size 8 …") → a parascope.scenario/1 document: the model, the parallel
// layout (TP/PP/VPP/CP/EP/ETP, SP, distributed optimizer, recompute) and the training settings
// (sequence, micro/global batch, precision, FP8 recipe, MoE routing). A script is read as bash
// runs it (io/shell_script): the arguments are what the launcher line (torchrun … pretrain_gpt.py
// "${ARGS[@]}") receives. The summary names every flag: used, read and ignored (with why), or not
// understood. Errors name the flag and its line.

#include "util/json_reader.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parascope {

struct MegatronImportOptions {
    std::int64_t gpus = 0; // world size, when the script does not say (torchrun --nnodes × --nproc-per-node)
    std::string cluster = "dgx-h100"; // cluster preset (or a cluster object's JSON file name is not taken here)
    std::int64_t vocab = 0; // the tokenizer's vocabulary, when the script has no --vocab-size
};

struct MegatronImport {
    nlohmann::json scenario; // a parascope.scenario/1 document
    std::vector<std::string> notes; // what was assumed, for the user (Megatron defaults taken)
    // {"launcher": "line 190: torchrun … pretrain_gpt.py" | null, "used": ["num-layers", …],
    //  "ignored": [{"flag", "line", "why"}], "not_understood": [{"word", "line", "why"}]}
    nlohmann::json summary;
};

std::optional<MegatronImport> importMegatronArgs(const std::string& text, const std::string& name,
                                                 const MegatronImportOptions& options, std::vector<InputError>& errors);

// The summary for a reader (the CLI's stderr, the app's import dialog): where the arguments came
// from, the flags used, those read and ignored (each with why; the plain ones on one line), and
// the words not understood. `lang` "zh" labels the lists in Chinese.
std::string importSummaryText(const nlohmann::json& summary, const std::string& lang);

} // namespace parascope
