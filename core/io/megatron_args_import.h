#pragma once
// A Megatron-LM pretrain_gpt.py argument list (a launch script or a text file: "--num-layers 32
// --tensor-model-parallel-size 8 …") → a parascope.scenario/1 document: the model, the parallel
// layout (TP/PP/VPP/CP/EP/ETP, SP, distributed optimizer, recompute) and the training settings
// (sequence, micro/global batch, precision, FP8 recipe). Shell line continuations, comments,
// VAR=value assignments with $VAR / ${VAR} / ${VAR:-default} and bash arrays are understood;
// flags ParaScope does not model (learning rate, data paths, …) are skipped. Errors name the flag
// and its line.

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
};

std::optional<MegatronImport> importMegatronArgs(const std::string& text, const std::string& name,
                                                 const MegatronImportOptions& options, std::vector<InputError>& errors);

} // namespace parascope
