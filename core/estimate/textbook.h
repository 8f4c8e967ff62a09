#pragma once
// The textbook beside the engine: the shortcuts the course chapter teaches first, computed for the
// current scenario next to the engine's number for the same quantity, each with what it leaves
// out. A student who has just learnt "2P + 2P + 12P" sees 16·P beside the peak stage's states and
// reads why they differ, instead of meeting two numbers without a word.
//
//   model_states   16·P bytes (2P bf16 weights + 2P gradients + 12P fp32 Adam state), the whole model
//   adamw_4b       the chapter's 4 B per parameter for AdamW's state
//   dp_traffic     2·P·DP (the total over every DP GPU) against one GPU's
//   ring_traffic   the ring's 2(N−1)/N·P per GPU: the same formula as the engine, once per step
//   activations    B·S·H·L elements (the whole global batch, no bytes, no per-layer factor)
//   tp_traffic     2·B·S·H·TP
//   comm_share     communication time ÷ step when nothing overlaps (the chapter's "69 %")
//   sequences      "2M tokens ≈ 2000 sequences": tokens ÷ 1000 against the batch's sequences
//   weights_fit    "7B fits on 80 GB": the bf16 weights alone against the peak
// Bytes are GiB (2^30), as the app shows memory.

#include "estimate/estimate.h"
#include "types/diagnostic.h"
#include "types/scenario.h"

#include <string>
#include <vector>

namespace parascope {

enum class TextbookUnit { GiB, Fraction, Sequences };

struct TextbookRow {
    std::string id; // "model_states"
    Localized quantity; // "model states per GPU"
    Localized formula; // "2P + 2P + 12P = 16P bytes"
    double textbook = 0; // the shortcut's value for this scenario
    double engine = 0; // the engine's value of the same quantity
    TextbookUnit unit = TextbookUnit::GiB;
    Localized engine_what; // what the engine's number is: "peak stage 0: weights + gradients + optimizer"
    Localized leaves_out; // what the shortcut leaves out, which is why the two differ
};

std::vector<TextbookRow> textbookRows(const Scenario& sc, const Estimate& est);

// "12.55 GiB", "69.0 %", "2,097 sequences" as the app writes each unit.
std::string textbookValue(double v, TextbookUnit unit, const std::string& lang);

} // namespace parascope
