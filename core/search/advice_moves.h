#pragma once
// The candidate changes of search/advice.h: the scenario fields advice may move (one table), a
// change as the list of fields it moves and its description in both languages, and the moves that
// keep the GPU count (TP, PP or CP taking GPUs from DP), per problem. Internal to advice.cpp.

#include "search/advice.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace parascope::advice_detail {

// One field advice may move: its path (a knob path of types/knobs.h, or a switch), how to read
// and set it (enums by their position in the enum's name table, switches as 0/1), and how the
// scenario file spells its values.
struct Field {
    const char* path;
    long long (*get)(const Scenario&);
    void (*set)(Scenario&, long long);
    const char* (*name)(long long); // enum fields: the file's spelling; nullptr otherwise
    bool flag; // 0/1, a JSON boolean
};
const Field* fieldOf(const std::string& path);

// A changed scenario and the fields that moved (in the table's order).
struct Candidate {
    std::vector<AdviceChange> changes;
    std::string key; // the changes, spelled out: one evaluation per distinct candidate
    Scenario sc;
};

// The candidate that turns `base` into `sc`; nullopt when nothing changed (advice is never a no-op).
std::optional<Candidate> candidateOf(const Scenario& base, const Scenario& sc);
bool changed(const Candidate& c, const char* path);
// Knobs a user moves: TP, PP or CP carries the DP (and SP) that moves with it; a global batch
// that follows DP is part of that move.
int knobCount(const Candidate& c);
// "TP 8 + SP, DP 2 + ZeRO-3 + full recompute" / "TP 8 + SP，DP 2 + ZeRO-3 + 完全重计算".
Localized describe(const Candidate& c);

// Out of memory: every combination of TP (inside a node, with SP), PP (dividing the layers), CP
// (long sequences), a higher ZeRO stage, more recompute and a smaller micro batch that can be
// built on the same GPUs, fewest knobs first. `m`: the scenario's microbatch count.
std::vector<Candidate> memoryCombinations(const Scenario& base, long long m);

// The pipeline bubble: more microbatches (a larger global batch, a smaller micro batch), the
// interleaved or ZB-H1 schedule where they apply, PP halved, TP doubled in place of DP.
std::vector<Scenario> bubbleMoves(const Scenario& base, long long m);
// Exposed communication: overlap switches that are off, TP back inside a node, ZeRO-1 instead of
// 2/3, DP traded for PP or TP, TP halved.
std::vector<Scenario> exposedMoves(const Scenario& base, const Estimate& est, long long m);
// The configuration's own rules (and tp_spans_nodes): the diagnostic's suggestion made concrete.
std::vector<Scenario> ruleFixes(const std::string& code, const Scenario& base, long long m);

} // namespace parascope::advice_detail
